#!/usr/bin/env python3
"""An outside bot for `jacknine tournament --bots cmd:...`: passes when it may, otherwise takes the cheapest
legal action, and plays its lowest-ranked card. It reads one JSON request per line on standard input and writes
one JSON answer per line on standard output (logs go to standard error)."""

import json
import sys

RANKS = "J9AT KQ8763".replace(" ", "")   # high to low; a card is rank then suit, e.g. "JS", "TH"


def choose(request: dict) -> str:
    legal = request["legal"]
    if "pass" in legal:
        return "pass"
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        return max(plays, key=lambda a: RANKS.index(a.split()[1][0]))   # the lowest card
    return legal[0]


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") != "act":
            continue   # ignore messages this bot does not know
        print(json.dumps({"action": choose(request)}), flush=True)


if __name__ == "__main__":
    main()
