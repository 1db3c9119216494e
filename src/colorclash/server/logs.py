"""No secret reaches a log: seat tokens, Quick Match tickets and host keys are masked in
every log record of the process, at any level, from any logger (uvicorn's access and
WebSocket lines included: they print the request's query string, ``?token=...``).

The mask is applied where records are made (``logging.setLogRecordFactory``), so every
handler and formatter, including ones added later by an operator or a test, sees only the
masked text.
"""

from __future__ import annotations

import logging
import re
from typing import Any

SECRET = re.compile(r"(?i)((?:token|ticket|host_key)(?:=|%3D|\"\s*:\s*\")|Bearer\s+"
                    r"|/api/quick-match/)[^&\s\"',;)/?]+")
MASK = "[redacted]"


def redact(text: str) -> str:
    """``text`` with every secret value masked."""
    return SECRET.sub(lambda m: m.group(1) + MASK, text)


def _needs_mask(value: Any) -> bool:
    return isinstance(value, (str, bytes)) and bool(SECRET.search(
        value if isinstance(value, str) else value.decode("latin-1")))


_installed = False


def install_redaction() -> None:
    """Mask secrets in every log record made from now on (idempotent)."""
    global _installed
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            args_ = record.args
            if _needs_mask(record.msg) or (
                    isinstance(args_, tuple) and any(_needs_mask(a) for a in args_)) or (
                    isinstance(args_, dict) and any(_needs_mask(a) for a in args_.values())):
                record.msg = redact(record.getMessage())
                record.args = None
        except Exception:  # noqa: BLE001 - a bad format string: leave it to the handler
            pass
        return record

    logging.setLogRecordFactory(factory)
    _installed = True


__all__ = ["install_redaction", "redact"]
