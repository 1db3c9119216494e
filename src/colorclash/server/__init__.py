"""The game server: rooms, seats, clocks, reconnection, persistence and the protocol.

``create_app`` builds the ASGI app; ``run.run_server`` serves it with uvicorn.
"""

from colorclash.server.app import create_app
from colorclash.server.config import Settings

__all__ = ["Settings", "create_app"]
