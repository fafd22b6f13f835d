"""Text from files and from people, made safe to show on a terminal.

A rule file, save or record is shared between people: its text must not be able to clear the screen, hide a
line, move the cursor or reverse the reading order of what follows. `printable` keeps prose readable with those
characters taken out; `escaped` and `quoted` show every character of a name or of typed input, the dangerous
ones written out as escapes, so an error message says exactly what was there.
"""

from __future__ import annotations

import re
import shlex
import unicodedata

# Categories a terminal may act on instead of showing: controls (C0, DEL, C1), format characters (bidi overrides
# and isolates, zero-width joiners, soft hyphen, BOM), surrogates, unassigned code points, line/paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn", "Zl", "Zp"})

# Whole escape sequences, so that no parameter text ("[2J", "]0;title") is left behind: CSI (ESC [ or 0x9b),
# OSC and the other string commands (ESC ] P X ^ _, or their C1 forms) up to their terminator, and two-character
# ESC sequences.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?",
    re.DOTALL,
)
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x85\u2028\u2029]")


# Letters and symbols that display as nothing, so a name can look empty or like another: the Hangul fillers
# (letters by category) and the braille blank.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _unsafe(ch: str) -> bool:
    return ch in _BLANK_LOOKING or unicodedata.category(ch) in _UNSAFE_CATEGORIES


def printable(text: str, keep_newlines: bool = False) -> str:
    """`text` without escape sequences, control characters or format characters: safe to print. A tab becomes a
    space, and so does a line break unless `keep_newlines` (then every break is a plain newline)."""
    text = _SEQUENCE.sub("", str(text)).replace("\t", " ")
    text = _LINE_BREAK.sub("\n" if keep_newlines else " ", text)
    return "".join(ch for ch in text if ch == "\n" or not _unsafe(ch))


def one_line(text: str) -> str:
    """`printable` prose on one line, runs of white space as one space (a rule file's description)."""
    return " ".join(printable(text).split())


def _escape(ch: str) -> str:
    special = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if ch in special:
        return special[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str, limit: int = 200) -> str:
    """Every character shown: ordinary ones as they are, controls and format characters as escapes (`\\x1b`,
    `\\u202e`); more than `limit` characters are cut short with '...', so a message stays one readable line."""
    text = str(text)
    cut = len(text) > limit
    shown = "".join(_escape(ch) if _unsafe(ch) or (not ch.isprintable() and ch != " ") else ch
                    for ch in text[:limit])
    return shown + "..." if cut else shown


def quoted(text: str, limit: int = 60) -> str:
    """`escaped` text between single quotes: how an error message quotes what someone wrote or typed."""
    return f"'{escaped(text, limit)}'"


def shell_word(text: str) -> str:
    """`text` as one word to paste into a shell command line (quoted only where it needs to be); text with
    characters a terminal could act on is shown escaped instead, since it cannot be pasted safely anyway."""
    if escaped(text, len(text)) != text:
        return escaped(text)
    return shlex.quote(text)
