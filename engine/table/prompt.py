"""What the player types: a choice number, a card (`JS`), an action (`bid 18`, `play JS`, `call`, `show pair`),
`?` for an explanation of every card, or `q` to save and stop."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

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
    examples = _examples(pickers, legal)
    return f"type a choice number ({numbers}){typed}{examples}, ? to explain your cards, or q to save and stop"


def _examples(pickers: Sequence[Picker], legal: Sequence[Action]) -> str:
    """A legal card and a legal action (not a bid typed as a number; a risky one last) to quote in the usage."""
    cards = [a for a in legal if a.verb == "play"]
    picked = {p.verb for p in pickers}
    actions = [a for a in legal if a.verb != "play" and a.verb not in picked]
    actions.sort(key=lambda a: a.verb in RISKY_VERBS)
    examples = ""
    if cards:
        examples += f", a card such as {cards[0].arg}"
    if actions:
        examples += f", an action such as '{actions[0].notation}'"
    return examples


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
    fits = _same_suit(same, meant.split()[-1] if meant.split() else "")
    if fits:
        also = f" you may: {', '.join(fits[:6])})" if len(fits) > 1 else ")"
        return problem[:m.start()] + f" (did you mean '{fits[0]}'?" + also + problem[m.end():]
    return problem[:m.start()] + problem[m.end():] + _may_list(same)


def _may_list(actions: list[Action]) -> str:
    return f"; you may: {', '.join(a.notation for a in actions[:6])}" if actions else ""


def _same_suit(same: list[Action], suit: str) -> list[str]:
    """The actions naming `suit`, or a card of it."""
    return [a.notation for a in same if a.arg == suit or (len(a.arg) >= 2 and a.arg[-1] == suit)]


def _numbered(words: list[str], seat: int, n_choices: int, pickers: Sequence[Picker]) -> Parsed | None:
    """A number typed for a bid or raise ('30', '30 S'); None when the words are something else. A choice
    number wins over a value that is also one (`bid N` is always understood)."""
    if not pickers or not _number_first(words):
        return None
    value = int(words[0])
    if len(words) == 1 and _choice_not_bid(value, n_choices, pickers):
        return None
    picker = _picker_for(value, pickers)
    if len(words) == 1 and picker.suits and value in picker.values:
        return Parsed(needs_suit=(picker, value))
    try:
        return Parsed(action=Action.parse(f"{seat} {picker.verb} {' '.join(words)}"))
    except RecordError as e:
        return Parsed(problem=str(e))


def _number_first(words: list[str]) -> bool:
    """One or two words, the first a number of at most six digits."""
    return words[0].isascii() and words[0].isdigit() and len(words) <= 2 and len(words[0]) <= 6


def _picker_for(value: int, pickers: Sequence[Picker]) -> Picker:
    """The picker offering `value` (the first one when none does: the engine then says why it is no bid)."""
    return next((p for p in pickers if value in p.values), pickers[0])


def _choice_not_bid(value: int, n_choices: int, pickers: Sequence[Picker]) -> bool:
    """A number alone that is a choice number, or no bid at all (below every bid: "there is no choice 0")."""
    return 1 <= value <= n_choices or value < min(min(p.values) for p in pickers)


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


# The words that are commands of the table, not actions.
_COMMANDS: Final = {"?": EXPLAIN, "why": EXPLAIN, "explain": EXPLAIN, "q": QUIT, "quit": QUIT, "exit": QUIT,
                    "save": QUIT, "h": HELP, "help": HELP}


def parse_input(text: str, seat: int, legal: Sequence[Action], layout: DeckLayout,
                extra_verbs: Sequence[str] = (), pickers: Sequence[Picker] = ()) -> Parsed:
    """Turn one line of input into an action of `seat` (legality is left to the engine, which says why).
    `legal` are the numbered choices; `pickers` the bids and raises that may be typed as a number."""
    t = text.replace("\t", " ").strip()
    unreadable = _unreadable(t, legal, pickers)
    if unreadable:
        return Parsed(problem=unreadable)
    command = _COMMANDS.get(t.lower())
    if command is not None:
        return Parsed(command=command)
    words = t.split()
    typed = _numbered(words, seat, len(legal), pickers)
    if typed is not None:
        return typed
    if t.isascii() and t.isdigit():
        return _by_number(int(t), legal, pickers)
    verbs = {v.lower() for v in (*VERBS, *extra_verbs)}
    if words[0].lower() not in verbs:
        return _not_a_verb(t, seat, legal, layout, pickers)
    return _parsed_action(seat, words, legal)


def _unreadable(t: str, legal: Sequence[Action], pickers: Sequence[Picker]) -> str:
    """An empty line, one too long for any action, or one with control characters: what to type instead."""
    if not t:
        return "nothing typed: " + usage(len(legal), pickers, legal)
    if len(t) > MAX_LINE:
        return f"that line is {len(t)} characters long, which no action is: " + usage(len(legal), pickers, legal)
    if escaped(t) != t:  # control or format characters: said back escaped, never echoed as typed
        return f"{quoted(t)} is not understood: " + usage(len(legal), pickers, legal)
    return ""


def _by_number(k: int, legal: Sequence[Action], pickers: Sequence[Picker]) -> Parsed:
    """A choice number (a bid's value typed as a number was read before)."""
    if 1 <= k <= len(legal):
        return Parsed(action=legal[k - 1], by_number=True)
    hint = "".join(f", or type a {p.verb} from {p.values[0]} to {p.values[-1]}" for p in pickers)
    return Parsed(problem=f"there is no choice {k}: choose 1 to {len(legal)}{hint}")


def _not_a_verb(t: str, seat: int, legal: Sequence[Action], layout: DeckLayout,
                pickers: Sequence[Picker]) -> Parsed:
    """A first word that is no verb: a card alone is played, a near miss of a card says what is wrong with it."""
    if len(t.split()) == 1:
        try:
            layout.ids_of_code(t)
        except ValueError as e:
            if 2 <= len(t) <= 3 and t[:-1].upper() in (*layout.ranks, "10"):
                return Parsed(problem=str(e))
        else:
            return _parsed_action(seat, ["play", t], legal)
    return Parsed(problem=f"{quoted(t)} is not understood: " + usage(len(legal), pickers, legal))


def _parsed_action(seat: int, words: list[str], legal: Sequence[Action]) -> Parsed:
    try:
        return Parsed(action=Action.parse(f"{seat} {' '.join(words)}"))
    except RecordError as e:
        return Parsed(problem=_suggestion(str(e), words[0].lower(), legal))
