"""The example reverse-proxy configuration of docs/deployment.md, tested: nginx in front of
two processes on one Redis, a game played through it, one process killed in mid-game and
the players carried on by the other (no sticky sessions)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client
from colorclash.server.testing import LIFTED_LIMITS_ENV, ServerProcess, free_port
from colorclash.verify import verify_record
from redis_server import RedisServer, available

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

CONF = Path(__file__).resolve().parent.parent / "docs" / "deploy" / "nginx-colorclash.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _nginx_config(folder: Path, listen: int, ports: list[int],
                  per_address: int | None = None) -> Path:
    site = CONF.read_text()
    if per_address is not None:  # (the example's own cap, smaller to reach)
        assert "limit_conn colorclash_per_address 256;" in site
        site = site.replace("limit_conn colorclash_per_address 256;",
                            f"limit_conn colorclash_per_address {per_address};")
    servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in ports)
    site = re.sub(r"(?m)^    server 127\.0\.0\.1:80\d\d.*\n", "", site)
    site = site.replace("    least_conn;", "    least_conn;\n" + servers)
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    # the site's name is this address; and beside it, on the same port, the default site
    # of Debian's nginx package, as an include of the documented file meets it
    site = site.replace("server_name cards.example.org;", "server_name 127.0.0.1;")
    site += f"""
server {{
    listen 127.0.0.1:{listen} default_server;
    server_name _;
    return 404;
}}
"""
    site = site.replace("/var/log/nginx/colorclash.access.log", str(folder / "access.log"))
    (folder / "site.conf").write_text(site)
    main = folder / "nginx.conf"
    main.write_text(f"""
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
daemon off;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
    return main


ENV = {"COLORCLASH_BOT_DELAY": "0.05", "COLORCLASH_LEASE_TTL": "1.0",
       "COLORCLASH_TRUSTED_PROXIES": "127.0.0.1", "COLORCLASH_BOT_WORKERS": "0",
       **LIFTED_LIMITS_ENV}


def _start_nginx(folder: Path, procs: list[ServerProcess], per_address: int | None = None
                 ) -> tuple[subprocess.Popen, str]:
    """nginx with the example configuration in front of ``procs``, answering: (its
    process, its address)."""
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    listen = free_port()
    conf = _nginx_config(folder, listen, [p.port for p in procs], per_address)
    nginx = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(folder)],
                             stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{listen}"
    deadline = time.monotonic() + 10
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                assert r.status == 200
                return nginx, url
        except OSError:
            if time.monotonic() > deadline:
                nginx.terminate()
                raise
            time.sleep(0.1)


@pytest.mark.asyncio
async def test_two_processes_behind_the_example_nginx(redis_db, tmp_path):
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    procs = [ServerProcess(redis_db, env=ENV).start() for _ in range(2)]
    try:
        nginx, url = _start_nginx(tmp_path, procs)
    except BaseException:
        for p in procs:
            p.stop()
        raise
    try:
        # /metrics is for a scraper at each process's own address, not for the world
        with urllib.request.urlopen(procs[0].url + "/metrics", timeout=5) as r:
            assert b"colorclash_rooms " in r.read()
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + "/metrics", timeout=5)
        assert refused.value.code == 404
        # A browser's Origin: the proxied Host must keep the port for it to pass.
        site = Client(url, origin=url)
        t = await site.create_room("Ana", preset="standard", seats=2, match="3")
        g = await site.join(t["code"], "Bo")
        conns = [await site.connect(t["code"], t["token"]),
                 await site.connect(t["code"], g["token"])]
        await conns[1].send("ready")
        await conns[0].wait_state(lambda s: s["room"]["seats"][1]["ready"])
        await conns[0].send("start")
        bots = [make_bot("easy", seed=1), make_bot("easy", seed=2)]
        play = asyncio.gather(*(c.play(b, timeout=120, pace=0.03)
                                for c, b in zip(conns, bots, strict=True)))
        await asyncio.sleep(1.5)
        await asyncio.to_thread(procs[0].kill)  # one process dies: nginx and the other
        states = await play                     # process carry the game on
        assert {s["room"]["status"] for s in states} == {"finished"}
        record = await site.record(t["code"])
        assert verify_record(record, expected_log_hash=states[0]["log_hash"])[0]
        for c in conns:
            await c.close()
        # a Quick Match ticket, in the path of a poll and a leave, answers a matched
        # ticket with its seat's token: the log masks it (a web review)
        ticket = (await site.quick_match(game="rainbow"))["ticket"]
        await site.quick_match_status(ticket)
        await site.request("DELETE", f"/api/quick-match/{ticket}")
    finally:
        nginx.terminate()
        nginx.wait(10)
        for p in procs:
            p.stop()
    access = (tmp_path / "access.log").read_text()
    assert f"/ws/{t['code']}" in access      # the sockets are logged...
    assert "token" not in access             # ...without their seat tokens
    assert ticket not in access              # ...nor a Quick Match ticket
    assert "GET /api/quick-match/[redacted]" in access and "DELETE /api/quick-match/[r" in access


def _stop(nginx: subprocess.Popen | None, procs: list[ServerProcess]) -> None:
    if nginx is not None:
        nginx.terminate()
        nginx.wait(10)
    for p in procs:
        p.stop()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_with_redis_away_nginx_passes_the_sites_503_on_and_never_answers_502(tmp_path):
    """While Redis is away every process answers 503 ``store_unavailable`` (with the error
    format and ``Retry-After``). The example once retried 503s on the next process and
    counted them as failures (``max_fails=1``): every process was marked down for 5 s, and
    the players got nginx's own 502 page ("no live upstreams"), also for seconds after
    Redis was back. A 503 of a live process is the site's answer: passed on, as it is."""
    if not available():
        pytest.skip("redis-server is not installed")
    (tmp_path / "redis").mkdir()
    rs = RedisServer(tmp_path / "redis", aof=True).start()
    procs = [ServerProcess(rs.url, env=ENV).start() for _ in range(2)]
    nginx = None
    try:
        nginx, url = _start_nginx(tmp_path, procs)
        code = json.loads(urllib.request.urlopen(urllib.request.Request(
            url + "/api/rooms", data=b'{"name": "Ana"}',
            headers={"Content-Type": "application/json"}), timeout=5).read())["code"]
        rs.stop(kill=True)
        seen = []
        for _ in range(20):  # 2 s of look-ups of the room while Redis is away
            status, body = _get(f"{url}/api/rooms/{code}")
            seen.append(status)
            if status == 503:
                assert json.loads(body)["error"]["code"] == "store_unavailable"
            time.sleep(0.1)
        assert 502 not in seen and seen[-10:] == [503] * 10, seen
        rs.start()
        back = None
        for i in range(100):
            status, _ = _get(f"{url}/api/rooms/{code}")
            assert status in (200, 503), (i, status)
            if status == 200:
                back = i
                break
            time.sleep(0.1)
        assert back is not None, "the room did not come back"
    finally:
        _stop(nginx, procs)
        rs.stop()


def test_a_hung_process_holds_a_page_for_seconds_not_an_hour(redis_db, tmp_path):
    """A process that hangs (stopped, its socket still taking connections) held every
    request nginx gave it for the WebSockets' hour (one proxy_read_timeout for all):
    every third page or API call never came. Pages and the API now have their own short
    timeout, and the next process answers."""
    import os
    import signal

    procs = [ServerProcess(redis_db, env=ENV).start() for _ in range(2)]
    nginx = None
    try:
        nginx, url = _start_nginx(tmp_path, procs)
        os.kill(procs[0].proc.pid, signal.SIGSTOP)
        try:
            took = []
            for _ in range(3):
                began = time.monotonic()
                with urllib.request.urlopen(url + "/", timeout=30) as r:
                    assert r.status == 200
                took.append(time.monotonic() - began)
            assert max(took) < 15, took  # 10 s on the hung one at most, then the other
        finally:
            os.kill(procs[0].proc.pid, signal.SIGCONT)
    finally:
        _stop(nginx, procs)


@pytest.mark.asyncio
async def test_the_example_caps_one_address_for_the_whole_site(redis_db, tmp_path):
    """Each process counts an address's connections on its own, nginx's exempt: behind
    several, an address held the cap once per process (attacker review). The example
    keeps the site's cap at nginx (here 3 instead of 256)."""
    import websockets

    procs = [ServerProcess(redis_db, env=ENV).start() for _ in range(2)]
    nginx = None
    try:
        nginx, url = _start_nginx(tmp_path, procs, per_address=3)
        site = Client(url, origin=url)
        t = await site.create_room("Ana", preset="standard", seats=3)
        seats = [t, await site.join(t["code"], "Bo"), await site.join(t["code"], "Cy")]
        conns = [await site.connect(t["code"], s["token"]) for s in seats]
        with pytest.raises(websockets.InvalidStatus) as refused:  # a fourth, on any process
            await site.connect(t["code"], t["token"])
        assert refused.value.response.status_code == 503
        await conns[2].close()
        await asyncio.sleep(0.3)
        again = await site.connect(t["code"], seats[2]["token"])  # a place is free again
        for c in (*conns[:2], again):
            await c.close()
    finally:
        _stop(nginx, procs)
