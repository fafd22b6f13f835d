"""How the trump is chosen, as the Jass group's rules say, for the turns before the first card: the two rounds of
take-or-pass on the turned card (Belote; Klaberjass with its schmeiss), Coinche's auction, a trump named by
forehand (Klaverjas) or by forehand or his partner (Schieber). Each function gives the calls a seat may make now
(the action without its seat, as `bid 90 H`), from the calls made so far in this deal."""
from __future__ import annotations

SUITS = ("S", "H", "D", "C")
COINCHE_BIDS = (*range(80, 161, 10), 250)   # 80..160 by tens, then capot


def take_or_pass(calls: list[tuple[int, str]], seat: int, dealer: int, players: int, turned_suit: str,
                 schmeiss: bool) -> set[str]:
    """Round 1: take the turned suit or pass (Klaberjass: or schmeiss); round 2, after everyone passed: name
    another suit or pass (Klaberjass: the non-dealer may also schmeiss; the dealer names a suit or passes). A
    schmeiss is answered by accept or refuse; refused in round 2, the refuser must name a suit."""
    passes = sum(1 for _, c in calls if c == "pass")
    others = {f"trump {s}" for s in SUITS if s != turned_suit}
    if calls and calls[-1][1] == "schmeiss":
        return {"accept", "refuse"}
    if calls and calls[-1][1] == "refuse":   # refused in round 2: the refuser names a suit
        return others
    if passes < players:
        out = {"take", "pass"}
        if schmeiss:
            out.add("schmeiss")
        return out
    out = others | {"pass"}
    if schmeiss and seat != dealer:
        out.add("schmeiss")
    return out


def coinche(calls: list[tuple[int, str]], seat: int) -> set[str]:
    """A pass, a bid higher than the standing one (not over one's own standing bid; one's partner may be
    overcalled), a coinche against an opponents' standing bid; after a coinche only the bidding side speaks, to
    surcoinche or pass."""
    bids = [(s, c) for s, c in calls if c.startswith("bid ")]
    if any(c == "coinche" for _, c in calls):
        return {"pass", "surcoinche"}
    out = {"pass"}
    if not bids:
        return out | {f"bid {v} {s}" for v in COINCHE_BIDS for s in SUITS}
    holder, last = bids[-1]
    value = int(last.split()[1])
    if holder != seat:
        out |= {f"bid {v} {s}" for v in COINCHE_BIDS if v > value for s in SUITS}
    if holder % 2 != seat % 2:
        out.add("coinche")
    return out


def name_trump(pushed: bool, modes: tuple[str, ...], may_push: bool) -> set[str]:
    """Forehand names a suit (Schieber: or a mode, or pushes to his partner, who must then choose)."""
    out = {f"trump {s}" for s in (*SUITS, *modes)}
    if may_push and not pushed:
        out.add("push")
    return out
