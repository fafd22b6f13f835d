"""The heuristic's special decisions (engine/bots/special.py) on positions built by hand: a special contract only on
a sure sweep, the surrender answered by its value, conceding only a lost contract, the seventh card on singletons,
doubling on strength; `never` takes none of them; a house rule outside rulesets/ is played the same; simulate
reports each mechanism offered, taken and won."""

from __future__ import annotations

from pathlib import Path

from engine.bots.model import model_for
from engine.bots.policy import Facts, Knowledge, policy_for
from engine.play.base import ANSWER, DECLARE, DOUBLING, PLAY, TRUMP, UNDECIDED
from engine.play.compile import load_game
from engine.play.game import Game
from engine.sim import simulate


def mask(game: Game, codes: str) -> int:
    m = 0
    for code in codes.split():
        m |= 1 << game.code_ids[code][0]
    return m


def knowledge(game: Game, phase: int, hand: str, trump: str | None, *, seat: int = 0, bidder: int = 0, bid: int = 16,
              points: list[int] | None = None, target: int = 16, tricks: int = 0, leading: bool = False,
              multiplier: int = 1) -> Knowledge:
    h = mask(game, hand)
    full = (1 << game.size) - 1
    n = h.bit_count()
    played = 0
    if tricks:   # cards already played: the lowest ones nobody holds, four a trick
        free = [c for c in range(game.size) if not h >> c & 1]
        for c in sorted(free, key=lambda c: game.strength[c])[:tricks * game.n]:
            played |= 1 << c
    unknown = full & ~h & ~played
    sizes = [n] * game.n
    t = UNDECIDED if trump is None else game.layout.parse_suit(trump)
    facts = Facts(unknown, sizes, points or [0, 0], target, multiplier, False, tricks, leading, False, 0, -1, bid)
    return Knowledge(seat, phase, h, 0, t, game.strength, bidder, bid, bidder, [0, 1, 0, 1], facts)


def test_thani_only_on_a_sure_sweep() -> None:
    game = load_game("thani")
    pol = policy_for(model_for(game))
    legal = (game.action(0, "pass"), game.action(0, "declare", "thani"))
    sure = knowledge(game, DECLARE, "JH 9H AH TH KH QH 8H JS", "H")
    assert pol.choose(sure, legal).verb == "declare"
    assert policy_for(model_for(game), never=True).choose(sure, legal).verb == "pass"
    loser = knowledge(game, DECLARE, "JH 9H AH TH KH QH 8H 7S", "H")   # 7S loses to any spade out
    assert pol.choose(loser, legal).verb == "pass"


def test_a_house_rule_outside_rulesets_is_declared_the_same(tmp_path: Path) -> None:
    f = tmp_path / "solo.yaml"
    f.write_text("schema_version: 1\nname: solo-house\nextends: twenty-eight\ndescription: a test house rule\n"
                 "special:\n  contracts:\n    - {name: solo, who: anyone, partner: sits_out, trumps: none, made: 3, "
                 "failed: -3}\n", encoding="utf-8")
    game = load_game(f)
    pol = policy_for(model_for(game))
    legal = (game.action(1, "pass"), game.action(1, "declare", "solo"))
    sure = knowledge(game, DECLARE, "JH 9H AH TH JS 9S JC 9C", None, seat=1)   # the top two of three suits
    assert pol.choose(sure, legal).verb == "declare"
    weak = knowledge(game, DECLARE, "7H 8H QH KH 7S 8S 7C 8C", None, seat=1)
    assert pol.choose(weak, legal).verb == "pass"


def test_surrender_answered_by_its_value() -> None:
    game = load_game("cot")
    pol = policy_for(model_for(game))
    legal = (game.action(0, "accept"), game.action(0, "refuse"))
    # four tricks won, the four cards left the masters of their suits and the last trumps
    sure = knowledge(game, ANSWER, "JH 9H AH TH", "H", tricks=4, points=[18, 0])
    assert pol.choose(sure, legal).verb == "refuse"
    weak = knowledge(game, ANSWER, "7S 8S 7D 8D", "H", tricks=4, points=[18, 0])
    assert pol.choose(weak, legal).verb == "accept"


def test_surrender_offered_once_the_bidders_have_made_it() -> None:
    game = load_game("cot")
    pol = policy_for(model_for(game))
    offer = [game.action(1, "surrender")]
    made = knowledge(game, PLAY, "7S 8S 7D 8D", "H", seat=1, tricks=4, points=[18, 0])
    assert pol.play_extra(made, offer) == offer[0]
    short = knowledge(game, PLAY, "7S 8S 7D 8D", "H", seat=1, tricks=2, points=[8, 0])
    assert pol.play_extra(short, offer) is None
    assert policy_for(model_for(game), never=True).play_extra(made, offer) is None


def test_concede_only_a_contract_that_is_lost() -> None:
    game = load_game("twenty-eight-kerala")
    pol = policy_for(model_for(game))
    concede = [game.action(0, "concede")]
    lost = knowledge(game, PLAY, "7S 8S 7D 8D", "H", tricks=4, points=[2, 20], target=20)
    assert pol.play_extra(lost, concede) == concede[0]
    alive = knowledge(game, PLAY, "7S 8S 7D 8D", "H", tricks=4, points=[14, 8], target=20)
    assert pol.play_extra(alive, concede) is None


def test_seventh_card_on_four_singletons() -> None:
    game = load_game("seventh-card")
    pol = policy_for(model_for(game))
    legal = tuple(game.action(0, "trump", c) for c in ("7H", "8S", "QD", "KC")) + (game.action(0, "trump", "seventh"),)
    flat = knowledge(game, TRUMP, "7H 8S QD KC", None)
    assert pol.choose(flat, legal).arg == "seventh"
    legal2 = tuple(game.action(0, "trump", c) for c in ("JH", "9H", "QD", "KC")) + (game.action(0, "trump", "seventh"),)
    pair = knowledge(game, TRUMP, "JH 9H QD KC", None)
    assert pol.choose(pair, legal2).arg != "seventh"


def test_doubling_on_strength_only() -> None:
    game = load_game("kotah")
    pol = policy_for(model_for(game))
    legal = (game.action(1, "pass"), game.action(1, "double"))
    strong = knowledge(game, DOUBLING, "JH 9H JS 9S JC 9C JD 9D", None, seat=1, bid=20, target=20)
    assert pol.choose(strong, legal).verb == "double"
    weak = knowledge(game, DOUBLING, "7H 8H 7S 8S 7C 8C 7D 8D", None, seat=1, bid=20, target=20)
    assert pol.choose(weak, legal).verb == "pass"
    assert policy_for(model_for(game), never=True).choose(weak, legal).verb == "pass"


def test_simulate_reports_each_mechanism() -> None:
    game = load_game("cot")
    d = simulate(game, 40, 5, ["heuristic"] * 4).to_dict()
    surrender = d["mechanisms"]["surrender"]["other"]
    assert surrender["offered"] >= surrender["taken"] > 0
    never = simulate(game, 40, 5, ["heuristic:never"] * 4).to_dict()
    assert never["mechanisms"]["surrender"]["other"]["taken"] == 0
