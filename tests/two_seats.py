"""The set-up many server tests share: two people at a two-seat private room, ready and
dealt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


async def two_people_dealt(c: Any, host_name: str = "Ana", guest_name: str = "Bo", *,
                           record: bool = False, before_start: Callable[[], Any] | None = None,
                           **settings: Any) -> tuple[dict, dict, Any, Any]:
    """``host_name`` opens a two-seat room (``settings``: game or preset, clock...),
    ``guest_name`` joins and says ready, the host starts (``before_start`` runs just
    before: a test rigging the deal) and both see the game: (host ticket, guest ticket,
    the host's connection, the guest's)."""
    host = await c.create_room(host_name, seats=2, **settings)
    guest = await c.join(host["code"], guest_name)
    a = await c.connect(host["code"], host["token"], record=record)
    b = await c.connect(host["code"], guest["token"], record=record)
    await b.send("ready")
    await a.wait_state(lambda s: s["room"]["seats"][1]["ready"])
    if before_start is not None:
        before_start()
    await a.send("start")
    await a.wait_state(lambda s: s["room"]["status"] == "playing")
    await b.wait_state(lambda s: s["room"]["status"] == "playing")
    return host, guest, a, b
