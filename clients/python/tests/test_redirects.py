"""Secrets: the client never sends the API key anywhere but the URL it was given.

A loopback server answers every request with a redirect to a second loopback server that records
the ``Authorization`` header it receives (real sockets; no mocks). Before the fix urllib followed
the redirect and forwarded the bearer key to the other origin.
"""

from __future__ import annotations

import http.server
import threading
from typing import Iterator, List, Tuple

import pytest

import privet


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: List[str] = []

    def _answer(self) -> None:
        _Recorder.seen.append(self.headers.get("Authorization") or "")
        body = b'{"status": "ok"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


def _redirector(target: str, status: int) -> type:
    class Redirect(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            self.send_response(status)
            self.send_header("Location", target + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            pass

    return Redirect


def _serve(handler: type) -> Tuple[http.server.ThreadingHTTPServer, str]:
    s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=s.serve_forever, daemon=True).start()
    return s, f"http://127.0.0.1:{s.server_address[1]}"


@pytest.fixture()
def elsewhere() -> Iterator[str]:
    _Recorder.seen = []
    s, url = _serve(_Recorder)
    try:
        yield url
    finally:
        s.shutdown()
        s.server_close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect_neverForwardsTheKey(elsewhere: str, status: int) -> None:
    s, url = _serve(_redirector(elsewhere, status))
    try:
        c = privet.Client(url, "secret-key-123", retries=0)
        with pytest.raises(privet.PrivetError):
            c.health()
        with pytest.raises(privet.PrivetError):
            c.query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.1) COUNT(*) AS n FROM adult")
    finally:
        s.shutdown()
        s.server_close()
    assert not any("secret-key-123" in h for h in _Recorder.seen), "the API key was sent to another origin"


def test_connectionFailed_onARelease_carriesItsIdempotencyKey() -> None:
    """After the client's retries, the caller still needs the key to retry the release later
    without a second charge: the error carries the one key every attempt sent."""
    import socket

    requests: List[bytes] = []
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def swallow() -> None:  # reads each request, then closes without answering
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                requests.append(data)

    threading.Thread(target=swallow, daemon=True).start()
    try:
        c = privet.Client(f"http://127.0.0.1:{port}", "pvk.x.y", retries=2, backoff=0.01)
        with pytest.raises(privet.ConnectionFailed) as failed:
            c.query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.1) COUNT(*) AS n FROM adult")
    finally:
        server.close()
    keys = {r.split(b"Idempotency-Key: ", 1)[1].split(b"\r\n", 1)[0].decode() for r in requests}
    assert len(requests) == 3 and len(keys) == 1
    assert failed.value.idempotency_key == keys.pop()
    assert failed.value.idempotency_key in str(failed.value)
