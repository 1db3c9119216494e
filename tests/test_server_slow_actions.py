"""COLORCLASH_SLOW_ACTION_MS: each action slower than that is logged in one line, split
into where its time went (the operator's view of the p99: docs/deployment.md)."""

from __future__ import annotations

import logging

import pytest

from colorclash.client import Client
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer

pytestmark = pytest.mark.timeout(120)


async def _one_action(srv) -> None:
    c = Client(srv.url)
    ticket = await c.practice("Ana", bots=1)
    async with await Client(srv.url).connect(ticket["code"], ticket["token"]) as seat:
        st = await seat.wait_state(lambda s: seat.seat in s["view"]["to_act"], timeout=30)
        await seat.act(st["view"]["legal"][0])
        await seat.wait_state(lambda s, n=st["seq"]: s["seq"] > n, timeout=30)


@pytest.mark.asyncio
async def test_a_slow_action_is_logged_with_its_parts(tmp_path, caplog):
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, slow_action_ms=0.001)
    caplog.set_level(logging.WARNING, logger="colorclash.server")
    with InProcessServer(f"sqlite:///{tmp_path / 's.sqlite3'}", settings) as srv:
        await _one_action(srv)
    lines = [r.getMessage() for r in caplog.records if "slow action" in r.getMessage()]
    assert lines, caplog.text
    line = lines[0]
    assert "frame to states made" in line and "waiting for the store" in line
    assert "its commit began after" in line and " write" in line and "sending" in line


@pytest.mark.asyncio
@pytest.mark.parametrize("threshold", [0.0, -5.0, 60_000.0])
async def test_no_slow_action_log_when_off_or_under_the_threshold(tmp_path, caplog,
                                                                    threshold):
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, slow_action_ms=threshold)
    caplog.set_level(logging.WARNING, logger="colorclash.server")
    with InProcessServer(f"sqlite:///{tmp_path / 's.sqlite3'}", settings) as srv:
        await _one_action(srv)
    assert "slow action" not in caplog.text


@pytest.mark.asyncio
async def test_a_summary_line_says_how_busy_the_process_was(tmp_path, caplog):
    """An operator reading the log saw nothing of a quiet or a busy process but its
    errors: every COLORCLASH_SUMMARY_EVERY seconds one line gives its rooms, the people
    connected, the actions since the last line with their time, and the store's work."""
    import asyncio
    import re

    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, summary_every=0.3)
    caplog.set_level(logging.INFO, logger="colorclash.server")
    with InProcessServer(f"sqlite:///{tmp_path / 's.sqlite3'}", settings) as srv:
        await _one_action(srv)
        await asyncio.sleep(0.7)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("summary:")]
    assert len(lines) >= 2, caplog.text
    busy = [m for m in lines if not re.search(r"; 0 action\(s\)", m)]
    assert len(busy) == 1, lines  # the action is counted once, in the line after it
    assert re.fullmatch(r"summary: 1 room\(s\) \(1 playing\), [01] player\(s\) connected, "
                        r"0 in Quick Match; 1 action\(s\) in 0 s \(p50 [\d.]+ ms, p99 [\d.]+ "
                        r"ms\); \d+ store write\(s\) in \d+ commit\(s\)", busy[0]), busy[0]


@pytest.mark.asyncio
async def test_no_summary_line_when_it_is_off(tmp_path, caplog):
    import asyncio

    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, summary_every=0)
    caplog.set_level(logging.INFO, logger="colorclash.server")
    with InProcessServer(f"sqlite:///{tmp_path / 's.sqlite3'}", settings) as srv:
        await _one_action(srv)
        await asyncio.sleep(0.3)
    assert "summary:" not in caplog.text
