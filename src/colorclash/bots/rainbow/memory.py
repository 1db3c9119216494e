"""What a careful Rainbow player remembers, built from its views and the public events only.

The view shows the faces up on the table and never a face underneath; but a player who
watched knows some of them:

- a card it played turned over hides the front it saw in its hand;
- a card the opponent played as seen hides the back it saw in the opponent's hand;
- a card turned over on the table hides the face that was showing a moment before.

:class:`Memory` follows the table place by place: the face underneath when known to this
player (``downs``), and whether the opponent knows it (``opp_knows``: the opponent saw the
back of a card this player played as seen, or the front of a card it played turned).
Cards that leave the table for a pile are kept as ``(up, down or None)`` for card
counting. Between two views the hands are followed by position: a play removes the
position it names, a draw adds cards whose faces the next view will tell.
"""

from __future__ import annotations

from typing import Any


class Memory:
    def __init__(self) -> None:
        self.seat: int | None = None
        self.reset()

    def reset(self) -> None:
        self.ups: list[str] = []
        self.downs: list[str | None] = []
        self.opp_knows: list[bool] = []
        self.gone: list[tuple[str, str | None]] = []  # cards in the piles, as (up, down)
        self.my_fronts: list[str | None] = []
        self.opp_backs: list[str | None] = []

    # ------------------------------------------------------------------ views

    def see(self, view: dict[str, Any]) -> None:
        """Take in a view: the hands by position, and the table (places whose face up is
        not what was remembered are forgotten: events were missed)."""
        seat = view["seat"]
        if seat != self.seat:
            if self.seat is not None:  # another seat's views: start over
                self.reset()
            self.seat = seat  # (before the first view, every play seen was the opponent's)
        self.my_fronts = list(view["hand"])
        other = view["hands"][1 - seat]
        self.opp_backs = list(other["faces"] or [None] * other["count"])
        ups = [f for f in view["table"] if f is not None]
        if ups != self.ups:
            keep = [i < len(self.ups) and self.ups[i] == u for i, u in enumerate(ups)]
            self.downs = [self.downs[i] if k else None for i, k in enumerate(keep)]
            self.opp_knows = [self.opp_knows[i] if k else False for i, k in enumerate(keep)]
            self.ups = ups
        piled = sum(p["count"] for p in view["piles"])
        if piled != len(self.gone):  # missed a round's end: count what the view shows
            self.gone = [(f, None) for p in view["piles"] for f in p["faces"]]

    # ------------------------------------------------------------------ events

    def observe(self, events: list[dict[str, Any]] | None) -> None:
        for e in events or ():
            kind = e.get("type")
            if kind == "deal":
                self.reset()
            elif kind == "play":
                self._play(e)
            elif kind == "flip":
                p = e["place"]
                if p < len(self.ups):
                    self.downs[p] = self.ups[p]
                    self.opp_knows[p] = True
                    self.ups[p] = e["face"]
            elif kind in ("shadow", "error", "rainbow"):
                self.gone += list(zip(self.ups, self.downs, strict=True))
                self.ups, self.downs, self.opp_knows = [], [], []
            elif kind == "draw" and self.seat is not None:
                if e["seat"] == self.seat:
                    self.my_fronts += [None] * e["count"]
                else:
                    self.opp_backs += [None] * e["count"]

    def _play(self, e: dict[str, Any]) -> None:
        mine = e["seat"] == self.seat
        hand = self.my_fronts if mine else self.opp_backs
        i = e["hand"]
        seen = hand.pop(i) if 0 <= i < len(hand) else None
        turned = e["turned"]
        if mine:
            # turned: its front is underneath (known to me); as seen: its back (known to them)
            down, opp_knows = (seen, False) if turned else (None, True)
        else:
            # as seen: the back I saw is underneath; turned: their front (they know it)
            down, opp_knows = (None, True) if turned else (seen, False)
        self.ups.append(e["face"])
        self.downs.append(down)
        self.opp_knows.append(opp_knows)
