"""play.obligations against a second, plain implementation written from the rules' prose (not from the engine's
code): at every turn to play of seeded random hands, under the duties of Belote, Amsterdam and Rotterdam
Klaverjas, Schieber, Coinche with the partner-free overlay and two-handed Klaberjass, the engine's legal cards
are exactly those the duties allow; bots keep them; a concealed trump keeps today's rules until it is exposed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.play.actions import Action
from engine.play.base import PLAY
from engine.play.compile import compile_rules, load_game
from engine.play.explain import why_illegal
from engine.play.game import Game
from engine.play.state import State
from engine.rules.load import load_ruleset
from engine.sim import play_hands

FILES = Path(__file__).parent / "rulefiles" / "obligations"
OPEN = ("belote", "amsterdam", "rotterdam", "schieber", "coinche-partner-free", "klaberjass", "belote-modes")


# ------------------------------------------------------------------------------ the plain implementation
class Duties:
    """The file's obligations as its text says them (read from the rule file, not from the compiled records), and
    its rank orders: plain suits, the trump suit, each named trump mode."""

    def __init__(self, path: Path) -> None:
        rs = load_ruleset(path)
        self.plain: list[str] = list(rs.deck.ranks)
        self.trump_order: list[str] = list(getattr(rs.deck, "trump_ranks", None) or rs.deck.ranks)
        self.modes: list[list[str]] = [list(md.ranks) for md in getattr(rs.trump, "modes", [])]
        ob: Any = rs.play.obligations
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

    mode = getattr(st, "trump_mode", -1)

    def order(c: int) -> list[str]:           # the card's rank order, high to low, by its role this hand
        if mode >= 0:
            return d.modes[mode]
        return d.trump_order if suit[c] == st.trump else d.plain

    def higher(a: int, b: int) -> bool:      # same suit: a ranks above b
        return order(a).index(rank(a)) < order(b).index(rank(b))

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
        if d.undertrump.startswith("forbidden"):   # holding the suit led: never undertrump
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
        if d.undertrump == "forbidden_unless_nothing_else":   # unless every card held is such a lower trump
            allowed = {c for c in hand if not (suit[c] == trump and lower(c))}
            return allowed or hand
        return hand
    if not trick_trumps:
        return trumps
    over = {c for c in trumps if not lower(c)}
    if d.overtrump == "free" and not d.undertrump.startswith("forbidden"):
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
    narrowed = all_trumps = 0

    def check(st: State) -> None:
        nonlocal narrowed, all_trumps
        all_trumps += st.all_trumps
        seat = st.to_act
        want = plain_playable(g, st, seat, d)
        got = engine_playable(st)
        assert got == want, (name, st.trick_cards, codes(g, got), codes(g, want), [a.notation for a in st.history])
        follow = st.hands[seat] & g.suit_masks[g.suit_of[st.trick_cards[0]]] if st.trick_cards else 0
        narrowed += bool(st.trick_cards) and not follow and got != {c for c in range(g.size) if st.hands[seat] >> c & 1}

    turns = sum(random_hand(g, seed, check) for seed in range(60))
    assert turns > 60 * 20
    assert narrowed > 50 or name == "schieber"   # a void player was bound by a duty, often
    assert all_trumps > 20 or name != "belote-modes"   # the all-trumps mode was played


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


# ------------------------------------------------------------------------------------------ behaviour twins
def _flipped(name: str, **change: Any) -> Game:
    """The test file `name` with fields of its obligations changed."""
    rs = load_ruleset(FILES / f"{name}.yaml")
    ob = rs.play.obligations
    assert ob is not None
    play = rs.play.model_copy(update={"obligations": ob.model_copy(update=change)})
    return Game(compile_rules(rs.model_copy(update={"play": play})))


class Seen:
    """What a turn to play looks like, in plain terms, for the twins' conditions."""

    def __init__(self, st: State) -> None:
        g = st.game
        self.g, self.st, self.seat = g, st, st.to_act
        self.hand = st.hands[self.seat]
        self.led = g.suit_of[st.trick_cards[0]] if st.trick_cards else -1
        self.trump = st.trump
        self.follows = self.led >= 0 and bool(self.hand & g.suit_masks[self.led])
        self.trumps = [c for c in range(g.size) if self.hand >> c & 1 and g.suit_of[c] == st.trump]
        in_trick = [c for c in st.trick_cards if g.suit_of[c] == st.trump]
        self.top = min((g.rank_of[c] for c in in_trick), default=None)   # rank index: lower is higher
        self.lower = [c for c in self.trumps if self.top is not None and g.rank_of[c] > self.top]
        self.higher = [c for c in self.trumps if self.top is None or g.rank_of[c] < self.top]
        holder, best = st.trick_seats[0] if st.trick_seats else -1, st.trick_cards[0] if st.trick_cards else -1
        for s, c in zip(st.trick_seats[1:], st.trick_cards[1:], strict=True):
            if (g.suit_of[c] == self.trump and g.suit_of[best] != self.trump) or (
                    g.suit_of[c] == g.suit_of[best] and g.rank_of[c] < g.rank_of[best]):
                holder, best = s, c
        self.partner_holds = holder >= 0 and holder != self.seat and \
            st.hand_team_of[holder] == st.hand_team_of[self.seat]


# (file, a field changed, where the two may differ: a condition on the turn)
TWINS: list[tuple[str, dict[str, Any], Any]] = [
    # void: must trump even when the partner holds the trick (Rotterdam) - differs only void, holding a trump,
    # a plain suit led, the partner holding the trick
    ("belote", {"void": "must_trump"},
     lambda t: t.trump >= 0 and t.led != t.trump and not t.follows and t.trumps and t.partner_holds),
    # undertrump forced or forbidden - differs only on a plain suit led, void, the trick holding a trump above
    # one of his
    ("belote", {"undertrump": "forbidden_unless_only_trumps"},
     lambda t: t.trump >= 0 and t.led != t.trump and not t.follows and t.lower),
    # overtrump required or free - differs only void, bound, the trick holding a trump, holding one above and
    # one below it
    ("rotterdam", {"overtrump": "free", "undertrump": "allowed"},
     lambda t: t.trump >= 0 and t.led != t.trump and not t.follows and t.lower and t.higher),
    # heading a trump lead, or not over the partner - differs only on a trump led with the partner holding it
    ("belote", {"trump_led": "head_trick_unless_partner_winning"},
     lambda t: t.trump >= 0 and t.led == t.trump and t.partner_holds and t.lower and t.higher),
    ("belote", {"trump_led": "any_trump"},
     lambda t: t.trump >= 0 and t.led == t.trump and t.lower and t.higher),
    # a trump instead of following - differs only on a plain suit led that he can follow, holding a trump
    ("schieber", {"trump_while_following": False},
     lambda t: t.trump >= 0 and t.led != t.trump and t.follows and t.trumps),
    # the trump Jack never forced - differs only when his only trump is the Jack and a trump is led
    ("schieber", {"never_forced": []},
     lambda t: t.trump >= 0 and t.led == t.trump and len(t.trumps) == 1
     and t.g.rules.deck.ranks[t.g.rank_of[t.trumps[0]]] == "J" and bin(t.hand).count("1") > 1),
]


@pytest.mark.parametrize(("name", "change", "where"), TWINS, ids=[f"{n}-{next(iter(c))}" for n, c, _ in TWINS])
def test_twins_differ_exactly_where_the_field_says(name: str, change: dict[str, Any], where: Any) -> None:
    """The same deals and plays under the file and its twin with one duty changed: the legal cards differ at some
    turns, and only at turns where that duty applies."""
    a, b = load_game(FILES / f"{name}.yaml"), _flipped(name, **change)
    differ = 0
    for seed in range(60):
        rnd = random.Random(seed)
        sa, sb = a.new_hand(seed % 4, seed=seed), b.new_hand(seed % 4, seed=seed)
        while not sa.is_terminal:
            la, lb = sa.legal_actions(), sb.legal_actions()
            if set(la) != set(lb):
                assert sa.phase == PLAY and where(Seen(sa)), (seed, [x.notation for x in sa.history])
                differ += 1
                both = [x for x in la if x in set(lb)]
                if not both:    # (no card both allow: the hands part here)
                    break
            else:
                both = list(la)
            act = both[int(rnd.random() * len(both))]
            sa.apply(act)
            sb.apply(sb.game.intern(act))
    assert differ >= 5, differ


# ------------------------------------------------------------------------------------ why a card is refused
@pytest.mark.parametrize("name", OPEN)
def test_a_refused_card_names_the_duty(name: str) -> None:
    g = load_game(FILES / f"{name}.yaml")
    said: set[str] = set()

    def check(st: State) -> None:
        legal = engine_playable(st)
        for c in range(g.size):
            if st.hands[st.to_act] >> c & 1 and c not in legal:
                why = why_illegal(st, Action(st.to_act, "play", g.codes[c]))
                assert not why.startswith("you may not play"), why
                said.add(why.split(":")[0].split(" ")[2] if why.startswith("you must") else why[:12])

    for seed in range(15):
        random_hand(g, seed, check)
    assert said


def test_overtrump_reason_names_the_card_that_beats() -> None:
    g = load_game(FILES / "rotterdam.yaml")
    for seed in range(200):
        rnd = random.Random(seed)
        st = g.new_hand(seed % 4, seed=seed)
        while not st.is_terminal:
            legal = st.legal_actions()
            if st.phase == PLAY and st.trick_cards:
                t = Seen(st)
                if t.trump >= 0 and t.led != t.trump and not t.follows and t.lower and t.higher:
                    low = g.codes[t.lower[0]]
                    why = why_illegal(st, Action(st.to_act, "play", low))
                    top = min((c for c in st.trick_cards if g.suit_of[c] == t.trump), key=lambda c: g.rank_of[c])
                    best = min(t.higher, key=lambda c: g.rank_of[c])
                    assert why == f"you must overtrump: you hold {g.codes[best]}, which beats {g.codes[top]}"
                    return
            st.apply(legal[int(rnd.random() * len(legal))])
    pytest.fail("no position to overtrump in 200 hands")


# ------------------------------------------------------------------------------------------- the bots
@pytest.mark.parametrize("name", ("belote", "amsterdam", "schieber", "belote-modes"))
def test_bots_play_only_cards_the_duties_allow(name: str) -> None:
    """Hands of the random, heuristic, pimc and search bots, replayed card by card: every card played is one the
    plain implementation allows."""
    path = FILES / f"{name}.yaml"
    g, d = load_game(path), Duties(path)
    specs = ["pimc:4", "search:4", "heuristic", "random"]
    checked = 0
    for _, _, done in play_hands(g, specs, seed=5, start=0, count=3):
        st = g.new_hand(done.dealer, hands=done.dealt)
        for act in done.history:
            if act.verb == "play":
                assert g.code_ids[act.arg][0] in plain_playable(g, st, act.seat, d), act.notation
                checked += 1
            st.apply(act)
    assert checked >= 3 * 28


@pytest.mark.parametrize("name", ("klaberjass", "schieber"))
def test_ismcts_plays_only_cards_the_duties_allow(name: str) -> None:
    """OpenSpiel's IS-MCTS (its worlds drawn by engine/adapters/resample.py) plays only cards the plain
    implementation allows, with the trump duties of a stock game and a never-forced trump Jack."""
    pytest.importorskip("pyspiel")
    path = FILES / f"{name}.yaml"
    g, d = load_game(path), Duties(path)
    checked = 0
    for _, _, done in play_hands(g, ["ismcts:4"] * g.n, seed=5, start=0, count=2):
        st = g.new_hand(done.dealer, hands=done.dealt)
        for act in done.history:
            if act.verb == "play":
                assert g.code_ids[act.arg][0] in plain_playable(g, st, act.seat, d), act.notation
                checked += 1
            st.apply(act)
    assert checked >= 12


def test_concealed_trump_keeps_todays_rules_until_exposed() -> None:
    """Twenty-Eight with Amsterdam's duties: while the trump is concealed every legal action is Twenty-Eight's;
    once it is exposed the cards are what the duties allow (the caller's own card aside: his call binds it)."""
    path = FILES / "concealed.yaml"
    g, base, d = load_game(path), load_game("twenty-eight"), Duties(path)
    before = after = 0
    for seed in range(80):
        rnd = random.Random(seed)
        st, twin = g.new_hand(seed % 4, seed=seed), base.new_hand(seed % 4, seed=seed)
        while not st.is_terminal:
            legal = st.legal_actions()
            if st.concealed or st.phase != PLAY:
                assert set(legal) == {g.intern(a) for a in twin.legal_actions()} or st.phase != PLAY
                before += st.phase == PLAY
            elif st.caller != st.to_act and any(a.verb == "play" for a in legal):
                assert engine_playable(st) == plain_playable(g, st, st.to_act, d)
                after += 1
            act = legal[int(rnd.random() * len(legal))]
            st.apply(act)
            if not twin.is_terminal:
                twin.apply(base.intern(act))
    assert before > 500 and after > 500, (before, after)


# ------------------------------------------------------------------------------------------------- show
def _show_lines(rs: Any) -> list[str]:
    from engine.rules.explain import show
    from engine.rules.load import Report

    return show(Report("x.yaml", ruleset=rs, resolved={}, chain=["x.yaml"])).splitlines()


@pytest.mark.parametrize(("field", "values"), [
    ("trump_led", ["any_trump", "head_trick", "head_trick_unless_partner_winning"]),
    ("void", ["free", "must_trump", "must_trump_unless_partner_winning"]),
    ("overtrump", ["free", "required"]),
    ("undertrump", ["allowed", "forced", "forbidden_unless_only_trumps", "forbidden_unless_nothing_else"]),
    ("trump_while_following", [False, True]),
    ("never_forced", [[], ["J"]]),
])
def test_show_says_each_value_differently(field: str, values: list[Any]) -> None:
    rs = load_ruleset(FILES / "belote.yaml")
    ob = rs.play.obligations
    assert ob is not None
    texts = set()
    for v in values:
        play = rs.play.model_copy(update={"obligations": ob.model_copy(update={field: v})})
        texts.add("\n".join(_show_lines(rs.model_copy(update={"play": play}))))
    assert len(texts) == len(values)


def test_show_in_a_players_words() -> None:
    lines = [x.strip() for x in _show_lines(load_ruleset(FILES / "amsterdam.yaml"))]
    assert ("When a plain suit is led and you cannot follow, you must play a trump if you hold one, unless your "
            "partner holds the trick (then any card).") in lines
    assert not any("Nobody is obliged to trump" in x for x in lines)
    plain = [x.strip() for x in _show_lines(load_ruleset("open-trump"))]
    assert any("Nobody is obliged to trump" in x for x in plain)


# ------------------------------------------------------------------------------------- what the bots read
@pytest.mark.parametrize("name", OPEN)   # (a concealed trump's folded card is a void's known exception)
def test_voids_read_from_the_plays_are_true(name: str) -> None:
    """Every void a seat reads from its view (a suit not followed, a trump not played where the duties bound the
    player to trump) is one the other seat's real hand has: no world a bot samples leaves out the real one."""
    from engine.bots.info import read_view

    g = load_game(FILES / f"{name}.yaml")
    trump_voids = 0

    def check(st: State) -> None:
        nonlocal trump_voids
        seat = st.to_act
        seen = read_view(g, st.view(seat))
        for s in range(g.n):
            for x in range(g.nsuits):
                if seen.voids[s] >> x & 1:
                    assert not st.hands[s] & g.suit_masks[x], (s, x, [a.notation for a in st.history])
                    trump_voids += x == st.trump and not st.concealed

    for seed in range(25):
        random_hand(g, seed, check)
    if name in ("belote", "rotterdam", "klaberjass"):
        assert trump_voids > 0
