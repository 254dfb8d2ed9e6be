"""A plain HTTP server on a free 127.0.0.1 port answering what a test says: the thing in
front of ``memlane.Client`` that is not today's memlane service (a proxy's error page, an
older service). ``memlane.testing.http.serving`` runs an ASGI app (the service itself);
this one answers each request with ``answer(method, path, body)``.

Two tests built their own ``ThreadingHTTPServer`` (session 37, fix37, folded here): each
stopped it with ``shutdown()`` (no bound) and ``thread.join(10)`` (whose end was not
looked at), and a request still being answered then ran on in its daemon thread, past the
test and the ``Memory`` it closed; an answer that raised was printed by ``http.server``
and lost, the client seeing only a closed connection. Here the stop waits at most
``stop_timeout`` seconds for the server and the requests under way and raises if either
is still there, and an answer that raised is a 500 to the client and raised again when the
block ends."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["Answer", "answering"]

Answer = tuple[int, bytes, dict[str, str]]
"""A status, a body and headers beyond ``Content-Type: application/json`` (a header given
here replaces it) and ``Content-Length``."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # (a request under way is waited for by ``answering``, bounded)


@contextmanager
def answering(answer: Callable[[str, str, bytes], Answer], *,
              stop_timeout: float = 10.0) -> Iterator[str]:
    """Serve ``answer(method, path, body)`` (``GET``, ``POST``, ``PUT``, ``PATCH``,
    ``DELETE``) on a free loopback port; yields the base URL, ``http://127.0.0.1:PORT``."""
    failures: list[BaseException] = []
    busy = threading.Condition()
    under_way = [0]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _answer(self) -> None:
            with busy:
                under_way[0] += 1
            try:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    status, out, headers = answer(self.command, self.path, body)
                except BaseException as e:  # the test's own answer failed: said, then raised
                    failures.append(e)
                    status, out, headers = 500, traceback.format_exc().encode(), {
                        "Content-Type": "text/plain"}
                self.send_response(status)
                for k, v in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)
            finally:
                with busy:
                    under_way[0] -= 1
                    busy.notify_all()

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

    httpd = _Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              name=f"loopback-{httpd.server_address[1]}", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        stopper = threading.Thread(target=httpd.shutdown, daemon=True)
        stopper.start()
        stopper.join(stop_timeout)
        with busy:
            idle = busy.wait_for(lambda: under_way[0] == 0, stop_timeout)
        httpd.server_close()
        thread.join(stop_timeout)
    if thread.is_alive() or not idle:
        raise TimeoutError(f"the loopback server on port {httpd.server_address[1]} did not "
                           f"stop within {stop_timeout}s "
                           f"({under_way[0]} request(s) still being answered)")
    if failures:
        raise failures[0]
