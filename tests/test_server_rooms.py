"""Room and seat management in the hub, without sockets."""

from __future__ import annotations

import pytest

from colorclash.server.config import Settings
from colorclash.server.names import CODE_ALPHABET, hash_token
from colorclash.server.protocol import ProtocolError
from colorclash.server.rooms import Hub
from colorclash.store.sqlite import SQLiteStore


@pytest.fixture
def hub(tmp_path):
    store = SQLiteStore(tmp_path / "h.sqlite3")
    h = Hub(store, Settings(host_keys=["operator-key"], bot_delay=0))
    yield h
    for room in h.rooms.values():
        if room.timer:
            room.timer.cancel()
    store.close()


def code(exc_info) -> str:
    return exc_info.value.code


def test_codes_are_unambiguous_and_unique(hub):
    codes = {hub.create_private("Ana")[0].code for _ in range(200)}
    assert len(codes) == 200
    for c in codes:
        assert len(c) == 6 and set(c) <= set(CODE_ALPHABET)
        assert not set(c) & set("ILO01")


def test_guest_hosts_are_limited_to_four_seats(hub):
    with pytest.raises(ProtocolError) as e:
        hub.create_private("Ana", seats=5)
    assert code(e) == "guest_limit"
    room, _, _ = hub.create_private("Ana", seats=6, host_key="operator-key")
    assert len(room.seats) == 6
    with pytest.raises(ProtocolError) as e:
        hub.create_private("Ana", seats=5, host_key="wrong")
    assert code(e) == "guest_limit"


def test_tokens_are_stored_hashed_and_seats_found_by_token(hub):
    room, seat, token = hub.create_private("Ana")
    data = hub.store.load_room(room.code)
    assert token not in repr(data)
    assert data["seats"][0]["token_hash"] == hash_token(token)
    assert room.seat_of_token(token) == 0
    assert room.seat_of_token("nope") is None
    assert "token" not in repr(hub.room_public(room))


def test_host_commands_and_lobby_rules(hub):
    room, _, _ = hub.create_private("Ana", preset="standard", seats=3)
    _, bo, _ = hub.join(room.code, "Bo")
    with pytest.raises(ProtocolError) as e:
        hub.add_bot(room, bo, 2, "easy")
    assert code(e) == "not_host"
    with pytest.raises(ProtocolError) as e:
        hub.add_bot(room, 0, 1, "easy")
    assert code(e) == "seat_taken"
    with pytest.raises(ProtocolError) as e:
        hub.add_bot(room, 0, 2, "genius")
    assert code(e) == "bad_settings"
    hub.add_bot(room, 0, 2, "easy")
    with pytest.raises(ProtocolError) as e:
        hub.remove_bot(room, 0, 1)
    assert code(e) == "bad_seat"
    with pytest.raises(ProtocolError) as e:
        hub.change_settings(room, 0, {"seats": 2})
    assert code(e) == "bad_settings"  # seat 2 is occupied: said so (the page's words)
    assert (e.value.reason, e.value.ref) == ("seats_taken", "settings")
    with pytest.raises(ProtocolError) as e:
        hub.change_settings(room, 0, {"clock": 15})
    assert code(e) == "bad_settings"  # 15 s is a table clock, not a standard one
    hub.change_settings(room, 0, {"preset": "classic-table", "clock": 15})
    assert room.settings == {"game": "color-clash", "preset": "classic-table", "seats": 3,
                             "clock": 15, "match": "1"}
    with pytest.raises(ProtocolError) as e:
        hub.join(room.code, "Cy")
    assert code(e) == "room_full"


@pytest.mark.asyncio
async def test_the_host_frees_the_seats_of_people_who_never_came(hub):
    """Anyone who knew a room's code could fill its lobby with seats nobody would ever
    open; the host could neither start nor shrink the room."""
    room, _, _ = hub.create_private("Ana", seats=4)
    seats = [hub.join(room.code, "Player")[1] for _ in range(3)]
    with pytest.raises(ProtocolError) as e:
        hub.start(room, 0)
    assert code(e) == "not_ready"
    for who, target, expected in ((seats[0], seats[1], "not_host"), (0, 0, "bad_seat")):
        with pytest.raises(ProtocolError) as e:
            hub.remove_player(room, who, target)
        assert code(e) == expected
    for target in seats:
        hub.remove_player(room, 0, target)
    assert [s.kind for s in room.seats] == ["human", "empty", "empty", "empty"]
    hub.add_bot(room, 0, 1, "easy")
    with pytest.raises(ProtocolError) as e:
        hub.remove_player(room, 0, 1)  # a computer player goes with remove_bot
    assert code(e) == "bad_seat"
    _, again, token = hub.join(room.code, "Bo")  # someone removed may come back by the link
    assert room.seat_of_token(token) == again
    hub.change_settings(room, 0, {"seats": 3})
    hub.remove_player(room, 0, again)
    assert room.seat_of_token(token) is None  # the token stops working
    hub.change_settings(room, 0, {"seats": 2})
    hub.start(room, 0)
    with pytest.raises(ProtocolError) as e:
        hub.remove_player(room, 0, 1)
    assert code(e) == "not_in_lobby"


@pytest.mark.asyncio
async def test_start_deals_publishes_commitment_and_hides_seed(hub):
    room, _, _ = hub.create_private("Ana", preset="classic-table", seats=2)
    hub.add_bot(room, 0, 1, "easy")
    hub.start(room, 0)
    pub = hub.room_public(room)
    assert pub["status"] == "playing" and pub["seed"] is None
    assert pub["commitment"] == room.game.commitment() and len(pub["commitment"]) == 64
    assert room.seed not in repr(pub)
    with pytest.raises(ProtocolError) as e:
        hub.add_bot(room, 0, 1, "easy")
    assert code(e) == "not_in_lobby"


@pytest.mark.asyncio
async def test_load_all_rebuilds_the_same_game(tmp_path):
    path = tmp_path / "r.sqlite3"
    store = SQLiteStore(path)
    hub = Hub(store, Settings(bot_delay=0))
    room, _, token = hub.create_practice("Ana", 2, "easy", "standard")
    seat = room.game.to_act[0]
    if seat == 0:
        hub.human_action(room, 0, room.game.legal_actions(0)[0])
    views = [room.game.view(s) for s in range(3)]
    clock = dict(room.clock)
    if room.timer:
        room.timer.cancel()
    store.close()
    store = SQLiteStore(path)
    again = Hub(store, Settings(bot_delay=0))
    assert again.load_all() == 1
    r2 = again.rooms[room.code]
    assert [r2.game.view(s) for s in range(3)] == views
    assert r2.clock["deadline"] == clock["deadline"]
    assert r2.seat_of_token(token) == 0
    store.close()


@pytest.mark.asyncio
async def test_a_failed_store_write_rolls_the_action_back(hub, monkeypatch):
    room, _, _ = hub.create_private("Ana", preset="classic-table", seats=2)
    hub.add_bot(room, 0, 1, "easy")
    hub.start(room, 0)
    seat = room.game.to_act[0]
    action = room.game.legal_actions(seat)[0]
    view = room.game.view(seat)
    clock = dict(room.clock)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(hub.store, "save_room", broken)
    with pytest.raises(ProtocolError) as e:
        hub.apply(room, seat, action)
    assert code(e) == "internal"
    assert room.game.view(seat) == view and room.clock == clock
    assert room.seq == 0
    monkeypatch.undo()
    hub.apply(room, seat, action)
    assert room.seq == 1 and hub.store.load_actions(room.code, 1) == [(seat, action)]


def test_settings_from_environment(monkeypatch):
    monkeypatch.setenv("COLORCLASH_RECONNECT_GRACE", "12.5")
    monkeypatch.setenv("COLORCLASH_MAX_FRAME", "1024")
    monkeypatch.setenv("COLORCLASH_HOST_KEYS", "a, b,,")
    monkeypatch.setenv("COLORCLASH_PUBLIC_URL", "https://cards.example.org/")
    s = Settings.from_env(bot_delay=0.1)
    assert s.reconnect_grace == 12.5 and s.max_frame == 1024 and s.bot_delay == 0.1
    assert s.host_keys == ["a", "b"] and s.public_url == "https://cards.example.org"
    assert s.call_window == 3.0 and s.drawn_choice == 6.0 and Settings().reconnect_grace == 90


@pytest.mark.asyncio
async def test_sweep_forgets_old_idle_rooms_and_tickets(tmp_path):
    now = [1000.0]
    store = SQLiteStore(tmp_path / "s.sqlite3")
    hub = Hub(store, Settings(finished_room_ttl=100, practice_room_ttl=100, lobby_room_ttl=100,
                              quick_match_ticket_ttl=10),
              clock=lambda: now[0])
    lobby, _, _ = hub.create_private("Ana")
    done, _, _ = hub.create_practice("Bo", 1, "easy", "classic-table")
    done.status, done.finished_at = "finished", now[0]
    hub._persist(done)
    ticket = hub.qm_join(None)["ticket"]
    now[0] += 50
    hub.sweep()
    assert set(hub.rooms) == {lobby.code, done.code}
    assert ticket not in hub.queue
    now[0] += 100
    hub.sweep()
    assert hub.rooms == {} and store.room_codes() == []
    for room in (lobby, done):
        if room.timer:
            room.timer.cancel()
    store.close()


def test_people_at_one_table_never_share_a_name(hub):
    room, _, _ = hub.create_private("Player", preset="standard", seats=4)
    hub.join(room.code, "player")
    hub.join(room.code, "Player")
    assert [s.name for s in room.seats[:3]] == ["Player", "player 2", "Player 3"]
    long = "Abcdefghijklmnopqrst"  # 20 characters: the number still fits the limit
    other, _, _ = hub.create_private(long, preset="standard", seats=3)
    hub.join(other.code, long)
    assert other.seats[1].name == "Abcdefghijklmnopqr 2" and len(other.seats[1].name) == 20
    assert hub.room_public(room)["seats"][1]["name"] == "player 2"
    # names drawn alike are alike: "Аna" with a Cyrillic А beside "Ana"
    third, _, _ = hub.create_private("Ana", preset="standard", seats=3)
    hub.join(third.code, "\u0410na")
    hub.join(third.code, "ÀNA")
    assert [s.name for s in third.seats] == ["Ana", "\u0410na 2", "ÀNA 3"]
    # a variation selector changes how a letter is drawn, not which: they read "Ana" too
    fourth, _, _ = hub.create_private("Ana", preset="standard", seats=4)
    for alike in ("Ana\ufe0f", "A\U000e0100na", "An\u180ba"):
        hub.join(fourth.code, alike)
    assert [s.name for s in fourth.seats[1:]] == ["Ana\ufe0f 2", "A\U000e0100na 3", "An\u180ba 4"]
    # and so are plain ASCII look-alikes: a capital I drawn as a small l, "rn" as "m"
    # ...in any case, where a capital I is drawn as an l ("MIA" read "mla" beside "mia")
    # ...and an 8 drawn for a B ("8ob" beside "Bob": attacker QA)
    for first, second in (("Lil", "LiI"), ("Ian", "lan"), ("Mia", "rnia"), ("Bob", "B0B"),
                          ("Bob", "8ob"),
                          ("Mia", "MIA"), ("MIA", "mia"), ("Ian", "IAN"), ("ILKER", "Ilker")):
        room, _, _ = hub.create_private(first, preset="standard", seats=2)
        hub.join(room.code, second)
        assert room.seats[1].name == f"{second} 2", (first, second)
    # while the Turkish İ keeps its dot, and different names stay themselves
    room, _, _ = hub.create_private("İrem", preset="standard", seats=3)
    hub.join(room.code, "lrem")
    hub.join(room.code, "Irma")
    assert [s.name for s in room.seats] == ["İrem", "lrem", "Irma"]
    room, _, _ = hub.create_private("Ali", preset="standard", seats=2)
    hub.join(room.code, "ALL")
    assert [s.name for s in room.seats] == ["Ali", "ALL"]


def test_animal_names_never_run_out():
    from colorclash.server.names import ADJECTIVES, ANIMALS, animal_name

    every = {f"{a} {b}" for a in ADJECTIVES for b in ANIMALS}
    name = animal_name(every)
    assert name not in every and name.rsplit(" ", 1)[1].isdigit()
    assert animal_name(every | {name}) != name


def test_a_room_everyone_left_before_it_started_is_said_to_be_closed(hub):
    """It is deleted at once; its link said "There is no room with this code", as if it
    had never been: now the error says it was closed (``reason``), for a day."""
    from colorclash.server.protocol import ProtocolError

    room, _, _ = hub.create_private("Ana", preset="standard", seats=3)
    code = room.code
    hub.lobby.leave(room, 0)
    with pytest.raises(ProtocolError) as err:
        hub.get(code)
    msg = err.value.to_message()
    assert (msg["code"], msg["reason"], err.value.status) == ("room_not_found", "closed", 404)
    assert "was closed" in msg["message"]
    with pytest.raises(ProtocolError) as err:  # a code that never was: as before
        hub.get("ZZZZZZ")
    assert err.value.code == "room_not_found" and "reason" not in err.value.to_message()
    # a lobby someone is still in is not closed when another leaves it
    other, _, _ = hub.create_private("Ana", preset="standard", seats=3)
    hub.join(other.code, "Bo")
    hub.lobby.leave(other, 0)
    assert hub.get(other.code) is other and other.code not in hub.closed


class _Socket:
    """A queue socket as the Quick Match sees one: it is sent messages and closed (and a
    table's, sent whole states)."""

    compact = False

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        self.sent.append(message)

    def send_text(self, text: str) -> None:  # (a table's socket)
        self.sent.append(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        pass


def test_a_path_that_is_no_room_code_is_said_to_be_none(hub):
    """``/ws/QUICK-MATCH`` (the queue's path in capitals) was answered "no room with code
    'QUICK-MATC'": a code cut to ten letters that the player never typed."""
    from colorclash.server.protocol import ProtocolError

    for path, shown in [("quick-match", "'QUICK-MATCH'"), ("ABCDEFGHIJKLMNOP", "'ABCDEFGHIJKL...'"),
                        ("ab1", "'AB1'")]:
        with pytest.raises(ProtocolError) as err:
            hub.get(path)
        msg = err.value.to_message()
        assert (msg["code"], msg["reason"], err.value.status) == ("room_not_found", "not_a_code", 404)
        assert msg["message"] == f"{shown} is not a room code: a room code is 6 letters"
    with pytest.raises(ProtocolError) as err:  # a well-made code that is no room's: whole
        hub.get("zzzzzz")
    assert err.value.message == "no room with code 'ZZZZZZ'"


@pytest.mark.asyncio
async def test_closing_and_reopening_queue_sockets_makes_no_third_ticket(hub):
    """Two tickets from one address, their sockets closed (their places held a few
    seconds, for a reload), then a third ticket, then both reopened: three tickets of one
    address in one queue (attacker QA). The held places count."""
    address = "198.51.100.7"
    tickets = [hub.quick.join("coloretto", None, address)["ticket"] for _ in range(2)]
    sockets = [_Socket() for _ in tickets]
    for ticket, sock in zip(tickets, sockets, strict=True):
        hub.quick.attach(ticket, sock)
        hub.quick.detach(ticket, sock)  # the tab closed: its place held GONE_GRACE s
    with pytest.raises(ProtocolError) as e:
        hub.quick.join("coloretto", None, address)
    assert code(e) == "already_queued"
    for ticket in tickets:  # reopened within the grace: the same two places
        hub.quick.attach(ticket, _Socket())
    assert sum(1 for t in hub.quick.queue.values() if not t.get("gone")) == 2
    hub.quick.stop()


@pytest.mark.asyncio
async def test_another_socket_on_a_ticket_is_told_the_count_alone(hub):
    """A second tab on a queue ticket re-sent ``queue`` to the ticket's open tabs too (an
    attacker's loop of sockets made a message to each of them every time); a tab reopened
    within the grace counts again, and every socket hears the new count."""
    first = hub.quick.join("coloretto", None, "198.51.100.7")["ticket"]
    second = hub.quick.join("coloretto", None, "203.0.113.9")["ticket"]
    a, b = _Socket(), _Socket()
    hub.quick.attach(first, a)
    hub.quick.attach(second, b)
    # (a ticket counts once its socket is open: the first heard 1, then 2)
    assert [m["waiting"] for m in a.sent] == [1, 2] and [m["waiting"] for m in b.sent] == [2]
    tab = _Socket()
    hub.quick.attach(first, tab)
    assert [m["waiting"] for m in tab.sent] == [2]
    assert len(a.sent) == 2 and len(b.sent) == 1
    hub.quick.detach(second, b)  # the other person's tab closes: held, out of the count
    assert a.sent[-1]["waiting"] == tab.sent[-1]["waiting"] == 1
    back = _Socket()
    hub.quick.attach(second, back)  # reopened within the grace: counted again, all told
    assert a.sent[-1]["waiting"] == tab.sent[-1]["waiting"] == back.sent[-1]["waiting"] == 2
    assert len(back.sent) == 1
    hub.quick.stop()


@pytest.mark.asyncio
async def test_load_all_goes_on_when_the_store_refuses_the_restored_games_writes(
        tmp_path, caplog):
    """Without group commit the write of each game restored is made at once: refused (a
    full disk, the file locked), it raised out of the start (a traceback, exit 3), after
    a misleading "rebuilt from the store" line. The room is restored as the store holds
    it; its next write stores it."""
    import asyncio

    from colorclash.store import StoreError

    path = tmp_path / "r.sqlite3"
    store = SQLiteStore(path)
    hub = Hub(store, Settings(bot_delay=0, group_commit=False))
    room, _, token = hub.create_practice("Ana", 2, "easy", "standard")
    if room.timer:
        room.timer.cancel()
    store.close()
    store = SQLiteStore(path)

    def full(*args, **kwargs):
        raise StoreError("SQLite did not take 1 write(s): database or disk is full")

    real, store.save_room = store.save_room, full
    again = Hub(store, Settings(bot_delay=0, group_commit=False))
    assert again.load_all() == 1
    r2 = again.rooms[room.code]
    assert not r2.broken and r2.status == "playing"
    await asyncio.sleep(0.05)  # (a rebuild would be a callback)
    assert "could not be restored" not in caplog.text
    assert "rebuilt from the store" not in caplog.text
    assert "restored, but the store did not take its write" in caplog.text
    store.save_room = real
    again.persist(r2)  # its next write stores it
    assert store.load_room(room.code)["seats"][0]["away_since"] is not None
    for r in again.rooms.values():
        if r.timer:
            r.timer.cancel()
    store.close()


def _expired_lobbies(tmp_path, n):
    now = [1000.0]
    store = SQLiteStore(tmp_path / "j.sqlite3", synchronous="normal")
    hub = Hub(store, Settings(lobby_room_ttl=100), clock=lambda: now[0])
    rooms = [hub.create_private(f"P{i}")[0] for i in range(n)]
    keep, _, _ = hub.create_private("Kept")  # (connected: never swept)
    keep.conns[0] = object()
    now[0] += 101
    return hub, store, rooms, keep


@pytest.mark.asyncio
async def test_the_janitor_deletes_off_the_loop_in_batches_while_the_file_is_locked(
        tmp_path):
    """The janitor deleted each expired room on the event loop, one transaction (one
    fsync) each, with SQLite's 5 s wait for a lock: a file another program held locked
    froze /healthz 4.7 s, and 3,000 expired rooms stalled the loop 0.5 s. The deletes go
    to a thread, a batch of rooms per transaction; the loop keeps going meanwhile."""
    import asyncio
    import sqlite3
    import threading
    import time

    hub, store, rooms, keep = _expired_lobbies(tmp_path, 12)
    hub.SWEEP_BATCH = 5
    calls = []
    real = store.delete_rooms

    def recorded(codes):
        calls.append((threading.get_ident(), len(codes)))
        real(codes)

    store.delete_rooms = recorded
    other = sqlite3.connect(tmp_path / "j.sqlite3", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    asyncio.get_running_loop().call_later(0.8, other.execute, "ROLLBACK")
    gaps, stop = [], asyncio.Event()

    async def ticker():
        last = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(0.01)
            gaps.append(time.monotonic() - last)
            last = time.monotonic()

    ticking = asyncio.ensure_future(ticker())
    began = time.monotonic()
    await hub.sweep_off_the_loop()
    stop.set()
    await ticking
    other.close()
    assert time.monotonic() - began >= 0.7  # (it waited for the lock)
    # and the loop went on meanwhile (a delete on the loop would stop it for the lock's
    # 0.8 s; the bound leaves a loaded machine's stalls room)
    assert max(gaps) < 0.6, max(gaps)
    assert [n for _, n in calls] == [5, 5, 2]
    assert all(ident != threading.get_ident() for ident, _ in calls)
    assert set(hub.rooms) == {keep.code} and store.room_codes() == [keep.code]
    assert all(r.code not in hub.rooms for r in rooms)
    store.close()


@pytest.mark.asyncio
async def test_each_sweep_says_which_rooms_it_deleted(tmp_path, caplog):
    """A player's "my room vanished" could not be checked against the log: the rooms a
    sweep deletes are named, with their states (the first 20; the rest counted)."""
    import logging

    caplog.set_level(logging.INFO, logger="colorclash.server")
    hub, store, rooms, keep = _expired_lobbies(tmp_path, 23)
    hub.SWEEP_BATCH = 30
    await hub.sweep_off_the_loop()
    said = [r.getMessage() for r in caplog.records if "expired room" in r.getMessage()]
    named = ", ".join(f"{r.code} (lobby)" for r in rooms[:20])
    assert said == [f"expired room(s) deleted: 23: {named} and 3 more"]
    assert keep.code not in said[0]
    caplog.clear()
    await hub.sweep_off_the_loop()  # nothing expired: nothing said
    assert not [r for r in caplog.records if "expired room" in r.getMessage()]
    store.close()


@pytest.mark.asyncio
async def test_a_room_come_back_to_while_a_batch_was_deleted_is_kept(tmp_path):
    """The rooms expired at the sweep's start were deleted batch after batch, though each
    batch may wait seconds on a locked file: a room someone came back to (and left again)
    meanwhile was deleted all the same (diff review). Each batch is checked again."""
    hub, store, rooms, keep = _expired_lobbies(tmp_path, 4)
    hub.SWEEP_BATCH = 2
    real = store.delete_rooms

    def and_someone_comes_back(codes):
        rooms[2].seats[0].away_since = hub.now()  # (back, then away again: not idle long)
        real(codes)

    store.delete_rooms = and_someone_comes_back
    await hub.sweep_off_the_loop()
    assert set(hub.rooms) == {rooms[2].code, keep.code}
    assert sorted(store.room_codes()) == sorted([rooms[2].code, keep.code])
    store.close()


@pytest.mark.asyncio
async def test_a_sweep_the_store_refuses_is_one_line_and_tried_again(tmp_path, caplog):
    import logging

    from colorclash.store import StoreError

    hub, store, rooms, keep = _expired_lobbies(tmp_path, 3)
    real = store.delete_rooms

    def locked(codes):
        raise StoreError("SQLite did not delete 3 rooms: database is locked")

    store.delete_rooms = locked
    with caplog.at_level(logging.WARNING, logger="colorclash.server"):
        await hub.sweep_off_the_loop()
    lines = [r for r in caplog.records if "did not delete" in r.getMessage()]
    assert len(lines) == 1 and not lines[0].exc_info, caplog.text
    assert "3 expired room(s)" in lines[0].getMessage()
    assert len(hub.rooms) == 4 and len(store.room_codes()) == 4  # all still there
    store.delete_rooms = real
    await hub.sweep_off_the_loop()  # the next sweep
    assert set(hub.rooms) == {keep.code} and store.room_codes() == [keep.code]
    store.close()


@pytest.mark.asyncio
async def test_a_rebuild_keeps_a_person_at_the_table_present(tmp_path):
    """A socket's coming back is not stored by itself: the stored seat said away since the
    person last left, and a rebuild from the store (a write refused) gave a person at the
    table a computer substitute at once (diff review). Present with a socket; away, from
    the rebuild on, without one."""
    now = [1000.0]
    store = SQLiteStore(tmp_path / "r.sqlite3")
    hub = Hub(store, Settings(bot_delay=30, group_commit=False), clock=lambda: now[0])
    room, seat, _token = hub.create_practice("Ana", 1, "easy", "standard")
    first = _Socket()
    hub.attach(room, seat, first)
    hub.detach(room, seat, first)  # away at 1000, and stored (a computer's move, say)
    hub.persist(room)
    now[0] += 30
    hub.attach(room, seat, _Socket())  # back at 1030: not stored
    now[0] += 100
    hub.table._rebuild(room)
    assert room.seats[seat].away_since is None
    hub.clocks.tick_room(room)
    assert not room.seats[seat].substitute
    for r in hub.rooms.values():
        if r.timer:
            r.timer.cancel()
    store.close()


@pytest.mark.asyncio
async def test_a_room_dropped_takes_its_refused_writes_mark_with_it(tmp_path):
    """A room whose write was refused is marked in the writer until a rebuild; dropped
    instead (a sweep, on any path), the mark stayed, and a new room given the code had its
    first write refused and was dropped (diff review)."""
    store = SQLiteStore(tmp_path / "d.sqlite3")
    hub = Hub(store, Settings(bot_delay=30), clock=lambda: 1000.0)
    hub.start_writer()
    room, _seat, _token = hub.create_private("Ana")
    hub.writer._failed_rooms.add(room.code)  # (as after a refused write)
    hub.drop_room(room)
    assert room.code not in hub.writer._failed_rooms
    hub.writer.stop()
    store.close()


def test_a_lobby_back_from_a_match_is_kept_as_long_as_a_finished_room(tmp_path):
    """A room taken back to its lobby after a match (Back to room) that its people then
    closed was swept after the 20 minutes of a room that never started, its records with
    it. It keeps the finished rooms' time; a lobby never played keeps its own."""
    now = [1000.0]
    store = SQLiteStore(tmp_path / "k.sqlite3", synchronous="normal")
    hub = Hub(store, Settings(lobby_room_ttl=100, finished_room_ttl=10_000),
              clock=lambda: now[0])
    played, _, _ = hub.create_private("Ana")
    played.history.append({"match": 1})
    never, _, _ = hub.create_private("Bo")
    for room in (played, never):
        room.seats[0].away_since = now[0]
    now[0] += 101
    assert hub.is_expired(never, now[0]) and not hub.is_expired(played, now[0])
    now[0] += 10_000
    assert hub.is_expired(played, now[0])
    store.close()


def test_back_to_room_at_a_table_with_no_host_says_it_has_no_room(tmp_path):
    """A Quick Match table has no host: ``reopen`` there said "only the host may…", which
    protocol.md did not say (it says ``not_private``; diff review). The room's kind is
    checked first."""
    from colorclash.server.protocol import ProtocolError

    store = SQLiteStore(tmp_path / "q.sqlite3", synchronous="normal")
    hub = Hub(store, Settings())
    room, seat, _ = hub.create_private("Ana")
    room.kind, room.host, room.status = "quick-match", None, "finished"
    with pytest.raises(ProtocolError) as err:
        hub.lobby.reopen(room, seat)
    assert err.value.code == "not_private"
    store.close()


def test_a_finished_quick_match_table_says_what_its_players_do_next(tmp_path):
    """A finished Quick Match table has no host: a join there was told "its host can open
    the free seats again", a start "only the host may", Back to room "Play again", none of
    which anyone there can do (attacker review). Each now says it is no private room, or
    has no host, and that the next game is Find new players."""
    from colorclash.server.protocol import ProtocolError

    store = SQLiteStore(tmp_path / "q.sqlite3", synchronous="normal")
    hub = Hub(store, Settings())
    room, seat, _ = hub.create_private("Ana")
    room.kind, room.host, room.status = "quick-match", None, "finished"
    with pytest.raises(ProtocolError) as join:
        hub.lobby.join(room.code, "Bo")
    assert join.value.code == "not_in_lobby"
    assert join.value.message == "only private rooms can be joined"
    for refused, code in ((lambda: hub.lobby.start(room, seat), "not_host"),
                          (lambda: hub.lobby.reopen(room, seat), "not_private")):
        with pytest.raises(ProtocolError) as err:
            refused()
        assert err.value.code == code
        assert "Find new players" in err.value.message and "Play again" not in \
            err.value.message and "only the host" not in err.value.message
    store.close()
