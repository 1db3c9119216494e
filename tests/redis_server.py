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
    def __init__(self, folder: Path, aof: bool = False, port: int | None = None) -> None:
        self.folder = folder
        self.aof = aof
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        args = [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--dir", str(self.folder), "--protected-mode", "no"]
        args += (["--appendonly", "yes", "--appendfsync", "always"] if self.aof
                 else ["--appendonly", "no"])
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
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
