"""The thinking pool's workers do not outlive the server, even when it is SIGKILLed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.timeout(60)

# A server's pool of ``{workers}`` workers, after a first search; ``then`` runs next.
SCRIPT = """
import asyncio, os, signal, time
from colorclash.bots import make_bot
from colorclash.engine import new_game
from colorclash.server.thinking import ThinkingPool

async def main():
    pool = ThinkingPool({workers})
    g = new_game("color-clash", preset="standard", seats=2, seed=1)
    seat = g.to_act[0]
    await pool.think(make_bot("easy"), g.view(seat), [])
{then}
asyncio.run(main())
"""


def _script(workers: int, then: str) -> str:
    return SCRIPT.format(workers=workers, then=textwrap.indent(textwrap.dedent(then), "    "))


OWNER = _script(2, """
    print(*pool._pool._processes, flush=True)   # the worker pids
    time.sleep(600)
""")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_workers_end_when_their_server_is_killed():
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(p) for p in owner.stdout.readline().split()]
        assert workers and all(_alive(p) for p in workers)
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait(10)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in workers if _alive(p)]
    for p in left:  # do not leave them behind even when the test fails
        os.kill(p, signal.SIGKILL)
    assert not left, f"workers {left} outlived their server"


def test_a_worker_ignores_ctrl_c():
    """Ctrl-C reaches every process of the terminal's group: a worker neither dies of it
    nor prints a KeyboardInterrupt traceback (the server stops its workers itself)."""
    script = _script(1, """
        (pid,) = pool._pool._processes
        os.kill(pid, signal.SIGINT)
        time.sleep(0.5)
        action, _ = await pool.think(make_bot("easy"), g.view(seat), [])
        print("still thinking:", action["type"], flush=True)
        pool.close()
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=50)
    assert "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 0 and "still thinking:" in done.stdout, done.stderr
