"""What the player types: a choice number, a card (`JS`), an action (`bid 18`, `play JS`, `call`, `show pair`),
`?` for an explanation of every card, or `q` to save and stop."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import DeckLayout
from engine.errors import RecordError
from engine.play.actions import VERBS, Action
from engine.table.decisions import RISKY_VERBS, Picker
from engine.text import escaped, quoted

EXPLAIN = "explain"
QUIT = "quit"
HELP = "help"
MAX_LINE = 200   # longer than any action; a longer line is refused before anything reads it


@dataclass(frozen=True)
class Parsed:
    """Exactly one of: an action to try, a command (EXPLAIN, QUIT, HELP), or the reason the text is not understood."""

    action: Action | None = None
    command: str | None = None
    problem: str | None = None
    needs_suit: tuple[Picker, int] | None = None   # a bid's number was typed; its suit is asked next
    by_number: bool = False                        # the action was chosen by its choice number


def usage(n_choices: int, pickers: Sequence[Picker] = (), legal: Sequence[Action] = ()) -> str:
    """How to answer, with examples taken from what is legal now (`legal`: the numbered choices): a card or an
    action is offered as an example only when it may be played or taken."""
    numbers = f"1-{n_choices}" if n_choices > 1 else "1"
    typed = "".join(f", a {p.verb} as its number ({p.values[0]}"
                    f"{' ' + next(iter(p.suits.get(p.values[0], ['S']))) if p.suits else ''})" for p in pickers)
    cards = [a for a in legal if a.verb == "play"]
    picked = {p.verb for p in pickers}
    actions = [a for a in legal if a.verb != "play" and a.verb not in picked]
    actions.sort(key=lambda a: a.verb in RISKY_VERBS)
    examples = ""
    if cards:
        examples += f", a card such as {cards[0].arg}"
    if actions:
        examples += f", an action such as '{actions[0].notation}'"
    return f"type a choice number ({numbers}){typed}{examples}, ? to explain your cards, or q to save and stop"


def _suggestion(problem: str, verb: str, legal: Sequence[Action]) -> str:
    """A parse error's "did you mean 'trump H'?" checked against what is legal now: kept when it is, replaced by
    the legal actions of that verb for the same suit when the suggestion is not (a file may name its trump by a card),
    left out otherwise."""
    m = re.search(r" \(did you mean '([^']*)'\?\)", problem)
    if m is None:
        return problem
    same = [a for a in legal if a.verb == verb]
    meant = m.group(1)
    if any(a.notation == meant for a in same):
        return problem
    suit = meant.split()[-1] if meant.split() else ""
    fits = [a.notation for a in same if a.arg == suit or (len(a.arg) >= 2 and a.arg[-1] == suit)]
    if fits:
        return problem[:m.start()] + f" (did you mean '{fits[0]}'?" + (
            f" you may: {', '.join(fits[:6])})" if len(fits) > 1 else ")") + problem[m.end():]
    listed = f"; you may: {', '.join(a.notation for a in same[:6])}" if same else ""
    return problem[:m.start()] + problem[m.end():] + listed


def _numbered(words: list[str], seat: int, n_choices: int, pickers: Sequence[Picker]) -> Parsed | None:
    """A number typed for a bid or raise ('30', '30 S'); None when the words are something else. A choice
    number wins over a value that is also one (`bid N` is always understood)."""
    if not pickers or not (words[0].isascii() and words[0].isdigit()) or len(words) > 2 or len(words[0]) > 6:
        return None
    value = int(words[0])
    if len(words) == 1 and (1 <= value <= n_choices or value < min(min(p.values) for p in pickers)):
        return None   # a choice number, or no bid at all (below every bid: "there is no choice 0")
    picker = next((p for p in pickers if value in p.values), pickers[0])
    if len(words) == 1 and picker.suits and value in picker.values:
        return Parsed(needs_suit=(picker, value))
    try:
        return Parsed(action=Action.parse(f"{seat} {picker.verb} {' '.join(words)}"))
    except RecordError as e:
        return Parsed(problem=str(e))


def parse_suit(text: str, seat: int, picker: Picker, value: int) -> Parsed:
    """The answer to 'which suit?' for a bid of `value`: a number from the list, a suit letter or symbol, NT."""
    t = text.strip()
    suits = picker.suits.get(value, [])
    if t.isascii() and t.isdigit() and 1 <= int(t) <= len(suits):
        return Parsed(action=Action(seat, picker.verb, f"{value} {suits[int(t) - 1]}"))
    if t.lower() in ("q", "quit", "exit", "save"):
        return Parsed(command=QUIT)
    try:
        return Parsed(action=Action.parse(f"{seat} {picker.verb} {value} {t}"))
    except RecordError:
        return Parsed(problem=f"{quoted(t)} is not one of the suits: choose 1 to {len(suits)} or type one of "
                      f"{' '.join(suits)}")


def parse_input(text: str, seat: int, legal: Sequence[Action], layout: DeckLayout,
                extra_verbs: Sequence[str] = (), pickers: Sequence[Picker] = ()) -> Parsed:
    """Turn one line of input into an action of `seat` (legality is left to the engine, which says why).
    `legal` are the numbered choices; `pickers` the bids and raises that may be typed as a number."""
    t = text.replace("\t", " ").strip()
    low = t.lower()
    if not t:
        return Parsed(problem="nothing typed: " + usage(len(legal), pickers, legal))
    if len(t) > MAX_LINE:
        return Parsed(problem=f"that line is {len(t)} characters long, which no action is: "
                      + usage(len(legal), pickers, legal))
    if escaped(t) != t:  # control or format characters: said back escaped, never echoed as typed
        return Parsed(problem=f"{quoted(t)} is not understood: " + usage(len(legal), pickers, legal))
    if low in ("?", "why", "explain"):
        return Parsed(command=EXPLAIN)
    if low in ("q", "quit", "exit", "save"):
        return Parsed(command=QUIT)
    if low in ("h", "help"):
        return Parsed(command=HELP)
    words = t.split()
    typed = _numbered(words, seat, len(legal), pickers)
    if typed is not None:
        return typed
    if t.isascii() and t.isdigit():
        k = int(t)
        if 1 <= k <= len(legal):
            return Parsed(action=legal[k - 1], by_number=True)
        hint = "".join(f", or type a {p.verb} from {p.values[0]} to {p.values[-1]}" for p in pickers)
        return Parsed(problem=f"there is no choice {k}: choose 1 to {len(legal)}{hint}")
    verbs = {v.lower() for v in (*VERBS, *extra_verbs)}
    if words[0].lower() not in verbs:
        if len(words) == 1:
            try:
                layout.ids_of_code(t)
            except ValueError as e:
                if 2 <= len(t) <= 3 and t[:-1].upper() in (*layout.ranks, "10"):
                    return Parsed(problem=str(e))
            else:
                words = ["play", t]
        if words[0] != "play":
            return Parsed(problem=f"{quoted(t)} is not understood: " + usage(len(legal), pickers, legal))
    try:
        return Parsed(action=Action.parse(f"{seat} {' '.join(words)}"))
    except RecordError as e:
        return Parsed(problem=_suggestion(str(e), words[0].lower(), legal))
