"""Several ``colorclash serve`` processes on one Redis: who owns a room, and how a player
connected to any process reaches it.

**Ownership.** Exactly one live process applies a room's actions: the one named in
``cc:owner:{code}``. A process is alive while its key ``cc:proc:{id}`` exists (set with a
short expiry and renewed every ``lease_ttl / 3`` seconds). Taking a room (when it is
created, when someone needs it and its owner is dead, or when the owner's death is noticed
by the heartbeat) is one Lua script that also increments the room's epoch
``cc:fence:{code}``; every write of the room carries the owner's epoch and Redis refuses a
write with an older one (``store/redis_store.py``). So a process that was paused past its
lease and whose rooms were taken over can never write again: its write is refused, it drops
the room and its players reconnect.

**Routing.** Any process accepts any connection (no sticky sessions). A player connected
to a process that does not own the room is *proxied*: the process (the gateway) checks the
seat's token against the stored room, then passes the player's messages to the owner and
the owner's messages back, over Redis pub/sub (each process listens on
``cc:to:{id}``). REST calls about a room (its public object, joining, records) are remote
calls to the owner the same way. Pub/sub loses nothing that matters: every ``state`` is
complete, a gateway whose owner died re-attaches its players to the new owner (or
takes the room itself), and one whose subscription dropped (a Redis restart: whatever
was published meanwhile, both ways, is lost) re-attaches them to the same owner, which
sends them a welcome and a complete state (``Proxy.confirmed``). A player whose action
may have been lost so is told (``Proxy.unanswered``): it is played again, not waited for.
A player's close, lost so, is made up for by the beats: each names to each owner the
sockets its process still has (``say_alive``), and the owner lets go of those its gateway
no longer names (``drop_silent_remotes``).

**Failover.** Each heartbeat looks for processes whose key expired (or was deleted: a
process stopping cleanly deletes its own, so its rooms are handed over the same way) and
takes over their rooms (but for a lease after Redis was away from this process: every key may have expired
during a Redis restart, the processes all alive) (one Lua script per room, so two survivors never both take one); a taken room is
rebuilt from Redis by replay, with the same clock deadlines, and its timers run again on
its new owner only, so a deadline fires once. Players who were connected to the dead
process reconnect (the browser and ``colorclash.client`` retry with backoff) to any
process and find the same seat, cards and clocks.

**Redis lost its data** (restarted without persistence, or flushed): each process notices
at its next beat, or at its first write refused meanwhile, that the key ``cc:mark`` it read
at its start is gone, and stores the rooms it holds again from memory (their code, owner,
document, action log and records), which is the truth: their players play on. Rooms
of processes that died meanwhile are lost (docs/deployment.md).

**Quick Match** runs on one process at a time, the holder of ``cc:qm:leader``; the others
pass queue calls to it. Its queue lives in memory: if that process dies, the waiting
players' queue sockets close and they queue again. A leader keeps its queue for one term
of its holding (``cc:qm:term``): one that finds another term (it stalled past the lease)
gives its queue up the same way (``Cluster.lead``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

import redis

from colorclash.build import build_id
from colorclash.server.protocol import ProtocolError, dumps
from colorclash.server.quick_match import queue_again
from colorclash.store import StoreError

if TYPE_CHECKING:
    from colorclash.server.hub import Hub
    from colorclash.store.redis_store import RedisStore

log = logging.getLogger("colorclash.server.cluster")

#: a message for a proxied player's socket: SEND_MARK, the connection id, the text as is
SEND_MARK, SEND_MARK_BYTES = "S", b"S"
CONN_ID_LEN = 16  # hex characters
#: how long a stop waits for the cluster's own tasks, then for the Redis client to close:
#: redis-py shields a subscription's teardown from cancellation, and a teardown that
#: never ended (seen once, after a Redis outage) held the whole shutdown with it
STOP_WAIT_S = 3.0

# KEYS: owner, fence, owned-by-me, proc-key-of-current-owner (unknown: any), owned-prefix
# ARGV: my id, proc key prefix, owned key prefix
_ACQUIRE = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. owner) == 1 then
  return nil
end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[4])
if owner and owner ~= ARGV[1] then redis.call('SREM', ARGV[3] .. owner, ARGV[4]) end
return epoch
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[2])
  return 1
end
return 0
"""

# The Quick Match leadership: take it when nobody holds it, renew it when this process
# does. Its term (KEYS[2], "process id:token", kept without an expiry) names the holdings
# of one process in a row: a process that takes the lead again after a lapse (a stall, a
# Redis outage) keeps its term if no other process led meanwhile, and a leader that finds
# another process's term since its own gives up the queue of its last one (Cluster.lead).
# ARGV: process id, lease (ms), the term this process holds ('' for none), a fresh one.
# Returns the term, or '' when another process leads.
_LEADER = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return '' end
local term = redis.call('GET', KEYS[2])
if not term then
  term = ARGV[3] ~= '' and ARGV[3] or ARGV[4]
elseif string.sub(term, 1, string.len(ARGV[1]) + 1) ~= ARGV[1] .. ':' then
  term = ARGV[4]
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], term)
return term
"""

_RESIGN = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""


class Unanswered(ProtocolError):
    """A call another process did not answer in time (it may have died): a 503."""

    def __init__(self, message: str) -> None:
        super().__init__("internal", message, status=503)


class RemoteConn:
    """The owner's side of a player connected to another process: what the room sends it
    goes to that process, which writes it to the player's socket."""

    def __init__(self, cluster: Cluster, gateway: str, conn_id: str,
                 where: tuple[Any, ...] = ()) -> None:
        self.cluster = cluster
        self.gateway = gateway
        self.conn_id = conn_id
        # ("seat", code, seat) or ("ticket", ticket): what to let go of if the gateway
        # dies without a word (Cluster.drop_remotes_of_dead)
        self.where = where
        # when the gateway last said it still has the socket (its beat's "alive", or the
        # attach): Cluster.drop_silent_remotes
        self.seen = time.monotonic()
        self.closed = False
        self.closed_with: tuple[int, str] | None = None  # (close): said again if named
        # Always complete states: a message lost on the way between the processes (Redis
        # restarting) must not leave the player's ``room`` behind until it next changes.
        self.compact = False

    def send(self, msg: dict[str, Any]) -> None:
        if not self.closed:
            try:
                text = dumps(msg)
            except (ValueError, TypeError):
                return
            self.cluster.post_text(self.gateway, self.conn_id, text)

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.cluster.post_text(self.gateway, self.conn_id, text)

    def close(self, code: int, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.closed_with = (code, reason)
            self.cluster.close_remote(self.gateway, self.conn_id, code, reason)

    def stop(self) -> None:
        self.closed = True


class Proxy:
    """The gateway's side: a player's socket here, the room on another process."""

    def __init__(self, conn_id: str, code: str, seat: int | None, conn: Any,
                 ticket: str | None = None) -> None:
        self.conn_id = conn_id
        self.code = code
        self.seat = seat
        self.conn = conn
        self.ticket = ticket
        self.owner: str | None = None
        self.token_hash: str | None = None  # the seat's token, checked again by each owner
        # The owner answered the last attach (something came back): until then the beat
        # attaches again, for pub/sub loses what is published while a process is not
        # subscribed (a Redis restart), an attach included, and the player got nothing.
        self.confirmed = False
        self.attached_at = time.monotonic()
        # An action passed on to the owner and nothing back since: if the owner turns out
        # to be gone (it stopped, died, or Redis did not take the message), the player is
        # told that it may not have reached the table (pub/sub delivers at most once).
        self.unanswered = False


class Cluster:
    def __init__(self, hub: Hub, store: RedisStore) -> None:
        self.hub = hub
        self.store = store
        store.fenced = True  # (a room's write without its epoch is refused)
        self.r = store.redis
        self.id = secrets.token_hex(6)
        self._damaged_said: set[str] = set()  # rooms whose damage is logged (take)
        self.ttl_ms = int(hub.settings.lease_ttl * 1000)
        self._acquire = self.r.register_script(_ACQUIRE)
        self._release = self.r.register_script(_RELEASE)
        self._leader = self.r.register_script(_LEADER)
        self._resign = self.r.register_script(_RESIGN)
        self.calls: dict[str, asyncio.Future[Any]] = {}
        self.remote: dict[str, RemoteConn] = {}    # owner side, by conn id
        self.proxies: dict[str, Proxy] = {}        # gateway side, by conn id
        self.leader = False
        self.leader_term = b""      # the term of the Quick Match leadership it holds
        self.beat_ok_at = time.monotonic()
        self.beat_tried_at = 0.0    # (monotonic) when the last beat began
        self.redis_away = False     # the last beat found no Redis
        self.dead_seen: set[str] = set()  # dead processes whose rooms we began to take
        self.judge_after = 0.0      # no process is taken for dead before (monotonic)
        self.r.silence = self.silence  # (a client of the store's own class: fails fast)
        self.mark: str | None = None  # the value of cc:mark this process knows
        self.seen_mark: str | None = None  # as the last beat read it
        self.awaiting_restore: set[str] = set()  # rooms Redis lost, stored again at rebuild
        self._aredis: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox: asyncio.Queue[tuple[str, str]] | None = None

    def key(self, *parts: Any) -> str:
        return self.store.key(*parts)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        import redis.asyncio as aredis

        self.beat()
        self.say_other_builds()
        self._adopt_mark()
        # One retry on a connection error: a restart of Redis closes the pooled
        # connections, and the first message published after it went out on a closed one
        # and was lost (a player proxied here waited for a state that never came). The
        # retry opens a new connection (the subscription resubscribes on its own).
        self._aredis = aredis.Redis.from_url(self.store.url, health_check_interval=10,
                                             retry_on_error=[redis.ConnectionError])
        self._outbox = asyncio.Queue()
        ready = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(ready), name="listen"),
                       loop.create_task(self._send_loop(), name="send"),
                       loop.create_task(self._heartbeat(), name="heartbeat")]
        await asyncio.wait_for(ready.wait(), 10)
        # (the other processes' lines name this one by its id alone: "process 5c28b093e6de
        # is gone"; without this line its own log never said which id it had)
        log.info("process %s started (pid %d on %s)", self.id, os.getpid(),
                 socket.gethostname())

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        if self._tasks:
            _, stuck = await asyncio.wait(self._tasks, timeout=STOP_WAIT_S)
            if stuck:
                log.warning("%d cluster task(s) did not stop within %.0f s (%s); the process "
                            "stops without them", len(stuck), STOP_WAIT_S,
                            ", ".join(sorted(t.get_name() for t in stuck)))
        try:
            # Gone at once, rooms and all: the others take our rooms over at their next
            # beat, as after a death, and run their clocks and computer players. (Its
            # rooms released instead, nobody took them until someone asked for one: a
            # room without a player connected waited, its clocks stopped.)
            # A mark that the stop was clean, read by whoever takes the rooms: the same
            # "is gone (its lease ran out)" warning as after a crash made every planned
            # restart look like one.
            rooms = self.r.scard(self.key("owned", self.id))
            self.r.set(self.key("stopped", self.id), "1", ex=3600)
            self.r.delete(self.key("proc", self.id))
            self.r.hdel(self.key("builds"), self.id)
            if self.leader:  # (not a leadership another process took meanwhile)
                self._resign(keys=[self.key("qm", "leader")], args=[self.id])
            others = any(self.alive(raw.decode()) for raw in self.r.smembers(self.key("procs"))
                         if raw.decode() != self.id)
            if not rooms:  # (its 0 rooms were said taken by "the other processes",
                # also when there were none: operator review)
                log.info("process %s stops: it holds no room", self.id)
            elif others:
                # (they may be stopping too, as under `systemctl stop 'colorclash@*'`)
                log.info("process %s stops: the other processes take its %d room(s) at "
                         "their next beat (or, if they stop too, the next process to "
                         "start)", self.id, rooms)
            else:  # the last one: said so (the line above promised what nobody would do)
                log.info("process %s stops: no other process runs; its %d room(s) wait in "
                         "Redis for the next process to start", self.id, rooms)
        except Exception as exc:  # noqa: BLE001 - Redis may be gone: the leases expire anyway
            log.warning("could not hand this process's rooms over at shutdown (%s): the "
                        "other processes take them once its lease runs out (%g s), as "
                        "after a crash", exc, self.hub.settings.lease_ttl)
        if self._aredis is not None:
            try:
                await asyncio.wait_for(self._aredis.aclose(), STOP_WAIT_S)
            except Exception:  # noqa: BLE001 - a timeout or Redis gone: nothing left to keep
                log.warning("the Redis client did not close cleanly at shutdown")

    def beat(self) -> None:
        """This process lives: its key renewed, and its name in the set of processes
        the others watch (again at every beat: a Redis restarted without its data lost
        the set, and no process's death was noticed after that)."""
        pipe = self.r.pipeline(transaction=False, probe=True)  # (even while "unavailable")
        # (its build first: a process the others can see alive has said its build, so
        # that say_other_builds does not take one starting at that moment for an old one)
        pipe.hset(self.key("builds"), self.id, build_id())
        pipe.set(self.key("proc", self.id), str(time.time()), px=self.ttl_ms)
        pipe.sadd(self.key("procs"), self.id)
        pipe.get(self.key("mark"))
        mark = pipe.execute()[-1]
        self.seen_mark = mark.decode() if mark else None
        self.beat_ok_at = time.monotonic()  # Redis answered (redis_silent_for)

    def say_other_builds(self) -> list[str]:
        """A warning line at the start when another live process on this Redis runs
        another build (or one from before builds were said): their messages and the write
        script differ, and each breaks the other's players (an upgrade review: nothing
        said so, in either log). The entries of processes gone are dropped. Returns the
        other processes' ids."""
        mine = build_id()
        others: dict[str, str] = {}
        gone: list[str] = []
        procs = self.r.smembers(self.key("procs"))  # (before the builds: see beat)
        builds = {k.decode(): v.decode() for k, v in self.r.hgetall(self.key("builds")).items()}
        for raw in procs:
            pid = raw.decode()
            if pid == self.id:
                continue
            if self.alive(pid):
                if builds.get(pid) != mine:
                    others[pid] = builds.get(pid, "from before builds were said")
            elif pid in builds:
                gone.append(pid)
        if gone:
            self.r.hdel(self.key("builds"), *gone)
        if others:
            log.warning("another build of Color Clash runs on this Redis (%s; this process "
                        "runs %s): do not mix versions, their players' messages fail; stop "
                        "every process, then start the new version (docs/deployment.md, "
                        "Upgrading)", ", ".join(f"process {p}: build {b}"
                                                for p, b in sorted(others.items())), mine)
        return sorted(others)

    def silence(self) -> str | None:
        """Why Redis is taken for unavailable now, or None (the store's client asks and
        /healthz). A beat that did not even run (the process itself stopped: SIGSTOP, a
        frozen VM) is not Redis's fault, and the line says so."""
        silent = self.redis_silent_for()
        if not silent:
            return None
        # A beat waiting on Redis blames it only if the beats ran until it: one begun long
        # after the last answer is the first after the process woke (a SIGSTOP longer than
        # the lease), and the writes refused meanwhile blamed a Redis that was fine.
        beats_ran = self.beat_tried_at - self.beat_ok_at < 2 * self.hub.settings.lease_ttl / 3
        if self.redis_away or (self.beat_tried_at > self.beat_ok_at and beats_ran):
            return f"Redis has not answered for {silent:.0f} s"
        return (f"this process has not reached Redis for {silent:.0f} s (its beats did not "
                "run: the process was stopped, or its event loop held)")

    def redis_silent_for(self) -> float:
        """Seconds since the last beat Redis answered (0 while it answers: /healthz)."""
        silent = time.monotonic() - self.beat_ok_at
        return silent if silent > self.hub.settings.lease_ttl else 0.0

    def judging(self) -> bool:
        """Whether a process whose key is gone may be taken for dead now: not while Redis
        is away from this process, nor for a lease after it answers again (every key may
        have expired in a Redis restart, the processes all alive: each renews its own
        within a beat)."""
        return not self.redis_away and time.monotonic() >= self.judge_after

    def alive(self, pid: str) -> bool:
        return pid == self.id or bool(self.r.exists(self.key("proc", pid)))

    async def _heartbeat(self) -> None:
        period = self.hub.settings.lease_ttl / 3
        while True:
            await asyncio.sleep(period)
            try:
                # On a thread: a Redis that does not answer must not hold the event loop
                # (store/redis_store.py: other commands fail at once meanwhile).
                self.beat_tried_at = time.monotonic()
                last_answer = self.beat_ok_at
                beat = asyncio.ensure_future(asyncio.to_thread(self.beat))
                # A Redis that hangs (paused, or a network that drops packets) fails the
                # beat only after the client's socket timeout (5 s): the log said so that
                # much after /healthz. Said once the beat has waited a lease instead.
                done, _ = await asyncio.wait({beat}, timeout=self.hub.settings.lease_ttl)
                if not done:
                    self._redis_away(f"no answer in {self.hub.settings.lease_ttl:g} s")
                await beat
                if self.redis_away or time.monotonic() - last_answer > 2 * period:
                    # no word could come meanwhile (Redis away, or this process's beats
                    # did not run): the silence is not the gateways'
                    self.hear_from_every_gateway()
                if self.redis_away:
                    # Redis is back. Every process's key may have expired meanwhile (a
                    # Redis restart takes longer than the lease): the first process to
                    # beat took every room of the others, all alive. They renew within a
                    # beat: only a process still silent after a lease is dead.
                    self.redis_away = False
                    self.judge_after = time.monotonic() + self.hub.settings.lease_ttl
                    # from its last answer (not from the first beat that failed, which
                    # a hung Redis fails a socket timeout late)
                    log.info("Redis answers again (it did not for %.0f s%s)",
                             time.monotonic() - last_answer, self.hub.trouble.over_note())
                self.restore_if_data_lost(self.seen_mark)
                await self._drop_rooms_owned_elsewhere()
                self.lead()
                self.say_alive()
                # (every beat, judging or not: it judges no process dead, and after Redis
                # came back a lost matched waited a lease for the judging: a review)
                self._attach_tickets_again()
                if self.judging():
                    await self._take_over_dead()
                    self.drop_remotes_of_dead()
                    self.drop_silent_remotes()
                    self._check_proxies()
            except asyncio.CancelledError:
                raise
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                # Redis away: try again at the next beat (/healthz says so meanwhile)
                self._redis_away(exc)
            except Exception:  # noqa: BLE001
                log.exception("cluster heartbeat failed")

    def say_alive(self) -> None:
        """Tell each owner which of its players' sockets this process still has (one
        message per owner, every beat). A ``detach`` is published once, and pub/sub loses
        what Redis cannot take (a restart): a player who closed the page meanwhile stayed
        connected at the owner for ever, without grace or substitute (operator review)."""
        by_owner: dict[str, tuple[list[str], list[str]]] = {}
        for proxy in self.proxies.values():
            if proxy.owner is not None and proxy.owner != self.id:
                seats, tickets = by_owner.setdefault(proxy.owner, ([], []))
                (tickets if proxy.ticket is not None else seats).append(proxy.conn_id)
        for owner, (seats, tickets) in by_owner.items():
            self.post(owner, {"op": "alive", "from": self.id, "conns": seats,
                              "tickets": tickets})

    def _heard_alive(self, m: dict[str, Any]) -> None:
        now, gateway = time.monotonic(), m.get("from")
        for conn_id in m.get("tickets") or ():
            remote = self.remote.get(conn_id)
            if remote is not None and remote.gateway == gateway:
                remote.seen = now
        for conn_id in m.get("conns") or ():
            remote = self.remote.get(conn_id)
            if remote is not None and remote.gateway == gateway:
                remote.seen = now
                if remote.closed_with is not None:  # closed here (replaced, removed), its
                    self.close_remote(gateway, conn_id, *remote.closed_with)  # close lost
            elif remote is None and gateway:
                # a player's socket this process no longer seats (let go, its close to
                # the gateway lost): the gateway closes it and the player, reconnected,
                # is attached again, not left with a socket that gets nothing (diff
                # review); its attach comes before this word, in order, so a new one is
                # known here already
                self.close_remote(gateway, conn_id, 1012, "the room moved; reconnect")

    def hear_from_every_gateway(self) -> None:
        """Count the gateways' silence from now (after a time when no word could come)."""
        now = time.monotonic()
        for remote in self.remote.values():
            remote.seen = now

    #: beats of a gateway's silence about a socket before the owner takes it for closed
    SILENT_BEATS = 6

    def drop_silent_remotes(self) -> int:
        """Let go of the players whose gateway, alive, no longer names their socket (its
        ``detach`` was lost): as a socket's close would."""
        limit = time.monotonic() - self.SILENT_BEATS * self.hub.settings.lease_ttl / 3
        silent = [(cid, r) for cid, r in self.remote.items()
                  if r.gateway != self.id and r.seen < limit]
        for conn_id, remote in silent:
            self._let_go(conn_id, remote)
            # the socket may still be open there (its gateway missed saying so): closed,
            # its player reconnects and is attached again
            self.close_remote(remote.gateway, conn_id, 1012, "the room moved; reconnect")
        if silent:
            log.info("%d player(s) whose sockets their process no longer has (its word of "
                     "their close was lost) are away here", len(silent))
        return len(silent)

    def _let_go(self, conn_id: str, remote: RemoteConn) -> None:
        self.remote.pop(conn_id, None)
        remote.stop()
        if remote.where[:1] == ("seat",):
            _, code, seat = remote.where
            room = self.hub.rooms.get(code)
            if room is not None:
                self.hub.detach(room, seat, remote)
        elif remote.where[:1] == ("ticket",):
            self.hub.quick.detach(remote.where[1], remote)

    def _redis_away(self, why: object) -> None:
        self.redis_away = True
        self.hub.trouble.warning(log, "cluster heartbeat: Redis does not answer (%s)", why)

    # ------------------------------------------------------------------ ownership
    def owner(self, code: str) -> str | None:
        raw = self.r.get(self.key("owner", code))
        return raw.decode() if raw else None

    def acquire(self, code: str) -> int | None:
        """Own the room (it must be free or its owner dead); the epoch, or None."""
        epoch = self._acquire(keys=[self.key("owner", code), self.key("fence", code),
                                    self.key("owned", self.id)],
                              args=[self.id, self.key("proc", ""), self.key("owned", ""),
                                    code])
        if epoch is None:
            return None
        self.store.epochs[code] = int(epoch)
        return int(epoch)

    def claim_new(self, code: str) -> bool:
        """A fresh room code: reserved once in the whole site, and owned by us. A stored
        room whose code has no reservation (copied in by ``colorclash copy-store``, or
        stored by a process on its own) keeps its code: a new room took it over before."""
        if not self.r.set(self.key("code", code), self.id, nx=True):
            return False
        if self.r.exists(self.key("room", code)):
            return False  # (the code stays reserved: for the room that has it)
        if self.acquire(code) is None:
            # a live process still owns the code (a room of it deleted under it): the new
            # room's writes would go unfenced beside it (a review); another code is drawn
            self.r.delete(self.key("code", code))
            return False
        return True

    def forget(self, code: str) -> None:
        """The room is dropped (swept or lost): no longer ours."""
        self.store.epochs.pop(code, None)
        self._release(keys=[self.key("owner", code), self.key("owned", self.id)],
                      args=[self.id, code])

    def note_closed(self, code: str, ttl: float) -> None:
        """Every process says the room ``code`` was closed, for ``ttl`` seconds."""
        self.r.set(self.key("closed", code), "1", px=int(ttl * 1000))

    def was_closed(self, code: str) -> bool:
        return bool(self.r.exists(self.key("closed", code)))

    def retire(self, code: str) -> None:
        """The room is deleted for good: no longer ours, and its code is free again (as
        on SQLite). The code's reservation used to stay in Redis forever, one key for
        every room the site ever made (Practice tables included)."""
        self.forget(code)
        self.r.delete(self.key("code", code))

    def take(self, code: str) -> Any:
        """Own ``code`` now and load it (None if it does not exist or a live process has
        it)."""
        if code in self.hub.rooms:
            return self.hub.rooms[code]
        if code in self.hub.closing:  # its last person left: deleted once written
            return None
        try:
            if self.store.load_room(code) is None:
                return None
        except StoreError as exc:  # damaged: no process can run it (said once)
            if code not in self._damaged_said:
                self._damaged_said.add(code)
                log.error("room %s cannot be taken: %s", code, exc)
            return None
        if self.acquire(code) is None:
            return None
        room = self.hub.load_room(code)
        if room is None:
            self.forget(code)
            return None
        log.info("process %s took room %s", self.id, code)
        for proxy in list(self.proxies.values()):  # our own proxied players: now local
            if proxy.code == code and proxy.seat is not None:
                self.proxies.pop(proxy.conn_id, None)
                if self.hub.holds_seat(room, proxy.seat, proxy.token_hash):
                    self.hub.attach(room, proxy.seat, proxy.conn)
                    self._not_delivered(proxy)  # (sent to the owner that died)
                else:
                    proxy.conn.close(4401, "this token holds no seat in this room")
        self.hub.clocks.schedule(room)
        return room

    async def _drop_rooms_owned_elsewhere(self) -> None:
        """Rooms held here that Redis names another owner for: this process was stalled
        longer than the lease (a paused VM, a swap storm) and another took them. They are
        dropped here as a refused write would drop them ("lost room"): before, only a
        room written to again was, and the others stayed, shown over REST as they were,
        their players never told, and deleted from Redis at the next sweep."""
        codes = list(self.hub.rooms)
        if not codes:
            return
        owners = await asyncio.to_thread(
            self.r.mget, [self.key("owner", code) for code in codes])
        for code, raw in zip(codes, owners, strict=True):
            if raw is not None and raw.decode() != self.id and code in self.hub.rooms:
                self.lost(code)

    #: rooms a process takes over from dead ones at one beat (each is replayed on the
    #: event loop): 3,000 rooms taken at once froze the survivors for 3.4 s, past the
    #: lease, and each then took the other for dead. A few hundred a beat keep the beats
    #: on time, and the rooms of a dead process spread over the survivors, beat by beat;
    #: the loop is given back after each room, so that the survivor's own rooms wait for
    #: one room's taking at most (they waited for the beat's 200, a few hundred ms).
    TAKE_PER_BEAT = 200

    def drop_remotes_of_dead(self) -> int:
        """Let go of the players connected through a process that died: their stand-ins
        here were dropped only by its ``detach``, which a killed process never sends, so
        they stayed connected for ever (no grace, no substitute; a room of computers
        played on with nobody watching; a Quick Match ticket was seated with strangers).
        As a socket's close would: the seat goes away, the ticket is given up."""
        gateways = {r.gateway for r in self.remote.values()}
        dead = {g for g in gateways if g != self.id and not self.alive(g)}
        if not dead:
            return 0
        gone = [(cid, r) for cid, r in self.remote.items() if r.gateway in dead]
        for conn_id, remote in gone:
            self._let_go(conn_id, remote)
        # (each process says its own players; "is gone" is the line said once for the site)
        log.info("%d player(s) connected through process %s, no longer running, are away "
                 "here", len(gone), ", ".join(sorted(dead)))
        return len(gone)

    async def _take_over_dead(self) -> None:
        budget = self.TAKE_PER_BEAT
        for raw in self.r.smembers(self.key("procs")):
            pid = raw.decode()
            if pid == self.id or self.alive(pid):
                continue
            codes = [c.decode() for c in self.r.srandmember(self.key("owned", pid), budget)]
            if codes and pid not in self.dead_seen:
                # once per dead process, for the whole site (the first survivor to see it
                # says it): which one, and how many rooms it left (the "took room" lines
                # alone did not say whose rooms, nor why; each survivor said it, each
                # with the rooms still left then: an alert fired once per survivor, and
                # the counts added up to more rooms than the process had). A process
                # stopped cleanly (SIGTERM) is said so, not as a crash.
                self.dead_seen.add(pid)
                left = self.r.scard(self.key("owned", pid))
                first = self.r.set(self.key("gone", pid), self.id, nx=True, ex=600)
                if not first:
                    log.debug("process %s also takes rooms of process %s", self.id, pid)
                elif self.r.exists(self.key("stopped", pid)):
                    log.info("process %s stopped: process %s and the others take its %d "
                             "room(s), %d a beat each", pid, self.id, left,
                             self.TAKE_PER_BEAT)
                else:
                    log.warning("process %s is gone (its lease ran out): process %s and the "
                                "others take its %d room(s), %d a beat each", pid, self.id,
                                left, self.TAKE_PER_BEAT)
            for code in codes:
                try:
                    self.take(code)
                except Exception:  # noqa: BLE001 - one room must not stop the others
                    log.exception("could not take room %s over from %s", code, pid)
                await asyncio.sleep(0)
            budget -= len(codes)
            if not self.r.scard(self.key("owned", pid)):
                self.r.srem(self.key("procs"), pid)
                # (the "gone" claim is left to expire: a survivor that read the list of
                # rooms before this delete would claim it afresh, "its 0 room(s)")
                self.r.delete(self.key("owned", pid), self.key("stopped", pid))
            if budget <= 0:
                return  # the rest at the next beats (this process's or another's)

    def lost(self, code: str) -> bool:
        """A write of ours was refused (fenced). True: another process owns the room now,
        and it is dropped here. False: Redis lost the room with all its data; the room is
        kept, and stored again from memory when its writes have been answered (its
        rebuild: ``Table.restore``). (Such a room was dropped, its players told the room
        moved and then that it did not exist, and the log blamed another process.)"""
        if self.lost_by_redis(code):
            return False
        room = self.hub.rooms.pop(code, None)
        self.store.epochs.pop(code, None)
        if self.hub.writer is not None:  # its queued writes are the old owner's: refused;
            self.hub.writer.forget_failure(code)  # a later taking of it writes afresh
        if room is None:  # (dropped at an earlier refusal: lost all the same)
            return True
        log.warning("process %s lost room %s to another process", self.id, code)
        if room.timer:
            room.timer.cancel()
        for conn in list(room.conns.values()):
            conn.close(1012, "the room moved; reconnect")
        self.forget_remotes("seat", code)
        return True

    def forget_remotes(self, *where: Any) -> None:
        """Let go of the other processes' sockets held here for ``where`` (``("seat",
        code)``, ``("ticket", ticket)``): a room lost, a queue given up. (They stayed, and
        six beats later the log said their processes no longer had them.)"""
        for conn_id in [c for c, r in self.remote.items() if r.where[:len(where)] == where]:
            self.remote.pop(conn_id).stop()

    # ------------------------------------------------------------------ Redis lost its data
    def _adopt_mark(self) -> None:
        """The mark of Redis's data: set once by the first process (after a start, or
        after Redis lost its data), read by every process."""
        self.r.set(self.key("mark"), secrets.token_hex(8), nx=True)
        raw = self.r.get(self.key("mark"))
        self.mark = raw.decode() if raw else None

    def restore_if_data_lost(self, seen: Any = ..., keep: str | None = None) -> None:
        """If Redis no longer holds the mark this process read (restarted without its
        data, or flushed), every room held here is to be stored again from memory: at
        once if no write of it is on the way (but ``keep``, whose refused write is being
        answered), else at its rebuild, once its writes (all refused) are answered.
        ``seen``: the mark as the beat read it (else read now)."""
        if seen is ... or seen != self.mark:
            raw = self.r.get(self.key("mark"))  # (the beat's read may predate ours)
            seen = raw.decode() if raw else None
        if seen == self.mark:
            return
        # Our own key first: Redis lost it too, and until our next beat another process
        # would take the rooms we store again for a dead process's (it did, in a test, and
        # our writes were fenced off). And no process is taken for dead for a lease: each
        # stores its rooms again meanwhile, its key renewed first.
        self.beat()
        self.judge_after = time.monotonic() + self.hub.settings.lease_ttl
        self._adopt_mark()
        codes = sorted(self.hub.rooms)
        log.error("Redis lost its data (restarted without persistence, or flushed): the %d "
                  "room(s) this process holds are stored again from memory; rooms of "
                  "processes that were not running are lost", len(codes))
        self.awaiting_restore.update(codes)
        for code in codes:
            room = self.hub.rooms.get(code)
            if room is None or code == keep:
                continue
            if room.unacked == 0 and not room.broken and (
                    room.last_write is None or room.last_write.done()):
                self.hub.table.restore(room)

    def lost_by_redis(self, code: str) -> bool:
        """Whether the room ``code`` (held here, missing from Redis) is one Redis lost
        with its data, to be stored again from memory."""
        self.restore_if_data_lost(keep=code)
        return code in self.awaiting_restore

    def store_again(self, room: Any) -> bool:
        """Store the room as this process holds it, after Redis lost it: its code, its
        ownership (a new epoch), its document, the whole log of its match and its records.
        False if its code went to another room meanwhile."""
        code = room.code
        if not self.r.set(self.key("code", code), self.id, nx=True):
            raw = self.r.get(self.key("code", code))
            if raw is None or raw.decode() != self.id:
                return False
        if self.acquire(code) is None:
            return False
        game = room.game
        actions = ([(i, seat, action) for i, (seat, action) in enumerate(game.log)]
                   if game is not None else None)
        room.unsaved_records = []
        self.store.save_room(code, room.to_data(), room.match_no if game is not None else None,
                             actions, list(room.history), new_match=game is not None)
        return True

    # ------------------------------------------------------------------ where a room is
    async def locate(self, code: str) -> tuple[Any, str | None]:
        """(local room, None) or (None, owner id); room_not_found if nowhere."""
        room = self.hub.rooms.get(code)
        if room is not None:
            return room, None
        owner = self.owner(code)
        if owner is not None and owner != self.id and (not self.judging() or self.alive(owner)):
            # (while no process is judged dead, its owner is taken at its word: a player
            # who came back through this process just after a Redis restart, before the
            # owner's next beat renewed its key, had the room taken from a live owner,
            # which showed its other players the table as it was until its own next
            # beat: operator review)
            return None, owner
        room = self.take(code)
        if room is not None:
            return room, None
        owner = self.owner(code)
        if owner is not None and owner != self.id and self.alive(owner):
            return None, owner
        raise self.hub.room_not_found(code)

    # ------------------------------------------------------------------ messages
    def post(self, pid: str, msg: dict[str, Any]) -> None:
        if self._outbox is not None:
            self._outbox.put_nowait((self.key("to", pid), json.dumps(msg)))

    def post_text(self, pid: str, conn_id: str, text: str) -> None:
        """A message for a player connected to process ``pid``, already encoded: sent as
        ``S`` + the connection's id + the text, not wrapped in JSON (the states of every
        proxied player go this way; escaping and parsing them again cost more than the
        rest of the hop)."""
        if self._outbox is not None:
            self._outbox.put_nowait((self.key("to", pid), SEND_MARK + conn_id + text))

    async def _send_loop(self) -> None:
        assert self._outbox is not None
        while True:
            channel, text = await self._outbox.get()
            batch = [(channel, text)]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            try:
                pipe = self._aredis.pipeline(transaction=False)
                for ch, tx in batch:
                    pipe.publish(ch, tx)
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                # Redis away (a restart): one line, not a traceback; pub/sub is at most
                # once and states are complete, so the players' next state mends it
                self.hub.trouble.warning(
                    log, "publishing %d messages failed: Redis does not answer (%s)",
                    len(batch), exc)
                self._actions_not_delivered(batch)
            except Exception:  # noqa: BLE001 - pub/sub is at most once; states are complete
                log.exception("publishing %d messages failed", len(batch))
                self._actions_not_delivered(batch)

    def _actions_not_delivered(self, batch: list[tuple[str, str]]) -> None:
        """Our players whose actions were in a batch Redis did not take: told at once (an
        action lost so said nothing at all until Redis came back, and then a state without
        it; attacker/operator QA)."""
        for _channel, text in batch:
            if not text.startswith("{"):
                continue
            m = json.loads(text)
            if m.get("op") == "msg" and m.get("from") == self.id:
                proxy = self.proxies.get(m.get("conn"))
                if proxy is not None:
                    self._not_delivered(proxy)

    @staticmethod
    def _not_delivered(proxy: Proxy) -> None:
        """Tell a proxied player that their last action may not have reached the table."""
        if proxy.unanswered:
            proxy.unanswered = False
            proxy.conn.send(ProtocolError(
                "internal", "your action may not have reached the table (the server "
                "holding it did not answer): look at the table, and play again if it is "
                "still your turn", ref="action", reason="not_delivered").to_message())

    async def _listen(self, ready: asyncio.Event) -> None:
        channel = self.key("to", self.id)
        while True:
            pubsub = self._aredis.pubsub()
            try:
                await pubsub.subscribe(channel)
                if ready.is_set():
                    # Subscribed again (Redis restarted): what the owners sent our
                    # players meanwhile is lost, and so may be what we sent them (their
                    # subscriptions dropped too): every proxied player is attached again
                    # (a welcome and a complete state) by the next beats.
                    for proxy in self.proxies.values():
                        proxy.confirmed = False
                ready.set()
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True,
                                                   timeout=1.0)
                    if msg is None:
                        continue
                    try:
                        data = msg["data"]
                        if data[:1] == SEND_MARK_BYTES:
                            self._deliver(data)
                        else:
                            self._dispatch(json.loads(data))
                    except Exception:  # noqa: BLE001
                        log.exception("cluster message failed")
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception:  # noqa: BLE001 - Redis restarted: subscribe again
                self.hub.trouble.warning(log, "cluster subscription lost; subscribing again")
                try:
                    await pubsub.aclose()
                except Exception:  # noqa: BLE001
                    pass
                await asyncio.sleep(0.5)

    def _deliver(self, data: bytes) -> None:
        """``post_text``'s message: to the player's socket here."""
        proxy = self.proxies.get(data[1:1 + CONN_ID_LEN].decode())
        if proxy is not None:
            proxy.confirmed = True
            proxy.unanswered = False
            proxy.conn.send_text(data[1 + CONN_ID_LEN:].decode())

    def _dispatch(self, m: dict[str, Any]) -> None:
        op = m.get("op")
        if op == "close":
            proxy = self.proxies.get(m["conn"])
            if proxy is not None and m.get("from") not in (None, proxy.owner):
                # a former owner's word, late: one woken from a pause past its lease lets
                # go of its rooms and closes their players, this one among them, already
                # attached to the room's new owner (operator QA)
                return
            self.proxies.pop(m["conn"], None)
            if proxy is not None:
                if m["code"] == 1012:  # the room moved: what was on its way to it is lost
                    self._not_delivered(proxy)
                proxy.conn.close(m["code"], m.get("reason", ""))
        elif op == "reply":
            future = self.calls.pop(m["id"], None)
            if future is not None and not future.done():
                future.set_result(m)
        elif op == "call":
            asyncio.get_running_loop().create_task(self._serve_call(m))
        elif op in ("attach", "msg", "detach"):
            self._seat_message(m)
        elif op == "alive":
            self._heard_alive(m)
        elif op in ("qm_attach", "qm_detach", "qm_msg"):
            self._queue_message(m)

    # -- remote calls (REST about a room elsewhere) --
    async def call(self, pid: str, op: str, code: str | None, *args: Any,
                   timeout: float = 5.0) -> Any:
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.calls[call_id] = future
        self.post(pid, {"op": "call", "id": call_id, "from": self.id, "method": op,
                        "code": code, "args": list(args)})
        try:
            reply = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.calls.pop(call_id, None)
            holder = ("runs the Quick Match queue" if op.startswith("qm_")
                      else "holds this room")
            raise Unanswered(f"the process that {holder} did not answer; try again") from None
        if not reply["ok"]:
            e = reply["error"]
            raise ProtocolError(e["code"], e["message"], status=e.get("status", 400),
                                retry_after=e.get("retry_after"))
        return reply["value"]

    async def _serve_call(self, m: dict[str, Any]) -> None:
        try:
            value = await self.hub.local_op(m["method"], m.get("code"), *m.get("args", []))
            reply = {"op": "reply", "id": m["id"], "ok": True, "value": value}
        except ProtocolError as exc:
            reply = {"op": "reply", "id": m["id"], "ok": False,
                     "error": {"code": exc.code, "message": exc.message, "status": exc.status,
                               "retry_after": exc.retry_after}}
        except Exception as exc:  # noqa: BLE001
            log.exception("remote call %s failed", m.get("method"))
            reply = {"op": "reply", "id": m["id"], "ok": False,
                     "error": {"code": "internal", "message": type(exc).__name__,
                               "status": 500}}
        self.post(m["from"], reply)

    # -- players whose room is elsewhere --
    def open_proxy(self, code: str, seat: int, conn: Any, owner: str,
                   token_hash: str | None = None) -> Proxy:
        proxy = Proxy(secrets.token_hex(CONN_ID_LEN // 2), code, seat, conn)
        proxy.owner = owner
        proxy.token_hash = token_hash
        self.proxies[proxy.conn_id] = proxy
        # The owner checks the token again against the live seat: this process checked it
        # against the stored room, which a leave an instant earlier may have changed.
        self.post(owner, {"op": "attach", "code": code, "seat": seat, "conn": proxy.conn_id,
                          "from": self.id, "token_hash": token_hash})
        return proxy

    def close_remote(self, gateway: str, conn_id: str, code: int, reason: str) -> None:
        """Tell a player's process to close the player's socket. The close names this
        process: the gateway obeys only the owner it attached the player to (``_dispatch``;
        a former owner's late word is ignored)."""
        self.post(gateway, {"op": "close", "conn": conn_id, "code": code, "reason": reason,
                            "from": self.id})

    def forward(self, proxy: Proxy, data: dict[str, Any]) -> None:
        """A validated client message of a proxied player, to where the room is."""
        room = self.hub.rooms.get(proxy.code)
        if room is not None:  # the room came here meanwhile
            from colorclash.server.protocol import parse_forwarded_message

            if proxy.seat is None or room.conns.get(proxy.seat) is not proxy.conn:
                # Not attached here (take() attaches a proxy whose token still holds its
                # seat): acting for the seat unchecked would let a socket act for whoever
                # holds it now. Reconnected, its token is checked again.
                proxy.conn.close(1012, "the room moved; reconnect")
                return
            self.hub.handle(room, proxy.seat, parse_forwarded_message(data))
            return
        if proxy.owner is not None:
            if data.get("type") == "action":
                proxy.unanswered = True
            self.post(proxy.owner, {"op": "msg", "code": proxy.code, "seat": proxy.seat,
                                    "conn": proxy.conn_id, "data": data, "from": self.id})

    def close_proxy(self, proxy: Proxy) -> None:
        self.proxies.pop(proxy.conn_id, None)
        room = self.hub.rooms.get(proxy.code)
        if room is not None and proxy.seat is not None:
            self.hub.detach(room, proxy.seat, proxy.conn)
        elif proxy.owner is not None:
            self.post(proxy.owner, {"op": "detach", "code": proxy.code, "seat": proxy.seat,
                                    "conn": proxy.conn_id})

    def _seat_message(self, m: dict[str, Any]) -> None:
        from colorclash.server.protocol import parse_forwarded_message

        op, code, seat, conn_id = m["op"], m["code"], m.get("seat"), m["conn"]
        room = self.hub.rooms.get(code)
        if op == "attach":
            if room is None:  # not ours (any more): the gateway will look again
                self.close_remote(m["from"], conn_id, 1012, "the room moved; reconnect")
                return
            if not self.hub.holds_seat(room, seat, m.get("token_hash")):
                self.close_remote(m["from"], conn_id, 4401,
                                  "this token holds no seat in this room")
                return
            old = self.remote.get(conn_id)
            if old is not None and room.conns.get(seat) is old:
                old.stop()  # the same player attached again (Proxy.confirmed): no "replaced"
            remote = RemoteConn(self, m["from"], conn_id, ("seat", code, seat))
            self.remote[conn_id] = remote
            self.hub.attach(room, seat, remote)
        elif op == "detach":
            remote = self.remote.pop(conn_id, None)
            if room is not None and remote is not None:
                self.hub.detach(room, seat, remote)
        elif op == "msg":
            remote = self.remote.get(conn_id)
            if room is None or remote is None:
                # Not ours (any more: it was handed over as we stopped), or the player's
                # attach never came: the gateway is told to reconnect the player, who
                # finds the room where it is now (the message was dropped in silence,
                # an action with it, and the player waited for an answer)
                self.close_remote(m["from"], conn_id, 1012, "the room moved; reconnect")
                return
            if room.conns.get(seat) is not remote:  # a socket replaced since (closed 4409)
                return
            try:
                self.hub.handle(room, seat, parse_forwarded_message(m["data"]))
            except ProtocolError as exc:
                self.hub.answer(room, remote, exc.to_message())
            except Exception:  # noqa: BLE001
                log.exception("proxied message failed in room %s", code)
                remote.send(ProtocolError("internal", "the server failed on this message; "
                                          "nothing changed").to_message())

    def _check_proxies(self) -> None:
        """Players proxied to an owner that died or moved, or that has not answered
        their attach (``Proxy.confirmed``): attach them again.

        Runs every beat on the event loop, so it asks Redis in two round trips whatever the
        number of proxies (the owners of their rooms in one MGET, then which of those few
        processes live); one round trip per proxy stalled every room of a process with a
        thousand proxied players for a hundred milliseconds and more, every second."""
        self._close_queues_of_a_dead_leader()
        proxies = [p for p in self.proxies.values()
                   if p.ticket is None and p.code not in self.hub.rooms]
        if not proxies:
            return
        period = self.hub.settings.lease_ttl / 3
        codes = sorted({p.code for p in proxies})
        owners = {code: raw.decode() if raw else None for code, raw in zip(
            codes, self.r.mget([self.key("owner", c) for c in codes]), strict=True)}
        pids = sorted({o for o in owners.values() if o is not None and o != self.id})
        pipe = self.r.pipeline(transaction=False)
        for pid in pids:
            pipe.exists(self.key("proc", pid))
        living = {self.id} | {pid for pid, n in zip(pids, pipe.execute(), strict=True) if n}
        for proxy in proxies:
            if proxy.code in self.hub.rooms:  # taken over by this process meanwhile
                continue
            owner = owners[proxy.code]
            if owner == proxy.owner and owner is not None and owner in living and (
                    proxy.confirmed or time.monotonic() - proxy.attached_at < period):
                continue
            if owner not in living:  # none, or dead
                if self.take(proxy.code) is not None:
                    continue  # take() attached our proxies locally
                owner = self.owner(proxy.code)
                if owner is not None and not self.alive(owner):
                    continue
            if owner is not None and owner != self.id:
                self._not_delivered(proxy)  # to an owner that died, moved or did not answer
                proxy.owner = owner
                proxy.confirmed = False
                proxy.attached_at = time.monotonic()
                self.post(owner, {"op": "attach", "code": proxy.code, "seat": proxy.seat,
                                  "conn": proxy.conn_id, "from": self.id,
                                  "token_hash": proxy.token_hash})

    def _attach_tickets_again(self) -> None:
        """People waiting in Quick Match through this process whose leader has not
        answered their attach (``Proxy.confirmed``: nothing came back since, as after a
        Redis restart) are attached again: pub/sub loses what is published while a
        process is not subscribed, and a ``matched`` lost so left a person waiting for ever
        while their table was dealt to seats nobody opened (a Quick Match review). The
        leader answers with the ticket as it is: matched, the queue's count, or
        ``ticket_not_found``."""
        now = time.monotonic()
        period = self.hub.settings.lease_ttl / 3
        for proxy in self.proxies.values():
            if (proxy.ticket is not None and not proxy.confirmed
                    and proxy.owner not in (None, self.id)
                    and now - proxy.attached_at >= period):
                proxy.attached_at = now
                self.post(proxy.owner, {"op": "qm_attach", "ticket": proxy.ticket,
                                        "conn": proxy.conn_id, "from": self.id})

    def _close_queues_of_a_dead_leader(self) -> None:
        """People waiting in Quick Match through this process, whose queue lived on a
        leader that died: their tickets died with it. Their sockets are closed with
        ``ticket_not_found`` so that the page says to queue again (they stayed open on a
        queue that no longer existed, and its people were never matched)."""
        queued = [p for p in self.proxies.values()
                  if p.ticket is not None and p.owner not in (None, self.id)]
        if not queued:
            return
        leaders = sorted({p.owner for p in queued})
        pipe = self.r.pipeline(transaction=False)
        for pid in leaders:
            pipe.exists(self.key("proc", pid))
        living = {pid for pid, n in zip(leaders, pipe.execute(), strict=True) if n}
        gone = [p for p in queued if p.owner not in living]
        if gone:
            log.warning("the Quick Match leader %s is gone: %d waiting through this process "
                        "are told to queue again", ", ".join(sorted({p.owner for p in gone})),
                        len(gone))
        for proxy in gone:
            self.proxies.pop(proxy.conn_id, None)
            queue_again(proxy.conn)
            # (and the ticket is left, should the leader only have stalled: it kept it and
            # seated it later, its person told to queue again: a Quick Match review)
            self.post(proxy.owner, {"op": "qm_msg", "ticket": proxy.ticket,
                                    "conn": proxy.conn_id, "data": {"type": "leave"},
                                    "from": self.id})

    # -- the Quick Match queue lives on the leader --
    def leader_id(self) -> str | None:
        raw = self.r.get(self.key("qm", "leader"))
        return raw.decode() if raw else None

    @staticmethod
    def redis_error(exc: BaseException) -> bool:
        """Whether ``exc`` is Redis away (or this process's fail-fast while it is)."""
        return isinstance(exc, (redis.ConnectionError, redis.TimeoutError))

    def lead(self) -> bool:
        """Take or renew the Quick Match leadership (whether this process holds it). The
        queue of a term that is over (another process has led since) is given up: a
        leader that stalled past the lease, while another took the lead, seated its stale
        queue at a table on waking (a scale-out review)."""
        term = self._leader(keys=[self.key("qm", "leader"), self.key("qm", "term")],
                            args=[self.id, self.ttl_ms, self.leader_term,
                                  f"{self.id}:{secrets.token_hex(8)}"])
        if term != self.leader_term:
            if self.leader_term:
                self.hub.quick.give_up_queue()
            self.leader_term = term
        self.leader = bool(term)
        return self.leader

    async def queue_op(self, op: str, *args: Any) -> Any:
        """``op`` of the Quick Match queue, on the process that leads it. A leader that
        does not answer is asked no more once its lease has run out (it died: by the
        call's timeout the lease is over), and whoever leads now is asked instead (this
        process, if none: a person queueing as the queue's process died was told "try
        again", a CI run behind nginx)."""
        asked, unanswered = None, None
        while True:
            leader = self.leader_id()
            if leader is None:
                leader = self.id if self.lead() else self.leader_id()
            if leader == self.id or leader is None:
                return await self.hub.local_op(op, None, *args)
            if leader == asked:
                raise unanswered
            try:
                return await self.call(leader, op, None, *args)
            except Unanswered as exc:
                asked, unanswered = leader, exc

    def open_queue_proxy(self, ticket: str, conn: Any, leader: str) -> Proxy:
        proxy = Proxy(secrets.token_hex(CONN_ID_LEN // 2), "", None, conn, ticket=ticket)
        proxy.owner = leader
        self.proxies[proxy.conn_id] = proxy
        self.post(leader, {"op": "qm_attach", "ticket": ticket, "conn": proxy.conn_id,
                           "from": self.id})
        return proxy

    def queue_forward(self, proxy: Proxy, data: dict[str, Any]) -> None:
        self.post(proxy.owner, {"op": "qm_msg", "ticket": proxy.ticket, "conn": proxy.conn_id,
                                "data": data, "from": self.id})

    def close_queue_proxy(self, proxy: Proxy) -> None:
        self.proxies.pop(proxy.conn_id, None)
        self.post(proxy.owner, {"op": "qm_detach", "ticket": proxy.ticket,
                                "conn": proxy.conn_id})

    def _queue_message(self, m: dict[str, Any]) -> None:
        quick = self.hub.quick
        conn_id, ticket = m["conn"], m["ticket"]
        try:
            if m["op"] == "qm_attach":
                old = self.remote.get(conn_id)
                remote = RemoteConn(self, m["from"], conn_id, ("ticket", ticket))
                self.remote[conn_id] = remote
                if old is not None:  # the same socket attached again (its answer was lost)
                    old.stop()
                    quick.attach_again(ticket, old, remote)
                else:
                    quick.attach(ticket, remote)
            elif m["op"] == "qm_detach":
                remote = self.remote.pop(conn_id, None)
                if remote is not None:
                    quick.detach(ticket, remote)
            elif m["op"] == "qm_msg" and m["data"].get("type") == "leave":
                remote = self.remote.get(conn_id)
                quick.leave(ticket, keep=remote)
                if remote is not None:
                    remote.close(1000, "left the queue")
        except ProtocolError as exc:
            remote = self.remote.pop(conn_id, None) or RemoteConn(self, m["from"], conn_id)
            remote.send(exc.to_message())
            remote.close(4404, exc.code)


__all__ = ["Cluster", "Proxy", "RemoteConn"]
