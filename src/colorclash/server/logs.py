"""Two things about the process's log.

No secret reaches a log: seat tokens, Quick Match tickets and host keys are masked in
every log record of the process, at any level, from any logger (uvicorn's access and
WebSocket lines included: they print the request's query string, ``?token=...``).

The mask is applied where records are made (``logging.setLogRecordFactory``), so every
handler and formatter, including ones added later by an operator or a test, sees only the
masked text.

Nobody can fill the log from outside: a warning that anyone can cause at will (uvicorn's
"Invalid HTTP request received." for every malformed request: 2,000 lines a second from one
client) is written at most once a minute, then once more with how many were left out
(``RepeatLimiter``, on uvicorn's logger).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any

# a secret's value after its name: in a query string (token=, token%3D), in JSON
# ("token": "...") or in a Python dict's repr ('token': '...'); after "Bearer "; in a
# Quick Match ticket's URL
SECRET = re.compile(r"(?i)((?:token|ticket|host_key)(?:=|%3D|[\"']\s*:\s*[\"'])|Bearer\s+"
                    r"|/api/quick-match/)[^&\s\"',;)/?}]+")
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


class RepeatLimiter(logging.Filter):
    """Let a message (by its text before formatting) through at most once per ``window``
    seconds; the first one after a quiet spell says how many were left out."""

    #: what anyone can cause at will, one line per request, in uvicorn's log
    NOISY = ("Invalid HTTP request received.", "Unsupported upgrade request.")

    def __init__(self, window: float = 60.0, messages: tuple[str, ...] = NOISY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window = window
        self.messages = messages
        self.clock = clock
        self._last: dict[str, float] = {}
        self._left_out: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = record.msg if isinstance(record.msg, str) else ""
        if key not in self.messages:
            return True
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last < self.window:
            self._left_out[key] = self._left_out.get(key, 0) + 1
            return False
        self._last[key] = now
        left_out = self._left_out.pop(key, 0)
        if left_out:
            record.msg = f"{key} ({left_out} more like it left out of the log)"
        return True


_limiter = RepeatLimiter()


def install_repeat_limit() -> None:
    """Limit uvicorn's warnings that anyone can cause (idempotent)."""
    logger = logging.getLogger("uvicorn.error")
    if _limiter not in logger.filters:
        logger.addFilter(_limiter)


#: every line of the process's log starts with its time (UTC, to the millisecond)
LINE = "%(asctime)s.%(msecs)03dZ %(levelname)s %(name)s: %(message)s"
#: uvicorn's lines: its logger's name ("uvicorn.error", for every line) says nothing
SERVER_LINE = "%(asctime)s.%(msecs)03dZ %(levelname)s %(message)s"
DATE = "%Y-%m-%dT%H:%M:%S"


class _UTCFormatter(logging.Formatter):
    converter = time.gmtime


def log_config(level: str = "INFO") -> dict[str, Any]:
    """The logging of ``colorclash serve`` (for ``logging.config.dictConfig`` and
    uvicorn's ``log_config``): one format for every logger, uvicorn's included, each line
    with its UTC time, so an operator can line the log up with players' reports and
    with other processes'. uvicorn's access lines keep their own text after the time."""
    formatter = f"{__name__}._UTCFormatter"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "line": {"()": formatter, "format": LINE, "datefmt": DATE},
            "server": {"()": formatter, "format": SERVER_LINE, "datefmt": DATE},
        },
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "line",
                       "stream": "ext://sys.stderr"},
            "server": {"class": "logging.StreamHandler", "formatter": "server",
                       "stream": "ext://sys.stderr"},
            "access": {"class": "logging.StreamHandler", "formatter": "server",
                       "stream": "ext://sys.stdout"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["server"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": ["access"], "level": level, "propagate": False},
        },
        "root": {"handlers": ["stderr"], "level": level},
    }


__all__ = ["RepeatLimiter", "install_redaction", "install_repeat_limit", "log_config",
           "redact"]
