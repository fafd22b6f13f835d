"""What one seat may see of a hand: its own cards and everything public, never another seat's cards or a
concealed trump it does not know. Bots and the terminal table receive only this."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from engine.cards import bits
from engine.play.base import PHASE_NAMES, UNDECIDED

if TYPE_CHECKING:
    from engine.play.state import State


@dataclass(frozen=True)
class TrickView:
    leader: int
    cards: list[tuple[int, str]]          # (seat, card) in playing order
    winner: int | None = None
    points: int | None = None


@dataclass(frozen=True)
class View:
    seat: int
    ruleset: str
    players: int
    dealer: int
    phase: str
    to_act: int
    hand: list[str]
    hand_sizes: list[int]
    teams: list[list[int]]
    history: list[str]                    # every action, with hidden arguments blanked
    bidder: int | None
    bid: int | None
    target: int | None
    trump_concealed: bool
    trump: str | None                     # suit letter, 'NT', or None when this seat does not know it
    indicator: str | None                 # the face-down card, only for its owner
    exposed_in_trick: int | None
    multiplier: int
    special: str | None
    sitting_out: list[int]
    trick: TrickView
    tricks: list[TrickView]
    card_points: list[int]
    match_scores: list[int]
    legal: list[str] = field(default_factory=list)
    status: str = "in_progress"
    auction_round: int = 0                # the round of bidding under way or last held (0: none yet)
    contract_round: int | None = None     # the round whose bid fixed the contract
    speaking_for: int | None = None       # the seat whose speech its partner is making now (`partner`)
    handed_back: bool = False             # that partner handed the speech back
    added: int = 0                        # match units doubling steps add to what the paid side receives
    conceded: bool = False
    match_target: int | None = None       # the score that wins the match now

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _known_trump(state: State, seat: int) -> str | None:
    if state.trump == UNDECIDED:
        return None
    if state.concealed and seat != state.folder:
        return None
    return state.trump_suit_code() or "NT"


def public_history(state: State, seat: int) -> list[str]:
    out = []
    for a in state.history:
        if a.verb == "trump" and a.seat != seat and a.arg != "seventh" and state.concealed:
            out.append(f"{a.seat} trump")
        else:
            out.append(str(a))
    return out


def build_view(state: State, seat: int) -> View:
    g = state.game
    codes = g.codes
    own = [codes[c] for c in sorted(bits(state.hands[seat]), key=lambda c: (g.suit_of[c], -g.strength[c]))]
    indicator = None
    if state.concealed and state.indicator >= 0 and seat == state.folder:
        indicator = codes[state.indicator]
    sizes = [h.bit_count() for h in state.hands]
    if state.concealed and state.indicator >= 0:
        sizes[state.folder] += 1  # the face-down card is still one of the bidder's cards
    tricks = [TrickView(t.leader, [(s, codes[c]) for s, c in zip(t.seats, t.cards, strict=True)], t.winner, t.points)
              for t in state.tricks]
    trick = TrickView(state.leader, [(s, codes[c]) for s, c in zip(state.trick_seats, state.trick_cards, strict=True)])
    has_contract = state.bidder >= 0
    return View(
        seat=seat, ruleset=g.rules.name, players=g.n, dealer=state.dealer, phase=PHASE_NAMES[state.phase],
        to_act=state.to_act, hand=own, hand_sizes=sizes, teams=[list(t) for t in state.hand_teams],
        history=public_history(state, seat),
        bidder=state.bidder if has_contract else None, bid=state.bid if has_contract else None,
        target=state.target if has_contract else None,
        trump_concealed=state.concealed, trump=_known_trump(state, seat), indicator=indicator,
        exposed_in_trick=state.exposed_trick or None, multiplier=state.multiplier,
        special=state.special.name if state.special else None,
        sitting_out=[s for s in range(g.n) if state.sitting_out >> s & 1],
        trick=trick, tricks=tricks, card_points=list(state.team_points), match_scores=list(state.match_scores),
        legal=[a.notation for a in state.legal_actions()] if seat == state.to_act else [],
        status=state.status, auction_round=state.round, contract_round=state.contract_round if has_contract else None,
        speaking_for=state.asker if state.asker >= 0 else None, handed_back=state.handed_back, added=state.added,
        conceded=state.conceded, match_target=state.match_target,
    )

