"""``GET /metrics``: /healthz's figures in Prometheus' text format (server/prometheus.py)."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from colorclash.bots import make_bot
from colorclash.client import Client
from colorclash.server.config import Settings
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape by (name, labels); the parser refuses a malformed one."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


@pytest.mark.asyncio
async def test_metrics_says_what_the_process_holds_and_how_fast_it_answers(tmp_path):
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0)
    with InProcessServer(f"sqlite:///{tmp_path / 'm.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        before = samples(await c.request("GET", "/metrics"))
        assert before[("colorclash_rooms", ())] == 0
        assert before[("colorclash_action_seconds_count", ())] == 0
        assert before[("colorclash_store_refusing", ())] == 0
        assert before[("process_resident_memory_bytes", ())] > 0  # the process's own
        from colorclash import __version__
        from colorclash.build import build_id

        info = ("colorclash_info", (("build", build_id()), ("version", __version__)))
        assert before[info] == 1, [k for k in before if k[0] == "colorclash_info"]
        assert before[("colorclash_connections", ())] >= 1  # (this scrape's own)
        health = await c.request("GET", "/healthz")
        assert (health["version"], health["build"]) == (__version__, build_id())
        t = await c.practice("Ana", bots=1, level="easy")
        async with await c.connect(t["code"], t["token"]) as me:
            await me.wait_state(lambda s: True)
            playing = samples(await c.request("GET", "/metrics"))
            assert (playing[("colorclash_rooms", ())], playing[("colorclash_playing", ())],
                    playing[("colorclash_players", ())]) == (1, 1, 1)
            await me.play(make_bot("easy", seed=3), timeout=60)
        after = samples(await c.request("GET", "/metrics"))
        health = await c.request("GET", "/healthz")
        mine = [a for seat, a in (await c.record(t["code"]))["actions"] if seat == 0]
        count = after[("colorclash_action_seconds_count", ())]
        assert count == health["actions"]["count"] and 1 <= count <= len(mine)
        assert 0 < after[("colorclash_action_seconds_sum", ())] < count * 5
        p50 = after[("colorclash_action_seconds", (("quantile", "0.5"),))]
        p99 = after[("colorclash_action_seconds", (("quantile", "0.99"),))]
        assert p50 == pytest.approx(health["actions"]["p50"] / 1000)
        assert 0 < p50 <= p99 <= health["actions"]["max"] / 1000
        writes = after[("colorclash_store_writes_total", ())]
        assert writes == health["store_writes"]["writes"] > before[
            ("colorclash_store_writes_total", ())]
        assert 1 <= after[("colorclash_store_commits_total", ())] <= writes


@pytest.mark.asyncio
async def test_metrics_says_when_the_store_refuses_its_commits(tmp_path):
    with InProcessServer(f"sqlite:///{tmp_path / 'm.sqlite3'}",
                         Settings(**LIFTED_LIMITS)) as srv:
        c = Client(srv.url)
        await c.create_room("Ana")  # (the writer starts with the first write)
        srv.hub.writer.refusing = "database or disk is full"
        try:
            got = samples(await c.request("GET", "/metrics"))
        finally:
            srv.hub.writer.refusing = None
        assert got[("colorclash_store_refusing", ())] == 1


@pytest.mark.asyncio
async def test_metrics_answers_in_the_format_the_scraper_asks_for(tmp_path):
    """A Prometheus asks for OpenMetrics first; a plain client gets the text format."""
    import urllib.request

    def scrape(url: str, accept: str | None) -> tuple[str, str]:
        req = urllib.request.Request(url + "/metrics",
                                     headers={"Accept": accept} if accept else {})
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.headers["Content-Type"], r.read().decode()

    with InProcessServer(f"sqlite:///{tmp_path / 'm.sqlite3'}",
                         Settings(**LIFTED_LIMITS)) as srv:
        kind, body = scrape(srv.url, "application/openmetrics-text;version=1.0.0,"
                                     "text/plain;version=0.0.4;q=0.5")
        assert kind.startswith("application/openmetrics-text")
        assert body.rstrip().endswith("# EOF") and "colorclash_rooms 0" in body
        kind, body = scrape(srv.url, None)
        assert kind.startswith("text/plain") and "# EOF" not in body
        assert samples(body)[("colorclash_rooms", ())] == 0
