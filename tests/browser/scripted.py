"""A scripted game server on the page's WebSocket, for table states a real game reaches
only by chance (a long hand, six seats of Day & Night, a stack taken a moment later).

The page is the real client (app.js) loaded from the real server; only its game socket
is answered here, by Playwright's ``route_web_socket``: every ``state`` carries a real
engine's ``view(seat)`` and events, exactly as the server would send them (docs/protocol.md),
and the test decides when each one arrives.
"""

from __future__ import annotations

import json
import re
from typing import Any

from colorclash.engine import new_game

CODE = "SCRIPT"


def _names(seats: int, me: int) -> list[dict[str, Any]]:
    out = []
    for i in range(seats):
        human = i == me
        out.append({
            "seat": i, "kind": "human" if human else "bot",
            "name": "Ana" if human else "Computer", "connected": True, "ready": True,
            "substitute": False, "away_since": None,
            **({} if human else {"label": "Computer", "level": "easy"}),
        })
    return out


def _settings(game: str, preset: str, options: dict | None) -> dict[str, Any]:
    """The room's settings as the server shows them: every option of the preset, flat."""
    from colorclash.engine import GAMES

    chosen = dict(options or {})
    out = {o.name: chosen.get(o.name, o.default) for o in GAMES[game].options_for(preset)}
    return out or {"clock": 30, "match": "1"}


class ScriptedTable:
    """A table whose game socket is answered by the test.

    ``table = ScriptedTable(open_page, preset="day-night", seats=6, seed=3)`` opens the
    page at /r/SCRIPT and deals (``game="rainbow"`` for another game than Color Clash);
    ``table.others()`` lets the other seats play (first legal action) until it is the
    player's turn; ``table.send(events)`` pushes a state;
    ``table.sent`` lists what the page sent; ``lag_ms`` makes the page measure a round
    trip that long. The player's own actions are applied to the
    engine and answered with a state, like the server does.
    """

    def __init__(self, open_page, *, preset: str, seats: int, seed: int = 1,
                 setup: dict | None = None, viewport=None, locale: str = "en-US",
                 me: int = 0, options: dict | None = None, answer: bool = True,
                 deal: bool = True, game: str = "color-clash", lag_ms: int = 0) -> None:
        self.game_key = game
        # a slow link, as the page measures it: each pong answers a ping this much older
        self.lag_ms = lag_ms
        self.pings = 0  # the page's pings (not in ``sent``)
        self.preset, self.seats, self.me = preset, seats, me
        self.options = options
        self.answer = answer
        self.sent: list[dict] = []
        self.ws = None
        # True: a socket the page opens is closed at once (an offline test: the page's
        # routed socket does not go through the network that set_offline cuts)
        self.refuse = False
        # the ``clock`` of the next states pushed (protocol.md: kind, seat, seconds,
        # remaining_ms), None for none
        self.clock: dict | None = None
        self.match = 0
        self.room = {
            "code": CODE, "kind": "practice", "status": "lobby", "host": me,
            "link": f"/r/{CODE}", "game": game,
            "settings": {"preset": preset, "seats": seats, **_settings(game, preset, options)},
            "seats": _names(seats, me), "match": 0, "commitment": None, "seed": None,
            "result": None,
        }
        self.page = page = open_page(viewport, locale=locale, path="/favicon.svg")
        page.route_web_socket(re.compile(r"/ws/"), self._route)
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)",
            [f"cc.seat.{CODE}", json.dumps({"token": "t", "seat": me, "ws": None})],
        )
        self.game = None
        self._setup, self._seed = setup, seed
        page.goto(f"/r/{CODE}")
        page.wait_for_function("() => window.__cc && window.__cc.connStatus === 'online'")
        if deal:
            self.deal(setup=setup, seed=seed)

    # ------------------------------------------------------------------ the socket
    def _route(self, ws) -> None:
        if self.refuse:
            ws.close(code=1011, reason="offline")
            return
        self.ws = ws
        ws.on_message(self._on_message)
        self._push({"type": "welcome", "seat": self.me, "code": CODE, "name": "Ana",
                    "server_time": 0})
        self._push(self._state([]))

    def _push(self, msg: dict) -> None:
        self.ws.send(json.dumps({"v": 1, **msg}))

    def _on_message(self, text) -> None:
        msg = json.loads(text)
        if msg.get("type") == "ping":
            self.pings += 1
            t = msg.get("t")
            if isinstance(t, (int, float)):
                t -= self.lag_ms
            self._push({"type": "pong", "t": t, "server_time": 0})
            return
        self.sent.append(msg)
        if not self.answer:
            return
        if msg.get("type") == "action" and self.game is not None:
            try:
                events = self.game.apply(self.me, msg["action"])
            except ValueError as exc:
                self._push({"type": "error", "code": "illegal_action", "message": str(exc),
                            "ref": "action"})
                return
            self.send(events)
        elif msg.get("type") == "start" and self.room["status"] == "finished":
            self.deal(seed=self._seed + self.match)

    def _state(self, events: list[dict]) -> dict:
        view = self.game.view(self.me) if self.game is not None else None
        return {"type": "state", "seq": len(self.game.log) if self.game else 0,
                "room": json.loads(json.dumps(self.room)), "view": view,
                "events": events, "clock": self.clock}

    # ------------------------------------------------------------------ the script
    def deal(self, *, setup: dict | None = None, seed: int = 1) -> None:
        self.game = new_game(self.game_key, preset=self.preset, seats=self.seats, seed=seed,
                             setup=setup, options=self.options)
        self.match += 1
        self.room.update(status="playing", match=self.match, result=None, seed=None,
                         commitment=self.game.commitment())
        self.send([{"type": "deal", "match": self.match, "commitment": "c"},
                   *self.game.start_events])

    def reset(self, *, preset: str, seats: int, setup: dict | None = None,
              seed: int = 1) -> None:
        """Deal a new game at another table (preset, seat count) on the same page."""
        self.preset, self.seats = preset, seats
        self.room["settings"].update(preset=preset, seats=seats)
        self.room["seats"] = _names(seats, self.me)
        self.deal(setup=setup, seed=seed)

    def send(self, events: list[dict]) -> None:
        """Push a state with these events (the engine's view as it is now)."""
        if self.game is not None and self.game.over:
            self.room.update(status="finished", result=self.game.result)
        self._push(self._state(list(events)))

    def act(self, seat: int, action: dict) -> list[dict]:
        """Apply one action for a seat and push the resulting state."""
        events = self.game.apply(seat, action)
        self.send(events)
        return events

    def others(self, limit: int = 200) -> None:
        """The other seats play the first legal action until the player may act."""
        for _ in range(limit):
            g = self.game
            if g.over or self.me in g.to_act:
                return
            seat = g.to_act[0]
            self.act(seat, g.legal_actions(seat)[0])
        raise AssertionError("the other seats never gave the turn back")

    def wait_view(self) -> None:
        """Wait until the page shows the engine's latest state."""
        seq = len(self.game.log)
        self.page.wait_for_function(
            f"() => window.__cc.view && window.__cc.seq === {seq}"
            f" && window.__cc.room.match === {self.match}"
        )
