"""The Jass group's games against an independent referee (tests/oracle_jass, written from the rules reference
only): the worked deals of the reference scored by the referee, a few positions of each game's duties and melds,
and seeded random hands of every shipped Jass file played through the engine with every turn's legal cards, every
trick, the melds that scored and the banked score compared."""
from __future__ import annotations

import re
import warnings

import pytest

from tests.oracle_jass import score
from tests.oracle_jass.cards import Trick, no_trump_mode, suit_mode
from tests.oracle_jass.cross import MATCH_END, Tally, cross, play_match, rule_file
from tests.oracle_jass.games import BELOTE_MELDS, KLABERJASS_MELDS, OVERLAYS, SCHIEBER_MELDS, SPECS
from tests.oracle_jass.melds import best_arrangement, compare, marriage_holder, roem
from tests.oracle_jass.play import legal, winner_index

NS, EW = 0, 1
BASE = set(SPECS) - set(OVERLAYS)


def deal(cards: list[int], melds: list[int], marriage: list[int], taker: int | None, tricks: list[int] | None = None,
         bid: int = 0, multiplier: int = 1, doubled: bool = False) -> score.Deal:
    return score.Deal(cards, tricks or [4, 4], melds, marriage, taker, bid, multiplier, doubled)


# --- the worked deals (JASS-GROUP 8) --------------------------------------------------------------------------
WORKED = {
    "B1 dedans keeps the belote": (score.belote, deal([62, 100], [0, 20], [20, 0], NS), [20, 182]),
    "B2 carre beats quarte, dedans": (score.belote, deal([97, 65], [0, 100], [0, 20], NS), [0, 282]),
    "B3 capot 250": (score.belote, deal([162, 0], [20, 0], [0, 0], NS, [8, 0]), [270, 0]),
    "B4 tie is dedans": (score.belote, deal([81, 81], [0, 0], [0, 0], NS), [0, 162]),
    "C1 made, bid added": (score.coinche, deal([112, 50], [0, 0], [20, 0], NS, bid=100), [232, 50]),
    "C2 failed, 160 + bid": (score.coinche, deal([85, 77], [0, 0], [0, 20], NS, bid=90), [0, 270]),
    "C3 coinched, failed": (score.coinche, deal([67, 95], [0, 0], [0, 0], EW, bid=120, multiplier=2,
                                                doubled=True), [560, 0]),
    "C4 made (base, no rounding)": (score.coinche, deal([113, 49], [0, 0], [0, 0], NS, bid=110), [223, 49]),
    "K1 made with roem and stuk": (score.klaverjas, deal([68, 94], [40, 20], [0, 0], EW), [108, 114]),
    "K2 nat": (score.klaverjas, deal([75, 87], [0, 50], [0, 0], NS), [0, 212]),
    "K3 pit": (score.klaverjas, deal([162, 0], [20, 0], [0, 0], NS, [8, 0]), [282, 0]),
    "S1 Weis and Stoeck": (score.schieber, deal([98, 59], [50, 0], [0, 20], None, [5, 4]), [148, 79]),
    "S2 obenabe x3": (score.schieber, deal([101, 56], [0, 0], [0, 0], None, [5, 4], multiplier=3), [303, 168]),
    "S3 match x2": (score.schieber, deal([0, 157], [0, 0], [0, 0], None, [0, 9], multiplier=2), [0, 514]),
    "KB1 maker made": (score.klaberjass, deal([85, 60], [20, 0], [20, 0], 0), [125, 60]),
    "KB2 bate": (score.klaberjass, deal([50, 65], [20, 0], [0, 20], 0), [0, 155]),
    "KB3 tie": (score.klaberjass, deal([70, 70], [0, 0], [0, 0], 0), [0, 70]),
}


@pytest.mark.parametrize("name", sorted(WORKED))
def test_worked_deal_scores(name: str) -> None:
    scorer, d, expected = WORKED[name]
    assert scorer(d) == expected


def test_worked_meld_comparisons() -> None:
    hearts = suit_mode("H", swiss=False)
    team = [0, 1, 0, 1]
    # B2: EW's four Queens (100) beat NS's quarte (50): only EW's melds score
    quarte = best_arrangement(BELOTE_MELDS, hearts, 2, ["JH", "TH", "9H", "8H", "7C"])
    carre = best_arrangement(BELOTE_MELDS, hearts, 1, ["QS", "QH", "QD", "QC", "7D"])
    assert [m.value for m in quarte] == [50] and [m.value for m in carre] == [100]
    assert compare(BELOTE_MELDS, quarte + carre, team, 0, 4) == EW
    # two equal plain tierces in opposite sides: nobody scores; the trump one wins
    a = best_arrangement(BELOTE_MELDS, hearts, 0, ["AS", "KS", "QS"])
    b = best_arrangement(BELOTE_MELDS, hearts, 1, ["AD", "KD", "QD"])
    c = best_arrangement(BELOTE_MELDS, hearts, 3, ["AH", "KH", "QH"])
    assert compare(BELOTE_MELDS, a + b, team, 0, 4) is None
    assert compare(BELOTE_MELDS, a + c, team, 0, 4) == EW
    # a quinte (100, five cards) beats four Kings (100, four cards)
    quinte = best_arrangement(BELOTE_MELDS, hearts, 0, ["9S", "8S", "7S", "TS", "JS"])
    kings = best_arrangement(BELOTE_MELDS, hearts, 1, ["KS", "KH", "KD", "KC"])
    assert compare(BELOTE_MELDS, quinte + kings, team, 0, 4) == NS
    # S1: North's four-card Weis beats East's three; Schieber breaks a full tie by playing order from forehand
    clubs = suit_mode("C", swiss=True)
    n = best_arrangement(SCHIEBER_MELDS, clubs, 2, ["9S", "8S", "7S", "6S"])
    e = best_arrangement(SCHIEBER_MELDS, clubs, 3, ["AD", "KD", "QD"])
    assert compare(SCHIEBER_MELDS, n + e, team, 1, 4) == NS
    x = best_arrangement(SCHIEBER_MELDS, clubs, 0, ["AD", "KD", "QD"])
    y = best_arrangement(SCHIEBER_MELDS, clubs, 1, ["AH", "KH", "QH"])
    assert compare(SCHIEBER_MELDS, x + y, team, 1, 4) == EW and compare(SCHIEBER_MELDS, x + y, team, 0, 4) == NS
    # Klaberjass: four or more in sequence 50, no four of a kind
    six = best_arrangement(KLABERJASS_MELDS, hearts, 0, ["AS", "KS", "QS", "JS", "TS", "9S", "7H", "7D", "7C"])
    assert [(len(m.cards), m.value) for m in six] == [(6, 50)]
    assert best_arrangement(KLABERJASS_MELDS, hearts, 0, ["JS", "JH", "JD", "JC"]) == []


def test_roem_and_marriage() -> None:
    spades = suit_mode("S", swiss=False)
    assert roem(spades, ["QC", "JC", "TC", "7H"]) == 20          # K1: EW's clubs Q-J-T
    assert roem(spades, ["KS", "QS", "JS", "7H"]) == 40          # K1: trump K-Q-J, sequence and stuk
    assert roem(spades, ["KH", "QH", "JH", "TH"]) == 50          # four in sequence: 50, not 50 + 20
    assert roem(spades, ["JH", "JS", "JD", "JC"]) == 200 and roem(spades, ["7H", "7S", "7D", "7C"]) == 100
    assert marriage_holder(spades, [["KS"], ["QS", "KS"]]) == 1
    assert marriage_holder(no_trump_mode("obenabe"), [["KS", "QS"]]) is None


def test_duties_positions() -> None:
    hearts = suit_mode("H", swiss=False)
    trick = Trick(0, [0, 1], ["AS", "9H"])      # spades led, East trumped: South (seat 2) is void in spades
    hand = ["JH", "7H", "AD", "7C"]   # over East's 9H only with the Jack
    assert sorted(legal("belote", hearts, hand, trick, 2, 4)) == ["JH"]
    assert sorted(legal("amsterdam", hearts, ["7H", "AD", "7C"], trick, 2, 4)) == ["7C", "AD"]   # no undertrump
    assert sorted(legal("belote", hearts, ["7H", "AD", "7C"], trick, 2, 4)) == ["7H"]             # forced under
    partner = Trick(0, [0, 1], ["AS", "7S"])    # North holds the trick; South is void
    assert len(legal("belote", hearts, hand, partner, 2, 4)) == 4
    assert sorted(legal("rotterdam", hearts, hand, partner, 2, 4)) == ["7H", "JH"]
    swiss = suit_mode("H", swiss=True)
    assert sorted(legal("schieber", swiss, ["JH", "AS", "KD"], Trick(1, [1], ["9H"]), 2, 4)) == ["AS", "JH", "KD"]
    assert sorted(legal("schieber", swiss, ["6H", "KS", "KD"], Trick(0, [0, 1], ["AS", "9H"]), 2, 4)) == ["KS"]
    assert winner_index(swiss, ["9S", "TS", "6H"]) == 2 and winner_index(swiss, ["TS", "JS", "AD"]) == 1
    assert winner_index(hearts, ["TS", "JS", "AD"]) == 0     # Belote's Ten sits next to the Ace
    assert winner_index(no_trump_mode("undenufe"), ["9S", "6S", "AS"]) == 1


# Disagreements found and reported, where the rule file (not the engine) departs from the rules reference: the
# calls missing (the rest of the deal is still judged), or a deal whose melds are valued otherwise (left out);
# with a warning, every other deal and turn of the file is still judged.
# rule-file disagreements the referee has found and the files have not fixed yet (none: the coinche capot bid and
# schieber-small-weis's lengths 6..9 are fixed); a pattern here sets those turns or deals aside with a warning
KNOWN: dict[str, str] = {}


def _judged(name: str, problems: list[str]) -> list[str]:
    marker = KNOWN.get(name)
    if marker is None:
        return problems
    known = [p for p in problems if re.search(marker, p)]
    if not known:
        return problems
    warnings.warn(f"{name}: {len(known)} turns show a known rule-file disagreement ({marker})", stacklevel=1)
    if "calls expected" in marker:
        return [p for p in problems if p not in known]
    seeds = {m.group(1) for p in known if (m := re.search(r"seed (\d+)", p))}
    return [p for p in problems if (m := re.search(r"seed (\d+)", p)) is None or m.group(1) not in seeds]


@pytest.mark.parametrize("name", sorted(SPECS))
def test_engine_agrees_with_the_referee(name: str) -> None:
    try:
        rule_file(name)
    except FileNotFoundError:
        pytest.skip(f"{name} is not shipped yet")
    tally = cross(name, 40 if name in BASE else 20)
    assert tally.scored >= tally.hands // 2 and tally.turns > 0
    problems = _judged(name, tally.problems)
    assert not problems, "\n".join(problems[:10])


ROEM_NAT = "tests/rulefiles/banked/banked-roem-nat.yaml"
# klaverjas, seed 227, dealer 3: North names diamonds; NS take 54 card points and a trick with the stuk (KD QD,
# 20 roem), EW 108: nat. NS 0; EW 162 + all roem (20). The engine once left NS their stuk as a marriage.
ROEM_NAT_PLAY = ("0 trump D / 0 play 7H / 1 play QH / 2 play TH / 3 play 9H / 2 play 8D / 3 play QD / 0 play 9D / "
                 "1 play KD / 0 play 7C / 1 play 7D / 2 play QC / 3 play TC / 1 play 9S / 2 play KS / 3 play 7S / "
                 "0 play QS / 2 play AS / 3 play JD / 0 play JS / 1 play 8S / 3 play JC / 0 play 8C / 1 play AD / "
                 "2 play AC / 1 play 8H / 2 play 9C / 3 play JH / 0 play AH / 0 play TS / 1 play KH / 2 play KC / "
                 "3 play TD")


def test_nat_gives_the_stuk_in_a_trick_to_the_defenders() -> None:
    from pathlib import Path

    from engine import Action, load_game
    game = load_game(Path(__file__).resolve().parents[1] / ROEM_NAT)
    state = game.new_hand(dealer=3, seed=227)
    for text in ROEM_NAT_PLAY.split(" / "):
        state.apply(Action.parse(text))
    assert state.is_terminal and list(state.team_points) == [54, 108]
    assert list(state.game_points) == [0, 182]


def test_forehand_may_choose_a_named_mode() -> None:
    """Schieber: forehand (or his partner after a push) chooses one of six modes, obenabe and undenufe among them;
    the hand is then played with no trump suit and the mode's order."""
    from pathlib import Path

    from engine import Action, load_game
    game = load_game(Path(__file__).resolve().parents[1] / "tests/rulefiles/jass/choose-trump-modes.yaml")
    state = game.new_hand(dealer=3, seed=5)
    words = {a.arg for a in state.legal_actions() if a.verb == "trump"}
    assert words == {"S", "H", "D", "C", "obenabe", "undenufe"}
    state.apply(Action.parse(f"{state.current_seat} push"))
    assert {a.arg for a in state.legal_actions() if a.verb == "trump"} == words
    state.apply(Action.parse(f"{state.current_seat} trump undenufe"))
    view = state.view(0)
    assert view.trump_mode == "undenufe" and view.trump_code() == "NT"
    # undenufe: the lowest card of the suit led wins, and a card of another suit never does
    while not state.view(0).tricks:
        plays = [a for a in state.legal_actions() if a.verb == "play"]
        state.apply(plays[-1] if plays else state.legal_actions()[0])
    t = state.view(0).tricks[0]
    cards = [state.view(0).code(c) for c in t.cards]
    assert cards[t.seats.index(t.winner)] == cards[winner_index(no_trump_mode("undenufe"), cards)]


def test_second_round_dealer_names_or_passes() -> None:
    """Klaberjass' second round: the non-dealer may name a suit, pass or schmeiss; the dealer then names a suit or
    passes (the deal is thrown in) - no schmeiss from him."""
    from pathlib import Path

    from engine import Action, load_game
    game = load_game(Path(__file__).resolve().parents[1] / "tests/rulefiles/deal/turned-two.yaml")
    state = game.new_hand(1, seed=3)
    for text in ("0 pass", "1 pass"):
        state.apply(Action.parse(text))
    assert "schmeiss" in {a.verb for a in state.legal_actions()}     # the non-dealer, round 2
    state.apply(Action.parse("0 pass"))
    assert state.current_seat == 1
    assert {a.verb for a in state.legal_actions()} == {"trump", "pass"}


@pytest.mark.parametrize("name", sorted(MATCH_END))
def test_matches_agree_with_the_referee(name: str) -> None:
    """Whole matches: the scores add up the deals' banked points, the match ends as the game says (a target at
    the end of a deal, 16 deals, or Schieber's target mid-deal), Schieber's first forehand holds the heart Seven."""
    try:
        rule_file(name)
    except FileNotFoundError:
        pytest.skip(f"{name} is not shipped yet")
    tally = Tally()
    for seed in range(2):
        play_match(name, seed, tally)
    assert tally.seen["matches"] == 2
    problems = _judged(name, tally.problems)
    assert not problems, "\n".join(problems[:10])
