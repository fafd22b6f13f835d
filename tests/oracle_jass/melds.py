"""Melds: sequences in natural order and four of a kind (declared, compared between the sides), Klaverjas roem in
each trick, and the trump marriage (belote, stöck, bella) held in one hand."""
from __future__ import annotations

from dataclasses import dataclass

from .cards import Mode, rank, suit


@dataclass(frozen=True)
class Meld:
    seat: int
    kind: str               # "sequence" | "four_of_a_kind"
    cards: tuple[str, ...]
    value: int
    top: int                # strength of the top card in natural order (higher is better)
    trump: bool             # a sequence in the trump suit


@dataclass(frozen=True)
class MeldTable:
    natural: str                       # natural order, high to low
    sequences: dict[int, int]          # length -> value; a longer run takes the longest length listed
    fours: dict[str, int]              # rank -> value
    ranking: tuple[str, ...]           # keys: value, cards, top, trump, earlier
    ties_nobody: bool                  # True: equal best melds in opposite sides score for nobody

    def seq_value(self, length: int) -> int:
        fit = [n for n in self.sequences if n <= length]
        return self.sequences[max(fit)] if fit else 0


def _candidates(table: MeldTable, mode: Mode, seat: int, hand: list[str]) -> list[Meld]:
    out: list[Meld] = []
    nat = table.natural
    for s in sorted({suit(c) for c in hand}):
        pos = sorted(nat.index(rank(c)) for c in hand if suit(c) == s)
        held = set(pos)
        for start in pos:
            length = 1
            while start + length in held:
                length += 1
            for n in range(3, length + 1):
                cards = tuple(nat[start + i] + s for i in range(n))
                out.append(Meld(seat, "sequence", cards, table.seq_value(n), len(nat) - start,
                                mode.trump == s))
    for r, v in table.fours.items():
        cards = tuple(c for c in hand if rank(c) == r)
        if len(cards) == 4 and v:
            out.append(Meld(seat, "four_of_a_kind", cards, v, len(nat) - nat.index(r), False))
    return [m for m in out if m.value > 0]


def best_arrangement(table: MeldTable, mode: Mode, seat: int, hand: list[str]) -> list[Meld]:
    """The disjoint melds of the hand with the greatest total value (a card serves one meld only); at equal value
    the arrangement using more cards (a six-card run worth 50 is one meld, not a four-card run)."""
    cands = _candidates(table, mode, seat, hand)
    best: tuple[tuple[int, int], list[Meld]] = ((0, 0), [])

    def walk(i: int, used: frozenset[str], chosen: list[Meld], total: int) -> None:
        nonlocal best
        if (total, len(used)) > best[0]:
            best = ((total, len(used)), list(chosen))
        for j in range(i, len(cands)):
            m = cands[j]
            if used.isdisjoint(m.cards):
                chosen.append(m)
                walk(j + 1, used | set(m.cards), chosen, total + m.value)
                chosen.pop()

    walk(0, frozenset(), [], 0)
    return best[1]


def _key(table: MeldTable, m: Meld, forehand: int, players: int) -> tuple[int, ...]:
    parts = {"value": m.value, "cards": len(m.cards), "top": m.top, "trump": int(m.trump),
             "earlier": -((m.seat - forehand) % players)}
    return tuple(parts[k] for k in table.ranking)


def compare(table: MeldTable, melds: list[Meld], team_of: list[int], forehand: int,
            players: int) -> int | None:
    """The team whose melds score (it holds the best single meld), or None (no meld, or an unbroken tie)."""
    if not melds:
        return None
    keyed = sorted(melds, key=lambda m: _key(table, m, forehand, players), reverse=True)
    top = _key(table, keyed[0], forehand, players)
    teams = {team_of[m.seat] for m in keyed if _key(table, m, forehand, players) == top}
    if len(teams) > 1:
        return None if table.ties_nobody else team_of[keyed[0].seat]
    return teams.pop()


def roem(mode: Mode, cards: list[str], natural: str = "AKQJT987", stuk: bool = True) -> int:
    """Klaverjas roem in one trick: a run of 3 in one suit 20, of 4 50; four of a kind 100, four Jacks 200;
    the trump King and Queen together (stuk) 20 besides."""
    total = 0
    if len({rank(c) for c in cards}) == 1 and len(cards) == 4:
        total += 200 if rank(cards[0]) == "J" else 100
    else:
        for s in {suit(c) for c in cards}:
            pos = sorted(natural.index(rank(c)) for c in cards if suit(c) == s)
            longest = run = 1
            for a, b in zip(pos, pos[1:], strict=False):
                run = run + 1 if b == a + 1 else 1
                longest = max(longest, run)
            total += {3: 20, 4: 50}.get(longest, 0)
    if stuk and mode.trump is not None and "K" + mode.trump in cards and "Q" + mode.trump in cards:
        total += 20
    return total


def marriage_holder(mode: Mode, hands: list[list[str]]) -> int | None:
    """The seat holding both the trump King and Queen (no marriage without a trump suit)."""
    if mode.trump is None:
        return None
    for seat, hand in enumerate(hands):
        if "K" + mode.trump in hand and "Q" + mode.trump in hand:
            return seat
    return None
