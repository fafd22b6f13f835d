"""`jacknine serve` without the web extra: one line naming what is missing and how to install it, exit 2."""

from __future__ import annotations

import importlib.util

import pytest
from typer.testing import CliRunner

from engine.cli.app import app


def test_serve_without_the_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def missing(name: str, *args: object) -> object:
        return None if name in ("starlette", "uvicorn") else real(name, *args)  # type: ignore[arg-type]
    monkeypatch.setattr(importlib.util, "find_spec", missing)
    res = CliRunner().invoke(app, ["serve", "--port", "8999"])
    assert res.exit_code == 2
    assert res.output == ("serve: the web extra is not installed (missing starlette, uvicorn); install it with: "
                          "python3 -m pip install '.[web]' (from a checkout)\n")


def test_serve_help_names_its_options() -> None:
    res = CliRunner().invoke(app, ["serve", "--help"])
    assert res.exit_code == 0
    for option in ("--host", "--port", "--db", "--max-tables", "--grace", "--bot-delay", "--workers",
                   "--allow-host"):
        assert option in res.output
