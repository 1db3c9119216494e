"""Both stores keep the same promises: a room document and its action log change together,
an action row goes only where the log has reached, and reopening finds everything."""

from __future__ import annotations

import pytest

from colorclash.store import StoreError, open_store


@pytest.fixture(params=["sqlite", "redis"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 's.sqlite3'}"
    return request.getfixturevalue("redis_db")


def test_document_and_log_round_trip(url):
    s = open_store(url)
    data = {"code": "ABCDEF", "seats": [{"name": "Ana"}], "clock": {"deadline": 1.5}}
    s.save_room("ABCDEF", data, 1, [(0, 1, {"type": "draw"})])
    s.save_room("ABCDEF", {**data, "n": 1}, 1, [(1, 2, {"type": "play", "card": "R7"})])
    s.save_room("ABCDEF", {**data, "n": 2}, 2, [(0, 0, {"type": "pass"})])
    assert s.load_room("ABCDEF") == {**data, "n": 2}
    assert s.load_room("ZZZZZZ") is None
    assert s.room_codes() == ["ABCDEF"]
    assert s.load_actions("ABCDEF", 1) == [(1, {"type": "draw"}),
                                           (2, {"type": "play", "card": "R7"})]
    s.close()
    again = open_store(url)
    assert again.load_actions("ABCDEF", 2) == [(0, {"type": "pass"})]
    again.delete_room("ABCDEF")
    assert again.load_room("ABCDEF") is None and again.load_actions("ABCDEF", 2) == []
    assert again.room_codes() == []
    again.close()


def test_an_action_twice_at_one_index_is_refused_whole(url):
    s = open_store(url)
    s.save_room("ABCDEF", {"n": 0}, 1, [(0, 1, {"type": "draw"})])
    with pytest.raises(Exception):  # noqa: B017 - IntegrityError (SQLite), StoreError (Redis)
        s.save_room("ABCDEF", {"n": 99}, 1, [(0, 1, {"type": "pass"})])
    assert s.load_room("ABCDEF") == {"n": 0}
    assert s.load_actions("ABCDEF", 1) == [(1, {"type": "draw"})]
    s.close()


def test_a_new_match_starts_its_log_empty_in_the_same_write(url):
    """Rows a replaced deal of the same match number left are dropped by the write that
    deals it, atomically: a batch may hold the deal and the match's first actions."""
    s = open_store(url)
    s.save_room("ABCDEF", {"n": 0}, 3, [(0, 1, {"type": "draw"}), (1, 2, {"type": "pass"})])
    s.save_room("ABCDEF", {"n": 1}, 2, [(0, 0, {"type": "draw"})])
    s.save_many([("ABCDEF", {"deal": 3}, 3, None, None, True),
                 ("ABCDEF", {"n": 2}, 3, [(0, 0, {"type": "pass"})])])
    assert s.load_room("ABCDEF") == {"n": 2}
    assert s.load_actions("ABCDEF", 3) == [(0, {"type": "pass"})]
    assert s.load_actions("ABCDEF", 2) == [(0, {"type": "draw"})]  # other matches kept
    s.save_room("ABCDEF", {"deal": 4}, 4, new_match=True)
    s.save_room("ABCDEF", {"n": 3}, 4, [(0, 1, {"type": "draw"})])
    assert s.load_actions("ABCDEF", 4) == [(1, {"type": "draw"})]
    with pytest.raises(ValueError):
        s.save_room("ABCDEF", {"deal": None}, None, new_match=True)
    assert s.load_room("ABCDEF") == {"n": 3}
    s.close()


def test_a_refused_new_match_write_keeps_the_old_log(url):
    s = open_store(url)
    s.save_room("ABCDEF", {"n": 0}, 1, [(0, 1, {"type": "draw"})])
    with pytest.raises(Exception):  # noqa: B017 - IntegrityError (SQLite), StoreError (Redis)
        s.save_many([("ABCDEF", {"deal": 1}, 1,
                      [(0, 0, {"type": "pass"}), (0, 1, {"type": "draw"})], None, True)])
    assert s.load_room("ABCDEF") == {"n": 0}
    assert s.load_actions("ABCDEF", 1) == [(1, {"type": "draw"})]
    s.close()


def test_batched_writes_of_several_rooms(url):
    s = open_store(url)
    s.save_many([("AAAAAA", {"a": 1}, 1, [(0, 0, {"type": "draw"})]),
                 ("BBBBBB", {"b": 1}, None, None),
                 ("AAAAAA", {"a": 2}, 1, [(1, 1, {"type": "pass"})])])
    assert s.load_room("AAAAAA") == {"a": 2} and s.load_room("BBBBBB") == {"b": 1}
    assert s.load_actions("AAAAAA", 1) == [(0, {"type": "draw"}), (1, {"type": "pass"})]
    s.close()


def test_records_are_stored_apart_with_their_write(url):
    """Finished matches' records go with the write that ends their match, apart from the
    document (which is written with every action): loaded by match number, replaced when
    written again, refused with the write they came with, deleted with the room."""
    s = open_store(url)
    rec = {m: {"match": m, "seed": f"s{m}", "result": {"winners": [m % 2]}} for m in (1, 2, 10)}
    s.save_room("ABCDEF", {"n": 0}, 1, [(0, 0, {"type": "draw"})], [rec[1]])
    s.save_many([("ABCDEF", {"n": 1}, 10, [(0, 1, {"type": "pass"})], [rec[10]]),
                 ("ABCDEF", {"n": 2}, 2, None, [rec[2]]),
                 ("BBBBBB", {"b": 1}, None, None)])  # a write without records
    assert s.load_room("ABCDEF") == {"n": 2}  # no records in the document
    assert s.load_records("ABCDEF") == [rec[1], rec[2], rec[10]]  # 10 after 2, not before
    assert s.load_records("BBBBBB") == [] and s.load_records("ZZZZZZ") == []
    s.save_room("ABCDEF", {"n": 3}, None, None, [{**rec[2], "seed": "again"}])
    assert [r["seed"] for r in s.load_records("ABCDEF")] == ["s1", "again", "s10"]
    with pytest.raises(Exception):  # noqa: B017 - the log already has index 0 of match 1
        s.save_room("ABCDEF", {"n": 99}, 1, [(0, 1, {"type": "pass"})],
                    [{"match": 5, "seed": "lost"}])
    assert [r["match"] for r in s.load_records("ABCDEF")] == [1, 2, 10]
    assert s.load_room("ABCDEF") == {"n": 3}
    s.close()
    again = open_store(url)
    assert [r["match"] for r in again.load_records("ABCDEF")] == [1, 2, 10]
    again.delete_room("ABCDEF")
    assert again.load_records("ABCDEF") == [] and again.load_room("BBBBBB") == {"b": 1}
    again.close()


def test_redis_refuses_a_stale_owner(redis_db):
    import redis

    s = open_store(redis_db)
    s.save_room("ABCDEF", {"n": 0})
    r = redis.Redis.from_url(redis_db)
    r.set(s.key("fence", "ABCDEF"), 2)  # another process took the room over (epoch 2)
    s.epochs["ABCDEF"] = 1
    with pytest.raises(StoreError, match="FENCED"):
        s.save_room("ABCDEF", {"n": 1}, 1, [(0, 0, {"type": "draw"})])
    assert s.load_room("ABCDEF") == {"n": 0} and s.load_actions("ABCDEF", 1) == []
    s.epochs["ABCDEF"] = 2
    s.save_room("ABCDEF", {"n": 1}, 1, [(0, 0, {"type": "draw"})])
    assert s.load_room("ABCDEF") == {"n": 1}
    r.close()
    s.close()


def test_redis_batches_are_one_round_trip_and_survive_a_lost_script_cache(redis_db):
    """``save_many`` sends its writes by the script's SHA in one pipeline (redis-py's script
    objects cost a round trip more per batch); when Redis has lost its scripts (a restart
    without them), the batch loads the script again and every write is stored once."""
    import redis

    s = open_store(redis_db)
    r = redis.Redis.from_url(redis_db)
    r.execute_command("CONFIG", "RESETSTAT")
    s.save_many([("AAAAAA", {"a": 1}, 1, [(0, 0, {"type": "draw"})]),
                 ("BBBBBB", {"b": 1}, None, None)])
    stats = r.info("commandstats")
    assert stats["cmdstat_evalsha"]["calls"] == 2
    assert "cmdstat_script|exists" not in stats and "cmdstat_script" not in stats
    r.script_flush()  # as after a restart
    s.save_many([("AAAAAA", {"a": 2}, 1, [(1, 0, {"type": "pass"})]),
                 ("BBBBBB", {"b": 2}, None, None)])
    assert s.load_room("AAAAAA") == {"a": 2} and s.load_room("BBBBBB") == {"b": 2}
    assert s.load_actions("AAAAAA", 1) == [(0, {"type": "draw"}), (0, {"type": "pass"})]
    r.close()
    s.close()


def test_redis_urls_have_clear_errors():
    with pytest.raises(StoreError, match="cannot reach Redis"):
        open_store("redis://127.0.0.1:1/0")
    with pytest.raises(StoreError) as err:  # nothing listens: no word on TLS
        open_store("rediss://127.0.0.1:1/0")
    assert "TLS" not in str(err.value)
    with pytest.raises(StoreError, match="unknown redis store parameter"):
        open_store("redis://127.0.0.1:1/0?nope=1")
    # the URL's shape is checked before any connection
    for url, says in (("redis://127.0.0.1:6379/abc", "the database 'abc' is not a number"),
                      ("redis://127.0.0.1:notaport/0", "the port is not a number"),
                      ("redis://", "no host")):
        with pytest.raises(StoreError, match="bad Redis URL") as err:
            open_store(url)
        assert says in str(err.value) and "redis://HOST:PORT/DB" in str(err.value), url


def test_a_store_url_with_one_slash_or_another_program_on_the_port_says_so():
    """``redis:/127.0.0.1:6379/0`` (one slash) was read as a SQLite file in a folder
    ``redis:`` ("folder ... does not exist"); a web server on the port said "Protocol error,
    got 'H' as reply type byte"."""
    import socket
    import threading

    for url in ("redis:/127.0.0.1:6379/0", "redis:127.0.0.1", "sqlite:/tmp/x.sqlite3",
                "rediss:/h:1/0"):
        with pytest.raises(StoreError, match="takes two slashes") as err:
            open_store(url)
        assert "redis://HOST:PORT/DB" in str(err.value), url
    web = socket.socket()
    web.bind(("127.0.0.1", 0))
    web.listen(1)

    def answer() -> None:
        conn, _ = web.accept()
        with conn:
            conn.recv(1024)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=answer, daemon=True).start()
    try:
        with pytest.raises(StoreError, match="is not Redis") as err:
            open_store(f"redis://127.0.0.1:{web.getsockname()[1]}/0")
        assert "check the port" in str(err.value)
    finally:
        web.close()


def test_a_redis_that_answers_and_refuses_is_not_said_unreachable(redis_db):
    """A wrong database (or password) was "cannot reach Redis": the operator looked at the
    network first, though Redis had answered."""
    url = redis_db.rsplit("/", 1)[0] + "/9999"
    with pytest.raises(StoreError) as err:
        open_store(url)
    assert "refused this server" in str(err.value) and "out of range" in str(err.value), err.value
    assert "cannot reach" not in str(err.value)


def test_redis_that_does_not_answer_is_a_refusal_with_its_reason(redis_db):
    """Redis down or restarting: a batch's pipeline raised redis-py's ConnectionError, which
    the writer logged as a traceback ("store commit failed"). It is a StoreError with the
    reason, logged in one line like any refusal."""
    s = open_store(redis_db)
    s.save_many([("AAAAAA", {"a": 1}, 1, [(0, 0, {"type": "draw"})])])
    pool = s.redis.connection_pool
    pool.connection_kwargs["port"] = 1  # nothing listens there: as a Redis that went away
    pool.reset()
    with pytest.raises(StoreError, match="Redis did not take 1 write"):
        s.save_many([("AAAAAA", {"a": 2}, 1, [(1, 0, {"type": "pass"})])])
    s.close()


def test_a_redis_password_is_never_printed():
    """The start line and the store's errors printed redis://:s3cret@host/0 whole."""
    from colorclash.store import shown_url

    assert shown_url("redis://:s3cret@127.0.0.1:6379/0") == "redis://:[redacted]@127.0.0.1:6379/0"
    assert shown_url("redis://ana:s3cret@h:1/0") == "redis://ana:[redacted]@h:1/0"
    assert shown_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert shown_url("sqlite:///rooms.sqlite3") == "sqlite:///rooms.sqlite3"
    with pytest.raises(StoreError) as err:
        open_store("redis://:s3cret@127.0.0.1:1/0")
    assert "s3cret" not in str(err.value) and "[redacted]" in str(err.value)


def test_a_redis_without_an_append_only_file_is_named_at_start(redis_db):
    """Three processes started on a Redis with no persistence without a word, though a
    restart of it then loses what it took since its last snapshot."""
    import redis

    s = open_store(redis_db)
    r = redis.Redis.from_url(redis_db)
    try:
        r.config_set("appendonly", "no")
        assert "append-only" in s.durability_warning()
        r.config_set("appendonly", "yes")
        assert s.durability_warning() is None
    finally:
        r.config_set("appendonly", "no")
        r.close()
        s.close()


def test_an_empty_redis_prefix_is_refused(redis_db):
    """``?prefix=`` was taken for the default without a word."""
    with pytest.raises(StoreError, match="prefix must not be empty"):
        open_store(redis_db + ("&" if "?" in redis_db else "?") + "prefix=")


def test_a_redis_password_where_redis_asks_for_none_is_named_at_start(redis_db):
    """redis-py takes a password a Redis without requirepass does not ask for, without a
    word: the operator believed Redis protected (operator QA)."""
    import redis

    with_password = redis_db.replace("redis://", "redis://:hunter2@")
    s = open_store(with_password)
    try:
        warning = s.password_warning()
        assert warning is not None and "asks for none" in warning
        assert "hunter2" not in warning
    finally:
        s.close()
    plain = open_store(redis_db)
    try:
        assert plain.password_warning() is None  # no password given: nothing to say
    finally:
        plain.close()
    r = redis.Redis.from_url(redis_db)
    try:
        r.config_set("requirepass", "hunter2")
        s = open_store(with_password)
        try:
            assert s.password_warning() is None  # Redis asks for it: fine
        finally:
            s.close()
    finally:
        redis.Redis.from_url(with_password).config_set("requirepass", "")
        r.close()


def test_rediss_to_a_redis_without_tls_says_so(redis_db):
    """``rediss://`` to a plain Redis waited for a TLS answer and said "Timeout connecting
    to server", read as a network fault (operator review): a word on TLS now."""
    url = "rediss://" + redis_db.split("://", 1)[1]
    with pytest.raises(StoreError, match="rediss:// speaks TLS: if this Redis does not take "
                                         "TLS on that port, use redis://"):
        open_store(url)


def test_a_name_that_does_not_resolve_gets_no_word_on_tls():
    """The hint is for a wrong scheme only: "Name or service not known" was followed by
    "if this Redis takes only TLS, use rediss://" (diff review)."""
    with pytest.raises(StoreError) as err:
        open_store("redis://no-such-host.invalid:6379/0")
    assert "cannot reach Redis" in str(err.value) and "TLS" not in str(err.value)


def test_redis_to_a_redis_that_takes_only_tls_says_so(tmp_path):
    import shutil

    from redis_server import RedisServer, available

    if not available() or not shutil.which("openssl"):
        pytest.skip("redis-server or openssl (for the certificate) is not installed")
    rs = RedisServer(tmp_path, tls=True).start()
    try:
        plain = "redis://" + rs.url.split("://", 1)[1].split("?")[0]
        with pytest.raises(StoreError, match="if this Redis takes only TLS, use rediss://"):
            open_store(plain)
    finally:
        rs.stop()


def _mark_format(url, tmp_path, value):
    """Mark the store as written by the version of store format ``value``."""
    if url.startswith("sqlite"):
        import sqlite3

        db = sqlite3.connect(tmp_path / "s.sqlite3")
        db.execute(f"PRAGMA user_version={value}")
        db.commit()
        db.close()
    else:
        import redis

        r = redis.Redis.from_url(url)
        r.set("cc:format", value)
        r.close()


def test_a_store_of_a_newer_version_is_refused_in_one_line_and_left_as_it_is(url, tmp_path):
    """An older version opening a newer one's store logged a traceback per room it could
    not read and started with none (an upgrade review): a store carries its format, and
    one newer than this version's is refused at its opening, untouched."""
    from colorclash.store import STORE_FORMAT

    s = open_store(url)
    s.save_room("ABCDEF", {"n": 1}, 1, [(0, 1, {"type": "draw"})])
    s.close()
    _mark_format(url, tmp_path, STORE_FORMAT + 1)
    for create in (True, False):  # a server, and the operator's read-only commands
        with pytest.raises(StoreError, match=r"written by a newer version of Color Clash "
                                             rf"\(store format {STORE_FORMAT + 1}; this version "
                                             rf"reads format {STORE_FORMAT} and older\)"):
            open_store(url, create=create)
    _mark_format(url, tmp_path, STORE_FORMAT)  # (the newer version's data, as it was)
    again = open_store(url)
    assert again.load_room("ABCDEF") == {"n": 1}
    assert again.load_actions("ABCDEF", 1) == [(1, {"type": "draw"})]
    again.close()


def test_a_store_without_a_format_mark_is_read_and_marked(url, tmp_path):
    """A store of an earlier version (no mark) is read, and marked with this format by the
    server that opens it."""
    from colorclash.store import STORE_FORMAT

    s = open_store(url)
    s.save_room("ABCDEF", {"n": 1}, 1, [(0, 1, {"type": "draw"})])
    s.close()
    _mark_format(url, tmp_path, 0)
    if not url.startswith("sqlite"):
        import redis

        r = redis.Redis.from_url(url)
        r.delete("cc:format")
        r.close()
    again = open_store(url)
    assert again.load_room("ABCDEF") == {"n": 1}
    if not url.startswith("sqlite"):
        again.claim(alone=True)  # (a server marks a Redis prefix; a read-only command not)
    again.close()
    if url.startswith("sqlite"):
        import sqlite3

        db = sqlite3.connect(tmp_path / "s.sqlite3")
        assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_FORMAT
        db.close()
    else:
        import redis

        r = redis.Redis.from_url(url)
        assert int(r.get("cc:format")) == STORE_FORMAT
        r.close()


def test_a_blank_file_with_a_user_version_of_its_own_is_marked_as_a_store(tmp_path):
    """A blank SQLite file whose header holds a user_version of its own (7) was taken once,
    then refused for ever as "written by a newer version" (a diff review): a file with none
    of the store's tables is marked with this version's format when it becomes a store."""
    import sqlite3

    from colorclash.store import STORE_FORMAT

    path = tmp_path / "blank.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=7")
    db.commit()
    db.close()
    s = open_store(f"sqlite:///{path}")
    s.save_room("ABCDEF", {"n": 1})
    s.close()
    again = open_store(f"sqlite:///{path}")
    assert again.load_room("ABCDEF") == {"n": 1}
    again.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_FORMAT
    db.close()
