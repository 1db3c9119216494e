"""A stopgap for the browser tests until the server's protocol takes Coloretto's actions.

``colorclash.server.protocol.EngineAction`` (the action a client may send) has no ``row``
field yet, so the server refuses ``{"type": "place", "row": 2}`` and ``{"type": "take",
"row": 1}`` (bad_message) although the engine needs exactly these (docs/coloretto.md).
The fix belongs in the server: ``row: Annotated[int, Field(ge=0, le=9)] | None = None`` on
``EngineAction``. Until it is there, the browser tests' in-process server accepts ``row``
through this patch (and says so with a warning). Once the server has the field, this does
nothing.
"""

from __future__ import annotations

import warnings
from typing import Annotated


def accept_row_actions() -> bool:
    """Let the in-process server take actions with a ``row``; True if it had to be patched."""
    from pydantic import Field, create_model

    from colorclash.server import protocol

    if "row" in protocol.EngineAction.model_fields:
        return False
    action = create_model(
        "EngineAction", __base__=protocol.EngineAction,
        row=(Annotated[int, Field(ge=0, le=9)] | None, None),
    )

    class ActionMsg(protocol.ActionMsg):
        action: action  # type: ignore[valid-type]

    protocol.CLIENT_MESSAGES["action"] = ActionMsg
    warnings.warn("colorclash.server.protocol.EngineAction has no 'row' field: the browser "
                  "tests patched it so that Coloretto's place/take reach the engine "
                  "(tests/browser/server_shim.py)", stacklevel=2)
    return True
