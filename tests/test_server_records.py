"""Finished matches' records are stored apart from the room's document: the document is
written with every action, so it must not grow with every match friends play in a room."""

from __future__ import annotations

import json
import random

import pytest

from colorclash.server.config import Settings
from colorclash.server.model import Room
from colorclash.server.rooms import Hub
from colorclash.store import open_store

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    return request.getfixturevalue("redis_db")


def play_match(hub, room, host, rng):
    hub.start(room, host)
    while room.status == "playing":
        seat = next(s for s in range(len(room.seats)) if room.game.legal_actions(s))
        hub.apply(room, seat, rng.choice(room.game.legal_actions(seat)))


async def two_player_room(hub):
    room, host, _ = hub.create_private("Ana", seats=2, preset="standard")
    _, guest, _ = hub.join(room.code, "Bo")
    hub.lobby.ready(room, guest, True)
    return room, host


@pytest.mark.asyncio
async def test_the_document_stays_small_and_every_record_survives_a_restart(store_url):
    store = open_store(store_url)
    hub = Hub(store, Settings(bot_delay=0))
    hub.start_background()  # group commit: records go through the writer thread
    room, host = await two_player_room(hub)
    rng = random.Random(7)
    sizes = []
    for _ in range(12):
        play_match(hub, room, host, rng)
        await hub.durable(room)
        sizes.append(len(json.dumps(store.load_room(room.code))))
    assert "history" not in store.load_room(room.code)
    assert max(sizes) - min(sizes) < 100, sizes  # 12 matches: no 12 records in it
    assert [r["match"] for r in store.load_records(room.code)] == list(range(1, 13))
    assert store.load_records(room.code) == room.history
    history = [dict(r) for r in room.history]
    await hub.shutdown()
    store.close()

    store = open_store(store_url)
    again = Hub(store, Settings(bot_delay=0))
    again.load_all()
    back = again.get(room.code)
    assert back.history == history
    assert again.room_public(back)["records"] == list(range(1, 13))
    record = again.record(back, 5)
    assert record["seed"] == history[4]["seed"] and record["actions"]
    await again.shutdown()
    store.close()


@pytest.mark.asyncio
async def test_a_room_stored_with_its_records_inside_moves_them_out(store_url):
    """A room written by an older version (records inside its document) loads with every
    record, and its next write moves them apart."""
    store = open_store(store_url)
    hub = Hub(store, Settings(bot_delay=0))
    room, host = await two_player_room(hub)
    rng = random.Random(3)
    for _ in range(3):
        play_match(hub, room, host, rng)
    history = [dict(r) for r in room.history]
    old_doc = {**room.to_data(), "history": history}
    store.delete_room(room.code)  # as an older version left it: no records apart
    store.save_room(room.code, old_doc, None, None)
    for m in (1, 2, 3):
        assert store.load_actions(room.code, m) == []  # (deleted with the room above)
    await hub.shutdown()

    def reopen():
        h = Hub(store, Settings(bot_delay=0))
        h.load_all()
        return h, h.get(room.code)

    h, back = reopen()
    assert back.history == history  # read from inside the document
    h2, back2 = reopen()  # read again before any write: still there
    assert back2.history == history
    h.persist(back)  # the next write (any: here the room's own)
    assert store.load_records(room.code) == history
    assert "history" not in store.load_room(room.code)
    h3, back3 = reopen()
    assert back3.history == history and back3.unsaved_records == []
    store.close()


@pytest.mark.asyncio
async def test_a_finished_match_recorded_by_an_older_version_shows_its_records_hash(tmp_path):
    """A match finished under an older version has a record of ``log_hash_version`` 1; the
    restored room showed today's kind of hash, which ``colorclash verify --log-hash`` said
    the record did not hold (an upgrade review). The room shows its record's hash."""
    from colorclash.fairness import log_hash
    from colorclash.verify import verify_record

    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    store = open_store(url)
    hub = Hub(store, Settings(bot_delay=0))
    hub.start_background()
    room, host = await two_player_room(hub)
    play_match(hub, room, host, random.Random(3))
    await hub.durable(room)
    code = room.code
    actions = [tuple(entry) for entry in hub.record(room)["actions"]]
    await hub.shutdown()
    # the record as the older version wrote it: no version, the hash without the rules
    record = store.load_records(code)[0]
    older = {k: v for k, v in record.items() if k != "log_hash_version"}
    older["log_hash"] = log_hash(record["commitment"], None, actions)
    assert older["log_hash"] != record["log_hash"]
    store.save_room(code, store.load_room(code), records=[older])
    store.close()

    store = open_store(url)
    again = Hub(store, Settings(bot_delay=0))
    again.load_all()
    back = again.get(code)
    assert back.log_hash == older["log_hash"]
    ok, lines = verify_record(again.record(back), back.log_hash)
    assert ok, lines
    await again.shutdown()
    store.close()


@pytest.mark.asyncio
async def test_a_match_carries_its_rules_version_and_a_log_of_older_rules_is_named(tmp_path):
    """Rooms and records carry the version of the game's rules (``rules_version``): a
    match's record says the version it was played under, and a stored match whose log the
    rules refuse says, when it was written under other rules, which ones (a rule change
    under a match in progress at an upgrade: the log named the refused action only)."""
    from colorclash.engine import GAMES
    from colorclash.server import games
    from colorclash.store import DamagedRoom
    from colorclash.verify import verify_record

    current = GAMES["color-clash"].rules_version
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    store = open_store(url)
    hub = Hub(store, Settings(bot_delay=0))
    hub.start_background()
    room, host = await two_player_room(hub)
    play_match(hub, room, host, random.Random(5))
    await hub.durable(room)
    assert room.rules_version == current
    assert store.load_records(room.code)[0]["rules_version"] == current
    assert verify_record(hub.record(room))[0]
    hub.start(room, host)  # a second match, in progress
    hub.apply(room, room.game.to_act[0], room.game.legal_actions(room.game.to_act[0])[0])
    await hub.durable(room)
    assert store.load_room(room.code)["rules_version"] == current
    code = room.code
    await hub.shutdown()

    stored = store.load_room(code)
    actions = store.load_actions(code, stored["match_no"])
    broken = [(actions[0][0], {"type": "play", "card": "ZZ"})]
    for version, said in ((current, False), (None, current != 1), (current - 1, True)):
        older = Room.from_data({**stored, "code": code, "rules_version": version})
        with pytest.raises(DamagedRoom) as refused:
            games.replay(older, broken)
        message = str(refused.value)
        assert f"room {code}: its match 2 does not replay: its action 1 is refused" in message
        assert ("Color Clash rules version" in message) == said, (version, message)
        if said:
            assert f"and this version plays version {current}" in message, message
    # a log written under newer rules (a downgrade) is not replayed under older ones
    newer = Room.from_data({**stored, "code": code, "rules_version": current + 1})
    with pytest.raises(DamagedRoom) as refused:
        games.replay(newer, actions)
    assert (f"room {code}: its match 2 was written under Color Clash rules version "
            f"{current + 1}, newer than this version's ({current})") in str(refused.value)
    # a log that replays under today's rules goes on under them
    store.save_room(code, {**stored, "rules_version": None})
    store.close()
    store = open_store(url)
    again = Hub(store, Settings(bot_delay=0))
    again.load_all()
    assert again.get(code).rules_version == current and again.get(code).game is not None
    await again.shutdown()
    store.close()
