"""A throwaway redis-server on a loopback port for the tests (Debian's package).

Started with ``--save '' --appendonly no`` (nothing written to disk) unless asked for AOF,
and stopped afterwards. Tests that need it skip when ``redis-server`` is not installed.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, folder: Path, aof: bool = False, port: int | None = None,
                 tls: bool = False) -> None:
        self.folder = folder
        self.aof = aof
        self._port_given = port is not None
        self.port = port or free_port()
        self.tls = tls  # TLS only, with a certificate of its own (self.ca)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if self.tls:
            return f"rediss://127.0.0.1:{self.port}/0?ssl_ca_certs={self.ca}"
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def ca(self) -> Path:
        return self.folder / "redis-cert.pem"

    def _tls_args(self) -> list[str]:
        key = self.folder / "redis-key.pem"
        if not self.ca.exists():
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                            "-keyout", str(key), "-out", str(self.ca), "-days", "1",
                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                           check=True, capture_output=True)
        return ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file", str(self.ca),
                "--tls-key-file", str(key), "--tls-ca-cert-file", str(self.ca),
                "--tls-auth-clients", "no"]

    def _answers(self) -> bool:
        if not self.tls:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        import ssl

        context = ssl.create_default_context(cafile=str(self.ca))
        with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as raw, \
                context.wrap_socket(raw, server_hostname="127.0.0.1") as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def start(self) -> RedisServer:
        """Start the server and wait until it answers PING. On a first start with a port
        of our choosing, a port someone took between ``free_port()`` and the server's
        bind (another test worker's server, say) is given up for another, up to 3 times;
        a restart keeps its port, since the URL is already out."""
        tries = 3 if self.proc is None and not self._port_given else 1
        for attempt in range(tries):
            if attempt:
                self.port = free_port()
            if self._start_once():
                return self
        raise RuntimeError(f"redis-server did not start on port {self.port}: "
                           f"{self._log_tail()}")

    def _start_once(self) -> bool:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        args = [exe, *(self._tls_args() if self.tls else ["--port", str(self.port)]),
                "--bind", "127.0.0.1", "--save", "", "--dir", str(self.folder),
                "--protected-mode", "no", "--logfile", str(self._log)]
        args += (["--appendonly", "yes", "--appendfsync", "always"] if self.aof
                 else ["--appendonly", "no"])
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30  # a busy machine (3 test workers starting at once)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:  # it gave up (the port was taken, say)
                return False
            try:
                if self._answers():
                    return True
            except OSError:
                pass
            time.sleep(0.05)  # not up yet, or someone else answers on the port
        self.proc.kill()
        self.proc.wait(10)
        return False

    @property
    def _log(self) -> Path:
        return self.folder / "redis-server.log"

    def _log_tail(self) -> str:
        try:
            return " | ".join(self._log.read_text(errors="replace").splitlines()[-3:])
        except OSError:
            return "(no log)"

    def stop(self, kill: bool = False) -> None:
        if self.proc is not None and self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
            self.proc.wait(10)


def available() -> bool:
    return bool(shutil.which("redis-server")) or Path("/usr/bin/redis-server").exists()
