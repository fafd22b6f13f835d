"""Reading a file that someone else may have named: only regular files, never blocking, never too much.

A path in a shared record or save (or typed on the command line) may point at a named pipe, a terminal, a device,
a folder, a symbolic-link loop or a name too long for the system. The file is checked before opening (so a pipe is
never opened), opened without blocking, and checked again on the open descriptor (so a swap between the two checks
is caught); every failure becomes an `UnreadableError` with one line saying why.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from engine.errors import UnreadableError

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def os_reason(e: OSError) -> str:
    """An operating-system error as a few words (no file name: the caller's message already names it)."""
    if e.errno == errno.ENOENT:
        return "no such file"
    if e.errno == errno.ELOOP:
        return "a loop of symbolic links, or too many of them"
    if e.errno == errno.ENAMETOOLONG:
        return "the file name is too long"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if e.errno == errno.ENOTDIR:
        return "a part of the path is not a directory"
    return (e.strerror or type(e).__name__).rstrip(".").lower()


def not_regular(path: Path | str, what: str) -> str | None:
    """Why `path` cannot be read as a `what`, as words that follow its name ("no such file", "is a directory,
    not a rule file", "cannot read the file (permission denied)"); None for a regular file. Never raises and
    never opens the file."""
    try:
        st = os.stat(path)
    except OSError as e:
        return "no such file" if e.errno == errno.ENOENT else f"cannot read the file ({os_reason(e)})"
    except ValueError:  # a NUL character in the name
        return "cannot read the file (the name contains a NUL character)"
    if stat.S_ISDIR(st.st_mode):
        return f"is a directory, not a {what}"
    if not stat.S_ISREG(st.st_mode):
        return f"is {_kind(st.st_mode)}, not a regular file; only regular files are read"
    return None


@contextlib.contextmanager
def open_regular(path: Path | str, display: str, what: str) -> Iterator[BinaryIO]:
    """The regular file at `path`, open for reading in binary; UnreadableError (shown as `display`) for anything
    else, checked before opening and again once open (in case it was replaced in between)."""
    reason = not_regular(path, what)
    if reason is not None:
        raise UnreadableError(display, reason)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as e:
        raise UnreadableError(display, f"cannot read the file ({os_reason(e)})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableError(display, f"is {_kind(mode)}, not a regular file; only regular files are read")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as f:
        try:
            yield f
        except OSError as e:
            raise UnreadableError(display, f"cannot read the file ({os_reason(e)})") from None


def read_regular(path: Path | str, display: str, what: str, max_bytes: int, size_text: str) -> bytes:
    """The bytes of the regular file at `path`; UnreadableError (shown as `display`) for anything else or for
    more than `max_bytes` ("file is larger than {size_text}")."""
    with open_regular(path, display, what) as f:
        raw = f.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise UnreadableError(display, f"file is larger than {size_text}")
    return raw


def decode_text(raw: bytes, display: str) -> str:
    """UTF-8 text (a leading byte-order mark is dropped); UnreadableError for binary or other encodings."""
    if b"\x00" in raw:
        raise UnreadableError(display, "binary file (it contains NUL bytes), not YAML text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UnreadableError(display, f"not UTF-8 text (bad byte at offset {e.start})") from None
