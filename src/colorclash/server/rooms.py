"""Where the room model and the hub used to live together; kept for older imports.

The hub is split by domain now: :mod:`colorclash.server.hub` (rooms, persistence,
connections), :mod:`~colorclash.server.lobby`, :mod:`~colorclash.server.table`,
:mod:`~colorclash.server.clocks`, :mod:`~colorclash.server.computers`,
:mod:`~colorclash.server.quick_match`; the model in :mod:`~colorclash.server.model`.
"""

from colorclash.server.conn import Conn
from colorclash.server.hub import Hub
from colorclash.server.model import COMPUTER, Room, Seat

__all__ = ["COMPUTER", "Conn", "Hub", "Room", "Seat"]
