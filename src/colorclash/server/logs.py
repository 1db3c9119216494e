"""Three things about the process's log.

No secret reaches a log: seat tokens, Quick Match tickets and host keys are masked in
every log record of the process, at any level, from any logger (uvicorn's access and
WebSocket lines included: they print the request's query string, ``?token=...``). Nor
does a control character from outside: a record's text arguments (a path, a name) have
their controls and bidi marks written as escapes, so a request cannot recolour the
operator's terminal or make text that reads like another line.

The mask is applied where records are made (``logging.setLogRecordFactory``), so every
handler and formatter, including ones added later by an operator or a test, sees only the
masked text.

Nobody can fill the log from outside: a warning that anyone can cause at will (uvicorn's
"Invalid HTTP request received." for every malformed request: 2,000 lines a second from one
client) is written at most once a minute, then once more with how many were left out
(``RepeatLimiter``, on uvicorn's logger); uvicorn's line for each WebSocket handshake is
an access-log line, written only with the access log on (``WebSocketAccessLines``).

Every line of ``colorclash serve`` starts with its UTC time (``log_config``).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from colorclash.text import printable

# a secret's value after its name: in a query string (token=, token%3D), in JSON
# ("token": "...") or in a Python dict's repr ('token': '...'); after "Bearer "; in a
# Quick Match ticket's URL
SECRET = re.compile(r"(?i)((?:token|ticket|host_key)(?:=|%3D|[\"']\s*:\s*[\"'])|Bearer\s+"
                    r"|/api/quick-match/|/ws/(?=[^&\s\"',;)/?}]{12}))[^&\s\"',;)/?}]+")
# (the last: a seat token where a room's code goes, /ws/TOKEN: a bot that swapped them;
# a code has 6 letters)
# What a log line must not hold from outside (colorclash.text.printable escapes it): C0
# and C1 controls (an escape sequence recolours or rewrites the operator's terminal, a
# line feed would start a forged line), the marks that reorder a line's text (bidi
# overrides and isolates), and any other character that is not printable
# a query parameter whose name is percent-encoded (?tok%65n=...: the server decodes it)
ENCODED_NAME = re.compile(r"([?&;])([^=&\s\"'#?]*%[0-9A-Fa-f]{2}[^=&\s\"'#?]*)(=|%3D)"
                          r"([^&\s\"'#]+)")
SECRET_NAMES = frozenset({"token", "ticket", "host_key"})
MASK = "[redacted]"
# a seat token or ticket anywhere else (``/api/rooms/CODE?x=TOKEN``, ``/TOKEN``: a client
# that put its own token where no name says it is one): 43 URL-safe characters alone,
# with capitals and small letters (``secrets.token_urlsafe(32)``; a snake_case name of
# that length is not one)
BARE_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")


def _mask_bare(m: re.Match[str]) -> str:
    word = m.group(0)
    if any(c.isupper() for c in word) and any(c.islower() for c in word):
        return MASK
    return word


def _mask_encoded(m: re.Match[str]) -> str:
    if unquote(m.group(2)).lower() in SECRET_NAMES:
        return m.group(1) + m.group(2) + m.group(3) + MASK
    return m.group(0)


def redact(text: str) -> str:
    """``text`` with every secret value masked."""
    text = SECRET.sub(lambda m: m.group(1) + MASK, text)
    if "%" in text:
        text = ENCODED_NAME.sub(_mask_encoded, text)
    if len(text) >= 43:
        text = BARE_TOKEN.sub(_mask_bare, text)
    return text


def _clean(value: Any) -> Any:
    """A log record's argument with its secrets masked: a text as text; anything else
    (a dict, a message, an exception) left as it is unless its text holds a secret, then
    replaced by that text masked. Numbers stay numbers (``%d`` still formats them)."""
    if value is None or isinstance(value, (int, float)):
        return value
    if isinstance(value, str):  # (an argument: text from outside, a path, a name)
        return printable(redact(value))
    try:
        text = (bytes(value).decode("latin-1") if isinstance(value, (bytes, bytearray))
                else repr(value))
    except Exception:  # noqa: BLE001 - an object whose repr fails: nothing to mask
        return value
    masked = redact(text)
    return value if masked == text else masked


_installed = False


def install_redaction() -> None:
    """Mask secrets in every log record made from now on (idempotent): in its message and
    in each of its arguments, which keep their places (uvicorn's access formatter reads
    them one by one)."""
    global _installed
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            msg, args_ = record.msg, record.args
            if isinstance(args_, tuple) and args_:
                record.args = tuple(_clean(a) for a in args_)
            elif isinstance(args_, dict):
                record.args = {k: _clean(v) for k, v in args_.items()}
            if isinstance(msg, str):
                if redact(msg) != msg:  # a secret in the format string itself
                    record.msg = redact(record.getMessage())
                    record.args = None
            else:
                record.msg = _clean(msg)
        except Exception:  # noqa: BLE001 - a bad format string: leave it to the handler
            pass
        return record

    logging.setLogRecordFactory(factory)
    _installed = True


class WebSocketAccessLines(logging.Filter):
    """uvicorn writes a line for every WebSocket handshake (``... - "WebSocket /ws/CODE?..."
    [accepted]``, ``403``, ...), refused ones included: one client opening sockets in a loop
    wrote 1.5 MB of log a second. They are access-log lines: written only with
    ``COLORCLASH_ACCESS_LOG`` on, like the HTTP requests' lines; so are the websockets
    library's "connection open", "connection closed", "connection rejected" and "HTTP
    response sent"."""

    #: the websockets library's lines for each socket (uvicorn hands it its logger)
    PER_SOCKET = frozenset({"connection open", "connection closed",
                            "connection rejected (%d %s)", "HTTP response sent (%d %s)"})

    def __init__(self, enabled: bool) -> None:
        super().__init__()
        self.enabled = enabled

    def filter(self, record: logging.LogRecord) -> bool:
        if self.enabled:
            return True
        msg = record.msg
        return msg not in self.PER_SOCKET and '- "WebSocket ' not in str(msg)


_ws_lines = WebSocketAccessLines(False)


def install_websocket_access_lines(enabled: bool) -> None:
    """Keep uvicorn's per-handshake WebSocket lines only with the access log on."""
    _ws_lines.enabled = enabled
    logger = logging.getLogger("uvicorn.error")
    if _ws_lines not in logger.filters:
        logger.addFilter(_ws_lines)


class RepeatLimiter(logging.Filter):
    """Let a message (by its text before formatting) through at most once per ``window``
    seconds; the first one after a quiet spell says how many were left out."""

    #: what anyone can cause at will, one line per request, in uvicorn's log
    NOISY = ("Invalid HTTP request received.", "Unsupported upgrade request.",
             "Invalid UTF-8 sequence received from client.")

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

    def forget(self) -> None:
        """Start afresh, as if nothing had been let through yet."""
        self._last.clear()
        self._left_out.clear()


_limiter = RepeatLimiter()


class TroubleLines:
    """The warnings of one lasting trouble (the store away): each kind of line (its text
    before formatting, whatever its room) once, then at most once per ``window`` seconds
    with how many like it were left out. A Redis outage wrote a retry line per room each
    second and the subscription's line twice a second; :meth:`over` ends the trouble (the
    next line of each kind is written at once) and says how many lines were left out.
    One per hub: its writer thread and its event loop both write here."""

    def __init__(self, window: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._left_out: dict[str, int] = {}

    def warning(self, logger: logging.Logger, msg: str, *args: Any) -> None:
        now = self.clock()
        with self._lock:
            last = self._last.get(msg)
            if last is not None and now - last < self.window:
                self._left_out[msg] = self._left_out.get(msg, 0) + 1
                return
            self._last[msg] = now
            left_out = self._left_out.pop(msg, 0)
        if left_out:
            msg += f" ({left_out} more like it left out of the log)"
        logger.warning(msg, *args, stacklevel=2)

    def over_note(self) -> str:
        """:meth:`over`, worded for the line that says the trouble ended ("" if nothing
        was left out)."""
        left_out = self.over()
        if not left_out:
            return ""
        lines = "1 warning line about it was" if left_out == 1 else \
            f"{left_out} warning lines about it were"
        return f"; {lines} left out of the log"

    def over(self) -> int:
        """The trouble is over: how many lines were left out since each kind's last."""
        with self._lock:
            left_out = sum(self._left_out.values())
            self._last.clear()
            self._left_out.clear()
        return left_out


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
    """UTC times; and the whole line masked once more, the traceback included (an
    exception's text may quote a request)."""

    converter = time.gmtime

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


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
            # the websockets library's own "connection open/closed/rejected" for every
            # socket: anyone can cause them at will
            "websockets": {"level": "WARNING"},
        },
        "root": {"handlers": ["stderr"], "level": level},
    }


__all__ = ["RepeatLimiter", "TroubleLines", "WebSocketAccessLines", "install_redaction",
           "install_repeat_limit", "install_websocket_access_lines", "log_config", "redact"]
