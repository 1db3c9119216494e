"""End-to-end: real uvicorn on 127.0.0.1, real WebSockets, the Python protocol client."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from colorclash.bots import make_bot
from colorclash.client import Client, ClientError
from colorclash.server.config import Settings
from colorclash.server.names import ADJECTIVES, ANIMALS, CODE_ALPHABET
from colorclash.server.protocol import validate_server_message
from colorclash.server.testing import LIFTED_LIMITS, InProcessServer
from colorclash.verify import verify_record
from two_seats import two_people_dealt

pytestmark = pytest.mark.timeout(120)

GRACE = 1.5
HOST_GRACE = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("e2e") / "rooms.sqlite3"
    # Games here run at machine speed: a client sends far more than a person's 20
    # messages a second, and a rematch's start right after could be refused as too fast.
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, reconnect_grace=GRACE, next_round_delay=0.3,
                        quick_match_wait=1.0, rate_per_s=10_000, rate_burst=10_000,
                        host_grace=HOST_GRACE)
    with InProcessServer(f"sqlite:///{db}", settings) as srv:
        yield srv


def client(server) -> Client:
    return Client(server.url)


async def play_all(conns, seed=0, timeout=90):
    bots = [make_bot("easy", seed=seed + i) for i in range(len(conns))]
    return await asyncio.gather(*(c.play(b, timeout=timeout) for c, b in zip(conns, bots,
                                                                            strict=True)))


def check_finished(states):
    results = {repr(s["view"]["result"]) for s in states}
    assert len(results) == 1, "every seat sees the same result"
    st = states[0]
    assert st["room"]["status"] == "finished"
    assert st["view"]["phase"] == "game_over"
    assert st["room"]["seed"], "the seed is revealed at the end"
    return st


@pytest.mark.asyncio
async def test_private_room_three_people_and_a_computer(server):
    c = client(server)
    host = await c.create_room("Ana", preset="classic-table", seats=4, clock=30)
    code = host["code"]
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert host["url"].endswith(f"/r/{code}")
    bo = await c.join(code, "Bo")
    cy = await c.join(code, "Cy", seat=2)
    assert (bo["seat"], cy["seat"]) == (1, 2)
    with pytest.raises(ClientError) as err:
        await c.join(code, "Dee", seat=2)
    assert err.value.code == "seat_taken"

    a, b, d = [await c.connect(code, t["token"]) for t in (host, bo, cy)]
    try:
        for m in (a.state, b.state, d.state):
            validate_server_message(m)
        await b.send("start")
        err_msg = await b.wait_for(lambda m: m["type"] == "error")
        assert err_msg["code"] == "not_host"
        assert err_msg["message"] == "only the host may start the game"
        await b.send("add_bot", seat=3, level="easy")
        err_msg = await b.wait_for(lambda m: m["type"] == "error")
        assert err_msg["message"] == "only the host may add a computer player"
        await a.send("start")
        assert (await a.wait_for(lambda m: m["type"] == "error"))["code"] == "seats_empty"
        await a.send("add_bot", seat=3, level="easy")
        st = await a.wait_state(lambda s: s["room"]["seats"][3]["kind"] == "bot")
        assert st["room"]["seats"][3]["name"] == "Computer"
        assert st["room"]["seats"][3]["label"] == "Computer"
        await a.send("start")
        assert (await a.wait_for(lambda m: m["type"] == "error"))["code"] == "not_ready"
        await b.send("ready")
        await d.send("ready")
        await a.wait_state(lambda s: all(x["ready"] for x in s["room"]["seats"]))
        await a.send("start")
        for conn in (a, b, d):
            st = await conn.wait_state(lambda s: s["room"]["status"] == "playing")
            assert len(st["room"]["commitment"]) == 64
            assert st["room"]["seed"] is None
            assert st["view"]["seat"] == conn.seat
        states = await play_all([a, b, d])
        st = check_finished(states)
        record = await c.record(code)
        ok, notes = verify_record(record)
        assert ok, notes
        assert record["commitment"] == st["room"]["commitment"]
        for m in (a.state, b.state, d.state):
            validate_server_message(m)
    finally:
        for conn in (a, b, d):
            await conn.close()


@pytest.mark.asyncio
async def test_play_now_is_three_seats_with_two_computers(server):
    c = client(server)
    t = await c.play_now("Ana")
    async with await c.connect(t["code"], t["token"]) as me:
        room = me.room
        assert room["kind"] == "play-now" and room["status"] == "playing"
        assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot"]
        assert all(s["label"] == "Computer" for s in room["seats"][1:])
        st = await me.play(make_bot("easy", seed=3), timeout=60)
        assert st["room"]["status"] == "finished"
        first = st["room"]
        # A rematch: a fresh seed, a fresh commitment, the seed hidden again.
        await me.send("start")
        st = await me.wait_state(lambda s: s["room"]["match"] == 2, timeout=10)
        assert st["room"]["status"] == "playing" and st["room"]["seed"] is None
        assert st["room"]["commitment"] != first["commitment"]
        assert st["seq"] == 0 and len(st["view"]["hand"]) == 7


@pytest.mark.asyncio
async def test_practice_with_five_computers(server):
    c = client(server)
    t = await c.practice("Ana", bots=5, level="random", preset="siege")
    async with await c.connect(t["code"], t["token"]) as me:
        assert len(me.room["seats"]) == 6
        assert me.room["settings"]["preset"] == "siege"
        st = await me.play(make_bot("easy", seed=4), timeout=60)
        assert st["room"]["status"] == "finished"
    with pytest.raises(ClientError) as err:
        await c.practice("Ana", bots=6)
    assert err.value.status == 422


@pytest.mark.asyncio
async def test_quick_match_pairs_four_people_with_animal_names(server):
    c = client(server)
    tickets = await asyncio.gather(*(c.quick_match() for _ in range(4)))
    matched = await asyncio.gather(*(c.wait_for_match(t["ticket"], timeout=10)
                                     for t in tickets))
    codes = {m["code"] for m in matched}
    assert len(codes) == 1
    names = [m["name"] for m in matched]
    assert len(set(names)) == 4
    for name in names:
        adj, animal = name.split(" ")
        assert adj in ADJECTIVES and animal in ANIMALS
    conns = [await c.connect(m["code"], m["token"]) for m in matched]
    try:
        room = conns[0].room
        assert room["kind"] == "quick-match"
        assert [s["kind"] for s in room["seats"]] == ["human"] * 4
        assert sorted(s["name"] for s in room["seats"]) == sorted(names)
        states = await play_all(conns, seed=10)
        check_finished(states)
    finally:
        for conn in conns:
            await conn.close()
    # Quick Match takes no free-text name.
    with pytest.raises(ClientError) as err:
        await c.request("POST", "/api/quick-match", {"name": "Mallory"})
    assert err.value.status == 422


@pytest.mark.asyncio
async def test_quick_match_starts_two_after_the_wait(server):
    c = client(server)
    tickets = await asyncio.gather(*(c.quick_match("standard") for _ in range(2)))
    status = await c.quick_match_status(tickets[0]["ticket"])
    assert status["status"] == "waiting"
    matched = await asyncio.gather(*(c.wait_for_match(t["ticket"], timeout=10)
                                     for t in tickets))
    assert matched[0]["code"] == matched[1]["code"]
    room = await c.room(matched[0]["code"])
    assert len(room["seats"]) == 2 and room["settings"]["preset"] == "standard"


@pytest.mark.asyncio
async def test_quick_match_wait_that_gives_up_leaves_the_queue(server):
    """A client that stops waiting takes its ticket out: no table is later made with a
    seat nobody takes, and a retry is not refused as already queued."""
    c = client(server)
    t = await c.quick_match("day-night")
    with pytest.raises(TimeoutError, match="left the queue"):
        await c.wait_for_match(t["ticket"], timeout=0.3)
    with pytest.raises(ClientError) as err:
        await c.quick_match_status(t["ticket"])
    assert err.value.code == "ticket_not_found"
    # Someone else queues now: they wait alone instead of meeting the ghost.
    t2 = await c.quick_match("day-night")
    await asyncio.sleep(1.3)  # past the fixture's quick_match_wait
    assert (await c.quick_match_status(t2["ticket"]))["status"] == "waiting"
    await c.request("DELETE", f"/api/quick-match/{t2['ticket']}")


@pytest.mark.asyncio
async def test_one_ticket_holds_a_few_queue_sockets_not_hundreds(server):
    import json

    import websockets

    c = client(server)
    t = await c.quick_match("siege")
    url = server.url.replace("http", "ws") + f"/ws/quick-match?ticket={t['ticket']}"
    socks = [await websockets.connect(url) for _ in range(5)]
    try:
        first = socks[0]
        msgs = []
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                msgs.append(json.loads(await asyncio.wait_for(first.recv(), 5)))
        assert first.close_code == 4409
        assert msgs[-1]["code"] == "replaced"
        await socks[4].send(json.dumps({"v": 1, "type": "ping", "t": 1}))
        while json.loads(await asyncio.wait_for(socks[4].recv(), 5))["type"] != "pong":
            pass
    finally:
        for s in socks:
            await s.close()
        await c.request("DELETE", f"/api/quick-match/{t['ticket']}")


@pytest.mark.asyncio
async def test_a_ticket_left_closes_every_socket_of_it(server):
    """A ticket's sockets (a few tabs) are all closed when it leaves the queue, by a
    socket's leave or by DELETE: the others stayed open on a ticket that no longer
    existed, told nothing (attacker review). The one that left is closed 1000; the
    others are told the ticket is gone and closed as for a ticket not found (a close
    1000 had their page reconnect to find out: diff review)."""
    import json

    import websockets

    c = client(server)
    for how in ("leave", "delete"):
        t = await c.quick_match("siege")
        url = server.url.replace("http", "ws") + f"/ws/quick-match?ticket={t['ticket']}"
        socks = [await websockets.connect(url) for _ in range(2)]
        try:
            for sock in socks:  # (each told the queue's count: attached)
                while json.loads(await asyncio.wait_for(sock.recv(), 5))["type"] != "queue":
                    pass
            if how == "leave":
                await socks[0].send(json.dumps({"v": 1, "type": "leave"}))
            else:
                await c.request("DELETE", f"/api/quick-match/{t['ticket']}")
            for i, sock in enumerate(socks):
                said = []
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        said.append(json.loads(await asyncio.wait_for(sock.recv(), 5)))
                if how == "leave" and i == 0:
                    assert sock.close_code == 1000, (how, i, sock.close_code)
                else:
                    assert sock.close_code == 4404, (how, i, sock.close_code)
                    assert said[-1]["code"] == "ticket_not_found", said
        finally:
            for sock in socks:
                await sock.close()


async def _wait_my_turn(conn):
    return await conn.wait_state(lambda s: s["view"] and s["view"]["turn"] == conn.seat
                                 and s["view"]["phase"] == "play", timeout=20)


async def _room_when(c, code, predicate, timeout=10.0):
    """The room's public state once ``predicate`` holds (the server handles a close a
    moment after it, later on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while not predicate(room := await c.room(code)):
        assert time.monotonic() < deadline, room
        await asyncio.sleep(0.05)
    return room


@pytest.mark.asyncio
async def test_drop_and_return_within_grace_keeps_seat_and_cards(server):
    c = client(server)
    t = await c.play_now("Ana")
    me = await c.connect(t["code"], t["token"])
    st = await _wait_my_turn(me)
    hand, seq = st["view"]["hand"], st["seq"]
    await me.close()
    room = await _room_when(c, t["code"], lambda r: not r["seats"][0]["connected"])
    assert room["seats"][0]["away_since"] is not None
    me = await c.connect(t["code"], t["token"])
    try:
        assert me.seat == 0
        assert me.view["hand"] == hand
        assert me.state["seq"] == seq
        assert me.room["seats"][0]["connected"] is True
        assert me.room["seats"][0]["substitute"] is False
        st = await me.play(make_bot("easy", seed=5), timeout=60)
        assert st["room"]["status"] == "finished"
    finally:
        await me.close()


@pytest.mark.asyncio
async def test_drop_beyond_grace_brings_a_substitute_that_cannot_score(server):
    c = client(server)
    t = await c.play_now("Ana")
    me = await c.connect(t["code"], t["token"])
    await _wait_my_turn(me)
    await me.close()
    await asyncio.sleep(GRACE)
    await _room_when(c, t["code"], lambda r: r["seats"][0]["substitute"])
    me = await c.connect(t["code"], t["token"])
    try:
        seat = me.room["seats"][0]
        assert seat["substitute"] is True and seat["label"] == "Computer"
        assert 0 in me.view["substitutes"]
        st = await me.wait_state(lambda s: s["room"]["status"] == "finished", timeout=60)
        if st["view"]["phase"] != "game_over":  # pragma: no cover - defensive
            raise AssertionError("the substitute should have finished the match")
        if me.view["result"] and st["view"]["out"] and st["view"]["out"][0] == 0:
            assert st["view"]["result"]["scores"] == [0, 0, 0]
        else:
            assert st["view"]["result"]["scores"][0] == 0
    finally:
        await me.close()


@pytest.mark.asyncio
async def test_leave_during_play_hands_seat_to_substitute(server):
    c = client(server)
    t = await c.play_now("Ana")
    async with await c.connect(t["code"], t["token"]) as me:
        await _wait_my_turn(me)
        await me.send("leave")
        st = await me.wait_state(lambda s: s["room"]["seats"][0]["substitute"], timeout=10)
        assert st["room"]["seats"][0]["label"] == "Computer"
        await me.act({"type": "draw"})
        err = await me.wait_for(lambda m: m["type"] == "error", timeout=10)
        assert err["code"] in ("substituted", "not_your_turn", "not_playing")


async def _two_playing(c):
    """A private room of two people (standard rules), dealt: (ticket, host, guest)."""
    t, _, host, guest = await two_people_dealt(c, preset="standard")
    return t, host, guest


async def _play_out(host, guest):
    """Both seats play the match to its end (easy computer players' choices)."""
    await asyncio.gather(host.play(make_bot("easy", seed=1), timeout=90),
                         guest.play(make_bot("easy", seed=2), timeout=90))


@pytest.mark.asyncio
async def test_a_host_who_leaves_in_mid_game_passes_the_host_on(server):
    """Else the guests would be told to wait for a host who is gone, for ever."""
    t, host, guest = await _two_playing(client(server))
    try:
        await host.send("leave")
        st = await guest.wait_state(lambda s: s["room"]["host"] == 1, timeout=10)
        assert st["room"]["seats"][0]["substitute"]
        await host.close()  # gone for good (the page closed)
        final = await guest.play(make_bot("easy", seed=2), timeout=90)
        assert final["room"]["status"] == "finished" and final["room"]["host"] == 1
        # The new host's Play again: who left is not dealt in again; the lobby reopens
        # with that seat free, for a guest or a computer player.
        await guest.send("start")
        st = await guest.wait_state(lambda s: s["room"]["status"] == "lobby", timeout=10)
        assert st["room"]["seats"][0]["kind"] == "empty"
        await guest.send("add_bot", seat=0)
        await guest.wait_state(lambda s: s["room"]["seats"][0]["kind"] == "bot", timeout=10)
        await guest.send("start")
        st = await guest.wait_state(lambda s: s["room"]["status"] == "playing", timeout=10)
        assert st["room"]["match"] == 2
    finally:
        await host.close()
        await guest.close()


@pytest.mark.asyncio
async def test_a_host_away_after_the_game_passes_the_host_on(server):
    """The host closed the window at the results: after ``host_grace`` seconds the
    guest hosts and can start the next game (the guest waited for ever). A host who
    comes back within the grace stays the host; one who comes back later keeps the
    seat, which nobody may take off the table meanwhile, and hosts again."""
    c = client(server)
    t, host, guest = await _two_playing(c)
    try:
        await asyncio.gather(host.play(make_bot("easy", seed=3), timeout=90),
                             guest.play(make_bot("easy", seed=4), timeout=90))
        # back within the grace: still the host
        await host.close()
        await guest.wait_state(lambda s: not s["room"]["seats"][0]["connected"], timeout=10)
        host = await c.connect(t["code"], t["token"])
        await guest.wait_state(lambda s: s["room"]["seats"][0]["connected"], timeout=10)
        await asyncio.sleep(HOST_GRACE * 1.5)
        assert guest.state["room"]["host"] == 0
        # away longer: the guest hosts
        await host.close()
        away = asyncio.get_running_loop().time()
        st = await guest.wait_state(lambda s: s["room"]["host"] == 1, timeout=10)
        assert asyncio.get_running_loop().time() - away >= HOST_GRACE * 0.9
        assert st["room"]["status"] == "finished" and st["room"]["seats"][1]["ready"]
        assert st["room"]["host_away"] == 0
        await guest.send("start")
        st = await guest.wait_state(lambda s: s["room"]["status"] == "playing", timeout=10)
        assert st["room"]["match"] == 2
        # the old host comes back to the same seat, and hosts again
        host = await c.connect(t["code"], t["token"])
        st = await host.wait_state(lambda s: s["room"]["match"] == 2, timeout=10)
        assert host.seat == 0 and st["room"]["host"] == 0 and st["room"]["host_away"] is None
        await guest.wait_state(lambda s: s["room"]["host"] == 0, timeout=10)
        await guest.send("start")
        err = await guest.wait_for(lambda m: m["type"] == "error", timeout=10)
        assert err["code"] in ("not_host", "not_in_lobby")
    finally:
        await host.close()
        await guest.close()


@pytest.mark.asyncio
async def test_a_guest_made_host_by_an_absence_cannot_remove_the_host(server):
    """A guest who hosts because the host's phone locked for half a minute removed the
    person who opened the room (the attacker review): the seat stays theirs, they host
    again when they come back; anyone else may still be removed."""
    c = client(server)
    t = await c.create_room("Ana", seats=4)
    mal = await c.join(t["code"], "Mal")
    bo = await c.join(t["code"], "Bo")
    host = await c.connect(t["code"], t["token"])
    guest = await c.connect(t["code"], mal["token"])
    try:
        await guest.wait_state(lambda s: s["room"]["seats"][0]["connected"])
        await host.close()
        st = await guest.wait_state(lambda s: s["room"]["host"] == 1, timeout=10)
        assert st["room"]["host_away"] == 0
        await guest.send("remove_player", seat=0)
        err = await guest.wait_for(lambda m: m["type"] == "error", timeout=10)
        assert err["code"] == "bad_seat" and "hosted this room" in err["message"]
        assert guest.state["room"]["seats"][0]["kind"] == "human"
        await guest.send("remove_player", seat=bo["seat"])  # someone else: as before
        await guest.wait_state(lambda s: s["room"]["seats"][2]["kind"] == "empty", timeout=10)
        assert "seat 0 hosted this room" in err["message"]  # (seats 0-based, as elsewhere)
        host = await c.connect(t["code"], t["token"])  # the token still works
        st = await guest.wait_state(lambda s: s["room"]["host"] == 0, timeout=10)
        assert st["room"]["host_away"] is None and st["room"]["seats"][0]["ready"]
        # Mal was ready only by hosting meanwhile: in the lobby, Ready is theirs to say again
        assert not st["room"]["seats"][1]["ready"]
    finally:
        await host.close()
        await guest.close()


@pytest.mark.asyncio
async def test_the_host_passed_over_counts_ready_so_the_lobby_can_start(server):
    """Nobody may remove the host passed over while away; a settings change asked every
    seat for Ready again, theirs too, and the lobby waited for them for good (diff
    review). Their seat counts ready, as the host's does: the others can play."""
    c = client(server)
    t = await c.create_room("Ana", seats=2)
    mal = await c.join(t["code"], "Mal")
    host = await c.connect(t["code"], t["token"])
    guest = await c.connect(t["code"], mal["token"])
    try:
        await guest.wait_state(lambda s: s["room"]["seats"][0]["connected"])
        await host.close()
        await guest.wait_state(lambda s: s["room"]["host"] == 1, timeout=10)
        await guest.send("settings", settings={"clock": 60})
        await guest.wait_state(lambda s: s["room"]["settings"]["clock"] == 60, timeout=10)
        assert guest.state["room"]["seats"][0]["ready"]
        await guest.send("start")
        st = await guest.wait_state(lambda s: s["room"]["status"] == "playing", timeout=10)
        assert st["room"]["host_away"] == 0
    finally:
        await guest.close()


@pytest.mark.asyncio
async def test_the_host_passed_over_is_forgotten_when_their_seat_is_freed(server):
    """A host passed over who had left during the match: at the rematch their seat is
    freed, and a stranger taking it was the protected "host away", made host on
    connecting (diff review). A freed seat is nobody's."""
    c = client(server)
    t = await c.create_room("Ana", seats=2)
    bo = await c.join(t["code"], "Bo")
    guest = await c.connect(t["code"], bo["token"])
    try:
        room = server.hub.rooms[t["code"]]
        room.status, room.host, room.host_away = "finished", 1, 0
        room.seats[0].left = True
        await guest.send("start")  # Ana left the table: back to the lobby, her seat free
        st = await guest.wait_state(lambda s: s["room"]["status"] == "lobby"
                                    and s["room"]["seats"][0]["kind"] == "empty", timeout=10)
        assert st["room"]["host_away"] is None and st["room"]["host"] == 1
        eve = await c.join(t["code"], "Eve")
        assert eve["seat"] == 0
        async with await c.connect(t["code"], eve["token"]) as stranger:
            st = await stranger.wait_state(lambda s: s["room"]["seats"][0]["connected"])
            assert st["room"]["host"] == 1
    finally:
        await guest.close()


@pytest.mark.asyncio
async def test_a_host_who_leaves_the_lobby_hands_it_to_someone_at_the_table(server):
    """The host left the lobby: the powers went to the first seat taken, though its
    person had never opened the page, while the one waiting at the table got not_host
    for start and add_bot, for good. They go to a person connected first; and a host
    who is not there passes them on after ``host_grace``, as between games."""
    c = client(server)
    t = await c.create_room("Ana", seats=4)
    await c.join(t["code"], "Bo")                  # seat 1: never connects
    cem = await c.join(t["code"], "Cem")           # seat 2: at the table
    host = await c.connect(t["code"], t["token"])
    guest = await c.connect(t["code"], cem["token"])
    try:
        await guest.wait_state(lambda s: s["room"]["seats"][0]["connected"])
        await host.send("leave")
        st = await guest.wait_state(lambda s: s["room"]["host"] != 0, timeout=10)
        assert st["room"]["host"] == guest.seat == 2
        await guest.send("add_bot", seat=3)
        await guest.wait_state(lambda s: s["room"]["seats"][3]["kind"] == "bot", timeout=10)
    finally:
        await host.close()
        await guest.close()
    # the only other person never came: they host, and pass it on once someone is there
    t = await c.create_room("Dan", seats=3)
    await c.join(t["code"], "Eda")                 # seat 1: never connects
    host = await c.connect(t["code"], t["token"])
    await host.send("leave")
    await host.close()
    fay = await c.join(t["code"], "Fay")
    guest = await c.connect(t["code"], fay["token"])
    try:
        assert guest.state["room"]["host"] == 1
        st = await guest.wait_state(lambda s: s["room"]["host"] == guest.seat,
                                    timeout=HOST_GRACE * 5)
        assert st["room"]["seats"][guest.seat]["ready"]
    finally:
        await guest.close()


@pytest.mark.asyncio
async def test_multi_round_match_moves_on_when_everyone_is_ready(server):
    c = client(server)
    t = await c.practice("Ana", bots=2, level="easy", preset="family", match="3")
    async with await c.connect(t["code"], t["token"]) as me:
        st = await me.play(make_bot("easy", seed=6), timeout=90)
        assert st["view"]["round"] == 3
        assert len(st["view"]["round_scores"]) == 3
        record = await c.record(t["code"])
        assert any(a["type"] == "next" for _, a in record["actions"])
        ok, notes = verify_record(record)
        assert ok, notes


@pytest.mark.asyncio
async def test_rest_errors_have_codes(server):
    c = client(server)
    cases = [
        ("POST", "/api/rooms", {"name": "", "seats": 4}, 422, "bad_name"),
        ("POST", "/api/rooms", {"name": "Ana", "seats": 5}, 422, "guest_limit"),
        ("POST", "/api/rooms", {"name": "Ana", "preset": "poker"}, 422, "bad_settings"),
        ("POST", "/api/rooms", {"name": "Ana", "clock": 17}, 422, "bad_settings"),
        ("POST", "/api/rooms", {"name": "Ana", "preset": "standard", "match": "7"}, 422,
         "bad_settings"),
        ("POST", "/api/rooms/ZZZZZZ/join", {"name": "Bo"}, 404, "room_not_found"),
        ("GET", "/api/rooms/not-a-code", None, 404, "room_not_found"),
        ("GET", "/api/quick-match/nope", None, 404, "ticket_not_found"),
    ]
    for method, path, body, status, code in cases:
        with pytest.raises(ClientError) as err:
            await c.request(method, path, body)
        assert (err.value.status, err.value.code) == (status, code), path
    t = await c.play_now("Ana")
    with pytest.raises(ClientError) as err:
        await c.record(t["code"])
    assert err.value.code == "not_finished"
    with pytest.raises(ClientError) as err:
        await c.join(t["code"], "Bo")
    assert err.value.code == "not_in_lobby"


@pytest.mark.asyncio
async def test_static_client_invite_link_qr_and_openapi(server):
    c = client(server)
    t = await c.create_room("Ana")
    svg = await c.request("GET", f"/api/rooms/{t['code']}/qr.svg")
    assert svg.lstrip().startswith("<svg")
    index = await c.request("GET", "/")
    invite = await c.request("GET", f"/r/{t['code']}")
    assert invite == index and "<html" in index.lower()
    api = await c.request("GET", "/openapi.json")
    for path in ("/api/rooms", "/api/rooms/{code}/join", "/api/rooms/{code}/qr.svg",
                 "/api/practice", "/api/play-now", "/api/quick-match", "/api/presets"):
        assert path in api["paths"]
    presets = await c.presets()
    names = {p["name"] for p in presets["presets"]}
    assert {"standard", "family", "classic-table", "siege"} <= names


@pytest.mark.asyncio
async def test_returning_player_takes_the_seat_back_at_the_next_round(tmp_path):
    # Computer players that take a moment: the match must not be over before we are back.
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.03, reconnect_grace=GRACE,
                        next_round_delay=0.3)
    with InProcessServer(f"sqlite:///{tmp_path / 'back.sqlite3'}", settings) as srv:
        await _returning_player(srv)


async def _returning_player(server):
    c = client(server)
    t = await c.practice("Ana", bots=2, level="easy", preset="family", match="5")
    me = await c.connect(t["code"], t["token"])
    st = await _wait_my_turn(me)
    round_left = st["view"]["round"]
    await me.close()
    for _ in range(100):  # come back as soon as the substitute has taken the seat
        await asyncio.sleep(0.05)
        if (await c.room(t["code"]))["seats"][0]["substitute"]:
            break
    me = await c.connect(t["code"], t["token"])
    try:
        # The substitute plays on until the round ends; then the seat is ours again.
        st = await me.wait_state(lambda s: s["view"]["round"] > round_left
                                 and not s["room"]["seats"][0]["substitute"], timeout=60)
        assert 0 not in st["view"]["substitutes"]
        st = await me.play(make_bot("easy", seed=8), timeout=90)
        assert st["room"]["status"] == "finished"
        actions = (await c.record(t["code"]))["actions"]
        subs = [a["on"] for seat, a in actions if a["type"] == "substitute" and seat == 0]
        assert subs == [True, False]
    finally:
        await me.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("preset", ["standard", "day-night"])
async def test_presets_play_to_the_end_and_verify(server, preset):
    c = client(server)
    t = await c.practice("Ana", bots=2, level="easy", preset=preset)
    async with await c.connect(t["code"], t["token"]) as me:
        st = await me.play(make_bot("easy", seed=9), timeout=60)
        assert st["room"]["status"] == "finished" and st["view"]["preset"] == preset
    ok, notes = verify_record(await c.record(t["code"]))
    assert ok, notes


@pytest.mark.asyncio
async def test_oversized_request_body_is_refused(server):
    c = client(server)
    with pytest.raises(ClientError) as err:
        await c.request("POST", "/api/rooms", {"name": "Ana", "pad": "x" * 100_000})
    assert (err.value.status, err.value.code) == (413, "too_large")
    assert (await c.request("GET", "/healthz"))["ok"] is True


@pytest.mark.asyncio
async def test_games_are_listed_and_rooms_take_a_game(server):
    from colorclash.engine import GAMES

    c = client(server)
    listing = await c.request("GET", "/api/games")
    assert listing["default"] == "color-clash"
    keys = [g["key"] for g in listing["games"]]
    assert keys == list(GAMES)
    cc = listing["games"][0]
    assert cc["seats"] == {"min": 2, "max": 6, "default": 4}
    assert cc["presets"]["standard"]["options"][0]["name"] == "clock"
    assert "easy" in cc["bot_levels"]
    assert all("facts" not in o for o in cc["presets"]["standard"]["options"])  # none to say
    from colorclash.engine.presets import PRESETS  # each preset's rules, for its page

    assert {p: v["rules"] for p, v in cc["presets"].items()} == {
        p: o.to_dict() for p, o in PRESETS.items()}
    assert cc["presets"]["siege"]["rules"]["stacking"] == "ranked"
    scoring = listing["games"][1]["presets"]["standard"]["options"][0]
    assert scoring["name"] == "scoring" and scoring["facts"]["grey"] == {"points": [1, 4, 8, 7, 6, 5]}
    t = await c.create_room("Ana", game="color-clash", preset="family", match="5")
    room = await c.room(t["code"])
    assert room["game"] == "color-clash"
    assert room["settings"] == {"preset": "family", "seats": 4, "clock": 60, "match": "5"}
    for body, message in (({"game": "chess"}, "unknown game"),
                          ({"game": ""}, "unknown game ''"),  # (it made a Color Clash room)
                          ({"options": {"scoring": "grey"}}, "no option 'scoring'"),
                          ({"clock": 7}, "clock must be one of")):
        with pytest.raises(ClientError) as err:
            await c.request("POST", "/api/rooms", {"name": "Ana", **body})
        assert err.value.code == "bad_settings" and message in err.value.message


@pytest.mark.asyncio
async def test_an_option_of_the_wrong_type_is_a_bad_message_in_the_json_sent(server):
    """``{"options": {"match": true}}`` was ``bad_settings`` "... not True" (Python's
    spelling; the client sent ``true``), unlike every other wrong type (``bad_message``).
    A value of the right type but not offered stays ``bad_settings``."""
    c = client(server)
    for options, code, says in (
            ({"match": True}, "bad_message", "option match takes text (1), not true"),
            ({"clock": "30"}, "bad_message", 'option clock takes a number (15, 20, 30, 45, '
                                             '60, 600), not "30"'),
            ({"clock": False}, "bad_message", "takes a number"),
            ({"clock": 7}, "bad_settings", "option clock must be one of 15, 20, 30, 45, 60, "
                                           "600, not 7")):
        with pytest.raises(ClientError) as err:
            await c.request("POST", "/api/rooms", {"name": "Ana", "options": options})
        assert (err.value.status, err.value.code) == (422, code), err.value.message
        assert says in err.value.message
    # the same at the top level, where clock and match may be given too (a top-level
    # "30" got pydantic's "clock: Input should be a valid integer"), for a Practice table
    # too; and a value of no option's kind is one sentence, not pydantic's three
    for path in ("/api/rooms", "/api/practice"):
        for body, says in (({"clock": "30"}, 'option clock takes a number (15, 20, 30, 45, '
                                             '60, 600), not "30"'),
                           ({"clock": True}, "option clock takes a number"),
                           ({"match": True}, "option match takes text (1), not true"),
                           ({"clock": [30]}, "clock: an option's value is a word, a whole "
                                             "number, true or false, not a list"),
                           ({"options": {"clock": {}}}, "options.clock: an option's value "
                                                        "is a word, a whole number, true or "
                                                        "false, not an object"),
                           ({"match": "1" * 31}, "match: an option's value is at most 30 "
                                                 "characters"),
                           # (text at the top, as the settings message takes it: a number
                           # names a match only inside options; it made a room: contract
                           # check)
                           ({"preset": "standard", "match": 3},
                            'match: at the top of a body it is text ("3")')):
            with pytest.raises(ClientError) as err:
                await c.request("POST", path, {"name": "Ana", **body})
            assert (err.value.status, err.value.code) == (422, "bad_message"), body
            assert err.value.message == says or says in err.value.message, err.value.message
            assert "Input should be" not in err.value.message
    # a game's option beside options, and a field no body has, in words (pydantic's
    # "Extra inputs are not permitted": a contract review)
    for path, body, says in (
            ("/api/rooms", {"game": "coloretto", "scoring": "grey"},
             'scoring: an option of the game: give it inside "options"'),
            ("/api/practice", {"game": "coloretto", "scoring": "grey"},
             'scoring: an option of the game: give it inside "options"'),
            ("/api/play-now", {"preset": "siege"}, "preset: no such field in this message"),
            ("/api/rooms", {"colour": "R"}, "colour: no such field in this message")):
        with pytest.raises(ClientError) as err:
            await c.request("POST", path, {"name": "Ana", **body})
        assert (err.value.status, err.value.code) == (422, "bad_message"), body
        assert err.value.message == says, err.value.message
    t = await c.create_room("Ana")
    async with await c.connect(t["code"], t["token"]) as me:
        await me.send("settings", settings={"options": {"match": True}})
        err = await me.wait_for(lambda m: m.get("type") == "error")
        assert err["code"] == "bad_message" and "not true" in err["message"], err
        # the settings message says it as the bodies do
        for settings, says in (({"match": 5}, 'settings.match: in settings it is text ("5")'),
                               ({"scoring": "grey"}, 'settings.scoring: an option of the '
                                                     'game: give it inside "options"')):
            seq = me.state["seq"]
            await me.send("settings", settings=settings)
            err = await me.wait_for(lambda m, says=says: m.get("type") == "error"
                                    and says in m["message"])
            assert err["code"] == "bad_message" and me.state["seq"] == seq, err
    assert (await c.room(t["code"]))["settings"]["match"] == "1"


@pytest.mark.asyncio
async def test_a_clocks_seconds_are_a_whole_number_as_documented(server):
    """``"seconds": 30.0`` went out where protocol.md shows ``"seconds": 30``."""
    c = client(server)
    t = await c.practice("Ana", bots=1, level="easy", preset="standard", clock=45)
    async with await c.connect(t["code"], t["token"]) as me:
        st = await me.wait_state(lambda s: s["clock"] is not None and s["clock"]["kind"] == "turn")
        assert st["clock"]["seconds"] == 45 and isinstance(st["clock"]["seconds"], int)


@pytest.mark.asyncio
async def test_an_unknown_level_names_the_games_levels_in_words(server):
    """It read "choose one of ['random', 'medium', 'hard']", a Python list."""
    c = client(server)
    with pytest.raises(ClientError) as err:
        await c.request("POST", "/api/practice", {"game": "coloretto", "level": "expert"})
    assert err.value.code == "bad_settings"
    assert err.value.message == ("unknown computer level 'expert'; choose one of random, "
                                 "easy, medium, hard")


@pytest.mark.asyncio
async def test_a_null_field_is_a_field_left_out_except_the_name(server):
    """The rule docs/protocol.md states: ``null`` takes a field's default in every body,
    but a ``null`` name is no name (a client that meant one and sent none)."""
    c = client(server)
    nulls = dict.fromkeys(("game", "preset", "seats", "clock", "match", "options",
                           "host_key"))
    t = await c.request("POST", "/api/rooms", {"name": "Ana", **nulls})
    room = await c.room(t["code"])
    assert room["game"] == "color-clash"
    assert room["settings"] == {"preset": "classic-table", "seats": 4, "clock": 30,
                                "match": "1"}
    with pytest.raises(ClientError) as err:
        await c.request("POST", "/api/rooms", {"name": None})
    assert (err.value.status, err.value.code) == (422, "bad_message")


@pytest.mark.asyncio
async def test_the_lobby_socket_refuses_a_setting_given_twice_as_rest_does(server):
    """``{"clock": 30, "options": {"clock": 60}}`` is refused when a room is made; over
    the socket the options won without a word. And ``seats`` inside ``options`` was taken
    for the seats."""
    c = client(server)
    t = await c.create_room("Ana", seats=3)
    async with await c.connect(t["code"], t["token"]) as me:
        for settings, says in (({"clock": 30, "options": {"clock": 60}}, "clock is given twice"),
                               ({"options": {"seats": 2}}, "seats is not an option")):
            await me.send("settings", settings=settings)
            err = await me.wait_for(lambda m: m.get("type") == "error")
            assert err["code"] == "bad_settings" and says in err["message"], err
            assert err["ref"] == "settings", err  # (seats inside options had none)
        assert (await c.room(t["code"]))["settings"]["clock"] == 30
        assert len((await c.room(t["code"]))["seats"]) == 3
        await me.send("settings", settings={"clock": 60, "options": {"clock": 60}})
        await me.wait_state(lambda s: s["room"]["settings"]["clock"] == 60)


@contextlib.asynccontextmanager
async def _a_lobby_with_a_ready_guest(c: Client, seats: int):
    """Ana's room (a 30 s clock) with Bo seated and ready: (ticket, host, guest)."""
    t = await c.create_room("Ana", seats=seats, clock=30)
    g = await c.join(t["code"], "Bo")
    async with await c.connect(t["code"], t["token"]) as host, \
            await c.connect(t["code"], g["token"]) as guest:
        await guest.send("ready")
        await host.wait_state(lambda s: s["room"]["seats"][1]["ready"])
        yield t, host, guest


@pytest.mark.asyncio
async def test_a_settings_change_that_changes_nothing_keeps_the_guests_ready(server):
    """``{"settings": {}}``, or the clock the room already has, was stored, sent to every
    seat and took back the guests' Ready (attacker QA): it is neither stored nor sent."""
    c = client(server)
    async with _a_lobby_with_a_ready_guest(c, seats=2) as (t, host, guest):
        seen = host.messages
        for settings in ({}, {"clock": 30}, {"options": {"clock": 30}}, {"seats": 2}):
            await host.send("settings", settings=settings)
        await host.send("ping")
        await host.wait_for(lambda m: m["type"] == "pong")
        assert host.messages == seen + 1  # the pong alone: no state, no error
        assert (await c.room(t["code"]))["seats"][1]["ready"] is True
        await host.send("settings", settings={"clock": 60})  # a change does take it back
        st = await host.wait_state(lambda s: s["room"]["settings"]["clock"] == 60)
        assert st["room"]["seats"][1]["ready"] is False


@pytest.mark.asyncio
async def test_taking_away_empty_seats_keeps_the_guests_ready_so_the_host_can_start(server):
    """The lobby tells a host whose table could start at fewer seats to set Seats to that
    number; doing so took back the guest's Ready, and Start stayed off (player QA). Only
    empty seats taken away: the Ready stands. Any other change still takes it back."""
    c = client(server)
    async with _a_lobby_with_a_ready_guest(c, seats=4) as (t, host, guest):
        await host.send("settings", settings={"seats": 3})
        st = await host.wait_state(lambda s: len(s["room"]["seats"]) == 3)
        assert st["room"]["seats"][1]["ready"] is True
        await host.send("settings", settings={"seats": 2, "clock": 60})  # more than seats
        st = await host.wait_state(lambda s: len(s["room"]["seats"]) == 2)
        assert st["room"]["seats"][1]["ready"] is False
        await guest.send("ready")
        await host.wait_state(lambda s: s["room"]["seats"][1]["ready"])
        await host.send("settings", settings={"seats": 3})  # a seat more: who will sit?
        st = await host.wait_state(lambda s: len(s["room"]["seats"]) == 3)
        assert st["room"]["seats"][1]["ready"] is False
        await guest.send("ready")
        await host.wait_state(lambda s: s["room"]["seats"][1]["ready"])
        await host.send("settings", settings={"seats": 2})
        await host.wait_state(lambda s: len(s["room"]["seats"]) == 2)
        await host.send("start")
        await host.wait_state(lambda s: s["room"]["status"] == "playing")


@pytest.mark.asyncio
async def test_searching_computer_players_think_in_worker_processes(tmp_path):
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, bot_workers=1)
    with InProcessServer(f"sqlite:///{tmp_path / 'w.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        t = await c.practice("Ana", bots=2, level="hard", preset="classic-table")
        async with await c.connect(t["code"], t["token"]) as me:
            st = await me.play(make_bot("easy", seed=9), timeout=90)
            assert st["room"]["status"] == "finished"
        assert srv.hub.thinking.submitted > 0  # the hard players' moves came from the pool


@pytest.mark.asyncio
async def test_healthz_reports_how_long_actions_take_inside_the_server(server):
    c = client(server)
    before = (await c.request("GET", "/healthz"))["actions"]
    t = await c.practice("Ana", bots=1, level="easy")
    async with await c.connect(t["code"], t["token"]) as me:
        await me.play(make_bot("easy", seed=3), timeout=60)
    after = (await c.request("GET", "/healthz"))["actions"]
    mine = [a for seat, a in (await c.record(t["code"]))["actions"] if seat == 0]
    assert 1 <= after["count"] - before["count"] <= len(mine)
    assert 0 < after["p50"] <= after["p95"] <= after["p99"] <= after["max"] < 5000
    assert after["window"] == min(after["count"], 4096)


@pytest.mark.asyncio
async def test_a_seat_left_after_the_game_can_be_filled_for_a_rematch(server):
    """A guest who leaves a finished room frees the seat; the host's Play again then
    reopens the lobby, where a computer player or a new guest can take it."""
    c = client(server)
    t, host, guest = await _two_playing(c)
    try:
        await _play_out(host, guest)
        await guest.send("leave")
        await host.wait_state(lambda s: s["room"]["seats"][1]["kind"] == "empty")
        with pytest.raises(ClientError) as err:  # the finished room says why
            await c.join(t["code"], "Cy")
        assert err.value.code == "not_in_lobby" and "over" in str(err.value)
        await host.send("start")  # Play again, with a free seat: back to the lobby
        st = await host.wait_state(lambda s: s["room"]["status"] == "lobby", timeout=10)
        assert st["room"]["records"] == [1]  # the finished match keeps its record
        assert st["view"] is None             # a lobby has no view (not the last game's)
        cy = await c.join(t["code"], "Cy")
        assert cy["seat"] == 1
        newcomer = await c.connect(t["code"], cy["token"])
        await newcomer.send("ready")
        await host.wait_state(lambda s: s["room"]["seats"][1]["ready"])
        await host.send("start")
        st = await host.wait_state(lambda s: s["room"]["status"] == "playing", timeout=10)
        assert st["room"]["match"] == 2
        await newcomer.close()
    finally:
        await host.close()
        await guest.close()


@pytest.mark.asyncio
async def test_the_host_takes_a_finished_table_back_to_the_room(server):
    """Play again dealt the same table at once: a host who wanted another preset, or a
    seat for a third friend, had to open a new room and invite everyone again (a player
    review). ``reopen`` takes a finished private room back to its lobby with everyone in
    their seats; the settings change there, everyone says Ready again, and the next match
    is dealt. Only the host, only after the game, only in a private room."""
    c = client(server)
    t, host, guest = await _two_playing(c)
    try:
        await host.send("reopen")
        assert (await host.wait_for(lambda m: m["type"] == "error"))["code"] == "not_finished"
        await _play_out(host, guest)
        await guest.send("reopen")
        assert (await guest.wait_for(lambda m: m["type"] == "error"))["code"] == "not_host"
        await host.send("reopen")
        st = await guest.wait_state(lambda s: s["room"]["status"] == "lobby", timeout=10)
        assert [s["name"] for s in st["room"]["seats"]] == ["Ana", "Bo"]
        assert st["room"]["seats"][0]["ready"] and not st["room"]["seats"][1]["ready"]
        assert st["room"]["records"] == [1] and st["view"] is None
        await host.send("settings", settings={"preset": "family"})
        await host.wait_state(lambda s: s["room"]["settings"]["preset"] == "family")
        await guest.send("ready")
        await host.wait_state(lambda s: s["room"]["seats"][1]["ready"])
        await host.send("start")
        st = await guest.wait_state(lambda s: s["room"]["status"] == "playing", timeout=10)
        assert st["room"]["match"] == 2 and st["view"]["preset"] == "family"
    finally:
        await host.close()
        await guest.close()
    practice = await c.practice("Cy", bots=1, level="easy")
    async with await c.connect(practice["code"], practice["token"]) as me:
        await me.play(make_bot("easy", seed=3), timeout=90)
        await me.send("reopen")
        assert (await me.wait_for(lambda m: m["type"] == "error"))["code"] == "not_private"


@pytest.mark.asyncio
async def test_a_person_a_computer_played_for_is_a_person_again_in_the_lobby(server):
    """A guest who left in mid-game (a computer played the seat to the end) and came back:
    back in the room, the seat still said "Computer" (``substitute``), and the page drew
    a person as a computer player (an endurance review). Nothing is played in a lobby."""
    c = client(server)
    t, bo, host, guest = await two_people_dealt(c, preset="standard")
    try:
        await guest.send("leave")
        await host.wait_state(lambda s: s["room"]["seats"][1]["substitute"], timeout=10)
        await guest.close()
        final = await host.play(make_bot("easy", seed=1), timeout=90)
        assert final["room"]["status"] == "finished"
        guest = await c.connect(t["code"], bo["token"])  # back before the reopen
        await host.send("reopen")
        st = await guest.wait_state(lambda s: s["room"]["status"] == "lobby", timeout=10)
        seat = st["room"]["seats"][1]
        assert (seat["kind"], seat["name"]) == ("human", "Bo")
        assert not seat.get("substitute") and "label" not in seat and not seat.get("left")
    finally:
        await host.close()
        await guest.close()


@pytest.mark.asyncio
async def test_a_room_taken_back_to_its_lobby_keeps_its_records_when_all_leave(server):
    """Back to room, then everyone left: the lobby had no one left and was closed, its
    finished match's record with it (404 "closed before its game started"; diff review).
    It stays, with its record; whoever takes a seat by its link next hosts it (nobody
    could start it else)."""
    c = client(server)
    t, host, guest = await _two_playing(c)
    try:
        await _play_out(host, guest)
        await host.send("reopen")
        await guest.wait_state(lambda s: s["room"]["status"] == "lobby", timeout=10)
        await guest.send("leave")
        await host.wait_state(lambda s: s["room"]["seats"][1]["kind"] == "empty")
        await host.send("leave")
        for _ in range(50):
            room = await c.room(t["code"])
            if room["host"] is None:
                break
            await asyncio.sleep(0.1)
        assert room["status"] == "lobby" and room["host"] is None, room
        assert (await c.record(t["code"]))["match"] == 1
        cy = await c.join(t["code"], "Cy")
        room = await c.room(t["code"])
        assert room["host"] == cy["seat"] and room["records"] == [1], room
    finally:
        await host.close()
        await guest.close()


@pytest.mark.asyncio
async def test_a_room_back_from_a_match_with_other_settings_survives_a_restart(tmp_path):
    """Back to room, then the host made the table three seats: at the next start the
    finished match was replayed on the room's new settings, refused ("it is not seat 1's
    turn"), and the room could not be restored, people and records with it (a review).
    A lobby replays no game; the room comes back as it was, its record with it, and so
    does one that everyone then left."""
    db = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    settings = Settings(**LIFTED_LIMITS, bot_delay=0.0, rate_per_s=10_000, rate_burst=10_000)
    with InProcessServer(db, settings) as srv:
        c = Client(srv.url)
        t, _, host, guest = await two_people_dealt(c, preset="standard")
        await _play_out(host, guest)
        await host.send("reopen")
        await host.wait_state(lambda s: s["room"]["status"] == "lobby", timeout=10)
        await host.send("settings", settings={"seats": 3, "preset": "family"})
        await host.wait_state(lambda s: len(s["room"]["seats"]) == 3)
        await host.close()
        await guest.close()
    with InProcessServer(db, settings) as srv:
        c = Client(srv.url)
        room = await c.room(t["code"])
        assert (room["status"], len(room["seats"]), room["records"]) == ("lobby", 3, [1])
        assert (await c.record(t["code"]))["match"] == 1
        async with await c.connect(t["code"], t["token"]) as me:
            await me.wait_state(lambda s: s["room"]["status"] == "lobby")
            await me.send("leave")
            await asyncio.sleep(0.3)
    with InProcessServer(db, settings) as srv:
        c = Client(srv.url)
        room = await c.room(t["code"])
        assert room["status"] == "lobby" and room["records"] == [1], room
        assert (await c.record(t["code"]))["match"] == 1


@pytest.mark.asyncio
async def test_healthz_says_what_the_process_holds(tmp_path):
    """"rooms" alone counted lobbies and finished rooms too: an operator could not tell
    whether a game was running before an upgrade. /healthz now says how many rooms are
    being played, and how many people are connected to this process."""
    settings = Settings(**LIFTED_LIMITS, bot_delay=30.0)  # (the computers wait: a game in play)
    with InProcessServer(f"sqlite:///{tmp_path / 'h.sqlite3'}", settings) as srv:
        c = Client(srv.url)
        empty = await c.request("GET", "/healthz")
        assert {k: empty[k] for k in ("rooms", "playing", "players", "quick_match")} == {
            "rooms": 0, "playing": 0, "players": 0, "quick_match": 0}
        await c.create_room("Lobby Lu", seats=2)
        t = await c.practice("Ana", bots=1, level="easy")
        async with await c.connect(t["code"], t["token"]) as me:
            await me.wait_state(lambda s: True)
            now = await c.request("GET", "/healthz")
            assert (now["rooms"], now["playing"], now["players"]) == (2, 1, 1), now


@pytest.mark.asyncio
async def test_who_leaves_after_the_end_keeps_their_name_in_that_matchs_results(server):
    """A person going Home from the results freed their seat, and the others' results,
    chips and history read "Seat 2 wins": the freed seat keeps, as ``former``, the name
    the match was played under, until the host starts the next one."""
    _, _, host, guest = await two_people_dealt(client(server), preset="standard")
    try:
        await play_all([host, guest], seed=5)
        await guest.send("leave")
        st = await host.wait_state(lambda s: s["room"]["seats"][1]["kind"] == "empty",
                                   timeout=10)
        assert st["room"]["status"] == "finished"
        assert st["room"]["seats"][1]["former"] == "Bo"
        assert st["room"]["seats"][1]["name"] is None  # the seat itself is free
        validate_server_message(st)
        await host.send("start")  # someone is gone: back to the lobby, the seat open
        st = await host.wait_state(lambda s: s["room"]["status"] == "lobby", timeout=10)
        assert "former" not in st["room"]["seats"][1]
    finally:
        await host.close()
        await guest.close()


@pytest.mark.asyncio
async def test_a_socket_without_a_token_is_told_it_has_none(server):
    """It read "this token holds no seat in this room", as if one had been given."""
    import json

    import websockets

    t = await client(server).create_room("Ana")
    base = server.url.replace("http", "ws") + f"/ws/{t['code']}"
    for path, says in ((base, "no token: open /ws/CODE?token=TOKEN"),
                       (base + "?token=", "no token"),
                       (base + "?token=nope", "this token holds no seat")):
        async with websockets.connect(path) as ws:
            msg = json.loads(await ws.recv())
        assert msg["code"] == "bad_token" and says in msg["message"], (path, msg)
    # the queue's socket too ("no such Quick Match ticket": a contract review)
    queue = server.url.replace("http", "ws") + "/ws/quick-match"
    for path, says in ((queue, "no ticket: open /ws/quick-match?ticket=TICKET"),
                       (queue + "?ticket=", "no ticket"),
                       (queue + "?ticket=nope", "no such Quick Match ticket")):
        async with websockets.connect(path) as ws:
            msg = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
        assert msg["code"] == "ticket_not_found" and says in msg["message"], (path, msg)
        assert ws.close_code == 4404
