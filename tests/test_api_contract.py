"""The API contract of tests/api_contract.py on the sources; benchmarks/compiled_check.py runs it compiled."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.api_contract import CHECKS


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_api_contract(name: str) -> None:
    check: Callable[[], None] = CHECKS[name]
    check()
