"""Each shipped Jass file as the referee reads the Jass group's rules for it: table size, Swiss or French cards,
play duties, melds (declared and compared, or roem in the tricks), the trump marriage, and the scoring rule."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from . import score
from .melds import MeldTable

BELOTE_MELDS = MeldTable("AKQJT987", {3: 20, 4: 50, 5: 100},
                         {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100},
                         ("value", "cards", "top", "trump"), ties_nobody=True)
SCHIEBER_MELDS = MeldTable("AKQJT9876", {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300},
                           {"J": 200, "9": 150, "A": 100, "K": 100, "Q": 100, "T": 100},
                           ("value", "cards", "top", "trump", "earlier"), ties_nobody=False)
KLABERJASS_MELDS = MeldTable("AKQJT987", {3: 20, 4: 50}, {}, ("value", "top", "trump"), ties_nobody=True)


@dataclass(frozen=True)
class Spec:
    players: int
    swiss: bool
    duty: str
    melds: MeldTable | None          # declared melds (None: none, or roem)
    roem: bool                       # Klaverjas: roem counted in each trick, the stuk among it
    marriage: bool                   # the trump marriage held in one hand (belote, stöck, bella)
    last_trick: int
    scorer: Callable[[score.Deal], list[int]]
    multipliers: dict[str, int] | None = None   # Swiss 2500: by trump suit or mode
    roem_stuk: bool = True           # the stuk counted among the roem of a trick (else in one hand: marriage)
    choice: str = ""                 # how the trump is chosen (choice.py): take, take_schmeiss, coinche, name,
                                     # name_push ("": not judged)


SPECS: dict[str, Spec] = {
    "belote": Spec(4, False, "belote", BELOTE_MELDS, False, True, 10, score.belote, choice="take"),
    "coinche": Spec(4, False, "belote", BELOTE_MELDS, False, True, 10, score.coinche, choice="coinche"),
    "klaverjas": Spec(4, False, "amsterdam", None, True, False, 10, score.klaverjas, choice="name"),
    "klaverjas-rotterdam": Spec(4, False, "rotterdam", None, True, False, 10, score.klaverjas, choice="name"),
    "schieber": Spec(4, True, "schieber", SCHIEBER_MELDS, False, True, 5, score.schieber, choice="name_push"),
    "schieber-2500": Spec(4, True, "schieber", SCHIEBER_MELDS, False, True, 5, score.schieber,
                          {"H": 1, "D": 1, "S": 2, "C": 2, "obenabe": 3, "undenufe": 3}, choice="name_push"),
    "klaberjass": Spec(2, False, "klaberjass", KLABERJASS_MELDS, False, True, 10, score.klaberjass,
                       choice="take_schmeiss"),
}

BELOTE, COINCHE, KLAVERJAS, SCHIEBER = SPECS["belote"], SPECS["coinche"], SPECS["klaverjas"], SPECS["schieber"]
OVERLAYS: dict[str, Spec] = {
    "belote-1000": BELOTE,
    "belote-sans-annonces": replace(BELOTE, melds=None),
    "belote-litige": replace(BELOTE, scorer=partial(score.belote, litige=True)),
    "belote-rounding": replace(BELOTE, scorer=score.rounded(score.belote)),
    "belote-capot-252": replace(BELOTE, scorer=partial(score.belote, capot_points=252)),
    "coinche-2000": COINCHE,
    "coinche-sans-annonces": replace(COINCHE, melds=None),
    "coinche-rounding": replace(COINCHE, scorer=score.rounded(score.coinche)),
    "coinche-partner-trump-free": replace(COINCHE, duty="partner_trump_free"),
    "coinche-ta-sa": replace(COINCHE, choice=""),   # the order of modes at one number: not judged
    "klaverjas-1500": KLAVERJAS,
    "klaverjas-stuk-in-hand": replace(KLAVERJAS, marriage=True, roem_stuk=False),
    "schieber-12": SCHIEBER,
    "schieber-small-weis": replace(SCHIEBER, melds=replace(SCHIEBER_MELDS, sequences={3: 20, 4: 50, 5: 100})),
    "schieber-no-weis": replace(SCHIEBER, melds=None),
}
SPECS.update(OVERLAYS)
