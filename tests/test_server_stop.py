"""`colorclash serve` stopped by SIGTERM (systemd's and Docker's stop) stops cleanly: the
store is closed, so SQLite folds its WAL back into the file and removes it."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest

pytestmark = pytest.mark.timeout(120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_closes_the_store(tmp_path, stop):
    db = tmp_path / "site.sqlite3"
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "colorclash.cli", "serve", "--port", str(port),
         "--store", f"sqlite:///{db}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
                time.sleep(0.2)
        req = urllib.request.Request(url + "/api/rooms", method="POST", data=json.dumps(
            {"name": "Ana", "seats": 2}).encode(), headers={"Content-Type": "application/json"})
        code = json.loads(urllib.request.urlopen(req, timeout=5).read())["code"]
        assert (tmp_path / "site.sqlite3-wal").exists()  # a write made, not yet folded in
        proc.send_signal(stop)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not (tmp_path / "site.sqlite3-wal").exists(), proc.stderr.read()
    assert not (tmp_path / "site.sqlite3-shm").exists()
    rooms = sqlite3.connect(db).execute("SELECT code FROM rooms").fetchall()
    assert (code,) in rooms
