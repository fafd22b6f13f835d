"""Build hook: ship the top-level rulesets/ and schemas/ folders inside the package.

The product layout keeps rule files in rulesets/ at the top of the repository; a plain `pip install .`
must still find them, so the build copies them to engine/data/ in the wheel.
"""

import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


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


# The hot path (ints and bitmasks, plain typed classes) can be compiled to C with mypyc, about twice as fast.
# Opt-in, for a normal (not editable) install: JACKNINE_COMPILE=1 pip install --no-build-isolation .
# (mypy must be installed; an editable install would leave compiled modules shadowing the sources).
HOT_PATH = ("actions", "base", "game", "auction", "contract", "tricks", "scoring", "state")
COMPILED = [f"engine/play/{m}.py" for m in HOT_PATH]


def compiled_extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get("JACKNINE_COMPILE") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        raise SystemExit("JACKNINE_COMPILE=1 needs mypy in the build environment: "
                         "pip install mypy, then pip install --no-build-isolation .") from e
    return mypycify(COMPILED, opt_level="3")


setup(cmdclass={"build_py": BuildWithData}, ext_modules=compiled_extensions())
