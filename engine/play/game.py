"""Game: the compiled rules of one game with their tables (engine.play.tables), and the hands dealt from them.

The tables live in their own module, below the state of a hand, and this class adds what needs the state above
them: `new_hand`. So the modules of engine/play import each other in one direction only (tables <- the state's
data <- the phase modules <- State <- Game); tests/test_structure.py holds them to it."""

from __future__ import annotations

from engine.errors import ArgumentError
from engine.play.rules import Rules
from engine.play.state import State
from engine.play.tables import (
    NO_TRUMP,
    TRUMP_POWER,
    BidTable,
    GameTables,
    card_power,
    check_seat,
    check_seed,
    winning_index,
)

__all__ = ["NO_TRUMP", "TRUMP_POWER", "BidTable", "Game", "GameTables", "card_power", "check_seat", "check_seed",
           "winning_index"]


class Game(GameTables):
    """Immutable: the rules of one game (`rules`), the tables a hand is played with (`GameTables`), and
    `new_hand`."""

    def __reduce__(self) -> tuple[type[Game], tuple[Rules, str | None]]:
        # a game is rebuilt from its rule records: the tables derive from them
        return (Game, (self.rules, self.ref))

    def new_hand(self, dealer: object = 0, seed: object = None, hands: object = None,
                 match_scores: object = None, match_target: object = None, stock: object = None) -> State:
        """A new hand dealt by `dealer`: from `seed` (a whole number >= 0; the same seed deals the same cards), or
        the given `hands` (card ids each seat receives, in order). `match_scores` and `match_target` (the winning
        score now, when an event of the match moved it) tell the hand where the match stands. ArgumentError for
        anything else."""
        # every parameter is `object`: compiled, typed parameters would refuse a tuple with a bare TypeError and
        # take True for 1 before the checks below could say what is wrong
        seat = check_seat(dealer, self.n, "dealer")
        if hands is not None:
            dealt = self.check_hands(hands)
            pack = self.check_stock(stock, dealt)
        else:
            if stock is not None:
                raise ArgumentError("stock: give it with hands (a seeded deal makes its own)")
            checked = check_seed(seed)
            dealt, pack = self.shuffled_deal_and_stock(checked, seat)
        scores: list[int] | None = None
        if match_scores is not None:
            teams = len(self.rules.table.teams)
            if not isinstance(match_scores, list | tuple) or len(match_scores) != teams:
                raise ArgumentError(f"match_scores: one whole number per team ({teams})")
            scores = []
            for s in match_scores:
                if not isinstance(s, int) or isinstance(s, bool):
                    raise ArgumentError(f"match_scores: one whole number per team ({teams})")
                scores.append(s)
        target: int | None = None
        if match_target is not None:
            if not isinstance(match_target, int) or isinstance(match_target, bool):
                raise ArgumentError("match_target: a whole number (the score that wins the match now)")
            target = match_target
        return State(self, seat, dealt, scores, match_target=target, stock=pack)
