"""Build hook: ship the top-level rulesets/ and schemas/ folders inside the package.

The product layout keeps rule files in rulesets/ at the top of the repository; a plain `pip install .`
must still find them, so the build copies them to engine/data/ in the wheel.
"""

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


setup(cmdclass={"build_py": BuildWithData})
