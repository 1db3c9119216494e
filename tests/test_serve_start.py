"""``colorclash serve`` as an operator starts it: the port is taken before anything else,
one server per SQLite file, and every refusal is one clear line that harms nothing."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from colorclash.server.testing import ServerProcess, free_port

pytestmark = pytest.mark.timeout(120)


def _serve(*args: str, timeout: float = 30, env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "colorclash.cli", "serve", *args],
                          capture_output=True, text=True, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})


def _health(url: str) -> str:
    with urllib.request.urlopen(url + "/healthz", timeout=5) as r:
        return r.read().decode()


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    with ServerProcess(f"sqlite:///{db}") as first:
        health = _health(first.url)
        second = _serve("--port", str(free_port()), "--store", f"sqlite:///{db}")
        assert second.returncode == 2
        assert "another server is already using" in second.stderr
        assert "redis://" in second.stderr              # what to do instead
        assert "rooms restored" not in second.stdout + second.stderr
        assert _health(first.url) == health              # the first one goes on untouched
        first.kill()                                    # SIGKILL frees the file at once
    again = ServerProcess(f"sqlite:///{db}").start()
    again.stop()



@pytest.mark.parametrize("how", ["symlink", "hardlink"])
def test_a_second_server_through_a_link_to_the_file_is_refused(tmp_path, how):
    """Given a symbolic or a hard link to the first server's file, a second server took a
    lock file of another name and started: both ran the same rooms' clocks."""
    db = tmp_path / "dual.sqlite3"
    link = tmp_path / "dual-link.sqlite3"
    with ServerProcess(f"sqlite:///{db}") as first:
        if how == "symlink":
            link.symlink_to(db.name)
        else:
            os.link(db, link)
        second = _serve("--port", str(free_port()), "--store", f"sqlite:///{link}")
        assert second.returncode == 2, second.stdout + second.stderr
        assert "another server is already using" in second.stderr
        assert "rooms restored" not in second.stdout + second.stderr
        assert "Traceback" not in second.stderr
        _health(first.url)

def test_another_programs_sqlite_file_is_one_line_not_a_traceback(foreign_sqlite):
    out = _serve("--port", str(free_port()), "--store", f"sqlite:///{foreign_sqlite}")
    assert out.returncode == 2
    assert "is not a Color Clash store" in out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "open http" not in out.stdout


def test_a_port_in_use_is_refused_before_the_store_is_opened(tmp_path):
    db = tmp_path / "never.sqlite3"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = _serve("--port", str(port), "--store", f"sqlite:///{db}")
    assert out.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in out.stderr
    assert "open http" not in out.stdout                # no URL that leads nowhere
    assert not db.exists()                              # nothing restored, nothing run


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("RECONNECT_GRACE", "abc", "must be a number"),
    ("LEASE_TTL", "-1", "at least 0"),
    ("RATE_PER_S", "nan", "finite"),
    ("BOT_WORKERS", "1.5", "whole number"),
    ("GROUP_COMMIT", "maybe", "true/false"),
    ("GC_THRESHOLDS", "foo", "whole numbers separated by commas"),
    ("GC_THRESHOLDS", "", "whole numbers separated by commas"),  # (was Python's 700,10,10)
    ("GC_THRESHOLDS", "0", "turns the garbage collector off"),
    ("LEASE_TTL", "0", "more than 0"),          # (it reached Redis: a 42-line traceback)
    ("MAX_CONNECTIONS", "0", "more than 0"),
    ("MAX_CONNECTIONS", "5", "at least 16"),    # (raised to 16 without a word)
    ("BOT_DELAY", "1000", "in seconds, from 0 to 60"),  # (milliseconds meant: every
    #                                                   computer turn ran out its clock)
    ("AWAY_TURN_CLOCK", "0", "more than 0"),          # (every turn of one away ended at once)
    ("QUICK_MATCH_TICKET_TTL", "0", "more than 0"),   # (every ticket left the queue at once)
    ("RATE_BURST", "0.5", "at least 1"),          # (every message was rate_limited)
    ("PUBLIC_URL", "cards.example.org", "http:// or https://"),
    ("PUBLIC_URL", "https://example.org/cards", "no path"),
    ("LEASE_TTL", "0.001", "at least 0.5"),     # (a traceback, or warnings by the hundred)
    ("SUMMARY_EVERY", "0.001", "0 (no summary) or at least 1"),  # (800 lines a second)
    ("ALLOWED_ORIGINS", "https://ok.example,cards.example.org/", "no path"),
    ("TRUSTED_PROXIES", "localhost", "IP addresses or networks"),
    ("ALLOWED_HOSTS", "localhost,cards.example.org:443", "without a port"),
    ("ALLOWED_HOSTS", "https://cards.example.org", "without a port or scheme"),
    ("ALLOWED_HOSTS", "localhost,.", "without a port or scheme"),
])
def test_a_setting_the_server_cannot_use_is_one_line_naming_it(tmp_path, variable, value,
                                                                  says):
    db = tmp_path / "never.sqlite3"
    out = _serve("--port", "0", "--store", f"sqlite:///{db}",
                 env={f"COLORCLASH_{variable}": value})
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        f"error: COLORCLASH_{variable} {out.stderr.split(variable, 1)[1].strip()}"]
    assert says in out.stderr and repr(value.split(",")[-1]) in out.stderr
    assert not db.exists()


def test_allowed_hosts_without_the_public_urls_host_are_refused(tmp_path):
    """The site's own invite links would be refused with bad_host."""
    out = _serve("--port", "0", "--store", f"sqlite:///{tmp_path / 'x.sqlite3'}",
                 env={"COLORCLASH_ALLOWED_HOSTS": "localhost",
                      "COLORCLASH_PUBLIC_URL": "https://Cards.example.org:8443"})
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "error: COLORCLASH_ALLOWED_HOSTS must name the host of COLORCLASH_PUBLIC_URL "
        "('cards.example.org'), or the site's own links are refused")


def test_a_frame_limit_over_the_hard_one_is_refused(tmp_path):
    out = _serve("--port", "0", "--store", f"sqlite:///{tmp_path / 'x.sqlite3'}",
                 env={"COLORCLASH_MAX_FRAME": "999999"})
    assert out.returncode == 2
    assert out.stderr.strip() == ("error: COLORCLASH_MAX_FRAME (999999) must not be more "
                                  "than COLORCLASH_HARD_MAX_FRAME (262144)")


def test_a_variable_that_is_no_setting_is_named_with_what_was_meant(monkeypatch):
    from colorclash.server.config import Settings

    monkeypatch.setenv("COLORCLASH_RECONECT_GRACE", "5")
    monkeypatch.setenv("COLORCLASH_ZZZ", "1")
    warnings = Settings.unknown_env()
    assert ("warning: COLORCLASH_RECONECT_GRACE is not a setting and is ignored (did you "
            "mean COLORCLASH_RECONNECT_GRACE?)") in warnings
    assert "warning: COLORCLASH_ZZZ is not a setting and is ignored" in warnings


def test_a_default_turn_clock_no_game_uses_is_said_so(monkeypatch):
    """Every hosted game has a clock option of its own: the variable used to be taken
    without a word, and changed no turn."""
    from colorclash.server import games
    from colorclash.server.config import Settings

    monkeypatch.setenv("COLORCLASH_DEFAULT_TURN_CLOCK", "7")
    assert games.clockless() == []
    assert any("COLORCLASH_DEFAULT_TURN_CLOCK changes nothing here" in w
               for w in Settings.unknown_env())
    monkeypatch.setattr(games, "clockless", lambda: ["some-game/basic"])
    assert Settings.unknown_env() == []
    monkeypatch.delenv("COLORCLASH_DEFAULT_TURN_CLOCK")
    monkeypatch.setattr(games, "clockless", lambda: [])
    assert Settings.unknown_env() == []


def test_settings_of_several_processes_on_redis_given_to_sqlite_are_said_to_do_nothing(
        monkeypatch):
    from colorclash.server.config import Settings

    monkeypatch.setenv("COLORCLASH_CLUSTER", "false")
    monkeypatch.setenv("COLORCLASH_LEASE_TTL", "10")
    said = Settings.store_env_warnings(redis=False)
    assert said == [f"warning: COLORCLASH_{v} changes nothing on a SQLite store (it is a "
                    "setting of several processes on Redis: docs/deployment.md)"
                    for v in ("CLUSTER", "LEASE_TTL")]
    assert Settings.store_env_warnings(redis=True) == []
    monkeypatch.delenv("COLORCLASH_CLUSTER")
    monkeypatch.delenv("COLORCLASH_LEASE_TTL")
    assert Settings.store_env_warnings(redis=False) == []


def _make_a_room(url: str) -> None:
    """A private room of two seats on the server at ``url`` (the stop line counts it)."""
    made = urllib.request.Request(f"{url}/api/rooms", data=b'{"name": "Ana", "seats": 2}',
                                  headers={"Content-Type": "application/json"})
    urllib.request.urlopen(made, timeout=5).read()


def _wait_healthy(url: str, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    """Wait until the server started as ``proc`` answers /healthz at ``url``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            _health(url)
            return
        except OSError:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.2)


@pytest.mark.parametrize("port", ["-5", "65536", "99999"])
def test_a_port_out_of_range_is_refused(port):
    out = _serve("--port", port)
    assert out.returncode == 2
    assert "--port" in out.stderr


def test_port_zero_prints_the_port_it_listens_on(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "colorclash.cli", "serve", "--port", "0",
         "--store", f"sqlite:///{tmp_path / 'rooms.sqlite3'}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"open (http://127\.0\.0\.1:(\d+)/)", line)
        assert match and match.group(2) != "0", line
        from colorclash.build import version_line

        assert line.startswith(f"Color Clash {version_line()} is starting"), line  # which one
        deadline = time.monotonic() + 20
        while True:
            try:
                assert '"ok":true' in _health(match.group(1).rstrip("/"))
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_access_log_when_asked_for_masks_tokens(tmp_path):
    """COLORCLASH_ACCESS_LOG=1: a line per request, with a token in a URL masked."""
    import signal

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "colorclash.cli", "serve", "--port", str(port), "--store",
         f"sqlite:///{tmp_path / 'a.sqlite3'}"], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "COLORCLASH_ACCESS_LOG": "1"})
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_healthy(url, proc)
        secret = "s3cr3t-t0k3n-v4lue-abcdefghijklmnop"
        try:
            urllib.request.urlopen(f"{url}/api/rooms/ABCDEF?token={secret}", timeout=5)
        except OSError:
            pass  # (404: no such room)
        import asyncio

        import websockets

        async def refused() -> None:  # a socket refused: uvicorn says only "[accepted]"
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/ZZZZZZ?token={secret}") as ws:
                await ws.recv()
                await ws.wait_closed()

        asyncio.run(refused())
        _make_a_room(url)
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0]
    assert '"GET /healthz HTTP/1.1" 200' in out, out
    assert re.search(r'127\.0\.0\.1 - "WebSocket /ws/ZZZZZZ" refused: room_not_found, closed 4404',
                     out), out
    assert "GET /api/rooms/ABCDEF?token=" in out and secret not in out, out
    # every line of the log has its time (UTC), uvicorn's and the site's own alike
    stamp = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO "
    assert re.search(stamp + r'.*"GET /healthz HTTP/1.1" 200', out, re.M), out
    assert re.search(stamp + r"Application startup complete", out, re.M), out
    assert re.search(stamp + r"colorclash\.server: rooms restored: 0", out, re.M), out
    # a stop says what it kept (it said nothing of the games: operator review)
    assert re.search(stamp + r"colorclash\.server: stopped: 1 room\(s\) kept in the store "
                     r"for the next start", out, re.M), out


def _first_lines(args: list[str], env: dict[str, str], until: str,
                 files: int | None = None) -> str:
    """What ``serve`` prints up to the line holding ``until`` (then it is stopped);
    ``files``: its open-file limit."""
    import resource

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    proc = subprocess.Popen(
        [sys.executable, "-m", "colorclash.cli", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={k: v for k, v in {**os.environ, **env}.items() if v is not None},
        preexec_fn=limit_files if files else None)
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if until in line:
                break
    finally:
        proc.terminate()
        proc.wait(10)
    return "".join(lines)


def test_a_server_others_can_reach_without_a_public_url_says_so(tmp_path):
    """Invite links follow the request's Host header when COLORCLASH_PUBLIC_URL is unset:
    fine on this machine, a trap behind a proxy or open to the network."""
    store = ["--store", f"sqlite:///{tmp_path / 'a.sqlite3'}"]
    out = _first_lines(["--host", "0.0.0.0", *store], {"COLORCLASH_PUBLIC_URL": None},
                       until="startup complete")
    assert re.search(r"warning: COLORCLASH_PUBLIC_URL is not set: .*Host header", out), out
    for host, env in (("127.0.0.1", {"COLORCLASH_PUBLIC_URL": None}),
                      ("0.0.0.0", {"COLORCLASH_PUBLIC_URL": "https://cards.example.org"})):
        out = _first_lines(["--host", host, *store], env, until="startup complete")
        assert "startup complete" in out and "warning" not in out, (host, out)


def test_a_server_stopped_after_its_computers_thought_leaves_nothing_behind(tmp_path):
    """``hard`` players think in worker processes; stopping the server (SIGTERM) ends
    them cleanly: the resource tracker warned of leaked semaphores on every stop."""
    import asyncio
    import signal

    from colorclash.bots import make_bot
    from colorclash.client import Client

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "colorclash.cli", "serve", "--port", str(port), "--store",
         f"sqlite:///{tmp_path / 'a.sqlite3'}"], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "COLORCLASH_BOT_DELAY": "0", "COLORCLASH_BOT_WORKERS": "2"})
    url = f"http://127.0.0.1:{port}"

    async def play() -> None:
        c = Client(url)
        t = await c.practice("Ana", bots=2, level="hard")
        async with await c.connect(t["code"], t["token"]) as me:
            # the computers have made a few moves (searched, in the workers)
            await me.play(make_bot("easy", seed=1), timeout=30,
                          until=lambda s: s["seq"] >= 8)

    try:
        _wait_healthy(url, proc)
        asyncio.run(play())
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0]
    assert "Application shutdown complete" in out, out
    assert "leaked" not in out and "Traceback" not in out, out


def test_two_processes_alone_on_one_redis_prefix_are_refused(redis_db):
    """Two COLORCLASH_CLUSTER=false processes on one Redis prefix both started, and both
    ran the same rooms' clocks and computers, writing conflicting actions. The second is
    refused, as a second server on a SQLite file is; so is a cluster process beside one."""
    alone = {"COLORCLASH_CLUSTER": "false"}
    with ServerProcess(redis_db, env=alone) as first:
        health = json.loads(_health(first.url))["rooms"]
        for env in (alone, {"COLORCLASH_CLUSTER": "true"}):
            second = _serve("--port", str(free_port()), "--store", redis_db, env=env)
            assert second.returncode == 2, second.stderr
            assert "process with COLORCLASH_CLUSTER=false uses the Redis prefix 'cc'" \
                in second.stderr
            assert "?prefix=" in second.stderr  # what to do instead
            assert "Traceback" not in second.stderr and "open http" not in second.stdout
            # refused once its holder renewed it, not after waiting out the 6 s (the time
            # is no measure: a start alone took 8.9 s on a machine loaded 4 to 1)
            assert "its lease was renewed while this one waited" in second.stderr
        # another prefix is another site
        with ServerProcess(redis_db + "?prefix=other", env=alone) as other:
            assert _health(other.url)
        assert json.loads(_health(first.url))["rooms"] == health  # (the first one goes on untouched)
        first.kill()  # SIGKILL: its lease runs out, and a successor waits for that
    began = time.monotonic()
    again = ServerProcess(redis_db, env=alone).start()
    assert time.monotonic() - began < 15
    again.stop()
    # (it said why it waited: seconds of silence at a start looked hung)
    assert re.search(r"another process with COLORCLASH_CLUSTER=false uses the Redis prefix "
                     r"'cc'; waiting up to \d s in case it has stopped", again.output())
    # let go at a clean stop: a process of a cluster starts at once
    began = time.monotonic()
    cluster = ServerProcess(redis_db).start()
    took = time.monotonic() - began
    cluster.stop()
    # not the 6 s of a lease left to run out: it never said it waited (a start alone took
    # 8.9 s on a machine loaded 4 to 1, so the time is only a loose bound)
    assert "waiting up to" not in cluster.output(), cluster.output()
    assert took < 15


def test_a_process_alone_is_refused_beside_a_cluster(redis_db):
    from colorclash.store import StoreError
    from colorclash.store.redis_store import RedisStore

    with ServerProcess(redis_db):
        store = RedisStore(redis_db)
        try:
            with pytest.raises(StoreError, match=r"1 process\(es\) of a cluster"):
                store.claim(alone=True, wait_s=0)
            assert not store.redis.exists(store.key("alone"))  # (nothing left held)
        finally:
            store.close()


def test_the_lease_of_a_process_alone_is_renewed_while_it_lives(redis_db):
    from colorclash.store import StoreError
    from colorclash.store.redis_store import RedisStore

    a, b = RedisStore(redis_db), RedisStore(redis_db)
    # (renewed each 0.4 s: a renewal thread would have to starve 0.8 s to lose it)
    a.ALONE_TTL_S = b.ALONE_TTL_S = 1.2
    try:
        a.claim(alone=True)
        time.sleep(3.0)  # more than two leases: renewed meanwhile
        with pytest.raises(StoreError, match="another process"):
            b.claim(alone=True, wait_s=0.3)
        a._alone_stop.set()  # as a SIGKILL: no renewal, no letting go
        a._alone_thread.join()
        b.claim(alone=True, wait_s=4)
    finally:
        a.close()
        b.close()
    assert not RedisStore(redis_db).redis.exists("cc:alone")


def test_a_file_limit_below_the_connection_cap_is_said_at_start(tmp_path):
    """The open-file limit caps the connections (the next get 503 overloaded); nothing
    said so, and an operator with 1,024 files learned it from the players."""
    store = ["--store", f"sqlite:///{tmp_path / 'a.sqlite3'}"]
    out = _first_lines(store, {}, until="startup complete", files=500)
    assert re.search(r"warning: this process may open too few files for "
                     r"COLORCLASH_MAX_CONNECTIONS=10,000: it takes at most 436 connections "
                     r"\(raise the open-file limit", out), out
    out = _first_lines(store, {"COLORCLASH_MAX_CONNECTIONS": "400"}, until="startup complete",
                       files=500)
    assert "startup complete" in out and "warning" not in out, out


def test_a_stop_says_the_rooms_of_a_store_in_memory_are_lost() -> None:
    """A store in memory keeps nothing for the next start: the stop says so (it said
    "kept in the store for the next start": a diff review)."""
    import signal

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "colorclash.cli", "serve", "--port", str(port), "--store",
         "sqlite:///:memory:"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_healthy(url, proc)
        _make_a_room(url)
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0]
    assert "stopped: 1 room(s) lost with the store, which was in memory" in out, out
    assert "kept in the store" not in out, out


def test_a_server_on_every_interface_says_how_other_machines_open_it(tmp_path):
    """``--host 0.0.0.0`` printed only "open http://127.0.0.1:PORT/", an address no other
    machine opens (an operator review)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "colorclash.cli", "serve", "--host", "0.0.0.0", "--port", "0",
         "--store", f"sqlite:///{tmp_path / 'rooms.sqlite3'}"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        port = re.search(r"open http://127\.0\.0\.1:(\d+)/", line).group(1)
        assert f"from another machine: http://THIS-MACHINE'S-ADDRESS:{port}/" in line, line
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_store_password_on_the_command_line_is_warned_of():
    """Every user of the machine reads a command line (ps): a Redis password given there
    was taken without a word (an operator review); given in the variable, it is not."""
    url = "redis://:s3cret@127.0.0.1:1/0"  # (no Redis there: the start stops after)
    out = _serve("--port", "0", "--store", url)
    assert out.returncode == 2
    assert "warning: the store's password was given on the command line" in out.stderr
    assert "s3cret" not in out.stderr + out.stdout
    out = _serve("--port", "0", env={"COLORCLASH_STORE": url})
    assert out.returncode == 2 and "password was given on the command line" not in out.stderr
