"""The heuristic's trump choices without an auction (engine/play/turned.py): take or pass on the turned card, name
a suit (or a mode) in the second round, name or push at choose_trump, schmeiss and answer a schmeiss, exchange the
lowest trump.

Where hands are scored banked (every file with these phases), each choice is weighed by the difference it is
expected to make between what the two sides bank (banked_bidding.banked_difference): the seat's side's total with
that trump is read from its cards as the auction reads it (z of the hand evaluation with that trump, the turned card
counted where taking brings it; its melds and marriage), with the constants fitted on simulated hands for a part of
the hand (TAKE_FIT: the turned card taken, benchmarks/banked_calibration.py --turned) and for the whole hand
(CHOOSE_FIT: the forehand naming; MODE_FIT: a named mode). The seat takes or names when that is worth more
than TAKE_MARGIN (a little below nothing: a pass leaves the choice to the others, who take when it pays them),
pushes when its best choice is worth less than its partner's on average (PUSH_MEAN, less what its own weak cards
take from him), schmeisses only a hand whose best suit is worth less than SCHMEISS_BELOW, and refuses a schmeiss
when taking is worth more than the redeal. Where cards stay out of play in a stock (klaberjass), a choice is
weighed against the card points expected in play (in_play_total, STOCK_TAKE_FIT) and taken when worth more than
a thrown-in deal (STOCK_TAKE_MARGIN); `heuristic:v3` keeps the weighing of before.

`heuristic:v2` keeps the choice of before (suit length and plain points, suits only): `choose_v2`.
Only legal actions are returned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.play.actions import Action
from engine.play.game import NO_TRUMP, Game
from engine.play.view import View

LENGTH_WEIGHT: Final = 10      # one more trump is worth about a ten's points
TAKE_PER_CARD: Final = 7       # take or name a suit when its weight reaches this much per card held
CHOOSE_PER_CARD: Final = 6     # at choose_trump: below this per card, push to the partner where one may


def suit_weight(game: Game, hand: int, suit: int, extra: int = -1) -> int:
    """How good `suit` is as trumps for these cards (plus `extra`, a card they would receive)."""
    mask = hand & game.suit_masks[suit]
    if extra >= 0 and game.suit_of[extra] == suit:
        mask |= 1 << extra
    count = mask.bit_count()
    pts = 0
    m = mask
    while m:
        low = m & -m
        pts += game.points[low.bit_length() - 1]
        m ^= low
    return count * LENGTH_WEIGHT + pts


def _best_named(game: Game, hand: int, legal: Sequence[Action]) -> tuple[Action | None, int]:
    best: Action | None = None
    weight = -1
    for a in legal:
        if a.verb == "trump" and a.arg in game.layout.suits:
            w = suit_weight(game, hand, game.layout.suits.index(a.arg))
            if w > weight:
                best, weight = a, w
    return best, weight


def _find(legal: Sequence[Action], verb: str) -> Action | None:
    return next((a for a in legal if a.verb == verb), None)


def choose_v2(game: Game, view: View, legal: Sequence[Action]) -> Action:
    """The heuristic's choice in the phases take_or_pass, choose_trump and exchange, as before the banked
    weighing (`heuristic:v2`)."""
    hand = view.hand
    held = max(hand.bit_count(), 1)
    exchange = _find(legal, "exchange")
    if exchange is not None:
        return exchange          # the turned card is worth more than the lowest trump
    named, weight = _best_named(game, hand, legal)
    passing = _find(legal, "pass")
    if view.phase == "choose_trump":
        push = _find(legal, "push")
        if push is not None and weight < CHOOSE_PER_CARD * held:
            return push
        return named if named is not None else legal[0]
    accept, refuse = _find(legal, "accept"), _find(legal, "refuse")
    if accept is not None and refuse is not None:
        turned = view.turned if view.turned is not None else -1
        w = max(suit_weight(game, hand, s) for s in range(game.nsuits)) if turned < 0 else \
            suit_weight(game, hand, game.suit_of[turned])
        return refuse if w >= TAKE_PER_CARD * held else accept
    take = _find(legal, "take")
    if take is not None:
        turned = view.turned if view.turned is not None else -1
        if turned >= 0:
            gets = turned if game.rules.deal.turned_to_taker else -1
            if suit_weight(game, hand, game.suit_of[turned], gets) >= TAKE_PER_CARD * held:
                return take
        return passing if passing is not None else take
    if named is not None and (passing is None or weight >= TAKE_PER_CARD * held):
        return named
    if passing is not None:
        return passing
    return legal[0]


# Fitted by benchmarks/banked_calibration.py --turned (seed 404, 1,500 deals per file): (edge, slope per z, curve
# per max(z, 0)^2, sd of the side's total in card points, m0, m1 per point of own melds, m2 per point of own
# marriage), as in banked_bidding.py: the turned card taken by the forced seat (belote, klaberjass: 3,000 hands),
# the trump named by the forehand with his whole hand and no push (schieber, klaverjas: 3,000 hands).
TAKE_FIT = (0.0260, 0.0922, -0.0038, 38.2, 8.75, 1.035, 1.316)
CHOOSE_FIT = (0.1288, 0.0766, 0.0023, 39.0, 13.14, 0.609, 0.135)
MODE_FIT = (-0.0116, 0.0746, 0.0113, 39.9, 6.75, 0.966, 0.0)   # a named mode, its z against the mode's own
#                        spread (TurnedWeigh.mode_z): --turned --modes, schieber's forehand made to name each mode
#                        in turn (1,500 deals)
# Where some cards stay out of play in a stock, the share is of the card points expected in play (in_play_total:
# read against the whole pack, the defenders were given the stock's points too, and a take was said 70-80 points
# worse than it banks) and the fit is that kind of file's own (--turned, klaberjass alone, seed 404, 3,000 hands):
# the spread of a total of 18 cards in play is narrower and the defenders' melds fewer than where all are dealt.
STOCK_TAKE_FIT = (0.1561, 0.0958, -0.0179, 24.19, 6.62, 0.878, 1.071)
STOCK_OTHER_MELDS = 9.27   # the defenders' melds and marriage there, on average (the same run)
STOCK_TAKE_MARGIN = 0.0    # take or name there when that is worth more than a thrown-in deal (nothing): duplicate
#                            against heuristic:v3, klaberjass, seed 404, 1,000 deals: -10 +1.90, 0 +1.91, 10 +2.79,
#                            20 +0.57 per hand (each interval about 2.4 wide): flat from -10 to 10
SPREAD_HANDS = 800     # random hands that fix a mode's mean and spread of units per hand size
PUSH_MEAN = 46.2       # the forced chooser's side's mean banked difference (schieber alone, 1,500 deals): what a
#                        push leaves to the partner, who then chooses with a hand of his own
PARTNER_SUPPORT = 0.0429   # a partner's share of the pack per standard deviation of the seat's strength (AGAINST)
TAKE_MARGIN = -30.0    # take or name when that is worth more than this: passing leaves the choice to the others,
#                        who take when it pays them. Duplicate, belote, 500 deals (seed 3), against the margin 0:
#                        -30 +4.4 [+0.5, +8.4], -60 +1.9 [-3.7, +7.4], +30 -11.9 [-15.2, -8.5] per hand;
#                        klaberjass -30 +0.6 [-1.0, +2.2]
SCHMEISS_BELOW = -45.0   # schmeiss (rather than pass) when no suit is worth more than this to the seat: a hand
#                           this weak wants the deal thrown in. Duplicate, klaberjass, 2,000 deals, the same bot with
#                           -45 against -100 (which never offers one): +0.78 [+0.51, +1.05] a hand (seed 404, fitted:
#                           -50 +0.19, -35 +1.00), +0.68 [+0.41, +0.95] (seed 1); about 77 offers in 1,000 hands


class TurnedWeigh:
    """The banked worth of each trump choice for one game."""

    def __init__(self, game: Game, v3: bool = False) -> None:
        from engine.bots.model import model_for

        self.game = game
        self.v3 = v3        # the weighing of before the cards in play were counted (`heuristic:v3`)
        self.stock = not v3 and game.n * game.cards_each < game.size    # some cards stay out of play
        self.margin = STOCK_TAKE_MARGIN if self.stock else TAKE_MARGIN
        self.model = model_for(game)
        b = game.rules.scoring.banked
        assert b is not None
        self.rules = b
        self._mode_spread: dict[tuple[int, int], tuple[float, float]] = {}

    def mode_z(self, hand: int, mode: int) -> float:
        """The strength of `hand` in the named trump mode, in standard deviations of that mode's units over random
        hands of that size (a mode is weighed against its own kind of hands, not against the best suit)."""
        n = hand.bit_count()
        key = (n, mode)
        sp = self._mode_spread.get(key)
        if sp is None:
            from engine.bots.model import hand_spread

            sp = self._mode_spread[key] = hand_spread(self.game.size, n, 777 + 31 * n + mode,
                                                      lambda h: float(self.model.mode_units(h, mode)), SPREAD_HANDS)
        return (self.model.mode_units(hand, mode) - sp[0]) / sp[1]

    def worth(self, seat: int, hand: int, code: str, gets: int = -1, out: int = -1) -> float:
        """The expected banked difference for the seat's side when it makes `code` the trump with `hand` (plus
        `gets`, the turned card it would receive; `out`: a card seen that stays out of play, the turned card
        nobody receives)."""
        from engine.bots.banked_bidding import banked_difference, code_multiplier, code_total, marriage_held, own_melds

        g = self.game
        m = self.model
        held = hand | (1 << gets if gets >= 0 else 0)
        n = held.bit_count()
        full = n >= g.cards_each
        mode = g.mode_index(code)
        stock = self.stock
        fit = CHOOSE_FIT if full else STOCK_TAKE_FIT if stock else TAKE_FIT
        if mode >= 0 and MODE_FIT:
            z = self.mode_z(held, mode)
            fit = MODE_FIT
        else:
            mean_u, sd_u = m.spread(n)
            z = (m.units_named(held, code) - mean_u) / sd_u
        edge, slope, curve, sd, m0, m1, m2 = fit
        total = in_play_total(g, code, held, out) if stock else code_total(g, code)
        zp = z if z > 0.0 else 0.0
        melds = own_melds(g, seat, held)
        marriage = marriage_held(g, held, code)
        mean = total * (m.share[seat] + edge + slope * z + curve * zp * zp) + m0 + m1 * melds + m2 * marriage
        return banked_difference(self.rules, 0, mean, sd, 1, total, m0 + m1 * melds + m2 * marriage,
                                 code_multiplier(g, code), STOCK_OTHER_MELDS if stock else -1.0)

    def best(self, seat: int, hand: int, legal: Sequence[Action], out: int = -1) -> tuple[Action | None, float]:
        """The `trump` choice worth most among `legal`, and its worth (`out`: a card seen out of play)."""
        best: Action | None = None
        top = -1e18
        for a in legal:
            if a.verb == "trump" and (a.arg in self.game.layout.suits or self.game.mode_index(a.arg) >= 0):
                w = self.worth(seat, hand, a.arg, -1, out)
                if w > top:
                    best, top = a, w
        return best, top

    def best_any(self, seat: int, hand: int, out: int = -1) -> float:
        """The worth of the seat's best suit as trumps (`out`: a card seen out of play)."""
        return max(self.worth(seat, hand, x, -1, out) for x in self.game.layout.suits)


def in_play_total(game: Game, code: str, held: int, out: int = -1) -> int:
    """The card points expected in play with the trump `code` named, the last trick's bonus included: every card
    point where every card is dealt; where some stay in a stock, the seat's own cards `held` and the share of the
    unseen cards' points that the hands still to be completed will hold (`out`: a card seen out of play)."""
    from engine.bots.banked_bidding import code_total

    dealt = game.n * game.cards_each
    if dealt >= game.size:
        return code_total(game, code)
    mode = game.mode_index(code)
    suit = game.layout.suits.index(code) if code in game.layout.suits else NO_TRUMP
    pts = game.points_for(suit, mode)
    if out >= 0 and held >> out & 1:
        out = -1
    own = unseen = 0
    for c in range(game.size):
        if held >> c & 1:
            own += pts[c]
        elif c != out:
            unseen += pts[c]
    n_held = held.bit_count()
    n_unseen = game.size - n_held - (1 if out >= 0 else 0)
    to_come = dealt - n_held
    share = to_come / n_unseen if n_unseen > 0 else 0.0
    return round(own + unseen * share) + game.rules.deck.bonus_points


_WEIGH: dict[tuple[int, bool], TurnedWeigh] = {}


def weigh_for(game: Game, v3: bool = False) -> TurnedWeigh:
    w = _WEIGH.get((id(game), v3))
    if w is None or w.game is not game:
        if len(_WEIGH) > 64:
            _WEIGH.clear()
        w = _WEIGH[(id(game), v3)] = TurnedWeigh(game, v3)
    return w


def choose(game: Game, view: View, legal: Sequence[Action], v2: bool = False, v3: bool = False) -> Action:
    """The heuristic's choice in the phases take_or_pass, choose_trump and exchange (`v3`: as before the cards in
    play were counted)."""
    if v2 or game.rules.scoring.banked is None:
        return choose_v2(game, view, legal)
    weigh = weigh_for(game, v3)
    seat = view.seat
    hand = view.hand
    exchange = _find(legal, "exchange")
    if exchange is not None:
        return exchange          # the turned card is worth more than the lowest trump
    turned = view.turned if view.turned is not None else -1
    out = turned if turned >= 0 and not game.rules.deal.turned_to_taker else -1
    named, worth = weigh.best(seat, hand, legal, out)
    passing = _find(legal, "pass")
    if view.phase == "choose_trump":
        push = _find(legal, "push")
        if push is not None and named is not None:
            m = weigh.model
            z = m.z(hand)
            if worth < PUSH_MEAN + 2.0 * PARTNER_SUPPORT * z * m.total:
                return push
        return named if named is not None else legal[0]
    gets = turned if turned >= 0 and game.rules.deal.turned_to_taker else -1
    accept, refuse = _find(legal, "accept"), _find(legal, "refuse")
    if accept is not None and refuse is not None:
        # refusing makes the seat the maker: of the turned suit in the first round, else of a suit it names
        w = weigh.worth(seat, hand, game.layout.suits[game.suit_of[turned]], gets, out) if turned >= 0 \
            and _find(legal, "take") is None and view.history and _first_round(view) else \
            weigh.best_any(seat, hand, out)
        return refuse if w > 0.0 else accept
    margin = weigh.margin
    take = _find(legal, "take")
    if take is not None:
        if turned >= 0 and weigh.worth(seat, hand, game.layout.suits[game.suit_of[turned]], gets, out) > margin:
            return take
        schmeiss = _find(legal, "schmeiss")
        if schmeiss is not None and weigh.best_any(seat, hand, out) < SCHMEISS_BELOW:
            return schmeiss
        return passing if passing is not None else take
    if named is not None and (passing is None or worth > margin):
        return named
    schmeiss = _find(legal, "schmeiss")
    if schmeiss is not None and worth < SCHMEISS_BELOW:
        return schmeiss
    if passing is not None:
        return passing
    return legal[0]


def _first_round(view: View) -> bool:
    """Whether the take-or-pass phase is still in its first round (fewer passes than seats so far)."""
    passes = sum(1 for a in view.history if a.verb == "pass")
    return passes < len(view.hand_sizes)
