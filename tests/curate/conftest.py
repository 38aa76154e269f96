"""Shared fixtures of the curation tests."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

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


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every outgoing connection attempt of the test (socket.connect / connect_ex / create_connection), recorded."""
    seen: list[Any] = []
    real_connect, real_connect_ex, real_create = socket.socket.connect, socket.socket.connect_ex, socket.create_connection

    def connect(self: socket.socket, address: Any) -> Any:
        seen.append(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> Any:
        seen.append(address)
        return real_connect_ex(self, address)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(address)
        return real_create(address, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    return seen
