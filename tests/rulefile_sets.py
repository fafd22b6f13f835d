"""Which shipped rule files the costly per-file tests play (CI's budget: the whole `.ci/run` under 15 minutes).

Every shipped file stays in every cheap per-file test and in the random-hand invariants. The costly tests (thousands
of positions, every bot, every world) skip the overlays in SAME_PLAY_AS: files that change only the numbers of the
score or of the match - a target, a number of deals, rounding, the capot's points, what a tied contract scores - so
that every hand deals, bids, plays and is seen exactly as in its base file. tests/test_rulefile_sets.py proves that
for each of them (the same deals and moves give the same legal actions and the same views at every step), so a
property that holds for the base holds for the overlay; the overlay's own numbers are tested by its golden records,
the Jass referee (tests/test_oracle_jass.py) and the random-hand round trips.
"""
from __future__ import annotations

from engine.rules.load import shipped_rulesets

ALL = sorted(shipped_rulesets())

# overlay -> the base file it plays exactly as
SAME_PLAY_AS: dict[str, str] = {
    "belote-1000": "belote",          # match target
    "belote-litige": "belote",        # a tie's points held over to the next deal
    "belote-rounding": "belote",      # each deal's score rounded to tens
    "belote-capot-252": "belote",     # the capot's card points
    "coinche-2000": "coinche",        # match target
    "coinche-rounding": "coinche",    # each deal's score rounded to tens
    "klaverjas-1500": "klaverjas",    # match target instead of sixteen deals
    "schieber-12": "schieber",        # twelve deals instead of a target
}

# the files whose hands the costly tests play: every shipped file but the score-only overlays
PLAYED = [name for name in ALL if name not in SAME_PLAY_AS]
