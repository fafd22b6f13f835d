"""What one seat may see of a hand: its own cards and everything public, never another seat's cards or a
concealed trump it does not know. Bots and the terminal table receive only this.

A `View` holds facts, not text: the hand as a mask of card ids, the public history as `Action`s (a trump chosen
face down by another seat is `SEAT trump` with its argument blank), the tricks as card ids, the trump as a suit
index (`NO_TRUMP` for no-trumps) or None when this seat may not know it. A double pack's two copies of a card
cannot be told apart at the table, so the view numbers them in the order it shows them - the hand (sorted as
`hand_cards` sorts it), the seat's own face-down card, then the tricks in playing order - and two positions the
seat cannot tell apart give equal views.

`to_dict()` writes the JSON outside bots receive (engine/bots/external.py; the web uses it too): card codes,
action notation, suit letters. That JSON is a contract (tests/test_view_golden.py holds recorded views).

Adding a public fact (face-down plays, exposed hands, melds, claims, ...): add a field at the end of `View` with
`fact(writer, optional=True)` and fill it in `build_view`. The writer says how it is written (`CARD`, `CARDS`,
`CARD_LIST`, `SUIT`, `ACTIONS`, a record's own fields by default; tuples become lists); `optional=True` leaves
it out of the JSON while it holds its default, so views of files that do not use the mechanism stay byte for
byte what they were. Card ids in a new fact go through the same numbering (`_Numbering.of`), after the tricks.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from engine.play.actions import Action
from engine.play.base import PHASE_NAMES, PLAY, UNDECIDED, StateData, TrickRecord
from engine.play.sweep_claims import claimed_line, provable_claims
from engine.play.tables import NO_TRUMP, GameTables

Writer = Callable[[GameTables, Any], Any]
_WRITE = "write"
_OPTIONAL = "optional"
_UNWRITTEN = "unwritten"


def fact(write: Writer | None = None, *, optional: bool = False, default: Any = MISSING) -> Any:
    """A field of a view record. `write(game, value)` gives its JSON (None: the value itself, tuples as lists,
    records by their fields); `optional`: not written while it holds its default (which it then needs)."""
    meta = {_WRITE: write, _OPTIONAL: optional}
    if default is MISSING:
        return field(metadata=meta)
    return field(default=default, metadata=meta)


def hand_order(game: GameTables, mask: int) -> list[int]:
    """The card ids of `mask` as a hand is shown: by suit, strongest first."""
    ids: list[int] = []
    m = mask
    while m:
        low = m & -m
        ids.append(low.bit_length() - 1)
        m ^= low
    return sorted(ids, key=lambda c: (game.suit_of[c], -game.strength[c]))


def write_card(game: GameTables, card: int | None) -> str | None:
    return game.codes[card] if card is not None else None


def write_cards(game: GameTables, mask: int) -> list[str]:
    return [game.codes[c] for c in hand_order(game, mask)]


def write_card_list(game: GameTables, cards: tuple[int, ...]) -> list[str]:
    return [game.codes[c] for c in cards]


def write_suit(game: GameTables, suit: int | None) -> str | None:
    if suit is None:
        return None
    return "NT" if suit == NO_TRUMP else game.layout.suits[suit]


def write_actions(game: GameTables, actions: tuple[Action, ...]) -> list[str]:
    return [str(a) for a in actions]


def write_notations(game: GameTables, actions: tuple[Action, ...]) -> list[str]:
    return [a.notation for a in actions]


CARD: Writer = write_card
CARDS: Writer = write_cards
CARD_LIST: Writer = write_card_list
SUIT: Writer = write_suit
ACTIONS: Writer = write_actions
NOTATIONS: Writer = write_notations


def to_json(game: GameTables, value: Any) -> Any:
    """A fact as JSON: a record by its fields (each by its writer), tuples and lists item by item."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in fields(value):
            if f.metadata.get(_UNWRITTEN):
                continue
            v = getattr(value, f.name)
            if f.metadata.get(_OPTIONAL) and v == f.default:
                continue
            write = f.metadata.get(_WRITE)
            out[f.name] = write(game, v) if write is not None else to_json(game, v)
        return out
    if isinstance(value, tuple | list):
        return [to_json(game, v) for v in value]
    return value


def write_trick(game: GameTables, t: TrickView) -> dict[str, Any]:
    return {"leader": t.leader,
            "cards": [[s, game.codes[c] if c >= 0 else None] for s, c in zip(t.seats, t.cards, strict=True)],
            "winner": t.winner, "points": t.points}


def write_card_masks(game: GameTables, masks: tuple[int, ...]) -> list[list[str]]:
    return [write_cards(game, m) for m in masks]


def write_tricks(game: GameTables, tricks: tuple[TrickView, ...]) -> list[dict[str, Any]]:
    return [write_trick(game, t) for t in tricks]


@dataclass(frozen=True, kw_only=True)
class ExposedHand:
    """A hand lying face up for everyone (a dummy, an exposed partner, a hand shown): its seat and the card ids
    it still holds."""

    seat: int = fact()
    cards: int = fact(CARDS)


@dataclass(frozen=True, kw_only=True)
class AnnouncedMeld:
    """A meld announced in trick 1 (combinations): who, its kind (sequence, four_of_a_kind), how many cards, its
    value; its cards only once trick 1 is complete (0 before), and then whether it scores."""

    seat: int = fact()
    kind: str = fact()
    length: int = fact()
    value: int = fact()
    cards: int = fact(CARDS, optional=True, default=0)
    scores: bool | None = fact(optional=True, default=None)


@dataclass(frozen=True, kw_only=True)
class TrickView:
    """A trick as the table saw it: who led, the seats and card ids in playing order; a finished trick's winner
    and points (None while it is being played)."""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[int, ...]
    winner: int | None = None
    points: int | None = None


@dataclass(frozen=True, kw_only=True)
class View:
    """What `seat` may know now (see the module's docstring). `game` is the game the view is of (not a fact:
    it is neither compared nor written)."""

    game: GameTables = field(compare=False, repr=False, metadata={_UNWRITTEN: True})
    seat: int = fact()
    ruleset: str = fact()
    players: int = fact()
    dealer: int = fact()
    phase: str = fact()                        # PHASE_NAMES
    to_act: int = fact()                       # -1 once the hand is over
    hand: int = fact(CARDS)                    # card ids as bits
    hand_sizes: tuple[int, ...] = fact()       # cards each seat holds (a face-down trump card counts)
    teams: tuple[tuple[int, ...], ...] = fact()
    history: tuple[Action, ...] = fact(ACTIONS)   # every action, a trump chosen face down blanked
    bidder: int | None = fact()
    bid: int | None = fact()
    target: int | None = fact()
    trump_concealed: bool = fact()
    trump: int | None = fact(SUIT)             # a suit index, NO_TRUMP, or None when this seat does not know it
    indicator: int | None = fact(CARD)         # the face-down trump card, only for its owner
    exposed_in_trick: int | None = fact()
    multiplier: int = fact()
    special: str | None = fact()
    sitting_out: tuple[int, ...] = fact()
    trick: TrickView = fact(write_trick)
    tricks: tuple[TrickView, ...] = fact(write_tricks)
    card_points: tuple[int, ...] = fact()
    match_scores: tuple[int, ...] = fact()
    legal: tuple[Action, ...] = fact(NOTATIONS, default=())   # the seat's legal actions when it is to act
    status: str = fact(default="in_progress")
    auction_round: int = fact(optional=True, default=0)    # the round of bidding under way or last held (0: none)
    contract_round: int | None = fact(optional=True, default=None)   # the round whose bid fixed the contract
    speaking_for: int | None = fact(optional=True, default=None)   # whose speech its partner is making (`partner`)
    handed_back: bool = fact(optional=True, default=False)   # that partner handed the speech back
    added: int = fact(optional=True, default=0)           # match units doubling steps add to what the paid side gets
    conceded: bool = fact(optional=True, default=False)
    match_target: int | None = fact(optional=True, default=None)   # the score that wins the match now
    # other seats' hands lying face up (dummies, exposed partners, a hand shown), and who plays the dummies
    exposed: tuple[ExposedHand, ...] = fact(optional=True, default=())
    dummies: tuple[int, ...] = fact(optional=True, default=())
    controller: int | None = fact(optional=True, default=None)   # who chooses for the seat to act, when not it
    # per seat, the cards of melds the engine showed (special.melds) that he still holds; () where none shown
    melds: tuple[int, ...] = fact(write_card_masks, optional=True, default=())
    # the claims among the legal actions that the seat can prove from its own knowledge now (special.claims)
    provable: tuple[Action, ...] = fact(NOTATIONS, optional=True, default=())
    # after the seat's own claim of every remaining trick, at its turn to play: a card of its hand that keeps the
    # sweep proved (the line its proof follows)
    sweep_line: int | None = fact(CARD, optional=True, default=None)
    # the named trump mode the hand is played in (trump.modes) once this seat knows the trump, and the hand's
    # multiplier by its trump (the mode's, or trump.suit_multipliers); written only when set
    trump_mode: str | None = fact(optional=True, default=None)
    trump_multiplier: int = fact(optional=True, default=1)
    # combinations and trump_marriage: the melds announced (their cards once shown), the seats whose trump marriage
    # was announced, and per hand team the meld and marriage points credited so far
    announced: tuple[AnnouncedMeld, ...] = fact(optional=True, default=())
    marriages: tuple[int, ...] = fact(optional=True, default=())
    meld_points: tuple[int, ...] = fact(optional=True, default=())
    marriage_points: tuple[int, ...] = fact(optional=True, default=())
    # the card lying face up on the table (the turned card; after an exchange, the low trump given for it) and the
    # stock's bottom card shown for information; the rest of the stock is never in a view
    turned: int | None = fact(CARD, optional=True, default=None)
    stock_bottom: int | None = fact(CARD, optional=True, default=None)
    turned_up: int | None = fact(CARD, optional=True, default=None)   # the card turned up this hand (public)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data: what outside bots receive."""
        out: dict[str, Any] = to_json(self.game, self)
        return out

    def hand_cards(self) -> list[int]:
        """The hand's card ids as the table shows them: by suit, strongest first."""
        return hand_order(self.game, self.hand)

    def code(self, card: int) -> str:
        """A card id's code (JS, 9H); FACE_DOWN_CODE for a card played face down that this seat did not see."""
        return self.game.codes[card] if card >= 0 else FACE_DOWN_CODE

    def trump_code(self) -> str | None:
        """The trump as written: a suit letter, NT, or None when this seat does not know it."""
        return write_suit(self.game, self.trump)


class _Numbering:
    """Card ids as the view numbers them: a double pack's copies of one card in the order the view shows them."""

    def __init__(self, game: GameTables) -> None:
        self.game = game
        self.same = game.layout.copies == 1
        self.used = 0

    def of(self, card: int) -> int:
        if self.same:
            return card
        for c in self.game.code_ids[self.game.codes[card]]:
            if not self.used >> c & 1:
                self.used |= 1 << c
                return c
        return card

    def mask(self, cards: list[int]) -> int:
        out = 0
        for c in cards:
            out |= 1 << self.of(c)
        return out


# A card another seat played face down (play.blind_cut) that this seat has not seen: in a trick's cards, and as
# the blank argument of its `play` in the history. Its points are left out of the trick's and the sides' points.
FACE_DOWN = -1
FACE_DOWN_CODE = "??"


def unseen_face_down(state: StateData, seat: int) -> int:
    """The cards played face down that `seat` has not seen: the current trick's (every seat's but his own), and
    those that stayed face down for good (his own and, for the trumper who looked at them, all excepted)."""
    out = state.face_down
    if state.hidden and seat != state.folder:
        out |= state.hidden
    if not out:
        return 0
    for t in state.tricks:
        for i, c in enumerate(t.seats):
            if c == seat:
                out &= ~(1 << t.cards[i])
    for i, c in enumerate(state.trick_seats):
        if c == seat:
            out &= ~(1 << state.trick_cards[i])
    return out


def _known_trump(state: StateData, seat: int) -> int | None:
    if state.trump == UNDECIDED:
        return None
    if state.concealed and seat != state.folder:
        return None
    return state.trump


def public_history(state: StateData, seat: int) -> tuple[Action, ...]:
    """The hand's actions as `seat` saw them: another seat's trump chosen face down has its argument blank, and
    so has a card played face down that he did not see."""
    blind = state.game.rules.play.blind_cut
    down = unseen_face_down(state, seat) if blind else 0
    if not state.concealed and not state.fold_secret and not blind:
        return tuple(state.history)
    g = state.game
    codes = {g.codes[c] for c in range(g.size) if down >> c & 1}
    out: list[Action] = []
    for a in state.history:
        if a.verb == "trump" and a.seat != seat and a.arg not in ("seventh", "last"):
            a = g.action(a.seat, "trump")    # (with the blind cut: a fold taken back unseen, too)
        elif a.verb == "play" and a.arg in codes:
            a = g.action(a.seat, "play")
        out.append(a)
    return tuple(out)


def _trick(ids: _Numbering, leader: int, seats: list[int], cards: list[int], winner: int | None,
           points: int | None, down: int = 0, points_of: list[int] | None = None) -> TrickView:
    if down:
        unseen = [c for c in cards if down >> c & 1]
        if points is not None:
            values = points_of if points_of is not None else ids.game.points
            for c in unseen:
                points -= values[c]
        return _trick_view(leader, tuple(seats), tuple(FACE_DOWN if down >> c & 1 else ids.of(c) for c in cards),
                           winner, points)
    return _trick_view(leader, tuple(seats), tuple(ids.of(c) for c in cards), winner, points)


# A finished trick as every view shows it, where card ids are the view's own (a single pack) and nothing was played
# face down: its record never changes, so its TrickView is made once (the records are kept while they are here).
_FINISHED: dict[TrickRecord, TrickView] = {}
FINISHED_KEPT = 4096


def _finished(t: TrickRecord) -> TrickView:
    v = _FINISHED.get(t)
    if v is None:
        if len(_FINISHED) >= FINISHED_KEPT:
            _FINISHED.clear()
        v = _FINISHED[t] = _trick_view(t.leader, tuple(t.seats), tuple(t.cards), t.winner, t.points)
    return v


def build_view(state: StateData, seat: int) -> View:
    g = state.game
    # Card ids are numbered in the order the view shows them (see _Numbering): the hand, the seat's own face-down
    # card, the tricks, the current trick, the exposed hands, the melds, the turned card, the stock's bottom.
    ids = _Numbering(g)
    hand = ids.mask(hand_order(g, state.hands[seat]))
    indicator, sizes = _indicator_facts(state, seat, ids)
    down = unseen_face_down(state, seat) if g.rules.play.blind_cut else 0
    if ids.same and not down:
        tricks = tuple(_finished(t) for t in state.tricks)
    else:
        tricks = tuple(_trick(ids, t.leader, t.seats, t.cards, t.winner, t.points, down, state.points_of)
                       for t in state.tricks)
    trick = _trick(ids, state.leader, state.trick_seats, state.trick_cards, None, None, down)
    exposed = tuple(ExposedHand(seat=s, cards=ids.mask(hand_order(g, state.hands[s]))) for s in range(g.n)
                    if state.exposed >> s & 1 and s != seat)
    controller = state.controller
    known = _known_trump(state, seat)
    bidder, bid, target, contract_round = _contract_facts(state)
    legal = state.legal_actions() if seat == controller else ()
    provable, line = _claim_facts(state, seat, legal, hand)
    announced, marriages, meld_points, marriage_points = _combination_facts(state, ids)
    turned, stock_bottom, turned_up = _turned_facts(state, ids)
    return _make_view(
        game=g, seat=seat, ruleset=g.rules.name, players=g.n, dealer=state.dealer, phase=PHASE_NAMES[state.phase],
        to_act=state.to_act, hand=hand, hand_sizes=tuple(sizes), teams=tuple(tuple(t) for t in state.hand_teams),
        history=public_history(state, seat),
        bidder=bidder, bid=bid, target=target,
        trump_concealed=state.concealed, trump=known, indicator=indicator,
        exposed_in_trick=state.exposed_trick or None, multiplier=state.multiplier,
        special=state.special.name if state.special else None,
        sitting_out=_seats_in(state.sitting_out, g.n),
        trick=trick, tricks=tricks, card_points=_card_points(state, down), match_scores=tuple(state.match_scores),
        legal=legal,
        status=state.status,
        # written only where the rule file has a second auction / the match target moved, so that views of other
        # files stay byte for byte what outside bots always received
        auction_round=state.round if g.rounds_matter else 0,
        contract_round=contract_round,
        speaking_for=state.asker if state.asker >= 0 else None, handed_back=state.handed_back, added=state.added,
        conceded=state.conceded,
        match_target=state.match_target if state.match_target != g.rules.match.win_at else None,
        exposed=exposed, dummies=_seats_in(state.dummies, g.n),
        controller=controller if controller != state.to_act else None,
        melds=_shown_melds(state),
        provable=provable, sweep_line=line,
        trump_mode=_trump_mode_name(state, known),
        trump_multiplier=state.trump_multiplier if known is not None else 1,
        announced=announced, marriages=marriages, meld_points=meld_points, marriage_points=marriage_points,
        turned=turned, stock_bottom=stock_bottom, turned_up=turned_up,
    )


def _indicator_facts(state: StateData, seat: int, ids: _Numbering) -> tuple[int | None, list[int]]:
    """The trump indicator card as `seat` sees it (his own face-down card; None for the others) and the number of
    cards each seat holds (the face-down card is still one of the bidder's)."""
    owns_indicator = state.concealed and state.indicator >= 0
    indicator = ids.of(state.indicator) if owns_indicator and seat == state.folder else None
    sizes = [h.bit_count() for h in state.hands]
    if owns_indicator:
        sizes[state.folder] += 1
    return indicator, sizes


def _card_points(state: StateData, down: int) -> tuple[int, ...]:
    """Each hand team's card points, less those of the cards played face down that the seat did not see (`down`):
    those are not his to count."""
    card_points = list(state.team_points)
    if down:
        for t in state.tricks:
            for c in t.cards:
                if down >> c & 1:
                    card_points[state.hand_team_of[t.winner]] -= state.points_of[c]
    return tuple(card_points)


def _contract_facts(state: StateData) -> tuple[int | None, int | None, int | None, int | None]:
    """The contract's bidder, bid and target, and the auction round that fixed it (where rounds matter): all None
    while there is no contract."""
    if state.bidder < 0:
        return None, None, None, None
    return state.bidder, state.bid, state.target, state.contract_round if state.game.rounds_matter else None


def _claim_facts(state: StateData, seat: int, legal: tuple[Action, ...], hand: int) -> tuple[tuple[Action, ...],
                                                                                        int | None]:
    """The claims among `legal` that `seat` can prove now, and the card of the line he claimed with, in the view's
    numbering of his `hand` (a double pack's copies): (), None where the file has no claims."""
    g = state.game
    if not legal or not g.rules.claims:
        return (), None
    provable = provable_claims(state, seat, legal)
    c = claimed_line(state, seat) if state.phase == PLAY and state.claims else -1
    if c < 0:
        return provable, None
    return provable, hand_order(g, hand)[hand_order(g, state.hands[seat]).index(c)]


def _seats_in(mask: int, n: int) -> tuple[int, ...]:
    """The seats of a mask of seats, in order."""
    return tuple(s for s in range(n) if mask >> s & 1)


def _shown_melds(state: StateData) -> tuple[int, ...]:
    """Per seat, the cards of the melds the engine showed that he still holds; () where the file shows none."""
    if not state.meld_suits:
        return ()
    return tuple(state.melded[s] & state.hands[s] for s in range(state.game.n))


def _trump_mode_name(state: StateData, known: int | None) -> str | None:
    """The named trump mode of the hand, where there is one and the seat knows the trump."""
    if state.trump_mode < 0 or known is None:
        return None
    return state.game.mode_names[state.trump_mode]


def _turned_facts(state: StateData, ids: _Numbering) -> tuple[int | None, int | None, int | None]:
    """The card turned for trump, the stock's bottom card shown, and the card turned up for take-or-pass, where
    there are (numbered in this order, after everything else)."""
    turned = ids.of(state.turned) if state.turned >= 0 else None
    bottom = ids.of(state.bottom_shown) if state.bottom_shown >= 0 else None
    turned_up = ids.of(state.turned_card) if state.turned_card >= 0 else None
    return turned, bottom, turned_up


def _combination_facts(state: StateData, ids: _Numbering) -> tuple[tuple[AnnouncedMeld, ...], tuple[int, ...],
                                                                tuple[int, ...], tuple[int, ...]]:
    """The view's facts of the melds of the European games (announced, marriages, meld points, marriage points):
    none for files without them."""
    g = state.game
    if g.rules.combinations is None and g.rules.marriage is None:
        return (), (), (), ()
    from engine.play.combinations import KIND_NAMES, MARRIAGE_SLOT, NOT_COMPARED, scoring_combos

    shown = state.combo_winner != NOT_COMPARED
    scoring = scoring_combos(state)
    announced = tuple(AnnouncedMeld(seat=m.seat, kind=KIND_NAMES[m.kind], length=m.length, value=m.value,
                                    cards=ids.mask(hand_order(g, m.cards)) if shown else 0,
                                    scores=(m in scoring) if shown else None) for m in state.combos)
    return (announced, tuple(x // MARRIAGE_SLOT for x in state.marriages), tuple(state.meld_points),
            tuple(state.marriage_points))


# Whether this module runs compiled (mypyc): a compiled function sets a frozen record's fields directly, without
# the dataclass's generated __init__ (interpreted, one object.__setattr__ call a field: most of a view's cost).
NATIVE = not isinstance(hand_order, types.FunctionType)


def _make_view(*, game: GameTables, seat: int, ruleset: str, players: int, dealer: int, phase: str, to_act: int, hand:
               int, hand_sizes: tuple[int, ...], teams: tuple[tuple[int, ...], ...], history: tuple[Action, ...],
               bidder: int | None, bid: int | None, target: int | None, trump_concealed: bool, trump: int | None,
               indicator: int | None, exposed_in_trick: int | None, multiplier: int, special: str | None, sitting_out:
               tuple[int, ...], trick: TrickView, tricks: tuple[TrickView, ...], card_points: tuple[int, ...],
               match_scores: tuple[int, ...], legal: tuple[Action, ...], status: str, auction_round: int,
               contract_round: int | None, speaking_for: int | None, handed_back: bool, added: int, conceded: bool,
               match_target: int | None, exposed: tuple[ExposedHand, ...], dummies: tuple[int, ...], controller: int |
               None, melds: tuple[int, ...], provable: tuple[Action, ...], sweep_line: int | None, trump_mode: str |
               None, trump_multiplier: int, announced: tuple[AnnouncedMeld, ...], marriages: tuple[int, ...],
               meld_points: tuple[int, ...], marriage_points: tuple[int, ...], turned: int | None, stock_bottom: int |
               None, turned_up: int | None) -> View:
    """`View(...)` with these fields; compiled, the record is filled field by field (the same record: frozen,
    compared and written as any other; tests/test_view.py checks that every field is set here)."""
    if not NATIVE:
        return View(game=game, seat=seat, ruleset=ruleset, players=players, dealer=dealer, phase=phase,
                    to_act=to_act, hand=hand, hand_sizes=hand_sizes, teams=teams, history=history,
                    bidder=bidder, bid=bid, target=target, trump_concealed=trump_concealed, trump=trump,
                    indicator=indicator, exposed_in_trick=exposed_in_trick, multiplier=multiplier,
                    special=special, sitting_out=sitting_out, trick=trick, tricks=tricks,
                    card_points=card_points, match_scores=match_scores, legal=legal, status=status,
                    auction_round=auction_round, contract_round=contract_round, speaking_for=speaking_for,
                    handed_back=handed_back, added=added, conceded=conceded, match_target=match_target,
                    exposed=exposed, dummies=dummies, controller=controller, melds=melds, provable=provable,
                    sweep_line=sweep_line, trump_mode=trump_mode, trump_multiplier=trump_multiplier,
                    announced=announced, marriages=marriages, meld_points=meld_points,
                    marriage_points=marriage_points, turned=turned, stock_bottom=stock_bottom,
                    turned_up=turned_up)
    v = View.__new__(View)
    v.game = game  # type: ignore[misc]
    v.seat = seat  # type: ignore[misc]
    v.ruleset = ruleset  # type: ignore[misc]
    v.players = players  # type: ignore[misc]
    v.dealer = dealer  # type: ignore[misc]
    v.phase = phase  # type: ignore[misc]
    v.to_act = to_act  # type: ignore[misc]
    v.hand = hand  # type: ignore[misc]
    v.hand_sizes = hand_sizes  # type: ignore[misc]
    v.teams = teams  # type: ignore[misc]
    v.history = history  # type: ignore[misc]
    v.bidder = bidder  # type: ignore[misc]
    v.bid = bid  # type: ignore[misc]
    v.target = target  # type: ignore[misc]
    v.trump_concealed = trump_concealed  # type: ignore[misc]
    v.trump = trump  # type: ignore[misc]
    v.indicator = indicator  # type: ignore[misc]
    v.exposed_in_trick = exposed_in_trick  # type: ignore[misc]
    v.multiplier = multiplier  # type: ignore[misc]
    v.special = special  # type: ignore[misc]
    v.sitting_out = sitting_out  # type: ignore[misc]
    v.trick = trick  # type: ignore[misc]
    v.tricks = tricks  # type: ignore[misc]
    v.card_points = card_points  # type: ignore[misc]
    v.match_scores = match_scores  # type: ignore[misc]
    v.legal = legal  # type: ignore[misc]
    v.status = status  # type: ignore[misc]
    v.auction_round = auction_round  # type: ignore[misc]
    v.contract_round = contract_round  # type: ignore[misc]
    v.speaking_for = speaking_for  # type: ignore[misc]
    v.handed_back = handed_back  # type: ignore[misc]
    v.added = added  # type: ignore[misc]
    v.conceded = conceded  # type: ignore[misc]
    v.match_target = match_target  # type: ignore[misc]
    v.exposed = exposed  # type: ignore[misc]
    v.dummies = dummies  # type: ignore[misc]
    v.controller = controller  # type: ignore[misc]
    v.melds = melds  # type: ignore[misc]
    v.provable = provable  # type: ignore[misc]
    v.sweep_line = sweep_line  # type: ignore[misc]
    v.trump_mode = trump_mode  # type: ignore[misc]
    v.trump_multiplier = trump_multiplier  # type: ignore[misc]
    v.announced = announced  # type: ignore[misc]
    v.marriages = marriages  # type: ignore[misc]
    v.meld_points = meld_points  # type: ignore[misc]
    v.marriage_points = marriage_points  # type: ignore[misc]
    v.turned = turned  # type: ignore[misc]
    v.stock_bottom = stock_bottom  # type: ignore[misc]
    v.turned_up = turned_up  # type: ignore[misc]
    return v


def _trick_view(leader: int, seats: tuple[int, ...], cards: tuple[int, ...], winner: int | None,
                points: int | None) -> TrickView:
    """`TrickView(...)`, filled field by field where compiled (see `_make_view`)."""
    if not NATIVE:
        return TrickView(leader=leader, seats=seats, cards=cards, winner=winner, points=points)
    t = TrickView.__new__(TrickView)
    t.leader = leader  # type: ignore[misc]
    t.seats = seats  # type: ignore[misc]
    t.cards = cards  # type: ignore[misc]
    t.winner = winner  # type: ignore[misc]
    t.points = points  # type: ignore[misc]
    return t
