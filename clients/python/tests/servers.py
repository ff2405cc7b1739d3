"""A real ``privet serve --demo`` on loopback for the tests, and a TCP relay that loses answers.

The server is the project's CLI jar (``privet-cli/target/privet.jar``, or ``$PRIVET_JAR``), built
by ``mvn -B -ntp verify`` or ``./privet``. It listens on a free port (``--port 0``); its demo
analyst's API key is read from its stdout and its URL from the line ``privet: serving on URL`` on
stderr. Its temporary workspace lives in the test's own temporary folder (``java.io.tmpdir``).
"""

from __future__ import annotations

import collections
import os
import queue
import shutil
import socket
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Deque, List, Optional

REPO = Path(__file__).resolve().parents[3]


def jar() -> Path:
    return Path(os.environ.get("PRIVET_JAR", REPO / "privet-cli" / "target" / "privet.jar"))


def java() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if not found:
        raise RuntimeError("java: not found on PATH (Java 17 is needed to run privet serve)")
    return found


@dataclass
class DemoServer:
    """A running ``privet serve --demo``: its URL, its demo analyst's key and its process."""

    url: str
    key: str
    process: subprocess.Popen
    log: Deque[str] = field(default_factory=lambda: collections.deque(maxlen=200))

    def stop(self) -> None:
        """SIGTERM (the server stops cleanly), then SIGKILL after 30 s."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def start_demo_server(tmp: Path, timeout: float = 120.0) -> DemoServer:
    """Starts ``privet serve --demo --port 0`` and waits until it accepts requests."""
    tmp.mkdir(parents=True, exist_ok=True)
    cmd = [java(), "-Djava.io.tmpdir=" + str(tmp), "-Xmx1g", "-jar", str(jar()), "serve", "--demo", "--port", "0"]
    env = dict(os.environ)
    env.pop("PRIVET_LEDGER_URL", None)  # --demo refuses a shared ledger
    process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               cwd=str(REPO))
    lines: "queue.Queue[tuple[str, Optional[str]]]" = queue.Queue()
    log: Deque[str] = collections.deque(maxlen=200)

    def pump(name: str, stream) -> None:  # drains the pipe for the server's whole life
        for line in stream:
            log.append(line.rstrip("\n"))
            lines.put((name, line.rstrip("\n")))
        lines.put((name, None))

    for name, stream in (("out", process.stdout), ("err", process.stderr)):
        threading.Thread(target=pump, args=(name, stream), daemon=True).start()
    key: Optional[str] = None
    url: Optional[str] = None
    try:
        while key is None or url is None:
            name, line = lines.get(timeout=timeout)
            if line is None:
                raise RuntimeError("privet serve --demo exited before serving:\n" + "\n".join(log))
            if name == "out" and key is None and line.startswith("pvk."):
                key = line.strip()
            if name == "err" and line.startswith("privet: serving on "):
                url = line[len("privet: serving on "):].strip()
    except BaseException:
        process.kill()
        process.wait(10)
        raise
    return DemoServer(url, key, process, log)


class LossyRelay:
    """A TCP relay in front of a real server that forwards each request but drops the first
    ``lose`` answers (closing the connection without a byte), like a network failure after the
    server committed a release. Later connections are relayed both ways.
    """

    def __init__(self, target_host: str, target_port: int, lose: int = 1) -> None:
        self.target = (target_host, target_port)
        self.lose = lose
        self.requests: List[bytes] = []
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self._stop.set()
        self._sock.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._relay, args=(conn,), daemon=True).start()

    def _relay(self, conn: socket.socket) -> None:
        with conn, socket.create_connection(self.target, timeout=120) as upstream:
            request = _read_http_request(conn)
            self.requests.append(request)
            upstream.sendall(request)
            answer = _read_until_closed(upstream)
            if self.lose > 0:
                self.lose -= 1
                return  # the server has answered (and committed); the client sees a closed connection
            conn.sendall(answer)


def _read_http_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    # Ask the server to close after answering, so the relay reads the whole answer.
    head = b"\r\n".join(h for h in head.split(b"\r\n") if not h.lower().startswith(b"connection:"))
    return head + b"\r\nConnection: close\r\n\r\n" + body


def _read_until_closed(sock: socket.socket) -> bytes:
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
