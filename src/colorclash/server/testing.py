"""Start a real server for tests and benchmarks: in this process (a uvicorn thread) or as
a separate process (so that it can be killed with SIGKILL)."""

from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from typing import Any

from colorclash.server.config import Settings

#: Settings that lift the per-address REST limits: test and benchmark clients all come
#: from 127.0.0.1 and make far more rooms than any one person.
LIFTED_LIMITS: dict[str, Any] = {
    **{f"limit_{kind}_{part}": 10**9
       for kind in ("create", "join", "lookup", "queue", "reconnect", "lobby")
       for part in ("burst", "per_min")},
    # every test player comes from 127.0.0.1: let them meet at one Quick Match table
    "quick_match_distinct_addresses": False,
}
LIFTED_LIMITS_ENV = {f"COLORCLASH_{k.upper()}": str(v) for k, v in LIFTED_LIMITS.items()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthz(url: str) -> tuple[int, dict[str, Any]]:
    """``GET /healthz`` of a server: its status code and body (a 503's too)."""
    import json
    import urllib.error

    try:
        with urllib.request.urlopen(url + "/healthz", timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _bound_socket(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    return sock


def _wait_healthy(url: str, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"server at {url} did not come up in {timeout} s")


class InProcessServer:
    """uvicorn serving ``create_app`` on 127.0.0.1 in a background thread."""

    def __init__(self, store_url: str, settings: Settings | None = None,
                 game_factory: Any = None) -> None:
        from colorclash.server.app import create_app

        self.settings = settings or Settings()
        self.app = create_app(store_url, settings=self.settings, game_factory=game_factory)
        # the port is bound here and handed to uvicorn, never closed in between: a port
        # only looked up (free_port) could be taken by another test's server, or its
        # redis-server, before uvicorn bound it
        self._socket = _bound_socket(0)
        self.port = self._socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def start(self) -> InProcessServer:
        import uvicorn

        from colorclash.server.run import uvicorn_config

        config = uvicorn_config(self.app, self.settings, "127.0.0.1", self.port,
                                log_level="warning")
        self.guard = config.colorclash_guard
        self._server = uvicorn.Server(config)
        if self._socket.fileno() == -1:  # started again after a stop
            self._socket = _bound_socket(self.port)
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._socket]}, daemon=True)
        self._thread.start()
        _wait_healthy(self.url, 15)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
        self._socket.close()

    def __enter__(self) -> InProcessServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


#: the children started and not yet stopped: stopped when the tests' process exits, even
#: after an interrupt (one left paused by SIGSTOP held its port and its rooms for good)
_RUNNING: set[ServerProcess] = set()


@atexit.register
def _stop_children_left() -> None:
    for proc in list(_RUNNING):
        proc.kill()


class ServerProcess:
    """``colorclash serve`` in a child process, with ``COLORCLASH_*`` settings in env."""

    def __init__(self, store_url: str, env: dict[str, str] | None = None,
                 port: int | None = None) -> None:
        self.store_url = store_url
        # Its port bound here and handed to the child, which serves on that very socket:
        # a port only looked up could be taken (by a test's redis-server or web server in
        # another worker) before the child bound it.
        self._socket: socket.socket | None = _bound_socket(port or 0)
        self.port = self._socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 20) -> ServerProcess:
        if self._socket is None:  # started again after a stop or a kill: the same port
            self._socket = _bound_socket(self.port)
        fd = self._socket.fileno()
        code = ("from colorclash.server.run import run_server; "
                f"run_server('127.0.0.1', {self.port}, {self.store_url!r}, listen_fd={fd})")
        self.log = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen([sys.executable, "-c", code], env=self.env,
                                         stdout=self.log, stderr=subprocess.STDOUT,
                                         pass_fds=(fd,))
        finally:  # the child has its own copy: a stopped child leaves the port free
            self._socket.close()
            self._socket = None
        _RUNNING.add(self)
        _wait_healthy(self.url, timeout, self.proc)
        return self

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        _RUNNING.discard(self)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        _RUNNING.discard(self)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # (a test may have paused it: SIGSTOP)
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
