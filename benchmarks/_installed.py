"""Imported by each benchmark script before anything of jacknine's: run by a Python in which jacknine is not
installed (the system's `python3` before `source .venv/bin/activate`), the script says so in one line on standard
error and exits 2, instead of ending in a traceback."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def missing(modules: tuple[str, ...]) -> list[str]:
    """The modules of `modules` this Python cannot import."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require(*modules: str, extra: str = "") -> None:
    """Exit 2 with one line if any of `modules` cannot be imported (`extra`: the install extra that brings them)."""
    absent = missing(modules)
    if not absent:
        return
    script = sys.argv[0] or "this script"
    with_extra = f" with its '{extra}' extra" if extra else ""
    print(f"{script}: {', '.join(absent)} not found in {sys.executable}: run it with the Python jacknine is "
          f"installed in{with_extra} (`.venv/bin/python {script}`, or `source .venv/bin/activate` first; "
          "README.md, 'Play tonight')", file=sys.stderr)
    raise SystemExit(2)


# what a script needs besides the core install, by its file name
EXTRAS = {"env_speed.py": (("numpy", "pettingzoo", "gymnasium"), "rl")}

require("engine", "yaml", "pydantic")
_needs, _extra = EXTRAS.get(Path(sys.argv[0]).name, ((), ""))
require(*_needs, extra=_extra)
