"""Redis store: the same small interface as SQLite, for one process or several.

Keys (all under a prefix, ``cc:`` by default):

- ``cc:room:{code}``: the room document (JSON);
- ``cc:log:{code}:{match}``: the action log of one match, a list of ``[seat, action]``;
- ``cc:matches:{code}``: the match numbers that have a log (to delete them with the room);
- ``cc:records:{code}``: the records of the room's finished matches, a hash by match
  number (each written once, with the action that ends its match);
- ``cc:rooms``: every stored room code;
- ``cc:fence:{code}``: the owner's epoch when several processes share the store
  (``server/cluster.py``): a write carrying an older epoch is refused (a fencing token).
- ``cc:alone``: the lease of a process that serves the prefix alone (the cluster off):
  :meth:`RedisStore.claim`.

Every write is one Lua script, so the document, the log rows and the records change
together or not at all, and an action row is appended only at the index the log has reached (two writers can
never both append action ``n``). Durability is Redis's: with ``appendonly yes`` and
``appendfsync everysec`` (Redis's default for AOF) an acknowledged action survives a
Redis restart; with ``appendfsync always`` a power cut too (docs/deployment.md).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from colorclash.store import (
    STORE_FORMAT,
    Action,
    DamagedRoom,
    StoreError,
    Write,
    decoded,
    newer_format,
    shown_url,
)

log = logging.getLogger("colorclash.store")

# KEYS: the alone key; ARGV: this process's token, TTL in ms. 1: renewed; 0: not ours.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""
# KEYS: the alone key; ARGV: this process's token. Deleted only if still ours.
_LET_GO = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: room, log, matches, rooms, fence, records
# ARGV: doc, code, match, first index (-1: no actions), epoch (-1: unfenced; -2: refused,
#       a process sharing the store writing a room it does not own), new match
#       (1: the write deals the match, its log starts empty; else 0), number of records n,
#       n pairs (match, record), entries...
_SAVE = """
local epoch = tonumber(ARGV[5])
if epoch == -2 then
  return redis.error_reply('FENCED room not owned by this process')
end
if epoch >= 0 then
  local current = tonumber(redis.call('GET', KEYS[5]) or '0')
  if current ~= epoch then
    return redis.error_reply('FENCED room owned by epoch ' .. current .. ', not ' .. epoch)
  end
end
local first = tonumber(ARGV[4])
local records = tonumber(ARGV[7])
if ARGV[6] == '1' then redis.call('DEL', KEYS[2]) end
if first >= 0 then
  local n = redis.call('LLEN', KEYS[2])
  if n ~= first then
    return redis.error_reply('CONFLICT the log holds ' .. n .. ' actions, not ' .. first)
  end
  for i = 8 + 2 * records, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  redis.call('SADD', KEYS[3], ARGV[3])
end
for i = 8, 7 + 2 * records, 2 do redis.call('HSET', KEYS[6], ARGV[i], ARGV[i + 1]) end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[2])
return 1
"""


def _fail_fast_class(redis: Any) -> Any:
    """redis-py's client, which fails at once while ``silence()`` gives a reason.

    Its calls are synchronous: made on the event loop (rooms, codes, limits), a Redis that
    has stopped answering (paused, or a network that drops packets) held the whole process
    for ``socket_timeout`` (5 s) at each of them, health checks included. The cluster's
    heartbeat, on a thread of its own, tells whether Redis answers; while it has not for
    longer than the lease (``Cluster.redis_silent_for``, what ``/healthz`` reports),
    commands fail at once with a ``ConnectionError`` (a request gets ``503
    store_unavailable``), and so do pipelines, but for the heartbeat's own
    (``probe=True``), which finds out when Redis is back."""

    class FailFastRedis(redis.Redis):  # type: ignore[misc,name-defined]
        silence: Callable[[], str | None] | None = None

        def _refuse_if_silent(self) -> None:
            reason = self.silence() if self.silence is not None else None
            if reason:
                raise redis.ConnectionError(reason)

        def execute_command(self, *args: Any, **options: Any) -> Any:
            self._refuse_if_silent()
            return super().execute_command(*args, **options)

        def pipeline(self, transaction: bool = True, shard_hint: Any = None,
                     probe: bool = False) -> Any:
            pipe = super().pipeline(transaction, shard_hint)
            if not probe:
                execute = pipe.execute

                def checked(*args: Any, **kwargs: Any) -> Any:
                    try:
                        self._refuse_if_silent()
                    except redis.ConnectionError:
                        pipe.reset()
                        raise
                    return execute(*args, **kwargs)

                pipe.execute = checked
            return pipe

    return FailFastRedis


#: what a rediss:// URL may say about TLS, as redis-py reads it (a private CA's
#: certificate: ?ssl_ca_certs=/etc/redis/ca.pem; a client certificate: ssl_certfile and
#: ssl_keyfile)
TLS_PARAMETERS = frozenset({"ssl_ca_certs", "ssl_ca_path", "ssl_certfile", "ssl_keyfile",
                            "ssl_cert_reqs", "ssl_check_hostname"})


def _tls_hint(scheme: str, exc: BaseException) -> str:
    """A word on TLS where a connection that failed may have spoken the wrong one: a
    rediss:// URL to a plain Redis waits for a TLS answer that never comes (it read as a
    network fault: operator review), and a plain one to a TLS-only Redis is cut off."""
    import redis

    text = str(exc).lower()
    # Only the two failures a wrong scheme makes: a TLS hello that a plain Redis never
    # answers (a timeout), a plain command that a TLS-only Redis cuts off. Not a name
    # that does not resolve, a refused connection (nothing listens) or a certificate
    # that fails (TLS is right there: dropping it would be wrong advice).
    if "ssl" in text or "certificate" in text:
        return ""
    if scheme == "rediss" and (isinstance(exc, redis.TimeoutError) or "timeout" in text
                               or "timed out" in text):
        return ("; rediss:// speaks TLS: if this Redis does not take TLS on that port, use "
                "redis://")
    if scheme != "rediss" and ("closed by server" in text or "reset by peer" in text):
        return "; if this Redis takes only TLS, use rediss://"
    return ""


def _check_url(url: str, parts: Any) -> None:
    """A Redis URL's shape, before any connection: else a port that is no number was
    reported as Redis out of reach, and ``redis://`` alone as a garbled sentence."""
    usage = "write redis://HOST:PORT/DB, for example redis://127.0.0.1:6379/0"
    try:
        parts.port  # noqa: B018 - raises ValueError when it is no number in range
    except ValueError:
        raise StoreError(f"bad Redis URL {shown_url(url)!r}: the port is not a number; {usage}") from None
    if not parts.hostname:
        raise StoreError(f"bad Redis URL {shown_url(url)!r}: no host; {usage}")
    db = parts.path.strip("/")
    if db and not db.isdigit():
        raise StoreError(f"bad Redis URL {shown_url(url)!r}: the database {db!r} is not a number; "
                         f"{usage}")


class RedisStore:
    """Rooms and action logs in Redis (``redis://HOST:PORT/DB[?prefix=cc]``)."""

    def __init__(self, url: str) -> None:
        import redis

        parts = urlsplit(url)
        _check_url(url, parts)
        query = parse_qs(parts.query, keep_blank_values=True)
        tls = set(query) & TLS_PARAMETERS
        if tls and parts.scheme != "rediss":
            raise StoreError(f"{', '.join(sorted(tls))}: TLS parameters need a rediss:// URL")
        unknown = set(query) - {"prefix"} - TLS_PARAMETERS
        if unknown:
            raise StoreError(f"unknown redis store parameter(s): {', '.join(sorted(unknown))} "
                             f"(known: prefix, and for rediss:// "
                             f"{', '.join(sorted(TLS_PARAMETERS))})")
        if query.get("prefix") == [""]:
            # (it was taken for the default without a word)
            raise StoreError("the redis store's prefix must not be empty: ?prefix=cc, or leave "
                             "it out")
        self.prefix = (query.get("prefix") or ["cc"])[0] + ":"
        # (the TLS parameters stay: redis-py reads them from the URL, for the processes'
        # pub/sub connections too)
        self.url = parts._replace(query=urlencode(
            {k: v for k, v in query.items() if k in TLS_PARAMETERS}, doseq=True)).geturl()
        try:
            self.redis = _fail_fast_class(redis).from_url(self.url, socket_timeout=5,
                                                          socket_connect_timeout=5,
                                                          health_check_interval=10)
            self.redis.ping()
        except (redis.AuthenticationError, redis.ResponseError) as exc:
            # (Redis answered: "cannot reach" sent operators to their network first)
            raise StoreError(f"Redis at {shown_url(self.url)} refused this server: {exc}") from exc
        except redis.InvalidResponse as exc:
            # (an HTTP server answers "H": "Protocol error, got 'H' as reply type byte")
            raise StoreError(f"what answers at {shown_url(self.url)} is not Redis (it did "
                             f"not speak Redis's protocol: {exc}); check the port") from exc
        except (redis.RedisError, ValueError) as exc:
            raise StoreError(f"cannot reach Redis at {shown_url(self.url)}: {exc}"
                             f"{_tls_hint(parts.scheme, exc)}") from exc
        self._check_format()
        self._save = self.redis.register_script(_SAVE)
        self.redis.script_load(_SAVE)  # save_many calls it by its SHA
        #: fencing epochs this process holds, by room code (server/cluster.py sets them)
        self.epochs: dict[str, int] = {}
        #: a process of several (server/cluster.py): a room's write without its epoch is
        #: refused (``FENCED``), not sent unfenced: a room let go of (lost, forgotten) can
        #: never overwrite its new owner's (a scale-out review)
        self.fenced = False
        self._alone_token: str | None = None   # claim(alone=True): the lease's value
        self._alone_stop = threading.Event()
        self._alone_thread: threading.Thread | None = None

    def _check_format(self) -> None:
        """Refuse a prefix written by a newer version (``STORE_FORMAT``). A prefix without
        the mark (new, or of an earlier version) is marked by a process that claims it
        (:meth:`claim`), not by the operator's read-only commands (a mark made by
        ``colorclash rooms`` on a wrong database number made it look like the site's)."""
        import redis

        where = f"the Redis store at {shown_url(self.url)} (prefix {self.prefix[:-1]!r})"
        try:
            raw = self.redis.get(self.key("format"))
        except redis.RedisError as exc:
            raise StoreError(f"cannot read {where}: {exc}") from exc
        if raw is None:
            return
        try:
            found = int(raw)
        except ValueError:
            raise StoreError(f"{where} has a store format of {raw!r}, not a number "
                             "(another program's keys on this prefix?)") from None
        if found > STORE_FORMAT:
            raise newer_format(where, found)

    #: seconds a process alone on its prefix (COLORCLASH_CLUSTER=false) keeps it without
    #: renewing (it renews every third of it): a killed one's successor waits this long
    ALONE_TTL_S = 5.0

    def claim(self, alone: bool = False, wait_s: float | None = None,
              waiting: Callable[[str], None] | None = None, mark: bool = True) -> None:
        """Make sure this process may serve the prefix, or raise :class:`StoreError`.

        A process alone on its prefix (``COLORCLASH_CLUSTER=false``) keeps its rooms in
        memory, as a SQLite server does, with no lease per room: two of them, or one beside
        the processes of a cluster, would run the same rooms' clocks and computer players
        and write conflicting actions. So it holds ``cc:alone``, a lease renewed by a
        thread, and does not start while a process of a cluster lives on the prefix; and a
        process of a cluster does not start while another holds ``cc:alone``. A killed
        process's lease runs out: a successor waits for it (``ALONE_TTL_S``), then starts;
        ``waiting`` is told why, once, when it begins to wait (a start that paused for
        seconds in silence looked hung)."""
        deadline = time.monotonic() + (self.ALONE_TTL_S + 1 if wait_s is None else wait_s)
        token = secrets.token_hex(8)
        left_before = None
        while True:
            reason = self._claim_once(alone, token)
            if reason is None:
                break
            left = self.redis.pttl(self.key("alone"))
            renewed = left_before is not None and left > left_before + 100
            left_before = left if left > 0 else None
            if renewed or time.monotonic() >= deadline:  # (renewed: its holder lives)
                alive = " (its lease was renewed while this one waited: it runs)" if renewed else ""
                refused = StoreError(f"{reason}{alive}. Several processes on one prefix all run "
                                     "with COLORCLASH_CLUSTER=true (the default); or give "
                                     "each its own prefix: --store "
                                     "'redis://HOST:PORT/DB?prefix=NAME'")
                refused.reason = reason  # (the bare fact, for copy-store's own advice)
                raise refused
            if waiting is not None:
                waiting(f"{reason}; waiting up to {max(0.0, deadline - time.monotonic()):.0f} s "
                        "in case it has stopped (a stopped process's lease runs out; a live "
                        "one's is renewed, and this start is refused)")
                waiting = None
            time.sleep(0.25)
        if mark:  # (a server, or copy-store's target: ``_check_format``)
            self.redis.set(self.key("format"), STORE_FORMAT, nx=True)
        if alone:
            self._alone_token = token
            self._alone_thread = threading.Thread(target=self._renew_alone, daemon=True,
                                                  name="colorclash-alone-lease")
            self._alone_thread.start()

    def _claim_once(self, alone: bool, token: str) -> str | None:
        where = f"the Redis prefix {self.prefix[:-1]!r}"
        key = self.key("alone")
        if not alone:
            return (f"a process with COLORCLASH_CLUSTER=false uses {where}"
                    if self.redis.exists(key) else None)
        if not self.redis.set(key, token, nx=True, px=int(self.ALONE_TTL_S * 1000)):
            return f"another process with COLORCLASH_CLUSTER=false uses {where}"
        live = [p for p in self.redis.smembers(self.key("procs"))
                if self.redis.exists(self.key("proc", p.decode()))]
        if live:
            self.redis.delete(key)
            return f"{len(live)} process(es) of a cluster (COLORCLASH_CLUSTER=true) use {where}"
        return None

    def _renew_alone(self) -> None:
        renew = self.redis.register_script(_RENEW)
        ttl_ms = int(self.ALONE_TTL_S * 1000)
        said = False
        while not self._alone_stop.wait(self.ALONE_TTL_S / 3):
            try:
                ours = renew(keys=[self.key("alone")], args=[self._alone_token, ttl_ms])
            except Exception as exc:  # noqa: BLE001 - Redis away: the next round tries again
                log.debug("the alone lease was not renewed: %s", exc)
                continue
            if not ours and not said:  # (stopped longer than the lease, and another began)
                log.error("another process took the Redis prefix %r while this one did not "
                          "renew its lease (it was stopped?): both now serve it; stop one",
                          self.prefix[:-1])
            said = not ours

    def _let_go_alone(self) -> None:
        if self._alone_token is None:
            return
        self._alone_stop.set()
        if self._alone_thread is not None:
            self._alone_thread.join(2)
        try:
            self.redis.eval(_LET_GO, 1, self.key("alone"), self._alone_token)
        except Exception:  # noqa: BLE001 - Redis away: the lease runs out on its own
            pass
        self._alone_token = None

    def key(self, *parts: Any) -> str:
        return self.prefix + ":".join(str(p) for p in parts)

    # ------------------------------------------------------------------ writes
    def _args(self, code: str, data: dict[str, Any], match: int | None,
              actions: list[tuple[int, int, Action]] | None,
              records: list[dict[str, Any]] | None = None,
              new_match: bool = False) -> tuple[list[str], list[Any]]:
        if (actions or new_match) and match is None:
            raise ValueError("actions and a new match need a match number")
        entries = [json.dumps([seat, action], separators=(",", ":"), sort_keys=True)
                   for _idx, seat, action in (actions or [])]
        if actions:
            first = actions[0][0]
            for offset, (idx, _seat, _action) in enumerate(actions):
                if idx != first + offset:
                    raise ValueError("action indices must follow each other")
        else:
            first = -1
        keys = [self.key("room", code), self.key("log", code, match or 0),
                self.key("matches", code), self.key("rooms"), self.key("fence", code),
                self.key("records", code)]
        doc = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"),
                                                             sort_keys=True)
        pairs = [part for record in (records or [])
                 for part in (record["match"],
                              json.dumps(record, separators=(",", ":"), sort_keys=True))]
        argv = [doc, code, match or 0, first, self.epochs.get(code, -2 if self.fenced else -1),
                1 if new_match else 0, len(pairs) // 2, *pairs, *entries]
        return keys, argv

    def save_room(self, code: str, data: dict[str, Any], match: int | None = None,
                  actions: list[tuple[int, int, Action]] | None = None,
                  records: list[dict[str, Any]] | None = None,
                  new_match: bool = False) -> None:
        import redis

        keys, argv = self._args(code, data, match, actions, records, new_match)
        try:
            self._save(keys=keys, args=argv)
        except redis.ResponseError as exc:
            raise StoreError(f"room {code}: {exc}") from exc

    def save_many(self, writes: list[Write]) -> None:
        """Several writes in one round trip (each one atomic on its own). Raises if any
        was refused; the ones before it in the batch are stored."""
        import redis

        calls = [self._args(*write) for write in writes]
        try:
            results = self._evalsha_all(calls)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            # Redis down or restarting: a refusal with its reason, logged in one line by
            # the writer (it was a traceback), and the rooms restored once Redis is back
            raise StoreError(f"Redis did not take {len(writes)} write(s): {exc}") from exc
        if any(isinstance(r, redis.exceptions.NoScriptError) for r in results):
            # Redis lost its script cache (a restart): nothing of a NOSCRIPT write ran, so
            # load the script and send those writes again, unless a later write of the
            # same room got through meanwhile (then the room is rebuilt from the store)
            self._save.sha = self.redis.script_load(_SAVE)
            again = [i for i, r in enumerate(results)
                     if isinstance(r, redis.exceptions.NoScriptError)]
            for i in again:
                code = writes[i][0]
                if any(writes[j][0] == code and not isinstance(results[j], Exception)
                       for j in range(i + 1, len(writes))):
                    raise StoreError(f"room {code}: a write was refused (NOSCRIPT)")
            for i, r in zip(again, self._evalsha_all([calls[i] for i in again]),
                            strict=True):
                results[i] = r
        for (code, *_rest), result in zip(writes, results, strict=True):
            if isinstance(result, redis.ResponseError):
                raise StoreError(f"room {code}: {result}")
            if isinstance(result, Exception):
                raise StoreError(f"room {code}: {result}") from result

    def probe(self) -> None:
        """A key of the store's own written, with a short expiry."""
        import redis

        try:
            self.redis.set(self.key("probe"), "1", px=60_000)
        except redis.RedisError as exc:
            raise StoreError(f"Redis did not take a write: {exc}") from exc

    def _evalsha_all(self, calls: list[tuple[list[str], list[Any]]]) -> list[Any]:
        """Every write by its script's SHA, in one pipeline and one round trip. (redis-py's
        own script objects first ask Redis whether the script exists, in a round trip of
        its own, on every pipeline.)"""
        pipe = self.redis.pipeline(transaction=False)
        for keys, argv in calls:
            pipe.evalsha(self._save.sha, len(keys), *keys, *argv)
        return pipe.execute(raise_on_error=False)

    # ------------------------------------------------------------------ reads
    def load_room(self, code: str) -> dict[str, Any] | None:
        raw = self.redis.get(self.key("room", code))
        return decoded(code, "document", raw) if raw else None

    def load_actions(self, code: str, match: int) -> list[tuple[int, Action]]:
        rows = self.redis.lrange(self.key("log", code, match), 0, -1)
        out = []
        for r in rows:
            row = decoded(code, "action log", r, list)
            if len(row) != 2 or not isinstance(row[1], dict):
                raise DamagedRoom(f"room {code}: its stored action log is damaged (a row "
                                  "that is not [seat, action])")
            out.append(tuple(row))
        return out  # type: ignore[return-value]

    def load_records(self, code: str) -> list[dict[str, Any]]:
        stored = self.redis.hgetall(self.key("records", code))
        return [decoded(code, "record", stored[m]) for m in sorted(stored, key=int)]

    def room_codes(self) -> list[str]:
        return sorted(c.decode() for c in self.redis.smembers(self.key("rooms")))

    def password_warning(self) -> str | None:
        """What the server says at start when its URL gives a password and this Redis has
        none: redis-py goes on without a word, and the operator believes Redis protected."""
        import redis

        password = self.redis.connection_pool.connection_kwargs.get("password")
        if not password:
            return None
        try:
            self.redis.execute_command("AUTH", password)
        except (redis.ResponseError, redis.AuthenticationError) as exc:
            if "without any password configured" not in str(exc):
                return None
            return ("warning: the store's URL gives a password, but this Redis asks for none "
                    "(no requirepass): anyone who reaches its port can read and change every "
                    "game. Set requirepass (or an ACL user) in redis.conf: "
                    "docs/deployment.md, \"Redis durability\".")
        except redis.RedisError:
            return None
        return None

    def durability_warning(self) -> str | None:
        """What the server says at start when this Redis keeps no append-only file (Debian's
        package keeps only snapshots): a restart of it then loses the last seconds or
        minutes of every game, and the rooms of processes not running then."""
        import redis

        try:
            info = self.redis.info("persistence")
        except redis.RedisError:
            return None
        if info.get("aof_enabled"):
            return None
        return ("warning: this Redis keeps no append-only file (appendonly no): a restart of "
                "it loses what it took since its last snapshot, and the rooms of processes "
                "not running then. Turn AOF on: docs/deployment.md, \"Redis durability\".")

    def delete_room(self, code: str) -> None:
        """Delete the room, fenced like the saves when processes share the store: a process
        that was stalled longer than the lease, whose room another process took meanwhile,
        deleted it from under the new owner at its next sweep (StoreError ``FENCED``)."""
        import redis

        epoch = self.epochs.get(code)
        with self.redis.pipeline(transaction=True) as pipe:
            try:
                if epoch is not None:
                    pipe.watch(self.key("fence", code))
                    current = int(pipe.get(self.key("fence", code)) or 0)
                    if current != epoch:
                        raise StoreError(f"room {code}: FENCED room owned by epoch {current}, "
                                         f"not {epoch}")
                matches = pipe.smembers(self.key("matches", code)) if epoch is not None \
                    else self.redis.smembers(self.key("matches", code))
                pipe.multi()
                for m in matches:
                    pipe.delete(self.key("log", code, m.decode()))
                pipe.delete(self.key("room", code), self.key("matches", code),
                            self.key("fence", code), self.key("records", code))
                pipe.srem(self.key("rooms"), code)
                pipe.execute()
            except redis.WatchError:
                raise StoreError(f"room {code}: FENCED, its owner changed while deleting it") \
                    from None

    def free_code(self, code: str) -> None:
        """A deleted room's code given back, with no process running (``colorclash
        delete-rooms``): its reservation, its owner and its place in that owner's rooms
        go, as a process's sweep retires them (server/cluster.py, ``retire``). Left, the
        code was reserved for ever and the next start handed the deleted room on."""
        owner = self.redis.get(self.key("owner", code))
        with self.redis.pipeline(transaction=True) as pipe:
            if owner:
                pipe.srem(self.key("owned", owner.decode()), code)
            pipe.delete(self.key("code", code), self.key("owner", code))
            pipe.execute()

    def close(self) -> None:
        self._let_go_alone()
        self.redis.close()


__all__ = ["RedisStore"]
