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
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        args = [exe, *(self._tls_args() if self.tls else ["--port", str(self.port)]),
                "--bind", "127.0.0.1", "--save", "", "--dir", str(self.folder),
                "--protected-mode", "no"]
        args += (["--appendonly", "yes", "--appendfsync", "always"] if self.aof
                 else ["--appendonly", "no"])
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self._answers():
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self, kill: bool = False) -> None:
        if self.proc is not None and self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
            self.proc.wait(10)


def available() -> bool:
    return bool(shutil.which("redis-server")) or Path("/usr/bin/redis-server").exists()
