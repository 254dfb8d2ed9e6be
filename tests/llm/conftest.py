"""Fixtures for the LLM backends: a real loopback chat server, clients closed afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memlane.testing.llm_server import ChatServer


@pytest.fixture
def srv() -> Iterator[ChatServer]:
    with ChatServer() as server:
        yield server
