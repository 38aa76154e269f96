"""Shared fixtures of the curation tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.fixture_web import FixtureWeb


@pytest.fixture(scope="module")
def _web_server() -> Iterator[FixtureWeb]:
    with FixtureWeb() as server:
        yield server


@pytest.fixture
def web(_web_server: FixtureWeb) -> FixtureWeb:
    """The offline fixture web (one server per test module), its request log emptied for each test."""
    _web_server.reset()
    return _web_server
