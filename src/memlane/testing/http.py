"""Run an ASGI app (memlane's service, or yours around it) on a real loopback port.

>>> from memlane.serve.http import create_app
>>> with serving(create_app(mem)) as url:          # doctest: +SKIP
...     httpx.get(url + "/healthz")

The server is a real uvicorn in a background thread, bound to a free 127.0.0.1 port
before it starts (no race for the port); it is stopped, with bounded waits, on exit.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["serving"]


@contextmanager
def serving(app: Any, *, start_timeout: float = 30.0, stop_timeout: float = 30.0,
            **options: Any) -> Iterator[str]:
    """Serve ``app`` on a free loopback port; yields its base URL (``http://127.0.0.1:PORT``).
    ``options`` go to ``uvicorn.Config`` (``http="h11"``: the pure-Python parser); as
    ``memlane serve``, uvicorn's own forwarded headers are off (``serve.trusted_proxies``)."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=stop_timeout, lifespan="on",
                            **{"proxy_headers": False, **options})
    server = uvicorn.Server(config)
    failure: list[BaseException] = []

    def run() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as e:  # reported to the caller below
            failure.append(e)

    thread = threading.Thread(target=run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if failure or not thread.is_alive():
            sock.close()
            raise RuntimeError(f"server did not start: {failure[0] if failure else 'exited'}")
        if time.monotonic() > deadline:
            server.should_exit = True
            thread.join(stop_timeout)
            sock.close()
            raise TimeoutError(f"server did not start within {start_timeout}s")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(stop_timeout)
        sock.close()
        if thread.is_alive():
            raise TimeoutError(f"server did not stop within {stop_timeout}s")
