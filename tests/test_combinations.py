"""Melds of the European games (rule-file sections `combinations` and `trump_marriage`): the comparison rules of
JASS-GROUP.md §1 on hand-built deals, melds counted in built tricks (roem), the trump marriage in the hand and in
the trick, what views carry before and after the melds are shown, the `announce` verb, and the bots announcing.
The rule files are small test files that extend open-trump (32 cards, the trump named face up)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from engine.adapters.encoding import ActionSpace
from engine.bots.registry import make_bot
from engine.errors import IllegalActionError, RecordError
from engine.play.actions import Action
from engine.play.combinations import EVERY_SIDE, NOBODY, hand_melds, trick_meld_points
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.record import Replay, report
from engine.table.events import described
from engine.table.melds import meld_lines

JASS = Path(__file__).parent / "rulefiles" / "jass"
DECLARED = JASS / "melds-declared.yaml"
ROEM = JASS / "melds-roem.yaml"


def _write(tmp_path: Path, name: str, body: str, base: Path = DECLARED) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"schema_version: 1\nname: {name}\nextends: {base}\ndescription: test\n{body}")
    return path


def _deal(game: Game, seats: list[str]) -> list[list[int]]:
    """Seats 0 and 1 get the cards written (8 each); seats 2 and 3 the rest, one each in turn."""
    hands = [[game.code_ids[c][0] for c in s.split()] for s in seats]
    used = {c for h in hands for c in h}
    rest = [c for c in range(game.size) if c not in used]
    others = game.n - len(hands)
    hands += [rest[i::others] for i in range(others)]    # (dealt round: nobody gets every Jack)
    return hands


def _to_trick_2(game: Game, hands: list[list[int]], trump: str, announcers: tuple[int, ...] = (0, 1)) -> State:
    """Dealer 3 (seat 0 leads): seat 0 bids, the others pass, `trump` is named, nobody raises; in trick 1 the
    `announcers` announce before their card; every card played is the first legal one. Stops after trick 1."""
    state = game.new_hand(3, hands=hands)
    while not state.is_terminal and len(state.tricks) < 1:
        legal = state.legal_actions()
        names = {a.notation: a for a in legal}
        p = state.to_act
        if state.phase_name != "play":
            _contract_step(state, trump)
        elif state.phase_name == "play":
            if "announce" in names and p in announcers:
                state.apply(names["announce"])
            else:
                state.apply(next(a for a in legal if a.verb == "play"))
    assert state.status != "annulled"
    return state


def _contract_step(state: State, trump: str) -> None:
    """Before play: `trump` named, a pass where one is allowed, else the lowest bid (never a redeal)."""
    names = {a.notation: a for a in state.legal_actions()}
    if state.phase_name == "trump":
        state.apply(names[f"trump {trump}"])
    else:
        state.apply(names.get("pass") or next(a for a in names.values() if a.verb == "bid"))


@pytest.fixture(scope="module")
def declared() -> Game:
    return load_game(DECLARED)


# ---------------------------------------------------------------------------------- comparison (JASS-GROUP §1)
def test_four_queens_beat_a_quarte(declared: Game) -> None:
    # seat 0: J T 9 8 of hearts (quarte, 50); seat 1: four Queens (100)
    hands = _deal(declared, ["JH TH 9H 8H 7S 7D AC KD", "QS QH QD QC AS 9S AD 9C"])
    s = _to_trick_2(declared, hands, "C")
    assert [(m.seat, m.value) for m in s.combos] == [(0, 50), (1, 100)]
    assert s.combo_winner == 1
    assert s.meld_points == [0, 100]


def test_equal_plain_sequences_in_opposite_sides_score_nothing(declared: Game, tmp_path: Path) -> None:
    # K Q J of hearts against K Q J of spades, clubs trumps: equal by value, cards, top and trumps
    seats = ["KH QH JH 7D 9D AC 8C TS", "KS QS JS 7H 9H AD 8D TC"]
    s = _to_trick_2(declared, _deal(declared, seats), "C")
    assert [(m.seat, m.value) for m in s.combos] == [(0, 20), (1, 20)]
    assert s.combo_winner == NOBODY and s.meld_points == [0, 0]
    # the same tie broken for the player earlier from the first hand (seat 0)
    earlier = load_game(_write(tmp_path, "earlier", "combinations:\n  ties: earlier\n"))
    s = _to_trick_2(earlier, _deal(earlier, seats), "C")
    assert s.combo_winner == 0 and s.meld_points == [20, 0]
    # with hearts trumps, seat 0's sequence in trumps is the best
    s = _to_trick_2(declared, _deal(declared, seats), "H")
    assert s.combo_winner == 0 and s.meld_points == [20, 0]


def test_a_sequence_of_five_beats_four_kings(declared: Game) -> None:
    # Q J T 9 8 of hearts (100, five cards) against four Kings (100, four cards): more cards win
    hands = _deal(declared, ["QH JH TH 9H 8H 7S 7D AC", "KS KH KD KC AS 9S AD 9C"])
    s = _to_trick_2(declared, hands, "C")
    assert sorted(m.value for m in s.combos) == [100, 100]
    assert s.combo_winner == 0 and s.meld_points == [100, 0]


def test_the_best_side_scores_all_its_melds_and_each_side_own(declared: Game, tmp_path: Path) -> None:
    # seat 0: quarte (50) and a tierce (20); seat 1: four Queens (100) -> only seat 1's side scores
    hands = _deal(declared, ["JH TH 9H 8H JD TD 9D 7S", "QS QH QD QC AS 9S 7D 9C"])
    s = _to_trick_2(declared, hands, "C")
    assert sorted(m.value for m in s.combos if m.seat == 0) == [20, 50]
    assert s.meld_points == [0, 100]
    own = load_game(_write(tmp_path, "own", "combinations:\n  compared: each_side_own\n"))
    s = _to_trick_2(own, _deal(own, ["JH TH 9H 8H JD TD 9D 7S", "QS QH QD QC AS 9S 7D 9C"]), "C")
    assert s.combo_winner == EVERY_SIDE and s.meld_points == [70, 100]


def test_a_card_counts_in_one_meld_only(declared: Game) -> None:
    # four Jacks (200) and K Q J T of hearts: the Jack of hearts serves the set of four; the run left is too short
    # for a quarte... K Q (two cards) counts nothing, T alone nothing: the arrangement worth most is the four Jacks
    # with the rest (A K Q of spades absent) - and keeping the run (50) instead would be worth less
    hand = 0
    for c in "JS JH JD JC KH QH TH 9H".split():
        hand |= 1 << declared.code_ids[c][0]
    s = declared.new_hand(3, hands=_deal(declared, ["JS JH JD JC KH QH TH 9H", "AS KS QS 7S AD KD 9D 7C"]))
    melds = hand_melds(s, 0, hand)
    assert [(m.length, m.value) for m in melds] == [(4, 200)]
    # a run of eight counts as one meld: the longest length listed (5: 100)
    run = 0
    for c in "AH KH QH JH TH 9H 8H 7H".split():
        run |= 1 << declared.code_ids[c][0]
    assert [(m.length, m.value) for m in hand_melds(s, 0, run)] == [(8, 100)]


def test_unannounced_melds_count_nothing(declared: Game) -> None:
    hands = _deal(declared, ["JH TH 9H 8H 7S 7D AC KD", "QS QH QD QC AS 9S AD 9C"])
    s = _to_trick_2(declared, hands, "C", announcers=(0,))
    assert s.combo_winner == 0 and s.meld_points == [50, 0]


# ------------------------------------------------------------------------------------------ views: hidden melds
def test_views_carry_kind_and_value_before_trick_1_ends_and_cards_after(declared: Game) -> None:
    hands = _deal(declared, ["JH TH 9H 8H 7S 7D AC KD", "QS QH QD QC AS 9S AD 9C"])
    state = declared.new_hand(3, hands=hands)
    while state.phase_name != "play":
        _contract_step(state, "C")
    state.apply(declared.action(0, "announce"))
    state.apply(declared.action(0, "play", "7S"))
    state.apply(declared.action(1, "announce"))
    queens = {"QS", "QH", "QD", "QC"}
    for seat in (0, 2, 3):
        d = state.view(seat).to_dict()
        assert [(m["seat"], m["kind"], m["value"]) for m in d["announced"]] == [
            (0, "sequence", 50), (1, "four_of_a_kind", 100)]
        assert all("cards" not in m for m in d["announced"])
        assert not queens & set(str(d).replace("'", " ").split()), f"seat {seat} sees a Queen of seat 1"
    while len(state.tricks) < 1:
        state.apply(next(a for a in state.legal_actions() if a.verb == "play"))
    d = state.view(2).to_dict()
    assert set(d["announced"][1]["cards"]) == queens and d["announced"][1]["scores"] is True
    assert d["announced"][0]["scores"] is False
    assert d["meld_points"] == [0, 100]


def test_the_table_says_the_melds_in_words(declared: Game) -> None:
    hands = _deal(declared, ["JH TH 9H 8H 7S 7D AC KD", "QS QH QD QC AS 9S AD 9C"])
    state = _to_trick_2(declared, hands, "C")
    view = state.view(2)
    said = [e.text for e in described(view, lambda s: f"seat {s}", str, (), str)]
    assert said == ["seat 0 announced sequence of 4 (50)", "seat 1 announced four of a kind (100)"]
    lines = meld_lines(view, lambda s: f"seat {s}", lambda t: "team " + "+".join(map(str, t)))
    assert lines == ["seat 0 announced sequence of 4 (50): JH TH 9H 8H - does not score",
                     "seat 1 announced four of a kind (100): QS QH QD QC - scores",
                     "team 0+2 melds 0 · team 1+3 melds 100"]


def test_an_unannounced_meld_never_reaches_a_view(declared: Game) -> None:
    hands = _deal(declared, ["JH TH 9H 8H 7S 7D AC KD", "QS QH QD QC AS 9S AD 9C"])
    state = _to_trick_2(declared, hands, "C", announcers=(0,))
    for seat in (0, 2, 3):
        d = state.view(seat).to_dict()
        assert [m["seat"] for m in d["announced"]] == [0]
        assert not {"QH", "QD"} & set(d["melds"][1]) if d.get("melds") else True


def test_announce_is_offered_only_in_trick_1_before_the_card_and_with_a_meld(declared: Game) -> None:
    hands = _deal(declared, ["JH TH 9H 8H 7S 7D AC KD", "AS 9S AD 9C QS 7H 8D TC"])
    state = declared.new_hand(3, hands=hands)
    while state.phase_name != "play":
        _contract_step(state, "C")
    assert declared.action(0, "announce") in state.legal_actions()
    state.apply(declared.action(0, "announce"))
    assert declared.action(0, "announce") not in state.legal_actions()   # once
    state.apply(declared.action(0, "play", "7S"))
    assert all(a.verb == "play" for a in state.legal_actions())          # seat 1 holds no meld
    with pytest.raises(IllegalActionError, match="no meld"):
        state.apply(declared.action(1, "announce"))
    while len(state.tricks) < 1:
        state.apply(next(a for a in state.legal_actions() if a.verb == "play"))
    assert all(a.verb == "play" for a in state.legal_actions())          # trick 2: no more announcing
    with pytest.raises(IllegalActionError, match="trick 1 only"):
        state.apply(declared.action(state.to_act, "announce"))


def test_no_view_or_table_line_carries_a_card_another_seat_holds_unshown(declared: Game) -> None:
    """Random hands: at every step, each seat's view (as outside bots and the web get it) and the table's meld
    lines name no card another seat holds, except the cards of melds shown after trick 1."""
    rng = random.Random(5)
    checked = 0
    for i in range(25):
        state = declared.new_hand(i % 4, hands=declared.shuffled_deal(300 + i, i % 4))
        while not state.is_terminal:
            if state.phase_name == "play" and len(state.tricks) < 2:
                for seat in range(4):
                    view = state.view(seat)
                    text = json.dumps(view.to_dict()) + " ".join(meld_lines(view, str, str))
                    words = set(re.findall(r"[0-9A-Z]{2}", text))
                    for other in range(4):
                        if other != seat:
                            secret = state.hands[other] & ~state.melded[other]
                            assert not {declared.codes[c] for c in range(declared.size) if secret >> c & 1} & words
                    checked += 1
            legal = state.legal_actions()
            names = [a for a in legal if a.verb == "announce"]
            state.apply(names[0] if names and rng.random() < 0.7 else legal[rng.randrange(len(legal))])
    assert checked > 100


# --------------------------------------------------------------------------------------------- roem in tricks
def _ids(game: Game, codes: str) -> list[int]:
    return [game.code_ids[c][0] for c in codes.split()]


def test_roem_counted_on_built_tricks() -> None:
    g = load_game(ROEM)
    s = g.new_hand(0, hands=g.shuffled_deal(0, 0))
    assert trick_meld_points(s, _ids(g, "QH JH TH 7S")) == 20       # three in a row
    assert trick_meld_points(s, _ids(g, "KH QH JH TH")) == 50       # four: replaces the three
    assert trick_meld_points(s, _ids(g, "AH KH 9H 7S")) == 0        # A K is two; 9 is not next to K
    assert trick_meld_points(s, _ids(g, "AS AH AD AC")) == 100      # four of a kind
    assert trick_meld_points(s, _ids(g, "JS JH JD JC")) == 200
    assert trick_meld_points(s, _ids(g, "TH 9H 8H 7H")) == 50       # the natural order, not the trick order
    assert trick_meld_points(s, _ids(g, "KS QS 9D 8D")) == 0


def _random_hands(game: Game, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = game.new_hand(i % game.n, hands=game.shuffled_deal(seed + i, i % game.n))
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.status == "complete":
            out.append(state)
    return out


def test_roem_and_stuk_go_to_each_trick_winner_in_played_hands() -> None:
    g = load_game(ROEM)
    seen_roem = seen_stuk = 0
    for s in _random_hands(g, 150, 7):
        melds, marriage = [0, 0], [0, 0]
        for t in s.tricks:
            team = s.hand_team_of[t.winner]
            melds[team] += trick_meld_points(s, t.cards)
            codes = {g.codes[c] for c in t.cards}
            trump = g.layout.suits[s.trump]
            if {f"K{trump}", f"Q{trump}"} <= codes:
                marriage[team] += 20
        assert s.meld_points == melds and s.marriage_points == marriage
        seen_roem += any(melds)
        seen_stuk += any(marriage)
    assert seen_roem > 10 and seen_stuk > 3


def test_marriage_in_hand_goes_to_the_player_who_held_both() -> None:
    g = load_game(DECLARED)
    credited = 0
    for s in _random_hands(g, 150, 11):
        trump = g.layout.suits[s.trump]
        played_by: dict[str, int] = {}
        for t in s.tricks:
            for seat, c in zip(t.seats, t.cards, strict=True):
                played_by[g.codes[c]] = seat
        holder = played_by.get(f"K{trump}")
        expected = [0, 0]
        if holder is not None and holder == played_by.get(f"Q{trump}"):
            expected[s.hand_team_of[holder]] = 20
            credited += 1
            assert [x // 16 for x in s.marriages] == [holder]
        assert s.marriage_points == expected
    assert credited > 5


def test_the_marriage_is_announced_only_with_its_second_card(declared: Game) -> None:
    # seat 0 holds K and Q of clubs (trumps): nothing is said after the first, 20 after the second
    hands = _deal(declared, ["KC QC 7S 8S 7D 8D 7H 8H", "AS 9S AD 9D AH JH AC 9C"])
    state = _to_trick_2(declared, hands, "C", announcers=())
    assert not state.marriages
    state = declared.new_hand(3, hands=hands)
    while state.phase_name != "play":
        _contract_step(state, "C")
    state.apply(declared.action(0, "play", "KC"))
    assert state.marriage_points == [0, 0] and "marriages" not in state.view(1).to_dict()
    while declared.action(0, "play", "QC") not in state.legal_actions():
        legal = state.legal_actions()
        state.apply(next(a for a in legal if a.verb == "play" and a.arg != "QC"))
    assert state.marriage_points == [0, 0]
    state.apply(declared.action(0, "play", "QC"))
    assert state.marriage_points == [20, 0] and state.view(1).to_dict()["marriages"] == [0]


# --------------------------------------------------------------------------------------- record verb, report
def test_announce_parses_strictly_and_round_trips() -> None:
    a = Action.parse("2 announce")
    assert (a.seat, a.verb, a.arg) == (2, "announce", "") and str(a) == "2 announce"
    assert Action.parse("2 ANNOUNCE") == a
    with pytest.raises(RecordError):
        Action.parse("2 announce tierce")


def test_replay_report_has_melds_only_for_files_with_them(declared: Game) -> None:
    hands = _deal(declared, ["JH TH 9H 8H 7S 7D AC KD", "QS QH QD QC AS 9S AD 9C"])
    s = _to_trick_2(declared, hands, "C")
    rp = Replay(game=declared, state=s, error=None)
    melds = report(rp)["melds"]
    assert melds[1]["scored"][0]["kind"] == "four_of_a_kind" and melds[1]["meld_points"] == 100
    assert melds[0]["scored"] == [] and melds[0]["meld_points"] == 0
    plain = load_game("open-trump")
    st = plain.new_hand(0, hands=plain.shuffled_deal(0, 0))
    assert "melds" not in report(Replay(game=plain, state=st, error=None))


# ------------------------------------------------------------------------------------------------------ bots
@pytest.mark.parametrize("bot", ["heuristic", "search", "pimc"])
def test_bots_announce_whenever_they_hold_a_meld(declared: Game, bot: str) -> None:
    bots = [make_bot(bot, declared, seed=s) for s in range(4)]
    offered = announced = 0
    for i in range(40):
        state = declared.new_hand(i % 4, hands=declared.shuffled_deal(100 + i, i % 4))
        while not state.is_terminal and len(state.tricks) < 1:
            legal = state.legal_actions()
            if declared.action(state.to_act, "announce") not in legal:   # (the bot's other choices: not tested)
                _contract_step(state, "C") if state.phase_name != "play" else state.apply(legal[-1])
                continue
            a = bots[state.to_act].choose(state.view(state.to_act), legal)
            assert a in legal
            offered += 1
            announced += a.verb == "announce"
            state.apply(a)
    assert offered > 3 and announced == offered, (offered, announced)


def test_announce_has_an_action_index_for_openspiel_and_the_rl_environments(declared: Game) -> None:
    space = ActionSpace(declared)
    assert "announce" in space.names and "announce" not in ActionSpace(load_game("open-trump")).names
    rng = random.Random(2)
    seen = 0
    for i in range(10):
        st = declared.new_hand(i % 4, seed=i)
        while st.to_act >= 0:
            legal = st.legal_actions()
            idx = space.legal(st)
            assert len(idx) == len(legal)
            for a in legal:
                assert space.action(a.seat, space.of(a)) == a
                seen += a.verb == "announce"
            st.apply(space.action(st.to_act, rng.choice(idx)))
    assert seen


def test_twins_the_melds_change_only_the_meld_and_marriage_points(declared: Game) -> None:
    """The same deals and the same card choices under open-trump and under the file with melds: the tricks, card
    points and scores are the same; what differs is the announcements and the meld and marriage points."""
    plain = load_game("open-trump")
    differ = 0
    for i in range(40):
        states = []
        for game in (plain, declared):
            st = game.new_hand(i % 4, hands=game.shuffled_deal(500 + i, i % 4))
            rng = random.Random(i)
            while not st.is_terminal:
                legal = [a for a in st.legal_actions() if a.verb != "announce"]
                if any(a.verb == "announce" for a in st.legal_actions()):
                    st.apply(game.action(st.to_act, "announce"))
                    continue
                st.apply(legal[rng.randrange(len(legal))])
            states.append(st)
        a, b = states
        assert [(t.cards, t.winner) for t in a.tricks] == [(t.cards, t.winner) for t in b.tricks]
        assert (a.status, a.team_points, a.game_points) == (b.status, b.team_points, b.game_points)
        assert a.meld_points == [0, 0] and a.marriage_points == [0, 0]
        differ += b.meld_points != [0, 0] or b.marriage_points != [0, 0]
    assert differ > 10
