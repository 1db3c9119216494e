"""`colorclash serve` stopped by SIGTERM (systemd's and Docker's stop) stops cleanly: the
store is closed, so SQLite folds its WAL back into the file and removes it."""

from __future__ import annotations

import json
import os
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


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stop_signal_closes_the_store(tmp_path, stop):
    """SIGHUP (a terminal closed under a server started from it) ended the process at
    once without a word in the log (an operator review): it stops as SIGTERM does."""
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
    log = proc.stderr.read()
    assert not (tmp_path / "site.sqlite3-wal").exists(), log
    assert not (tmp_path / "site.sqlite3-shm").exists()
    rooms = sqlite3.connect(db).execute("SELECT code FROM rooms").fetchall()
    assert (code,) in rooms
    if stop == signal.SIGHUP:
        assert "SIGHUP (the terminal closed): stopping as for SIGTERM" in log, log
        assert proc.returncode == 0


def test_a_server_under_nohup_is_not_stopped_by_sighup(tmp_path):
    """nohup ignores SIGHUP so that a server outlives its terminal: it still does."""
    port = _free_port()
    proc = subprocess.Popen(
        ["nohup", sys.executable, "-m", "colorclash.cli", "serve", "--port", str(port),
         "--store", f"sqlite:///{tmp_path / 'site.sqlite3'}"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        url = f"http://127.0.0.1:{port}/healthz"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url, timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
                time.sleep(0.2)
        proc.send_signal(signal.SIGHUP)
        time.sleep(1.5)
        assert proc.poll() is None
        assert json.loads(urllib.request.urlopen(url, timeout=5).read())["ok"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_tests_server_processes_stop_when_paused_or_left_running(tmp_path):
    """A test that paused its server (SIGSTOP) and was interrupted left it paused for good,
    holding its port (a stop sent SIGTERM, which a paused process does not act on, then
    waited 10 s and killed it). A paused one now stops as asked, and one left running is
    stopped when the tests' process exits."""
    from colorclash.server.testing import ServerProcess

    paused = ServerProcess(f"sqlite:///{tmp_path / 'a.sqlite3'}").start()
    paused.proc.send_signal(signal.SIGSTOP)
    paused.stop()
    assert paused.proc.returncode != -signal.SIGKILL  # stopped by its SIGTERM, not killed
    script = ("from colorclash.server.testing import ServerProcess; "
              f"p = ServerProcess('sqlite:///{tmp_path / 'b.sqlite3'}').start(); "
              "print(p.proc.pid, flush=True)")  # and exits without stopping it
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=True)
    pid = int(out.stdout.split()[0])
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        raise AssertionError("the server process outlived the tests' process")


@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_store_file_deleted_or_replaced_while_serving_is_said_and_kept(tmp_path, how):
    """The store's file deleted (or a backup copied over it) while the server ran: the
    server went on writing to the file it had open, /healthz said all was well, the stop
    said the rooms were kept, and the next start found none (an operator review). Now
    /healthz answers 503 store_file_gone, the log says it, and a stop writes the open file
    back (to its name, or beside another file put there)."""
    from colorclash.client import Client, ClientError
    from colorclash.server.testing import ServerProcess

    db = tmp_path / "site.sqlite3"
    srv = ServerProcess(f"sqlite:///{db}").start()
    try:
        c = Client(srv.url)
        room = await c.create_room("Ana", seats=2)
        assert (await c.request("GET", "/healthz"))["ok"] is True
        for side in ("", "-wal", "-shm"):
            os.remove(f"{db}{side}")
        if how == "replaced":
            sqlite3.connect(db).close()  # another (empty) file by the same name
        later = await c.create_room("Bo", seats=2)  # written to the open file
        with pytest.raises(ClientError) as refused:
            await c.request("GET", "/healthz")
        assert refused.value.status == 503 and refused.value.code == "store_file_gone"
    finally:
        srv.stop()
    out = srv.output()
    assert "ERROR" in out and ("was deleted" if how == "deleted" else "another file") in out
    saved = db if how == "deleted" else next(tmp_path.glob("site.sqlite3.saved-*"))
    assert f"its rooms were written to {saved}" in out
    assert oct(saved.stat().st_mode & 0o777) == "0o600"
    codes = {r[0] for r in sqlite3.connect(saved).execute("SELECT code FROM rooms")}
    assert codes == {room["code"], later["code"]}
    if how == "replaced":  # the file put there is left as it was
        assert sqlite3.connect(db).execute(
            "SELECT count(*) FROM sqlite_master").fetchone() == (0,)


@pytest.mark.asyncio
async def test_a_store_file_deleted_before_the_first_write_is_not_made_again_empty(tmp_path):
    """Deleted before the server's first write (or first sweep), the file was made again
    by name, empty and 0644, and the writes went into it, refused ("no such table"):
    the server's new connections refuse a name that no longer leads to its file, and the
    stop writes what it holds back there (a diff review)."""
    from colorclash.client import Client, ClientError
    from colorclash.server.testing import ServerProcess

    db = tmp_path / "site.sqlite3"
    srv = ServerProcess(f"sqlite:///{db}").start()
    try:
        for side in ("", "-wal", "-shm"):
            if os.path.exists(f"{db}{side}"):
                os.remove(f"{db}{side}")
        c = Client(srv.url)
        with pytest.raises(ClientError):
            await c.create_room("Ana", seats=2)  # (not stored: not acknowledged)
        assert not db.exists()  # nothing made by its name meanwhile
    finally:
        srv.stop()
    assert "Traceback" not in srv.output()
    assert oct(db.stat().st_mode & 0o777) == "0o600"  # written back at the stop
    assert sqlite3.connect(db).execute("SELECT count(*) FROM rooms").fetchone() == (0,)
