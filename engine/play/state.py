"""State: one hand in progress. The phase machine runs the rule file's schedule; each phase lives in its own
module (auction, contract steps, tricks, the turned card, melds) as functions over the hand's data, and scoring in
`scoring.py`.

State is that data (StateData, engine/play/base.py) plus the public interface (legal_actions, apply, view, clone,
result) and the schedule, which dispatch to the phase modules. The phase modules are siblings: none imports this
module; where one must reach another that imports it, or the schedule, it calls a hook StateData declares and
State implements (`_next_step`, `_finish`, `_start_trump`, ...)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from engine.errors import ArgumentError, IllegalActionError
from engine.play.actions import Action
from engine.play.auction import auction_apply, auction_legal
from engine.play.base import (
    ANSWER,
    AUCTION,
    CHOOSE,
    DEALING,
    DECLARE,
    DOUBLING,
    EXCHANGE,
    MELDS,
    NO_SURRENDER,
    NOT_ANNULLED,
    PHASE_NAMES,
    PLAY,
    POINTLESS,
    RAISE,
    TAKE,
    TRUMP,
    UNDECIDED,
    Result,
    StateData,
    Trick,
)
from engine.play.contract import (
    declarations_as_bids,
    declare_apply,
    declare_in_auction,
    declare_legal,
    doubling_apply,
    doubling_legal,
    pointless_apply,
    regroup_for_declarer,
    start_trump,
    trump_apply,
    trump_legal,
)
from engine.play.melds import meld_apply, meld_legal
from engine.play.schedule import after_full_deal, annul, finish, held_all_trumps, next_step
from engine.play.tables import GameTables, check_seat
from engine.play.tricks import answer_apply, answer_legal, play_apply, play_card, play_legal, play_mask
from engine.play.turned import apply as turned_apply
from engine.play.turned import legal as turned_legal
from engine.play.view import View, build_view

# The phase modules' effect of a legal action, by phase (the tricks' PLAY is called directly: the common case).
_PHASE_APPLY: Final[dict[int, Callable[[StateData, Action], None]]] = {
    AUCTION: auction_apply, RAISE: auction_apply, TRUMP: trump_apply, DOUBLING: doubling_apply,
    POINTLESS: pointless_apply, DECLARE: declare_apply, ANSWER: answer_apply, MELDS: meld_apply,
    TAKE: turned_apply, CHOOSE: turned_apply, EXCHANGE: turned_apply,
}


def _holds(legal: tuple[Action, ...], action: Action) -> bool:
    for a in legal:
        if a is action:
            return True
    return False


class State(StateData):
    """A hand of one game: `legal_actions()`, `apply(action)`, `view(seat)`, `result`, `clone()`.

    Not thread-safe: a State used by two threads at once is corrupted without an error (nothing is locked on the
    hot path); give each thread its own `clone()`, or guard one with a lock."""

    def __init__(self, game: GameTables, dealer: int, dealt: list[list[int]],
                 match_scores: list[int] | None = None, start: bool = True,
                 match_target: int | None = None, blank: bool = False, stock: list[int] | None = None) -> None:
        n = game.n
        teams = game.rules.table.teams
        self.game = game
        self.dealer = dealer
        self.n = n
        self.first = game.first_hand(dealer)
        self.dealt = dealt          # the caller's own lists (new_hand makes them); never changed, so clones share
        self.match_scores = list(match_scores) if match_scores else [0] * len(teams)
        self.match_target = game.rules.match.win_at if match_target is None else match_target
        self.stock = stock if stock is not None else []   # shared like the deal: never changed
        if len(self.stock) != game.stock_size:
            raise ArgumentError(f"stock: the game leaves {game.stock_size} cards undealt, {len(self.stock)} given")
        if blank:
            return                  # `clone` sets every other field
        self.given = [0] * n
        self.received = [0] * n     # every card each seat has been dealt so far (the indicator included)
        self.hands = [0] * n
        self.step = 0
        self.stage = 0
        self.phase = DEALING
        self.to_act = -1
        self.history = []
        self.status = "in_progress"
        self.annul_reason = ""
        self.annul_code = NOT_ANNULLED
        self.new_match_target = -1
        self.round = 0
        self.contract_round = 0
        self.arules = game.rules.auction
        self.atable = game.rounds[0]
        self.high = 0
        self.high_bidder = -1
        self.high_suit = ""
        self.passes = 0
        self.passers = 0
        self.bids_made = [0] * n
        self.round_bids = 0
        self.passed = [False] * n
        self.spoke = [False] * n
        self.last_was_pass = False
        self.asker = -1
        self.handed_back = False
        self.lapses = 0
        self.refold = False
        self.bidder = -1
        self.bid = 0
        self.target = 0
        self.trump = UNDECIDED
        self.folder = -1
        self.trump_mask = 0
        self.strength = game.strength
        self.concealed = False
        self.indicator = -1
        self.seventh = False
        self.exposed_trick = 0
        self.power_from = 0
        self.multiplier = 1
        self.added = 0
        self.fixed_stake = 0
        self.queue = []
        self.rechoosing = False
        self.dbl_step = 0
        self.doubled = False
        self.special = None
        self.declarer = -1
        self.last_card = False
        self.fold_secret = False
        self.pending = -1
        self.pending_by = -1
        self.at_first_lead = False
        self.melds_shown = []
        self.meld_shift = 0
        self.meld_base = 0
        self.meld_points = [0] * len(teams)
        self.claim = -1
        self.claimer = -1
        self.sitting_out = 0
        self.dummies = 0
        self.exposed = 0
        self.hand_tricks = game.tricks_per_hand
        self.hand_teams = [list(t) for t in teams]
        self.hand_team_of = list(game.team_of)
        self.leader = -1
        self.trick_cards = []
        self.trick_seats = []
        self.tricks = []
        self.led_suits = 0
        self.played_suits = 0
        self.constraint = 0
        self.caller = -1
        self.resume_to = -1
        self.after = game.after
        self.trick_size = n
        self.plain_play = True
        self.duty_play = False
        self.led = -1
        self.team_points = [0] * len(self.hand_teams)
        self.points_of = game.points
        self.all_trumps = False
        self.trump_mode = -1
        self.trump_multiplier = 1
        self.held_over = 0
        self.banked_stop = 0
        self.marriage_points = [0] * len(self.hand_teams)
        self.tricks_won_by = [0] * n
        self.pair_shown_by = []
        self.surrender = NO_SURRENDER
        self.conceded = False
        self.bidders_lost_trick = False
        self.opening = False
        self.open_duty = False
        self.exhausted = False
        self.face_down = 0
        self.hidden = 0
        self.shown = [0] * n
        self.claims = []
        self.meld_suits = 0
        self.melded = [0] * n
        self.grading = False
        self.announced = 0
        self.combos = []
        self.combo_winner = -2
        self.marriages = []
        self.resume_plain = True
        self.resume_duty = False
        self.turned = -1
        self.turned_suit = -1
        self.turned_card = -1
        self.stock_used = 0
        self.bottom_shown = -1
        self.take_round = 0
        self.take_spoke = 0
        self.schmeiss_by = -1
        self.must_name = False
        self.pushed = False
        self._legal = None
        self._legal_mask = 0
        self._extras = []
        self._mask_ready = False
        self._game_points = None
        self._made = None
        if start:
            self._next_step()

    # --- the schedule (engine/play/schedule.py), which the phase modules reach through StateData's hooks --------
    def _after_full_deal(self) -> bool:
        return after_full_deal(self)

    def _next_step(self) -> None:
        next_step(self)

    def _annul(self, reason: str, code: int) -> None:
        annul(self, reason, code)

    def _held_all_trumps(self) -> bool:
        return held_all_trumps(self)

    def _finish(self) -> None:
        finish(self)

    # --- the hooks through which the auction reaches the contract steps (StateData declares them) -------------
    def _start_trump(self) -> None:
        start_trump(self)

    def _regroup_for_declarer(self, declarer: int) -> None:
        regroup_for_declarer(self, declarer)

    def _declarations_as_bids(self, seat: int) -> list[Action]:
        return declarations_as_bids(self, seat)

    def _declare_in_auction(self, a: Action) -> None:
        declare_in_auction(self, a)

    # --- the public interface -----------------------------------------------------------------------
    @property
    def current_seat(self) -> int:
        """The seat to act, or -1 when the hand is over (see `controller` for who chooses a dummy's play)."""
        return self.to_act

    @property
    def is_terminal(self) -> bool:
        return self.status != "in_progress"

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat to act may take now (empty once the hand is over). A tuple: what a caller holds
        cannot change what the state accepts."""
        legal = self._legal
        if legal is None:
            ph = self.phase
            if ph == PLAY:
                legal = play_legal(self)
            elif ph == AUCTION or ph == RAISE:
                legal = auction_legal(self)
            else:
                legal = tuple(self._contract_legal())
            self._legal = legal
        return legal

    # --- the play phase on card ids: what search and simulation use, without building action lists ----------
    def card_mask(self) -> int:
        """The card ids (as bits) the seat to act may play now; 0 outside the play phase or when its only choices
        are other actions (see `other_actions`)."""
        if self.phase != PLAY:
            return 0
        return self._legal_mask if self._mask_ready else play_mask(self)

    def other_actions(self) -> list[Action]:
        """In the play phase, the legal actions that are not cards (call, show pair, surrender); a new list."""
        if self.phase != PLAY:
            return []
        if not self._mask_ready:
            play_mask(self)
        return list(self._extras)

    def play_card_id(self, card: object) -> None:
        """Play card id `card`, one of `card_mask()`'s bits; ArgumentError for any other card."""
        # `object`, not `int`: compiled, an int parameter would take True for card 1 before the check saw it
        if not isinstance(card, int) or isinstance(card, bool) or card < 0 or not (self.card_mask() >> card & 1):
            raise ArgumentError(f"card id {card!r} is not playable now")
        play_card(self, self.to_act, card)

    def _contract_legal(self) -> Sequence[Action]:
        """The legal actions between the auction and the tricks (and none once the hand is over)."""
        ph = self.phase
        if ph == TRUMP:
            return trump_legal(self)
        if ph == DOUBLING:
            return doubling_legal(self)
        if ph == POINTLESS:
            return [self.game.action(self.to_act, "pass"), self.game.action(self.to_act, "redeal")]
        if ph == DECLARE:
            return declare_legal(self)
        if ph == ANSWER:
            return answer_legal(self)
        if ph == MELDS:
            return meld_legal(self)
        if ph == TAKE or ph == CHOOSE or ph == EXCHANGE:
            return turned_legal(self)
        return []

    def normalise(self, action: Action) -> Action:
        """The interned form of an action as this state understands it."""
        g = self.game
        a = g.intern(action)
        if a.verb == "trump" and not g.rules.trump.as_card and self._holds_named_card(a.arg):
            # where the trump is named as a suit, a card the bidder holds names its suit (documented in the
            # rule files that use it); a card not in the deck or not held stays what it is: illegal
            return g.action(a.seat, "trump", a.arg[-1])
        # a doubling step is written as its name in any case; `declare NAME` is read the same
        named = a.arg if a.verb == "declare" else a.verb if not a.arg else ""
        for name in g.doubling_names:
            if named.lower() == name.lower():
                return g.action(a.seat, name)
        return a

    def _holds_named_card(self, code: str) -> bool:
        """`code` names a card of the deck the bidder holds (one of its copies)."""
        ids = self.game.code_ids.get(code)
        return ids is not None and self.bidder >= 0 and any(self.hands[self.bidder] >> c & 1 for c in ids)

    def apply(self, action: object) -> None:
        """Apply one legal action; an illegal one raises IllegalActionError and changes nothing."""
        # `object`, not `Action`: compiled, a typed parameter would refuse other values with a bare TypeError
        if not isinstance(action, Action):
            raise ArgumentError(f"apply() takes an Action, e.g. Action.parse('1 bid 16'), not "
                                f"{type(action).__name__}")
        if self.phase == PLAY and action.verb == "play" and action.seat == self.to_act:
            # fast path (inline: one call less per card): a card is legal when one of its copies is in the mask
            if self._legal is None:
                self.legal_actions()
            ids = self.game.code_ids.get(action.arg)
            if ids is not None:     # (a typed list: the compiled loop runs on it directly)
                mask = self._legal_mask
                for c in ids:
                    if mask >> c & 1:
                        play_card(self, action.seat, c)
                        return
        action = self._legal_form(action)
        self.history.append(action)
        self._legal = None
        self._mask_ready = False
        ph = self.phase
        if ph == PLAY:
            play_apply(self, action)
            return
        phase_apply = _PHASE_APPLY.get(ph)
        if phase_apply is not None:
            phase_apply(self, action)

    def _legal_form(self, action: Action) -> Action:
        """`action` as the legal action it is (interned, or in its normal form); IllegalActionError when none."""
        legal = self.legal_actions()
        # legal actions are interned, so identity decides (an equal action from elsewhere is interned first)
        if _holds(legal, action):
            return action
        action = self.normalise(action)
        if not _holds(legal, action):
            from engine.play.explain import why_illegal

            raise IllegalActionError(why_illegal(self, action))
        return action

    def clone(self) -> State:
        """An independent copy: every field written out (a compiled class has no __dict__ to copy, and a loop over
        names would be a generic attribute call per field); lists copied, tricks already played shared (they never
        change), what no action changes (the game, the deal, rule records, the strength table) shared.
        tests/test_clone.py holds a clone equal to its original field by field and independent of it."""
        c = State(self.game, self.dealer, self.dealt, self.match_scores, start=False, blank=True,
                  match_target=self.match_target, stock=self.stock)
        c.given = self.given[:]
        c.received = self.received[:]
        c.hands = self.hands[:]
        c.step = self.step
        c.stage = self.stage
        c.phase = self.phase
        c.to_act = self.to_act
        c.history = self.history[:]
        c.status = self.status
        c.annul_reason = self.annul_reason
        c.annul_code = self.annul_code
        c.new_match_target = self.new_match_target
        c.round = self.round
        c.contract_round = self.contract_round
        c.arules = self.arules
        c.atable = self.atable
        c.high = self.high
        c.high_bidder = self.high_bidder
        c.high_suit = self.high_suit
        c.passes = self.passes
        c.passers = self.passers
        c.bids_made = self.bids_made[:]
        c.round_bids = self.round_bids
        c.passed = self.passed[:]
        c.spoke = self.spoke[:]
        c.last_was_pass = self.last_was_pass
        c.asker = self.asker
        c.handed_back = self.handed_back
        c.lapses = self.lapses
        c.refold = self.refold
        c.bidder = self.bidder
        c.bid = self.bid
        c.target = self.target
        c.trump = self.trump
        c.folder = self.folder
        c.trump_mask = self.trump_mask
        c.strength = self.strength
        c.concealed = self.concealed
        c.indicator = self.indicator
        c.seventh = self.seventh
        c.exposed_trick = self.exposed_trick
        c.power_from = self.power_from
        c.multiplier = self.multiplier
        c.added = self.added
        c.fixed_stake = self.fixed_stake
        c.queue = self.queue[:]
        c.rechoosing = self.rechoosing
        c.dbl_step = self.dbl_step
        c.doubled = self.doubled
        c.special = self.special
        c.declarer = self.declarer
        c.last_card = self.last_card
        c.fold_secret = self.fold_secret
        c.pending = self.pending
        c.pending_by = self.pending_by
        c.at_first_lead = self.at_first_lead
        c.melds_shown = self.melds_shown[:]
        c.meld_points = self.meld_points[:]
        c.claim = self.claim
        c.claimer = self.claimer
        c.sitting_out = self.sitting_out
        c.dummies = self.dummies
        c.exposed = self.exposed
        c.hand_tricks = self.hand_tricks
        c.hand_team_of = self.hand_team_of[:]
        c.leader = self.leader
        c.trick_cards = self.trick_cards[:]
        c.trick_seats = self.trick_seats[:]
        c.tricks = self.tricks[:]
        c.led_suits = self.led_suits
        c.played_suits = self.played_suits
        c.constraint = self.constraint
        c.caller = self.caller
        c.resume_to = self.resume_to
        c.after = self.after
        c.trick_size = self.trick_size
        c.plain_play = self.plain_play
        c.duty_play = self.duty_play
        c.led = self.led
        c.team_points = self.team_points[:]
        c.points_of = self.points_of
        c.all_trumps = self.all_trumps
        c.trump_mode = self.trump_mode
        c.trump_multiplier = self.trump_multiplier
        c.held_over = self.held_over
        c.banked_stop = self.banked_stop
        c.marriage_points = self.marriage_points[:]
        c.tricks_won_by = self.tricks_won_by[:]
        c.pair_shown_by = self.pair_shown_by[:]
        c.surrender = self.surrender
        c.conceded = self.conceded
        c.bidders_lost_trick = self.bidders_lost_trick
        c.opening = self.opening
        c.open_duty = self.open_duty
        c.exhausted = self.exhausted
        c.face_down = self.face_down
        c.hidden = self.hidden
        c.shown = self.shown[:]
        c.claims = self.claims[:]
        c.meld_suits = self.meld_suits
        c.melded = self.melded[:]
        c.grading = self.grading
        c.announced = self.announced
        c.combos = self.combos[:]
        c.combo_winner = self.combo_winner
        c.marriages = self.marriages[:]
        c.resume_plain = self.resume_plain
        c.resume_duty = self.resume_duty
        c.stock = self.stock
        c.turned = self.turned
        c.turned_suit = self.turned_suit
        c.turned_card = self.turned_card
        c.stock_used = self.stock_used
        c.bottom_shown = self.bottom_shown
        c.take_round = self.take_round
        c.take_spoke = self.take_spoke
        c.schmeiss_by = self.schmeiss_by
        c.must_name = self.must_name
        c.pushed = self.pushed
        c._game_points = self._game_points
        c._made = self._made
        c.meld_shift = self.meld_shift
        c.meld_base = self.meld_base
        c.hand_teams = [t[:] for t in self.hand_teams]
        c._legal = None
        c._legal_mask = 0
        c._extras = []
        c._mask_ready = False
        return c

    # --- results --------------------------------------------------------------------------------------
    @property
    def game_points(self) -> list[int]:
        return list(self._game_points) if self._game_points is not None else [0] * len(self.hand_teams)

    @property
    def made(self) -> bool | None:
        return self._made

    @property
    def result(self) -> Result:
        return Result(status=self.status, teams=[list(t) for t in self.hand_teams], card_points=list(self.team_points),
                      game_points=self.game_points, made=self._made, reason=self.annul_reason,
                      tricks=tuple(Trick(leader=t.leader, seats=tuple(t.seats), cards=tuple(t.cards), winner=t.winner,
                                         points=t.points) for t in self.tricks))

    def trump_suit_code(self) -> str | None:
        """The trump suit's letter (None for no-trumps or not chosen yet): not for players' eyes."""
        return self.game.layout.suits[self.trump] if self.trump >= 0 else None

    def _restart(self) -> State:
        return State(self.game, self.dealer, self.dealt, self.match_scores, match_target=self.match_target,
                     stock=self.stock)

    def view(self, seat: object) -> View:
        """What `seat` may see: its cards and everything public (engine.play.view)."""
        return build_view(self, check_seat(seat, self.n))

    def __reduce__(self) -> tuple[object, tuple[GameTables, int, list[list[int]], list[int], int | None, list[Action],
                                                 list[int]]]:
        # a hand is rebuilt by replaying its actions on its deal: play is deterministic, and a compiled class has
        # no __dict__ for pickle to copy
        return (_rebuilt, (self.game, self.dealer, self.dealt, self.match_scores, self.match_target,
                           list(self.history), self.stock))


def _rebuilt(game: GameTables, dealer: int, dealt: list[list[int]], match_scores: list[int], match_target: int | None,
             history: list[Action], stock: list[int] | None = None) -> State:
    state = State(game, dealer, dealt, match_scores, match_target=match_target, stock=stock)
    for action in history:
        state.apply(game.intern(action))
    return state
