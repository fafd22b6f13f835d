"""play.obligations against a second, plain implementation written from the rules' prose (not from the engine's
code): at every turn to play of seeded random hands, under the duties of Belote, Amsterdam and Rotterdam
Klaverjas, Schieber, Coinche with the partner-free overlay and two-handed Klaberjass, the engine's legal cards
are exactly those the duties allow; bots keep them; a concealed trump keeps today's rules until it is exposed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.play.base import PLAY
from engine.play.compile import load_game
from engine.play.game import Game
from engine.play.state import State
from engine.rules.load import load_ruleset
from engine.sim import play_hands

FILES = Path(__file__).parent / "rulefiles" / "obligations"
OPEN = ("belote", "amsterdam", "rotterdam", "schieber", "coinche-partner-free", "klaberjass")


# ------------------------------------------------------------------------------ the plain implementation
class Duties:
    """The file's obligations as its text says them (read from the rule file, not from the compiled records)."""

    def __init__(self, path: Path) -> None:
        ob: Any = load_ruleset(path).play.obligations
        self.trump_led: str = ob.trump_led
        self.void: str = ob.void
        self.overtrump: str = ob.overtrump
        self.undertrump: str = ob.undertrump
        self.trump_while_following: bool = ob.trump_while_following
        self.never_forced: set[str] = set(ob.never_forced)


def plain_playable(g: Game, st: State, seat: int, d: Duties) -> set[int]:
    """The cards `seat` may play to the current trick, straight from the rules' words."""
    suit = g.suit_of
    ranks = g.rules.deck.ranks

    def rank(c: int) -> str:
        return ranks[g.rank_of[c]]

    def higher(a: int, b: int) -> bool:      # same suit: a ranks above b (the deck lists ranks high to low)
        return g.rank_of[a] < g.rank_of[b]

    hand = {c for c in range(g.size) if st.hands[seat] >> c & 1}
    trick = list(zip(st.trick_seats, st.trick_cards, strict=True))
    if not trick:
        return hand
    led = suit[trick[0][1]]
    all_trumps = st.all_trumps
    trump = -1 if all_trumps else st.trump
    # who holds the trick now: the highest trump, else the highest card of the suit led
    holder, best = trick[0]
    for s, c in trick[1:]:
        if (suit[c] == trump and suit[best] != trump) or (suit[c] == suit[best] and higher(c, best)):
            holder, best = s, c
    partner_holds = holder != seat and st.hand_team_of[holder] == st.hand_team_of[seat]
    of_led = {c for c in hand if suit[c] == led}
    if all_trumps or led == trump:   # a trump led (in all-trumps: the suit led plays as trumps)
        if not of_led:
            return hand
        if not all_trumps and all(rank(c) in d.never_forced for c in of_led):
            return hand                                  # his only trumps never bind him
        in_trick = [c for _, c in trick if suit[c] == led]
        beating = {c for c in of_led if all(higher(c, x) for x in in_trick)}
        must_head = d.trump_led == "head_trick" or (d.trump_led == "head_trick_unless_partner_winning"
                                                     and not partner_holds)
        return beating if must_head and beating else of_led
    if trump < 0:
        return of_led or hand
    trumps = {c for c in hand if suit[c] == trump}
    trick_trumps = [c for _, c in trick if suit[c] == trump]

    def lower(c: int) -> bool:   # a trump lower than one already in the trick
        return any(higher(x, c) for x in trick_trumps)

    if of_led:
        if not d.trump_while_following:
            return of_led
        if d.undertrump == "forbidden_unless_only_trumps":   # holding the suit led: never undertrump
            return of_led | {c for c in trumps if not lower(c)}
        return of_led | trumps
    only_trumps = hand == trumps
    must = trumps and (d.void == "must_trump" or (d.void == "must_trump_unless_partner_winning"
                                                    and not partner_holds))
    if must and all(rank(c) in d.never_forced for c in trumps):
        must = False
    if not must:
        if d.undertrump == "forbidden_unless_only_trumps" and not only_trumps:
            return {c for c in hand if not (suit[c] == trump and lower(c))}
        return hand
    if not trick_trumps:
        return trumps
    over = {c for c in trumps if not lower(c)}
    if d.overtrump == "free" and d.undertrump != "forbidden_unless_only_trumps":
        return trumps
    if over:
        return over
    if d.undertrump == "forced":
        return trumps
    if d.undertrump == "allowed":
        return hand
    return (hand - trumps) or hand


# ------------------------------------------------------------------------------------------- helpers
def engine_playable(st: State) -> set[int]:
    g = st.game
    return {g.code_ids[a.arg][0] for a in st.legal_actions() if a.verb == "play"}


def codes(g: Game, cards: set[int]) -> list[str]:
    return sorted(g.codes[c] for c in cards)


def random_hand(g: Game, seed: int, check: Any) -> int:
    """Play a seeded hand with random choices, calling `check(state)` at every turn to play; the turns checked."""
    rnd = random.Random(seed)
    st = g.new_hand(seed % g.n, seed=seed)
    turns = 0
    while not st.is_terminal:
        legal = st.legal_actions()
        if st.phase == PLAY and any(a.verb == "play" for a in legal):
            check(st)
            turns += 1
        st.apply(legal[int(rnd.random() * len(legal))])
    return turns


# --------------------------------------------------------------------------------------------- the tests
@pytest.mark.parametrize("name", OPEN)
def test_legal_cards_are_what_the_duties_allow(name: str) -> None:
    path = FILES / f"{name}.yaml"
    g, d = load_game(path), Duties(path)
    narrowed = 0

    def check(st: State) -> None:
        nonlocal narrowed
        seat = st.to_act
        want = plain_playable(g, st, seat, d)
        got = engine_playable(st)
        assert got == want, (name, st.trick_cards, codes(g, got), codes(g, want), [a.notation for a in st.history])
        follow = st.hands[seat] & g.suit_masks[g.suit_of[st.trick_cards[0]]] if st.trick_cards else 0
        narrowed += bool(st.trick_cards) and not follow and got != {c for c in range(g.size) if st.hands[seat] >> c & 1}

    turns = sum(random_hand(g, seed, check) for seed in range(60))
    assert turns > 60 * 20
    assert narrowed > 50 or name == "schieber"   # a void player was bound by a duty, often


def test_all_trumps_mode_heads_the_suit_led() -> None:
    """With state.all_trumps (a trump mode of every suit) the suit led plays as trumps: following, head the trick
    in it; void, any card; checked against the plain implementation at every turn of random hands."""
    for name in ("belote", "coinche-partner-free", "schieber"):
        path = FILES / f"{name}.yaml"
        g, d = load_game(path), Duties(path)

        def check(st: State, g: Game = g, d: Duties = d) -> None:
            twin = st.clone()
            twin.all_trumps = True
            twin._legal = None
            twin._mask_ready = False
            assert engine_playable(twin) == plain_playable(g, twin, twin.to_act, d)

        for seed in range(10):
            random_hand(g, seed, check)


def _position(g: Game, hands: dict[int, str], trump: str, plays: list[str], leader: int = 0) -> State:
    """A hand of `g` dealt `hands` (seat -> 8 cards), trump named openly, `plays` made from `leader` on."""
    st = g.new_hand(3, hands=[g.layout.parse_cards(hands[s].split()) for s in range(g.n)])
    st.history = []
    st._set_trump(g.layout.suits.index(trump))
    st.bidder, st.bid = 0, 14
    st.concealed = False
    st.first = leader
    st._start_play()
    for c in plays:
        card = g.code_ids[c][0]
        st._play_card_id(st.to_act, card)
    return st


HANDS = {0: "JH 9H AH TH KS QS 8S 7S", 1: "JS 9S KH 8H 7H AD TD KD",
         2: "AS TS QH JD 9D QD 8D 7D", 3: "JC 9C AC TC KC QC 8C 7C"}


@pytest.mark.parametrize(("name", "plays", "trump", "want"), [
    # seat 0 leads a spade, seat 1 (void? no: holds spades) ... a plain lead, seat 3 void in spades
    # Belote: partner 1 holds the trick (JS) -> seat 3 is free; Rotterdam: must trump (clubs)
    ("belote", ["KS", "JS", "AS"], "C", "JC 9C AC TC KC QC 8C 7C"),
    ("rotterdam", ["KS", "JS", "AS"], "C", "JC 9C AC TC KC QC 8C 7C"),
])
def test_twins_void_with_partner_winning(name: str, plays: list[str], trump: str, want: str) -> None:
    g = load_game(FILES / f"{name}.yaml")
    st = _position(g, HANDS, trump, plays)
    assert st.to_act == 3
    assert codes(g, engine_playable(st)) == sorted(want.split())
