"""Shared fixtures: a redis-server for the tests that need one; another program's SQLite
file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests check behaviour, not speed (the benchmarks do): no per-example deadline,
# which a loaded machine overran (a 200 ms deadline met in 260 ms failed a run).
settings.register_profile("colorclash", deadline=None)
settings.load_profile("colorclash")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from redis_server import RedisServer, available  # noqa: E402


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A fresh redis-server on a loopback port (skips without Debian's redis-server)."""
    if not available():
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server.url
    server.stop()


@pytest.fixture
def redis_db(redis_url):
    """The session's Redis, emptied before the test."""
    import redis

    r = redis.Redis.from_url(redis_url)
    r.flushdb()
    r.close()
    return redis_url


@pytest.fixture
def foreign_sqlite(tmp_path):
    """A SQLite file of another program's, with a ``rooms`` table of its own."""
    import sqlite3

    path = tmp_path / "theirs.sqlite3"
    db = sqlite3.connect(path)
    db.execute("create table rooms(x)")
    db.commit()
    db.close()
    return path
