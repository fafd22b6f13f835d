"""The heuristic's rules of thumb for the special options a rule file offers, read from the legal actions and the
rules as data (never from a game's name): special contracts (`declare NAME`, in the declarations or offered as
bids), claims of the remaining tricks, doubling steps and a fixed stake (in their window or inside the auction),
the surrender offer and its answer, conceding, the seventh card or the last card as the trump, a redeal instead of
naming it, a `change` mark in a second round of bidding, the `partner` speech, melds and pairs.

Each rule weighs the option against the plain one in game points, from the hand evaluation (model.py):
- a sweep (a special contract, a claim, a refused surrender) by the chance that the player wins every trick
  leading his top cards, estimated over random placements of the unseen cards (`sweep_chance`);
- doubling, a redouble and a fixed stake by their expected game points as the file scores them (bands,
  multipliers, what the steps add, a fixed stake, a loss below half the bid), at chances of the contract fitted on
  simulated hands (`own_chances` for the bidding side, `other_chances` for the other);
- `trump last` by the hand evaluation's units, averaged over the unseen card that names the trump, against naming
  the best suit; a redeal when the contract's expected game points with the best trump are below a new deal's (0);
- a special contract with reversed ranks at those ranks, its trump (where the first lead names it) the suit the
  card play leads first (`led_trump_suit`);
- conceding only when the contract can no longer be made (it scores the same as losing it);
- an option it knows nothing of is left alone, and a claim it does not know is made only when it is certain.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from engine.bots.info import led_trump_suit, top_strength
from engine.bots.model import hand_spread
from engine.play.actions import Action
from engine.play.base import AUCTION, UNDECIDED
from engine.play.game import NO_TRUMP
from engine.play.rules import DECLARE_IN_SECOND_AUCTION, SWEEP_REQUIRED, ContractRules

if TYPE_CHECKING:
    from engine.bots.policy import ContractPolicy, Knowledge

# The sweep estimate's calibration: the share of counterfactual declarations made (benchmarks/sweep_calibration.py:
# every offer of a special contract, and every surrender answered, on simulated hands played by the heuristic; seeds
# 101 and 202, checked on 303), per kind of contract, at a raw estimate of 0 and at the middle of the bins (0, 0.2],
# (0.2, 0.4] ... (0.8, 1.0], made monotone; read between those points by straight lines (to 1 at a raw 1). The raw
# estimate is pessimistic below 0.5 where a partner helps or the declarer plays alone: the others' cards are placed
# at random, where the card play lets a sweep through more often.
SWEEP_CAL_POINTS = (0.1, 0.3, 0.5, 0.7, 0.9)
SWEEP_CAL = (
    (0.056, 0.123, 0.301, 0.47, 0.676, 0.895),   # the partner's tricks count for the side (a dummy, a surrender)
    (0.003, 0.078, 0.386, 0.762, 0.762, 0.975),  # the declarer alone, his partner out
    (0.009, 0.238, 0.501, 0.6, 0.72, 0.95),      # the partner plays and must not win a trick
)
SIDE_SWEEP, ALONE_SWEEP, HELPED_SWEEP = 0, 1, 2
SWEEP_SAMPLES = 48       # random placements of the unseen cards per sweep estimate
MAKE_SD = 0.12           # spread of a side's card points about the hand evaluation's estimate (share of the pack)
DOUBLED_SIGNAL = 0.02    # what a double says about the doubling side's cards (share of the pack)
# Doubling, fitted on simulated hands of the heuristic (benchmarks/doubling_calibration.py: every file with doubling
# steps, doubles held back so that the hands are the plain ones; seeds 101 and 202). Shares of the pack's card points.
OWN_BIAS = (0.03, 0.11)  # the bidding side's points lie this far above its estimate (trump open, face down) ...
OWN_SD = (0.12, 0.22)    # ... spread this much
DOUBLED_SD = (0.9, 0.3)  # a double said against it lowers that estimate by this many spreads: the other side
#                          doubles on its strength against the contract, which says more when it knows the trump,
#                          and more beside a part of the hand (divided by the share of the seat's cards held)
OTHER_KNOWN = (0.60, 5.0, 1.15, 0.10)   # the other side's probit of the contract made, knowing its trump: base,
#                          per share of bid above the lowest, per standard deviation of strength against it for
#                          each share of the pack the seat holds (more cards say more), per trump held above the
#                          average
OTHER_BLIND = (0.18, 0.76, 0.10, 0.23, 5.0)   # the same, not knowing the trump (strength at no-trumps): base and
#                          per standard deviation, each as a + b * (share of the seat's cards held: a part of the
#                          hand says less), and per share of bid above the lowest
OTHER_FORCED = 0.35      # less, when the bid was forced on its bidder by the rules (Facts.forced)
OTHER_SD = 0.16          # spread of the bidding side's points about the target at that score (less than half the bid)
DOUBLE_EDGE = 0.04       # a double must gain this share of what the bidders gain by it when they make it, ...
ANSWER_EDGE = 0.04       # ... and this much more per step's worth the bidders may still add by their answer
REDOUBLE_EDGE = 0.10     # a redouble or a fixed stake must gain this share of what it adds when made
OTHER_SIDE_MAKES = 0.6   # how often a contract of the other side is made, as the heuristic sees it blind
DECLARE_EDGE = 0.25      # game points by which a special contract must beat playing the plain one
MIN_SWEEP = 0.5          # never play for every trick with less chance than this, raw or calibrated: below a raw
#                          0.5 the map's chances are above the raw ones, but the takes they add lost game points on
#                          held-out hands (benchmarks/sweep_calibration.py, the tournaments of the note)
LAST_EDGE = 0.0          # hand-evaluation units `trump last` must gain over naming the best suit
REDEAL_VALUE = 0.0       # game points a new deal is worth to the side asking for it (either side may get the cards)
CHANGE_GAIN = 1.0        # hand-evaluation units a new trump must gain for the holder to fold anew
PARTNER_ASK_Z = -0.5     # a hand this weak (standard deviations) asks its partner to speak for it
# The full hand's estimate, for the raise after the whole deal, fitted on simulated deals played by the heuristic
# (the share of the pack the bidding side took against the bidder's strength with his own trump, in standard
# deviations of random hands of that size): the four-card Z_WEIGHT undervalues a full hand.
FULL_EDGE = 0.09         # the share the bidding side takes beyond its seats' share with an average full hand
FULL_Z = 0.084           # share gained per standard deviation
FULL_SPREAD = 0.33       # spread: this times sqrt(q * (1 - q)) of the pack, q the expected share (narrower near all)
RAISE_EDGE = 0.1         # game points by which a raise must beat standing on the bid
OPEN_TRUMPS = 5          # the trumper of a closed game opens holding this many trumps (the folded card counted),
#                          the top trump among them: drawing them at once, with the folded card back in hand, beats
#                          the face-down cuts a closed trump leaves the other side (see open_choice)


def phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def strengths_desc(strength: list[int], m: int) -> list[int]:
    out: list[int] = []
    while m:
        low = m & -m
        out.append(strength[low.bit_length() - 1])
        m ^= low
    out.sort(reverse=True)
    return out


def side_orders(mine_desc: list[list[int]], trump: int) -> list[list[int]]:
    """Every order in which a player may run his side suits (those he holds but the trump)."""
    suits = [s for s in range(len(mine_desc)) if s != trump and mine_desc[s]]
    out: list[list[int]] = [[]]
    for s in suits:
        grown: list[list[int]] = []
        for o in out:
            for i in range(len(o) + 1):
                grown.append(o[:i] + [s] + o[i:])
        out = grown
    return out


def sweep_kind(c: ContractRules | None) -> int:
    """The kind of a contract for every trick, as the calibration reads it (None: a refused surrender, where the
    side's tricks count)."""
    if c is None or c.side_wins or c.dummy:
        return SIDE_SWEEP
    return ALONE_SWEEP if c.partner_sits_out else HELPED_SWEEP


def calibrated(raw: float, kind: int) -> float:
    """SWEEP_CAL's map: the table's first value at 0, its bin values between the bins' middles, up to 1 at 1."""
    table = SWEEP_CAL[kind]
    if raw <= 0.0:
        return table[0]
    pts = SWEEP_CAL_POINTS
    if raw <= pts[0]:
        return table[1]
    for i in range(len(pts) - 1):
        if raw <= pts[i + 1]:
            t = (raw - pts[i]) / (pts[i + 1] - pts[i])
            return table[i + 1] + (table[i + 2] - table[i + 1]) * t
    last = table[len(pts)]
    return last + (1.0 - last) * min((raw - pts[-1]) / (1.0 - pts[-1]), 1.0)


class SpecialRules:
    """The special decisions of one game's contract policy."""

    def __init__(self, policy: ContractPolicy) -> None:
        self.policy = policy
        self.model = policy.model
        self.game = policy.game
        self._side_spread: dict[int, tuple[float, float]] = {}

    # --- estimates --------------------------------------------------------------------------------------------
    def band_values(self, k: Knowledge) -> tuple[int, int]:
        """(made, failed) game points of the standing contract, before doubling."""
        band = self.game.band_for(k.bid, k.facts.round if k.facts.round > 0 else 1)
        if band is None:
            return 1, -1
        return band.made, band.failed

    def side_estimate(self, k: Knowledge) -> float:
        """Card points the seat's side may expect with the trump the seat knows (its best suit when it does not)."""
        m = self.model
        held = k.held
        if k.trump >= 0:
            units = m.units(held, k.trump)
        else:
            units = m.best_trump(held, m.no_trumps)[1]
        return m.expected(k.seat, held, units)

    def make_chance(self, k: Knowledge, bid: int, doubled: bool) -> float:
        """The chance that the seat's side, holding the contract at `bid`, reaches it (a double against it told)."""
        total = self.model.total
        est = self.side_estimate(k) - (DOUBLED_SIGNAL * total if doubled else 0.0)
        return phi((est - bid) / (MAKE_SD * total))

    def side_spread(self, n: int) -> tuple[float, float]:
        """Mean and standard deviation of the no-trump evaluation of random n-card hands (fixed seed)."""
        out = self._side_spread.get(n)
        if out is None:
            out = self._side_spread[n] = hand_spread(self.game.size, n, 4321 + n,
                                                     lambda hand: float(self.model.units(hand, NO_TRUMP)))
        return out

    def sweep_chance(self, k: Knowledge, threats: int, trump: int, strength: list[int], helpers: int = 0,
                     open_trump: bool = False) -> float:
        """The chance that the seat wins every remaining trick leading its cards from the top (trumps first), over
        random placements of the cards it cannot see; only the seats in `threats` (a mask) may win a trick from it.
        A seat holding a card above one of the player's cards of that suit wins a trick unless it must play that
        card before (it holds no more cards of the suit than the player has led above it). A seat in `helpers` (a
        partner who plays but must not win) follows under the player when it can, and loses the sweep only when
        forced to follow above him. `open_trump`: the contract shows the trump from the start."""
        g = self.game
        mine = k.held
        f = k.facts
        others = [s for s in range(len(f.sizes)) if s != k.seat]
        unknown_ids: list[int] = []
        m = f.unknown
        while m:
            low = m & -m
            unknown_ids.append(low.bit_length() - 1)
            m ^= low
        if sum(f.sizes[s] for s in others) > len(unknown_ids):
            return 0.0   # (fewer: the rest is not dealt yet, and a contract estimated so stops the deal)
        mine_desc = [strengths_desc(strength, mine & g.suit_masks[s]) for s in range(g.nsuits)]
        # certain losses: a card above the top of a suit the player holds, when every other seat is a threat (a
        # helping partner may hold it and follow under with a smaller one)
        everyone = all(threats >> s & 1 for s in others)
        if everyone:
            for s in range(g.nsuits):
                if mine_desc[s] and top_strength(strength, f.unknown & g.suit_masks[s]) > mine_desc[s][0]:
                    return 0.0
        ruff_early = trump >= 0 and f.concealed and not open_trump and not g.rules.play.bidder_leads_trump_freely
        orders = side_orders(mine_desc, trump) if ruff_early else [[]]
        wins = [0] * len(orders)
        rng = random.Random(mine * 1000003 + f.unknown)
        for _ in range(SWEEP_SAMPLES):
            rng.shuffle(unknown_ids)
            at = 0
            ok = True
            hands: list[int] = []
            for s in others:
                n = f.sizes[s]
                if (threats | helpers) >> s & 1 and n:
                    h = 0
                    for c in unknown_ids[at:at + n]:
                        h |= 1 << c
                    if helpers >> s & 1:
                        if not self._ducks(h, mine_desc, strength):
                            ok = False
                            break
                    elif not self._holds_off(h, mine_desc, trump, strength):
                        ok = False
                        break
                    else:
                        hands.append(h)
                at += n
            if not ok:
                continue
            for i, order in enumerate(orders):
                if not ruff_early or self._no_early_ruff(hands, order, mine_desc, trump):
                    wins[i] += 1
        return max(wins) / SWEEP_SAMPLES

    def _holds_off(self, h: int, mine_desc: list[list[int]], trump: int, strength: list[int]) -> bool:
        """Whether the player beats every card of the other hand `h` in every suit he leads, his trumps drawing
        every trump of `h` (see sweep_chance)."""
        g = self.game
        if trump >= 0 and (h & g.suit_masks[trump]).bit_count() > len(mine_desc[trump]):
            return False     # a trump left to ruff with once trumps are drawn
        for s in range(g.nsuits):
            led = mine_desc[s]
            if not led:
                continue
            hs = h & g.suit_masks[s]
            if not hs:
                continue
            n = hs.bit_count()
            i = min(n, len(led)) - 1
            if led[i] < top_strength(strength, hs):
                return False
        return True

    def _no_early_ruff(self, hands: list[int], order: list[int], mine_desc: list[list[int]], trump: int) -> bool:
        """While the trump is concealed and its holder may not lead it, the player leads his side suits in `order`
        first. At the first trick some other hand cannot follow, that hand calls for the trump: if one of the
        hands out of the suit then holds a trump, it ruffs; if none does, the trump is open and the player draws
        the trumps before his remaining side cards (sweep_chance has checked that his trumps outlast theirs)."""
        g = self.game
        tm = g.suit_masks[trump]
        for s in order:
            sm = g.suit_masks[s]
            for r in range(1, len(mine_desc[s]) + 1):
                out = False
                for h in hands:
                    if (h & sm).bit_count() < r:
                        if h & tm:
                            return False
                        out = True
                if out:
                    return True
        return True

    def _ducks(self, h: int, mine_desc: list[list[int]], strength: list[int]) -> bool:
        """Whether a helping partner holding `h` can follow under every card the player leads."""
        g = self.game
        for s in range(g.nsuits):
            led = mine_desc[s]
            hs = h & g.suit_masks[s]
            if not led or not hs:
                continue
            theirs = strengths_desc(strength, hs)
            for x in led:
                if not theirs:
                    break
                j = 0
                while j < len(theirs) and theirs[j] > x:
                    j += 1
                if j == len(theirs):
                    return False      # every card left is above the lead: forced to win it
                theirs.pop(j)
        return True

    def certain_sweep(self, k: Knowledge) -> bool:
        """A claim the heuristic can prove: on lead, every card it holds beats every unseen card of its suit, and
        no unseen trump outlasts its own trumps."""
        g = self.game
        if not k.facts.leading or k.trump == UNDECIDED:
            return False
        mine = k.held
        unknown = k.facts.unknown
        strength = k.strength
        for s in range(g.nsuits):
            ms = mine & g.suit_masks[s]
            if not ms:
                continue
            out = unknown & g.suit_masks[s]
            if out and top_strength(strength, out) > min(strengths_desc(strength, ms)):
                return False
        if k.trump >= 0:
            theirs = (unknown & g.suit_masks[k.trump]).bit_count()
            if theirs and theirs > (mine & g.suit_masks[k.trump]).bit_count():
                return False
        return True

    def full_hand_spread(self, k: Knowledge) -> tuple[float, float]:
        """The share of the pack's card points the bidding side may expect from the bidder's full hand and his own
        trump, and its spread in card points (the full hand's calibration, FULL_*)."""
        m = self.model
        held = k.held
        mean, sd = m.spread(held.bit_count())
        z = (m.units(held, k.trump) - mean) / sd
        q = min(max(m.share[k.seat] + FULL_EDGE + FULL_Z * z, 0.01), 0.99)
        return q, FULL_SPREAD * math.sqrt(q * (1.0 - q)) * m.total

    def full_hand_chance(self, q: float, spread: float, value: int) -> float:
        """The chance that the bidding side takes at least `value` card points (q, spread: full_hand_spread)."""
        return phi((q * self.model.total - (value - 0.5)) / spread)

    def raise_(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """The raise after the full deal, by the bidder who knows his trump: the raise (or standing on the bid)
        worth most in game points, from the file's bands and the full hand's chance of each number. A hand not
        yet full, or a partner who does not know the trump, raises by the hand evaluation's old rule."""
        g = self.game
        if k.seat != k.bidder or k.trump < 0 or k.held.bit_count() < g.cards_each:
            return self.policy.raise_by_estimate(k, legal)
        rnd = k.facts.round if k.facts.round > 0 else 1
        stay = g.band_for(k.bid, rnd)
        passing = first_of_pass(legal)
        if stay is None:
            return passing
        q, spread = self.full_hand_spread(k)
        p = self.full_hand_chance(q, spread, k.bid)
        best_ev = p * stay.made + (1 - p) * stay.failed + RAISE_EDGE
        best = passing
        for a in legal:
            if a.verb != "raise":
                continue
            v = self.model.value_of(a)
            band = g.band_for(v, rnd)
            if band is None:
                continue
            p = self.full_hand_chance(q, spread, v)
            ev = p * band.made + (1 - p) * band.failed
            if ev > best_ev:
                best, best_ev = a, ev
        return best

    def plain_value(self, k: Knowledge) -> float:
        """What the plain contract is worth to the seat's side, in game points (0: no contract yet)."""
        if k.bidder < 0:
            return 0.0
        made, failed = self.band_values(k)
        mult = k.facts.multiplier
        if k.partners(k.seat, k.bidder):
            p = self.make_chance(k, k.bid, self.doubled_by_a_seat(k))
            return (p * made + (1 - p) * failed) * mult
        return -(OTHER_SIDE_MAKES * made + (1 - OTHER_SIDE_MAKES) * failed) * mult

    def contract_sweep(self, k: Knowledge, c: ContractRules) -> float:
        """The chance of the seat winning every trick of special contract `c`: a partner who plays must follow
        under him, unless the side's tricks count (then the partner's cards are left out: they can only help)."""
        threats = helpers = 0
        for s in range(len(k.facts.sizes)):
            if s == k.seat:
                continue
            if not k.partners(s, k.seat):
                threats |= 1 << s
            elif not c.partner_sits_out and not c.side_wins:
                helpers |= 1 << s   # (a partner whose tricks count for the side can only help: left out)
        strength = self.contract_strength(k, c)
        if c.reversed_ranking and c.first_card_trumps:
            return self.led_trump_sweep(k, threats, strength, helpers)
        if self.names_trump_anew(c):
            return self.sweep_trump(k, threats, strength, helpers, c.open_trump)[1]
        trump = NO_TRUMP if c.no_trumps else (k.trump if k.trump >= 0 else NO_TRUMP)
        return self.sweep_chance(k, threats, trump, strength, helpers, c.open_trump)

    def names_trump_anew(self, c: ContractRules) -> bool:
        """A contract keeping trumps, declared in the second round of bidding: its declarer lays the trump card
        anew (the old one back in its holder's hand), so it is played in the suit he chooses."""
        return c.window == DECLARE_IN_SECOND_AUCTION and not c.no_trumps and not c.first_card_trumps

    def sweep_trump(self, k: Knowledge, threats: int, strength: list[int], helpers: int,
                    open_trump: bool) -> tuple[int, float]:
        """The suit the seat holds that gives the best sweep chance as trumps, and that chance; on a tie, the hand
        evaluation's best trump."""
        g = self.game
        best = self.model.best_trump(k.held, False)[0]
        best_p = self.sweep_chance(k, threats, best, strength, helpers, open_trump) if best >= 0 else 0.0
        for s in range(g.nsuits):
            if s == best or not k.held & g.suit_masks[s]:
                continue
            p = self.sweep_chance(k, threats, s, strength, helpers, open_trump)
            if p > best_p:
                best, best_p = s, p
        return best, best_p

    def declarer_trump(self, k: Knowledge) -> int:
        """The trump a declarer who names it anew names (`names_trump_anew`): his best suit for the sweep; -1 when
        that is not his question."""
        if not k.facts.special or k.seat != k.bidder:
            return -1
        anew = [c for c in self.game.contracts.values() if self.names_trump_anew(c)]
        if not anew:
            return -1
        threats = 0
        for s in range(len(k.facts.sizes)):
            if not k.partners(s, k.seat):
                threats |= 1 << s
        return self.sweep_trump(k, threats, k.strength, 0, anew[0].open_trump)[0]

    def led_trump_sweep(self, k: Knowledge, threats: int, strength: list[int], helpers: int) -> float:
        """The sweep chance when the declarer's first lead names the trump: the suit the card play leads first
        (`led_trump_suit`: his longest), whose trumps he draws before a void opponent can ruff."""
        trump = led_trump_suit(self.game, k.held, strength)
        return self.sweep_chance(k, threats, trump if trump >= 0 else NO_TRUMP, strength, helpers)

    def contract_strength(self, k: Knowledge, c: ContractRules) -> list[int]:
        """The card strengths contract `c` is played with: its ranks run the other way where it says so (a hand of
        low cards sweeps then), the no-trump order at no-trumps, the hand's own otherwise."""
        g = self.game
        if c.reversed_ranking:
            return g.reversed_strength
        return g.strength_for(NO_TRUMP) if c.no_trumps else k.strength

    # --- the decisions ----------------------------------------------------------------------------------------
    def worth_declaring(self, k: Knowledge, legal: tuple[Action, ...]) -> Action | None:
        """The `declare NAME` worth most when it beats the plain contract, the full hand held; None otherwise."""
        if k.held.bit_count() < self.game.cards_each:
            return self.worth_declaring_early(k, legal)
        best: Action | None = None
        best_ev = self.plain_value(k) + DECLARE_EDGE
        for a in legal:
            if a.verb != "declare":
                continue
            c = self.game.contracts.get(a.arg)
            if c is None:
                if self.certain_sweep(k):
                    return a
                continue
            if not c.played and c.sure_sweep == SWEEP_REQUIRED:
                return a   # a sure sweep shown scores without risk (the engine offers it only then)
            if k.phase == AUCTION and self.policy.declares_in_auction(k, a):
                return a
            ev = self.sweep_value(k, c)
            if ev is not None and ev > best_ev:
                best, best_ev = a, ev
        return best

    def sweep_value(self, k: Knowledge, c: ContractRules) -> float | None:
        """What contract `c` is worth on these cards, by its calibrated chance of the sweep: None when that chance
        (raw or calibrated) is below MIN_SWEEP."""
        raw = self.contract_sweep(k, c)
        if raw < MIN_SWEEP:
            return None
        p = self.calibrated_sweep(raw, c)
        if p < MIN_SWEEP:
            return None
        return p * c.made + (1 - p) * c.failed

    def worth_declaring_early(self, k: Knowledge, legal: tuple[Action, ...]) -> Action | None:
        """On part of the hand: what the cards make certain, or a contract that stops the deal (played on these
        cards only) when its sweep chance beats what the lowest plain contract scores when made."""
        g = self.game
        best: Action | None = None
        best_ev = self.plain_value(k) if k.bidder >= 0 else self.lowest_made()
        best_ev += DECLARE_EDGE
        for a in legal:
            if a.verb != "declare":
                continue
            if self.policy.declares_in_auction(k, a):
                return a
            c = g.contracts.get(a.arg)
            if c is None or not c.stops_deal or not c.played:
                continue
            ev = self.sweep_value(k, c)
            if ev is not None and ev > best_ev:
                best, best_ev = a, ev
        return best

    def open_choice(self, k: Knowledge, legal: tuple[Action, ...]) -> Action | None:
        """The closed trumper's choice before trick 1 (`open` or `pass`); None when that is not the question.
        He opens with a long trump suit headed by its top card: he may then draw the other side's trumps at once
        (a closed trump may not be led to trick 1, and the other side's face-down cuts can win tricks), with the
        folded card back in hand to lead or follow with."""
        opens = None
        for a in legal:
            if a.verb == "open":
                opens = a
        if opens is None:
            return None
        return opens if self.worth_opening(k) else first_of_pass(legal)

    def worth_opening(self, k: Knowledge) -> bool:
        """OPEN_TRUMPS trumps or more, the folded card counted, the suit's top card among them."""
        if k.trump < 0:
            return False
        tm = self.game.suit_masks[k.trump]
        mine = k.held & tm
        if mine.bit_count() < OPEN_TRUMPS:
            return False
        return top_strength(k.strength, mine) == top_strength(k.strength, tm)

    def lowest_made(self) -> float:
        """What a plain contract at the lowest bid scores when made (the plain choice's value, at best, in an
        auction without a contract yet)."""
        band = self.game.band_for(self.game.rules.auction.bid_min, 1)
        return float(band.made) if band is not None else 1.0

    def declare(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        opening = self.open_choice(k, legal)
        if opening is not None:
            return opening
        best = self.worth_declaring(k, legal)
        return best if best is not None else self.unknown(k, legal)

    def bid(self, k: Knowledge, legal: tuple[Action, ...], plain: Action) -> Action:
        """The auction: a special contract offered as a bid, a doubling step inside the auction, the `partner`
        speech and a `change` mark, each weighed on top of the plain bid or pass."""
        d = self.worth_declaring(k, legal)
        if d is not None:
            return d
        names = self.game.doubling_names
        if plain.verb == "pass":
            for a in legal:
                if a.verb in names and self.auction_double(k, a):
                    return a
        spoken = (k.facts.speeches[0] | k.facts.speeches[1]) >> k.seat & 1
        # `partner` only as the seat's first speech: the rules allow it at any turn, but a side that asked at every
        # turn would keep the auction going for ever (the partner's own turn lapses each time)
        if plain.verb == "pass" and not spoken and k.facts.speaking_for < 0 and not self.policy.partner_holds_bid(k):
            for a in legal:
                if a.verb == "partner" and self.model.z(k.held) < PARTNER_ASK_Z:
                    return a
        if k.trump >= 0 and self.wants_change(k):
            marked = plain.arg + " change" if plain.arg else "change"
            for a in legal:
                if a.verb == plain.verb and a.arg == marked:
                    return a
        return plain

    def auction_double(self, k: Knowledge, a: Action) -> bool:
        """A doubling step of the standing bid, said in the auction instead of a pass (a seat that would bid
        over it bids): by the other side when it lowers the bidders' expected game points enough, by the standing
        bidder (the one of its side sure of the suit it bid on) when the stake is worth raising."""
        hb = k.standing
        if hb < 0:
            return False
        step = self.step_of(a)
        if step is not None and not step[2]:
            said = self.policy.auction.step_worth(k, a, k.facts.multiplier, step[0])
            if said is not None:
                return said
        bid = k.facts.high
        if k.partners(k.seat, hb):
            return hb == k.seat and self.best_stake(k, (a,), bid) is not None
        return self.worth_doubling(k, a, bid)

    def wants_change(self, k: Knowledge) -> bool:
        """The holder folds anew when another suit is now clearly his best trump."""
        m = self.model
        held = k.held
        suit, units = m.best_trump(held, False)
        return suit >= 0 and suit != k.trump and units >= m.units(held, k.trump) + CHANGE_GAIN

    def trump(self, k: Knowledge, legal: tuple[Action, ...], plain: Action) -> Action:
        """The trump step: the seventh card when no suit is worth naming yet, conceding a contract already lost;
        the declarer of a contract for every trick names his best suit for the sweep."""
        suit = self.declarer_trump(k)
        if suit >= 0:
            return self.policy.trump_choice(k.hand, legal, suit)
        for a in legal:
            if a.verb == "concede" and self.lost_for_sure(k):
                return a
            if a.verb == "trump" and a.arg == "seventh" and self.seventh_better(k):
                return a
        for a in legal:
            if a.verb == "redeal" and self.redeal_better(k):
                return a
        for a in legal:
            if a.verb == "trump" and a.arg == "last" and self.last_card_better(k):
                return a
        return plain

    def last_card_better(self, k: Knowledge) -> bool:
        """`trump last` (the suit of the holder's last card, not yet seen) against naming his best suit now: the
        hand evaluation's units of each, averaged over the card still to come (any card he cannot see, equally
        likely), which joins his hand either way and, said `last`, names the trump and so holds one of its suit."""
        g = self.game
        m = self.model
        hand = k.hand
        suit = m.best_trump(hand, False)[0]
        named = last = 0.0
        n = 0
        u = k.facts.unknown & ~hand
        while u:
            low = u & -u
            u ^= low
            h = hand | low
            named += m.units(h, suit)
            last += m.units(h, g.suit_of[low.bit_length() - 1])
            n += 1
        return n > 0 and last > named + LAST_EDGE * n

    def side_needs(self, k: Knowledge) -> float:
        """The card points the bidding side must take to make the contract at the standing bid: the bid, or, where
        its opponents count against a target, just more than what leaves them short of it."""
        sc = self.game.rules.scoring
        if not sc.counted_by_opponents:
            return float(k.bid)
        target = sc.fixed_target if sc.fixed_target >= 0 else k.bid
        if sc.fixed_target >= 0 and sc.target_less_call:
            target -= k.bid
        return self.model.total - target + 1

    def redeal_better(self, k: Knowledge) -> bool:
        """A new deal (worth REDEAL_VALUE: nothing, by symmetry) against the contract's expected game points with
        the holder's best trump, at the chance of his side taking what it needs (`side_needs`)."""
        m = self.model
        band = self.game.band_for(k.bid, k.facts.round if k.facts.round > 0 else 1)
        if band is None:
            return False
        est = m.expected(k.seat, k.hand, m.best_trump(k.hand, False)[1])
        p = phi((est - self.side_needs(k)) / (MAKE_SD * m.total))
        return p * band.made + (1 - p) * band.failed < REDEAL_VALUE

    def seventh_better(self, k: Knowledge) -> bool:
        """No suit holds two of the cards yet and none of them is a top card: a suit named now would hold one trump
        where the seventh card's suit holds it and whatever more of that suit comes."""
        g = self.game
        hand = k.hand
        for s in range(g.nsuits):
            if (hand & g.suit_masks[s]).bit_count() > 1 or hand & self.model.top_mask[s]:
                return False
        return True

    def double(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """A doubling window: each option (pass, the next step, a fixed stake) is worth its expected game points at
        the seat's chances of the contract (`own_chances`, `other_chances`); the other side doubles, and the
        bidding side takes a larger stake, when that gains at least an edge of what the step puts at risk."""
        passing = self.unknown(k, legal)
        if k.bidder < 0 or self.game.rules.doubling is None:
            return passing
        for a in legal:
            step = self.step_of(a)
            if step is not None and not step[2] and self.policy.auction.step_worth(k, a, k.facts.multiplier,
                                                                                   step[0]):
                return a
        if self.policy.auction.step_worth(k, passing, 1, 1) is not None:
            return passing
        if k.partners(k.seat, k.bidder):
            if k.trump < 0:     # a partner who does not know the trump cannot weigh the contract
                return passing
            best = self.best_stake(k, legal, k.bid)
            return best if best is not None else passing
        for a in legal:
            if self.worth_doubling(k, a, k.bid):
                return a
        return passing

    # --- doubling: chances and stakes -------------------------------------------------------------------------
    def stake_values(self, k: Knowledge, bid: int, mult: int, added: int, fixed: int) -> tuple[float, float, float]:
        """What the contract at `bid` pays its bidding side at this stake, as the file scores it: (made, failed,
        failed with less than half the bid)."""
        if fixed:
            return float(fixed), float(-fixed), float(-fixed)
        band = self.game.band_for(bid, k.facts.round if k.facts.round > 0 else 1)
        made, failed = (band.made, band.failed) if band is not None else (1, -1)
        below = failed * self.game.rules.scoring.below_half_loss_multiplier
        return float(made * mult + added), float(failed * mult - added), float(below * mult - added)

    def stake_ev(self, k: Knowledge, chances: tuple[float, float], bid: int, mult: int, added: int,
                 fixed: int) -> tuple[float, float]:
        """(expected game points to the bidding side, what it gets when made) at this stake."""
        p, below = chances
        made, failed, short = self.stake_values(k, bid, mult, added, fixed)
        below = min(below, 1.0 - p)
        return p * made + (1.0 - p - below) * failed + below * short, made

    def own_chances(self, k: Knowledge, bid: int, doubled: bool) -> tuple[float, float]:
        """The bidding side's chances, as one of its players sees them: (made, less than half the bid). Its card
        points are taken as normal about its hand evaluation's estimate plus OWN_BIAS, with spread OWN_SD (the
        concealed-trump pair when the trump is face down)."""
        total = self.model.total
        i = 1 if k.facts.concealed else 0
        sd = OWN_SD[i] * total
        est = self.own_estimate(k) + OWN_BIAS[i] * total
        if doubled:
            seen = min(1.0, k.held.bit_count() / max(self.game.cards_each, 1))
            est -= DOUBLED_SD[i] / max(seen, 0.25) * sd
        return phi((est - bid) / sd), phi((0.5 * bid - est) / sd)

    def own_estimate(self, k: Knowledge) -> float:
        """Card points the seat's side may expect with the contract's trump (named in the standing bid when the
        auction is still on)."""
        m = self.model
        held = k.held
        trump = k.trump if k.trump != UNDECIDED else k.facts.high_suit
        if trump == UNDECIDED:
            return self.side_estimate(k)
        return m.expected(k.seat, held, m.units(held, trump))

    def other_chances(self, k: Knowledge, bid: int) -> tuple[float, float]:
        """The chances of the other side's contract at `bid` as the seat sees it: (made, less than half the bid).
        A probit score from how far the bid is above the lowest, the seat's strength against it (with the
        contract's trump when the seat knows it, else at no-trumps) and its extra trumps, with the coefficients
        fitted on simulated hands (OTHER_KNOWN, OTHER_BLIND); the bidding side's points lie normal about the
        target at that score, with spread OTHER_SD."""
        m = self.model
        g = self.game
        held = k.held
        n = held.bit_count()
        total = m.total
        b = (bid - g.rules.auction.bid_min) / total
        trump = k.trump if k.trump != UNDECIDED else k.facts.high_suit
        if n == 0:
            score = OTHER_KNOWN[0]
        elif trump >= 0:
            mean, sd = m.spread(n)
            z = (m.units(held, trump) - mean) / sd
            suit = g.suit_masks[trump]
            extra = (held & suit).bit_count() - n * suit.bit_count() / g.size
            base, per_bid, per_z, per_trump = OTHER_KNOWN
            score = base - per_bid * b - per_z * n / g.size * z - per_trump * extra
        else:
            mean, sd = self.side_spread(n)
            z = (m.units(held, NO_TRUMP) - mean) / sd
            if trump == NO_TRUMP:
                score = OTHER_KNOWN[0] - OTHER_KNOWN[1] * b - OTHER_KNOWN[2] * n / g.size * z
            else:
                seen = min(1.0, n / max(g.cards_each, 1))
                base0, base1, z0, z1, per_bid = OTHER_BLIND
                score = base0 + base1 * seen - per_bid * b - (z0 + z1 * seen) * z
        if k.facts.forced:
            score -= OTHER_FORCED
        return phi(score), phi(-0.5 * bid / (OTHER_SD * total) - score)

    def doubled_by_a_seat(self, k: Knowledge) -> bool:
        """Whether a seat doubled the contract (which tells of the doubler's strength): a stake above what the
        file's automatic double gives every bid that high."""
        d = self.game.rules.doubling
        auto = d.auto_multiplier if d is not None and 0 <= d.auto_from_bid <= k.bid else 1
        return k.facts.multiplier > auto or k.facts.added > 0

    def step_of(self, a: Action) -> tuple[int, int, int] | None:
        """(multiplier, adds, fixed stake) of a doubling action, None for anything else."""
        d = self.game.rules.doubling
        if d is None:
            return None
        fs = d.fixed_stake
        if fs is not None and a.verb == fs.name:
            return 1, 0, fs.value
        names = self.game.doubling_names
        if a.verb in names:
            i = names.index(a.verb)
            if i < len(d.steps):
                st = d.steps[i]
                return st.multiplier, st.adds, 0
        return None

    def worth_doubling(self, k: Knowledge, a: Action, bid: int) -> bool:
        """The other side's step: it lowers the bidding side's expected game points by more than an edge of what
        the bidders gain by it when they make the contract. The edge grows with what the bidders may still add
        by their answer (a redouble, a fixed stake), as a share of the step: they answer when they are sure."""
        step = self.step_of(a)
        if step is None or step[2]:
            return False
        mult, added = k.facts.multiplier, k.facts.added
        ch = self.other_chances(k, bid)
        now, made_now = self.stake_ev(k, ch, bid, mult, added, 0)
        mult2, added2 = mult * step[0], added + step[1]
        then, made_then = self.stake_ev(k, ch, bid, mult2, added2, 0)
        gained = made_then - made_now
        if gained <= 0:
            return now - then > 0
        answer = self.answer_made(k, a, bid, mult2, added2) - made_then
        return now - then > (DOUBLE_EDGE + ANSWER_EDGE * max(answer, 0.0) / gained) * gained

    def answer_made(self, k: Knowledge, a: Action, bid: int, mult: int, added: int) -> float:
        """What the bidders get for the contract made at their largest answer to step `a` (the next step, if the
        cap allows it, or the fixed stake)."""
        d = self.game.rules.doubling
        assert d is not None
        best = self.stake_values(k, bid, mult, added, 0)[0]
        names = self.game.doubling_names
        i = names.index(a.verb) + 1
        if i < len(d.steps) and (not d.cap or mult * d.steps[i].multiplier <= d.cap):
            best = max(best, self.stake_values(k, bid, mult * d.steps[i].multiplier, added + d.steps[i].adds, 0)[0])
        if d.fixed_stake is not None:
            best = max(best, float(d.fixed_stake.value))
        return best

    def best_stake(self, k: Knowledge, legal: tuple[Action, ...], bid: int) -> Action | None:
        """The bidding side's step or fixed stake worth most, when it gains at least REDOUBLE_EDGE of the stake it
        adds; None to pass."""
        mult, added = k.facts.multiplier, k.facts.added
        ch = self.own_chances(k, bid, self.doubled_by_a_seat(k))
        now, made_now = self.stake_ev(k, ch, bid, mult, added, 0)
        best: Action | None = None
        best_gain = 0.0
        for a in legal:
            step = self.step_of(a)
            if step is None:
                continue
            ev, made = self.stake_ev(k, ch, bid, mult * step[0], added + step[1], step[2])
            gain = ev - now
            if gain > REDOUBLE_EDGE * abs(made - made_now) and gain > best_gain:
                best, best_gain = a, gain
        return best

    def answer(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """The bidder's answer to a surrender: refuse when playing on for every trick is worth more."""
        at = self.game.rules.all_tricks
        accept = refuse = None
        for a in legal:
            if a.verb == "accept":
                accept = a
            elif a.verb == "refuse":
                refuse = a
        if accept is None or refuse is None or at is None:
            return first_of_pass(legal)
        made, failed = self.band_values(k)
        mult = k.facts.multiplier
        p = self.calibrated_sweep(self.surrender_sweep(k), None)
        refused = p * made * at.multiplier * mult + (1 - p) * failed * at.refused_loss_multiplier * mult
        return refuse if refused > made * mult else accept

    def surrender_sweep(self, k: Knowledge) -> float:
        """The raw sweep chance of the bidder who refuses a surrender: every other side a threat."""
        threats = 0
        for s in range(len(k.facts.sizes)):
            if not k.partners(s, k.seat):
                threats |= 1 << s
        return self.sweep_chance(k, threats, k.trump if k.trump >= 0 else NO_TRUMP, k.strength)

    def calibrated_sweep(self, raw: float, c: ContractRules | None) -> float:
        """The chance of the sweep the decisions read: the raw estimate of contract `c` (None: a refused
        surrender) through the calibration map of its kind (SWEEP_CAL)."""
        return calibrated(raw, sweep_kind(c))

    def lost_for_sure(self, k: Knowledge) -> bool:
        """The bidding side can no longer reach its target with every card point still to come."""
        f = k.facts
        if k.bidder < 0 or not f.points or f.target <= 0:
            return False
        side = k.team_of[k.bidder]
        if side >= len(f.points):
            return False
        still = self.model.total - sum(f.points)
        return f.points[side] + still < f.target

    def offer_surrender(self, k: Knowledge) -> bool:
        """The other side offers to surrender once the bidders have made their contract and won every trick: an
        accepted offer costs it the single value instead of the sweep's, a refused one risks the bidders double."""
        f = k.facts
        if k.bidder < 0 or f.lost_trick or f.tricks == 0:
            return False
        side = k.team_of[k.bidder]
        return side < len(f.points) and f.points[side] >= f.target > 0

    def play_extra(self, k: Knowledge, extras: list[Action]) -> Action | None:
        for a in extras:
            v = a.verb
            if v == "show":
                return a
            if v == "surrender" and self.offer_surrender(k):
                return a
            if v == "concede" and self.lost_for_sure(k):
                return a
            if v == "declare" and self.game.contracts.get(a.arg) is None and self.claims(k, a):
                return a
        return None

    def claims(self, k: Knowledge, a: Action) -> bool:
        """A claim is called exactly when the caller can prove it from his own knowledge (his view says which
        legal claims he can), so at the first moment he can; without that fact (a state read by a rollout) only
        when every card he holds wins a trick on lead."""
        provable = k.facts.provable
        if provable is not None:
            return a in provable
        return self.certain_sweep(k)

    def unknown(self, k: Knowledge, legal: tuple[Action, ...]) -> Action:
        """Where the heuristic has no rule: pass if it may, else the first action."""
        return first_of_pass(legal)


def first_of_pass(legal: tuple[Action, ...]) -> Action:
    for a in legal:
        if a.verb == "pass" and not a.arg:
            return a
    for a in legal:
        if a.verb == "pass":
            return a
    return legal[0]
