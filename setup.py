"""Build hooks.

1. Ship the top-level rulesets/ and schemas/ folders inside the package: the product layout keeps rule files in
   rulesets/ at the top of the repository, and a plain `pip install .` must still find them, so the build copies
   them to engine/data/ in the wheel.
2. Compile the hot path (engine/play/: ints, bitmasks, plain typed classes) to C with mypyc when a wheel is
   built, about twice as fast. The sources are the same Python files; if compiling is impossible for any reason
   the build falls back to the pure-Python package. Editable installs are never compiled (compiled modules would
   shadow the sources being edited). JACKNINE_COMPILE=0 forces a pure-Python build. Each step says on standard
   error what it does and how long it took (`pip install -v .` shows it; plain pip only shows "Building wheel"):
   install every extra you want in one command (`pip install '.[web]'`), as each install compiles again.
"""

import os
import shutil
import sys
import time
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py


def progress(message: str) -> None:
    print(f"jacknine: {message}", file=sys.stderr, flush=True)


HOT_PATH = ("actions", "base", "rules", "tables", "game", "sure_sweep", "auction", "contract", "tricks", "scoring",
            "banked", "melds", "combinations", "obligations", "trump_modes", "turned", "claims", "state", "playout",
            "view", "sweep_proof", "sweep_claims", "schedule")
# engine/play/ also holds the View every bot decision builds and the sweep prover with the claims' grading.
# engine/bots/: the search bots' rollouts, sampled worlds, hand model and contract policy, and the heuristic (its
# card play, what it reads from its view in info.py, its special-contract estimates in special.py, its endgame in
# endgame.py), compiled too.
# The bot classes stay ordinary Python classes (viewbot.py is not compiled, HeuristicBot is marked
# `interpreted_class`): a compiled class cannot be subclassed by interpreted code, and pimc, search and bot
# builders subclass them.
BOT_PATH = ("rollout", "determinize", "model", "policy", "worlds", "info", "special", "heuristic", "endgame")
# engine/adapters/: the observation encoder, and the change log and runners the learning environments step
ADAPTER_PATH = ("encoding", "runner")
COMPILED = ([f"engine/play/{m}.py" for m in HOT_PATH] + [f"engine/bots/{m}.py" for m in BOT_PATH]
            + [f"engine/adapters/{m}.py" for m in ADAPTER_PATH])


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        root = Path(__file__).parent
        for src, dest in (("rulesets", "rulesets"), ("schemas", "schema")):
            target = Path(self.build_lib) / "engine" / "data" / dest
            if target.exists():
                shutil.rmtree(target)
            target.mkdir(parents=True)
            for f in sorted((root / src).glob("*.*")):
                shutil.copy2(f, target / f.name)


class OptionalBuildExt(build_ext):
    """Compile the extensions, or leave the pure-Python package whole if the C compiler fails."""

    def run(self) -> None:
        if self.extensions:
            progress(f"compiling {len(self.extensions)} extension(s) of the hot path to C (a minute or more on a "
                     "small machine; JACKNINE_COMPILE=0 skips it)")
        start = time.monotonic()
        try:
            super().run()
            if self.extensions:
                progress(f"compiled in {time.monotonic() - start:.0f} s")
        except Exception as e:  # noqa: BLE001 - any failure means: ship the pure-Python modules
            print(f"jacknine: compiling the hot path failed ({e}); installing the pure-Python engine",
                  file=sys.stderr)
            for ext in self.extensions:
                built = Path(self.get_ext_fullpath(ext.name))
                if built.exists():
                    built.unlink()
            self.extensions = []


def wants_compiled() -> bool:
    if os.environ.get("JACKNINE_COMPILE", "1") == "0":
        return False
    commands = set(sys.argv[1:])
    if commands & {"editable_wheel", "develop", "egg_info", "dist_info", "sdist"}:
        return False
    return bool(commands & {"bdist_wheel", "build", "build_ext", "install"})


def compiled_extensions() -> list:  # type: ignore[type-arg]
    if not wants_compiled():
        return []
    try:
        from mypyc.build import mypycify

        progress(f"type-checking and translating {len(COMPILED)} hot-path modules with mypyc (about a minute)")
        start = time.monotonic()
        built = mypycify(COMPILED, opt_level="3")
        progress(f"translated in {time.monotonic() - start:.0f} s; the C compiler comes next")
        return built
    except BaseException as e:  # noqa: BLE001 - mypy missing or the type check failing: stay pure Python
        print(f"jacknine: not compiling the hot path ({e!r}); installing the pure-Python engine", file=sys.stderr)
        return []


setup(cmdclass={"build_py": BuildWithData, "build_ext": OptionalBuildExt}, ext_modules=compiled_extensions())
