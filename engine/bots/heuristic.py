"""The heuristic bot: bids from a hand evaluation, names its strongest suit, and plays by card-play rules of thumb
(win cheaply, feed points to a partner who is winning, keep the trump Jack, lead masters and low from length);
its last few cards are weighed over a few sampled worlds (endgame.py; not by `heuristic:v1` nor `heuristic:never`).
It reads only its seat's `View`. Its rules outside the card play are the contract policy (policy.py), which the
search bots' rollouts follow too."""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.bidding import speech_masks
from engine.bots.endgame import endgame_play
from engine.bots.info import Seen, last_bidder, led_trump_suit, read_view
from engine.bots.model import TRICK_WORTH, model_for
from engine.bots.policy import ContractPolicy, Facts, Knowledge, forced_bid, policy_for, suit_named
from engine.bots.turned_choice import choose as turned_choice
from engine.bots.viewbot import ViewBot, interpreted_class
from engine.cards import card_ids
from engine.play.actions import Action
from engine.play.base import PHASE_NAMES, UNDECIDED
from engine.play.game import NO_TRUMP, Game, winning_index
from engine.play.view import View


@interpreted_class
class HeuristicBot(ViewBot):
    name = "heuristic"
    plays_forced_unseen = True    # one legal action: played without reading the view (engine.sim.forced_unseen)

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seen = read_view(self.game, self.check_view(view))
        choice = decide(self.game, seen, legal, self.policy)
        if seen.view.phase == "play" and not (self.policy.v1 or self.policy.never):
            # the last cards weighed over a few sampled worlds (endgame.py); `v1` and `never` play as before
            return endgame_play(self.game, seen, legal, choice, self._rng, self.policy)
        return choice


def decide(game: Game, seen: Seen, legal: Sequence[Action], policy: ContractPolicy | None = None) -> Action:
    """The heuristic's choice for any phase: the card play below, every other decision by the contract policy
    (policy.py; default: the game's, on its merits)."""
    if policy is None:
        policy = policy_for(model_for(game))
    if seen.view.phase == "play":
        # where cards stay out of play, a suit the others have shown void in holds no card in play any more
        seen.live_only = not policy.v3 and game.n * game.cards_each < game.size
        return play_card(game, seen, legal, policy)
    if seen.view.phase in TURNED_PHASES:
        return turned_choice(game, seen.view, legal, policy.v2, policy.v3)
    return policy.choose(view_knowledge(seen), tuple(legal))


TURNED_PHASES = ("take_or_pass", "choose_trump", "exchange")


def view_knowledge(seen: Seen) -> Knowledge:
    """What the policy reads, from the seat's view."""
    v = seen.view
    team_of = [0] * v.players
    for i, team in enumerate(v.teams):
        for s in team:
            team_of[s] = i
    trump = seen.trump if seen.trump is not None else UNDECIDED
    own = 1 << seen.indicator if seen.indicator >= 0 else 0
    bidder = v.bidder if v.bidder is not None else -1
    lost = bidder >= 0 and any(t.winner is not None and team_of[t.winner] != team_of[bidder] for t in v.tricks)
    high = 0
    high_suit = UNDECIDED
    high_code = ""
    for a in reversed(v.history):
        if a.verb == "bid":
            high, code, _ = seen.game.bid_terms(a.arg)
            if v.phase == "auction":
                high_suit = suit_named(seen.game, code)
                high_code = code
            break
    facts = Facts(seen.unknown, list(v.hand_sizes), list(v.card_points), v.target or 0, v.multiplier, lost,
                  len(v.tricks), v.phase == "play" and not v.trick.cards, v.special is not None,
                  v.contract_round or 0, v.speaking_for if v.speaking_for is not None else -1, high,
                  v.trump_concealed, high_suit, v.added, forced_bid(seen.game, v.history, v.dealer), v.provable,
                  speech_masks(v.history) if v.phase == "auction" else (0, 0), high_code)
    return Knowledge(v.seat, PHASE_INDEX[v.phase], seen.hand, own, trump, seen.strength, bidder, v.bid or 0,
                     last_bidder(v), team_of, facts)


PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}


def claimed_line_play(game: Game, view: View, legal: Sequence[Action]) -> Action | None:
    """After the seat's own claim of every remaining trick: the play its view says keeps the sweep proved."""
    if view.sweep_line is None:
        return None
    code = game.codes[view.sweep_line]
    for a in legal:
        if a.verb == "play" and a.arg == code:
            return a
    return None


def settled_claims(game: Game, view: View, legal: Sequence[Action]) -> Action | list[Action]:
    """For the search bots' card play (`pimc`, `search`, but not `never`): a claim the view says the seat can
    prove now is called at once; one it cannot prove is not looked at (it would be graded early or fail). The
    claim to call, or the legal actions left."""
    if not game.rules.claims:
        return list(legal)
    if view.provable:
        return view.provable[0]
    line = claimed_line_play(game, view, legal)
    if line is not None:
        return line
    names = {c.name for c in game.rules.claims}
    left = [a for a in legal if not (a.verb == "declare" and a.arg in names)]
    return left if left else list(legal)


# --- card play ---------------------------------------------------------------------------------------------
# Where cards stay out of play (a stock: klaberjass), the maker draws trumps only while he holds this many. Duplicate
# with the new take or pass at both seats, this card play against heuristic:v3's, 1,000 deals, seed 404: drawing
# always +1.14 [+0.60, +1.68] a hand, never +1.15 [-0.06, +2.35], from 3 trumps +1.72 [+0.70, +2.73], from 4
# +1.65 [+0.46, +2.83]; seed 1: always +0.81 [+0.28, +1.33], from 3 +1.61 [+0.68, +2.53]
STOCK_DRAW_FROM = 3

def trick_winner(game: Game, seen: Seen, cards: list[int]) -> int:
    """Index of the card winning `cards` so far, by the one rule the engine uses."""
    return winning_index(cards, game.suit_of, seen.strength, seen.power, seen.power_from)


def play_card(game: Game, seen: Seen, legal: Sequence[Action], policy: ContractPolicy | None = None) -> Action:
    v = seen.view
    # cards played face down that he did not see (the blind cut) cannot be weighed: the visible ones are the trick
    visible = [(s, c) for s, c in zip(v.trick.seats, v.trick.cards, strict=True) if c >= 0]
    trick = [c for _, c in visible]
    cards = [(a, _card_id(game, seen, a.arg)) for a in legal if a.verb == "play"]
    others = [a for a in legal if a.verb != "play"]
    extras = {a.verb: a for a in others}
    if "show" in extras:
        return extras["show"]
    if "announce" in extras:     # melds announced in trick 1 (combinations): they score only when announced
        return extras["announce"]
    if policy is not None and not policy.never:
        line = claimed_line_play(game, v, legal)
        if line is not None:
            return line      # the seat claimed every trick left: it plays the line its proof follows
    if policy is not None and others:
        taken = policy.play_extra(view_knowledge(seen), others)
        if taken is not None:
            return taken
    if cards and policy is not None and not policy.never and _helps_lone_partner(seen):
        return _duck(game, seen, cards)
    if "declare" in extras and sure_of_the_rest(game, seen) and (
            policy is None or policy.never or game.contracts.get(extras["declare"].arg) is not None):
        return extras["declare"]   # a declaration before a trick: every trick left is his (a claim: see above)
    power = None if v.trump_concealed else seen.trump
    me = v.seat
    if not trick:
        return _lead(game, seen, cards, power) if cards else legal[0]
    seats = [s for s, _ in visible]
    win = trick_winner(game, seen, trick)
    points = sum(seen.points[c] for c in trick)
    active = v.players - len(v.sitting_out)
    last = len(v.trick.cards) == active - 1
    partner_winning = seen.partners(seats[win], me) and not (game.rules.table.bidder_plays_alone and me != v.bidder
                                                            and seats[win] == v.bidder)
    if "call" in extras and not partner_winning and _worth_calling(game, seen, points, cards):
        return extras["call"]
    if not cards:
        return extras.get("call", legal[0])
    if _against_sweep(seen) and not partner_winning:
        return _break_sweep(game, seen, trick, cards, power)
    secure = last or _master_now(game, seen, trick[win], power)
    if partner_winning and secure:
        return _feed(game, seen, cards)
    beaters = [(a, c) for a, c in cards
               if trick_winner(game, seen, [*trick, c]) == len(trick)]
    if partner_winning or not beaters:
        return _cheapest(game, seen, cards)
    beaters.sort(key=lambda ac: (game.suit_of[ac[1]] == power, seen.strength[ac[1]], seen.points[ac[1]]))
    if last:
        return beaters[0][0]
    for a, c in beaters:
        if _master_now(game, seen, c, power) or game.suit_of[c] == power:
            return a
    if seen.points[beaters[0][1]] == 0 or points >= TRICK_WORTH:
        return beaters[0][0]
    return _cheapest(game, seen, cards)


def _helps_lone_partner(seen: Seen) -> bool:
    """The seat's partner plays a special contract alone (every trick his): the seat must not win a trick."""
    v = seen.view
    return (v.special is not None and v.bidder is not None and v.bidder != v.seat and seen.partners(v.seat, v.bidder)
            and v.seat not in v.sitting_out)


def _against_sweep(seen: Seen) -> bool:
    """The other side plays a special contract for every trick: one trick won beats it, card points count for
    nothing."""
    v = seen.view
    return v.special is not None and v.bidder is not None and not seen.partners(v.seat, v.bidder)


def _break_sweep(game: Game, seen: Seen, trick: list[int], cards: Sequence[tuple[Action, int]],
                 power: int | None) -> Action:
    """Against a contract for every trick: take the trick with the weakest card that beats it; else give the
    card least likely to win a later one (not a trump, not a master of its suit, the lowest), whatever its
    points: a points-first discard would throw away the top cards of a reversed ranking."""
    beaters = [(a, c) for a, c in cards if trick_winner(game, seen, [*trick, c]) == len(trick)]
    if beaters:
        return min(beaters, key=lambda ac: (game.suit_of[ac[1]] == power, seen.strength[ac[1]]))[0]
    return min(cards, key=lambda ac: (game.suit_of[ac[1]] == power, _master_now(game, seen, ac[1], power),
                                      seen.strength[ac[1]]))[0]


def _duck(game: Game, seen: Seen, cards: Sequence[tuple[Action, int]]) -> Action:
    """A card that does not take the trick: the strongest such card (a card that might win a later trick is best
    gone), not a trump when another will do; a lead (the contract is lost then): the weakest card."""
    trick = [c for c in seen.view.trick.cards if c >= 0]   # a card played face down is not seen
    power = seen.trump if seen.trump is not None else NO_TRUMP
    if not trick:
        return min(cards, key=lambda ac: (seen.strength[ac[1]], seen.points[ac[1]]))[0]
    under = [(a, c) for a, c in cards if trick_winner(game, seen, [*trick, c]) != len(trick)]
    if not under:
        return min(cards, key=lambda ac: (seen.strength[ac[1]], seen.points[ac[1]]))[0]
    return max(under, key=lambda ac: (game.suit_of[ac[1]] != power, seen.strength[ac[1]]))[0]


def sure_of_the_rest(game: Game, seen: Seen) -> bool:
    """Whether the seat, on lead, is certain to win every trick left itself, whatever the others hold: it knows
    the trump (or there is none); each of its cards beats every card of its suit still out, or has above it at
    least as many of its own cards as are still out in that suit; and a card not a trump is safe from a ruff
    only when no trump is still out."""
    if seen.trump is None:
        return False
    held = seen.held
    trump = seen.trump
    ruffable = trump >= 0 and bool(seen.live(trump))
    m = held
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        s = game.suit_of[c]
        if s != trump and ruffable:
            return False
        out = seen.live(s)
        st = seen.strength[c]
        if out and max(seen.strength[x] for x in card_ids(out)) >= st:
            above = sum(1 for x in card_ids(held & game.suit_masks[s]) if seen.strength[x] > st)
            if above < out.bit_count():
                return False
    return True


def _worth_calling(game: Game, seen: Seen, points: int, cards: Sequence[tuple[Action, int]]) -> bool:
    """Call for the trump when the trick is worth taking and discarding would only give points away."""
    if not cards:
        return True
    return points >= TRICK_WORTH or min(seen.points[c] for _, c in cards) > 0


def _lead(game: Game, seen: Seen, cards: Sequence[tuple[Action, int]], power: int | None) -> Action:
    v = seen.view
    if v.special is not None and v.bidder == v.seat:
        return _lead_alone(game, seen, cards)
    on_bidding_side = v.bidder is not None and seen.partners(v.seat, v.bidder)
    trump = seen.trump if seen.trump is not None and seen.trump >= 0 else NO_TRUMP
    # draw trumps: the bidding side with the master trump while opponents may still hold trumps (where cards stay
    # out of play, only while it holds STOCK_DRAW_FROM trumps: a short holding keeps them to ruff)
    if on_bidding_side and power is not None and power >= 0 and seen.live(power) and not (
            seen.live_only and (seen.hand & game.suit_masks[power]).bit_count() < STOCK_DRAW_FROM):
        masters = [(a, c) for a, c in cards if game.suit_of[c] == power and _master_now(game, seen, c, power)]
        if masters:
            return max(masters, key=lambda ac: seen.strength[ac[1]])[0]
    side = [(a, c) for a, c in cards if game.suit_of[c] != trump] or list(cards)
    masters = [(a, c) for a, c in side if _master_now(game, seen, c, power) and not _ruffable(seen, c, power)]
    if masters:
        return max(masters, key=lambda ac: (seen.points[ac[1]], seen.strength[ac[1]]))[0]
    # lead low from the longest side suit, keeping cards that may still win
    length = [(seen.hand & game.suit_masks[s]).bit_count() for s in range(game.nsuits)]
    return min(side, key=lambda ac: (seen.points[ac[1]], -length[game.suit_of[ac[1]]], seen.strength[ac[1]]))[0]


def _lead_alone(game: Game, seen: Seen, cards: Sequence[tuple[Action, int]]) -> Action:
    """A special contract for every trick: draw the trumps still out with the highest trump, then lead from the
    top of a suit (the card most sure to win)."""
    trump = seen.trump if seen.trump is not None and seen.trump >= 0 else NO_TRUMP
    sp = game.contracts.get(seen.view.special or "")
    if sp is not None and sp.first_card_trumps and not seen.view.tricks:
        trump = led_trump_suit(game, seen.hand, seen.strength)   # the first lead names it: the longest suit
    if trump >= 0 and seen.live(trump):
        trumps = [(a, c) for a, c in cards if game.suit_of[c] == trump]
        if trumps:
            return max(trumps, key=lambda ac: seen.strength[ac[1]])[0]
    masters = [(a, c) for a, c in cards if _master_now(game, seen, c, None)]
    pool = masters or list(cards)
    return max(pool, key=lambda ac: seen.strength[ac[1]])[0]


def _ruffable(seen: Seen, card: int, power: int | None) -> bool:
    """An opponent known to be void in this suit could trump it."""
    if power is None or power < 0:
        return False
    s = seen.game.suit_of[card]
    return any(seen.voids[o] >> s & 1 and not seen.voids[o] >> power & 1
               for o in range(seen.view.players) if not seen.partners(o, seen.view.seat))


def _master_now(game: Game, seen: Seen, card: int, power: int | None) -> bool:
    """No card still out can beat `card` in its own suit (trumping aside, unless it is a trump)."""
    out = seen.live(game.suit_of[card])
    return not out or max(seen.strength[c] for c in card_ids(out)) <= seen.strength[card]


def _feed(game: Game, seen: Seen, cards: Sequence[tuple[Action, int]]) -> Action:
    """The partner has the trick: give points, but not a card that is a master of its suit or a trump."""
    power = seen.trump if seen.trump is not None else NO_TRUMP
    spare = [(a, c) for a, c in cards if game.suit_of[c] != power and not _master_now(game, seen, c, None)]
    pool = spare or list(cards)
    return max(pool, key=lambda ac: (seen.points[ac[1]], -seen.strength[ac[1]]))[0]


def _cheapest(game: Game, seen: Seen, cards: Sequence[tuple[Action, int]]) -> Action:
    """Lose as little as possible: fewest points, keep trumps, then the lowest card."""
    power = seen.trump if seen.trump is not None else NO_TRUMP
    return min(cards, key=lambda ac: (seen.points[ac[1]], game.suit_of[ac[1]] == power,
                                      seen.strength[ac[1]]))[0]


def _card_id(game: Game, seen: Seen, code: str) -> int:
    """The id of a card the seat may play (a double pack's copy it holds)."""
    ids = game.code_ids[code]
    pool = seen.held
    for c in ids:
        if pool >> c & 1:
            return c
    return ids[0]

