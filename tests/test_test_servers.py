"""The servers the tests start for themselves never lose their port to another test's.

CI met it: a redis-server's port, only looked up, was taken by a test's web server before
redis bound it. Redis gave up, the fixture sent PING to the web server for 10 s and
failed, and the thousands of "Invalid HTTP request" lines it caused filled the log
limiter of a test that counts them.
"""

from __future__ import annotations

import socket

import pytest

from colorclash.server.testing import InProcessServer
from redis_server import RedisServer, available


@pytest.mark.skipif(not available(), reason="redis-server is not installed")
def test_a_redis_whose_port_was_taken_meanwhile_starts_on_another(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    rs = RedisServer(tmp_path)
    rs.port = taken.getsockname()[1]  # as if someone bound it after free_port()
    try:
        rs.start()
        assert rs.port != taken.getsockname()[1]
        assert rs._answers()
    finally:
        rs.stop()
        taken.close()


def test_an_in_process_server_holds_its_port_from_the_start(tmp_path):
    srv = InProcessServer(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    other = socket.socket()
    try:
        with pytest.raises(OSError):
            other.bind(("127.0.0.1", srv.port))
        with srv:
            with socket.create_connection(("127.0.0.1", srv.port), timeout=5):
                pass
    finally:
        other.close()


def test_a_server_process_holds_its_port_from_the_start_and_again_after_a_kill(tmp_path):
    """The child served on a port only looked up (``free_port()``), which another test's
    server could take before the child bound it; it is bound when the ``ServerProcess`` is
    made, the child serves on that very socket, and a restart gets the same port."""
    from colorclash.server.testing import ServerProcess

    srv = ServerProcess(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    other = socket.socket()
    try:
        with pytest.raises(OSError):
            other.bind(("127.0.0.1", srv.port))
        srv.start()
        port = srv.port
        srv.kill()
        again = ServerProcess(srv.store_url, port=port).start()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5):
                pass
            assert f"open http://127.0.0.1:{port}/" in again.output()
        finally:
            again.stop()
    finally:
        other.close()
        srv.stop()
