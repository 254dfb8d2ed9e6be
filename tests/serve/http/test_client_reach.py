"""Session 25: ``memlane.Client`` when the service is not there.

``Client`` promised memlane's errors, but a refused connection, a timeout or an address
that is no URL came out as httpx's own exceptions (``ConnectError``, ``ReadTimeout``,
``UnsupportedProtocol`` at the first call): ``except MemlaneError`` let them through. Now a
service that cannot be reached is ``RemoteError`` (status 0, ``unreachable``), one that does
not answer in time ``RemoteError`` (``timeout``), and an address that is no http(s) URL a
``ValidationError`` naming ``url`` when the client is made."""

from __future__ import annotations

import socket

import pytest

from memlane import Client
from memlane.client import RemoteError
from memlane.errors import MemlaneError, ValidationError


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_service_that_is_not_running_is_a_memlane_error() -> None:
    with Client(f"http://127.0.0.1:{_free_port()}", "ml_x") as mem, \
            pytest.raises(MemlaneError) as e:
        mem.search("which race?", scope="chat-42")
    assert isinstance(e.value, RemoteError) and (e.value.status, e.value.code) == (0, "unreachable")
    assert "cannot reach http://127.0.0.1:" in str(e.value)


def test_a_service_that_does_not_answer_in_time_is_a_memlane_error() -> None:
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with Client(url, "ml_x", timeout=0.5) as mem, pytest.raises(RemoteError) as e:
            mem.add_message("chat-42", "user", "hello")
    assert (e.value.status, e.value.code) == (0, "timeout")


@pytest.mark.parametrize("url", ["", "not a url", "localhost:8420", "ftp://127.0.0.1/", "http://"])
def test_an_address_that_is_no_http_url_is_refused_naming_url(url: str) -> None:
    with pytest.raises(ValidationError) as e:
        Client(url)
    assert e.value.field == "url" and str(e.value).startswith("url: ")
