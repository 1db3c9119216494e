"""Protocol version 1: pydantic models of every message and REST body (docs/protocol.md).

Incoming WebSocket frames go through :func:`parse_client_message`, which turns every kind
of bad input into a :class:`ProtocolError` with a stable code; nothing reaches a room
unless it validated.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

VERSION = 1
NAME_MAX = 20


class ProtocolError(Exception):
    """A refused message: ``code`` is stable (docs/protocol.md section 5)."""

    def __init__(self, code: str, message: str, ref: str | None = None, status: int = 400):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref
        self.status = status

    def to_message(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"v": VERSION, "type": "error", "code": self.code,
                               "message": self.message}
        if self.ref:
            msg["ref"] = self.ref
        return msg


def clean_name(value: str) -> str:
    """A display name: trimmed, 1..20 characters, no control or format characters."""
    name = " ".join(str(value).split())
    if not name:
        raise ValueError("name must not be empty")
    if len(name) > NAME_MAX:
        raise ValueError(f"name must be at most {NAME_MAX} characters")
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise ValueError("name contains a control character")
    return name


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ----------------------------------------------------------------------------- engine action
class EngineAction(_Strict):
    """An engine action as a client may send it. The engine checks legality."""

    type: Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[a-z_]+$")]
    card: Annotated[str, Field(min_length=1, max_length=24)] | None = None
    color: Annotated[str, Field(min_length=1, max_length=2)] | None = None
    target: Annotated[int, Field(ge=0, le=5)] | None = None
    on: bool | None = None

    def to_engine(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


# ----------------------------------------------------------------------------- client -> server
class ActionMsg(_Strict):
    v: Literal[1]
    type: Literal["action"]
    action: EngineAction


class ReadyMsg(_Strict):
    v: Literal[1]
    type: Literal["ready"]
    ready: bool = True


class SettingsPatch(_Strict):
    preset: Annotated[str, Field(max_length=30)] | None = None
    seats: Annotated[int, Field(ge=2, le=6)] | None = None
    clock: Annotated[int, Field(ge=1, le=3600)] | None = None
    match: Annotated[str, Field(max_length=8)] | None = None


class SettingsMsg(_Strict):
    v: Literal[1]
    type: Literal["settings"]
    settings: SettingsPatch


class AddBotMsg(_Strict):
    v: Literal[1]
    type: Literal["add_bot"]
    seat: Annotated[int, Field(ge=0, le=5)]
    level: Annotated[str, Field(max_length=20)] = "easy"


class RemoveBotMsg(_Strict):
    v: Literal[1]
    type: Literal["remove_bot"]
    seat: Annotated[int, Field(ge=0, le=5)]


class StartMsg(_Strict):
    v: Literal[1]
    type: Literal["start"]


class LeaveMsg(_Strict):
    v: Literal[1]
    type: Literal["leave"]


class PingMsg(_Strict):
    v: Literal[1]
    type: Literal["ping"]
    t: float | int | str | None = None

    @field_validator("t")
    @classmethod
    def _short(cls, v: Any) -> Any:
        if isinstance(v, str) and len(v) > 64:
            raise ValueError("t must be at most 64 characters")
        return v


CLIENT_MESSAGES: dict[str, type[BaseModel]] = {
    "action": ActionMsg,
    "ready": ReadyMsg,
    "settings": SettingsMsg,
    "add_bot": AddBotMsg,
    "remove_bot": RemoveBotMsg,
    "start": StartMsg,
    "leave": LeaveMsg,
    "ping": PingMsg,
}


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ())) or "message"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def parse_client_message(raw: str | bytes, max_frame: int = 8192,
                         allowed: tuple[str, ...] | None = None) -> BaseModel:
    """Validate one incoming frame; raise :class:`ProtocolError` with a stable code."""
    if len(raw) > max_frame:
        raise ProtocolError("too_large", f"frame of {len(raw)} bytes exceeds {max_frame} bytes")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "frame is not valid UTF-8") from None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    if data.get("v") != VERSION or isinstance(data.get("v"), bool):
        raise ProtocolError("bad_version", f"unsupported protocol version; send \"v\": {VERSION}")
    mtype = data.get("type")
    model = CLIENT_MESSAGES.get(mtype) if isinstance(mtype, str) else None
    if model is None or (allowed is not None and mtype not in allowed):
        known = ", ".join(allowed or tuple(CLIENT_MESSAGES))
        shown = mtype if isinstance(mtype, str) and len(mtype) <= 30 else "?"
        raise ProtocolError("unknown_type", f"unknown message type {shown!r}; known: {known}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ProtocolError("bad_message", f"invalid {mtype} message: {_describe(exc)}",
                            ref=mtype) from None


# ----------------------------------------------------------------------------- server -> client
class ClockInfo(BaseModel):
    kind: Literal["turn", "window", "drawn", "next"]
    seat: int | None
    deadline: int
    remaining_ms: int
    seconds: float


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot", "empty"]
    name: str | None
    label: str | None = None
    level: str | None = None
    connected: bool
    ready: bool
    substitute: bool
    away_since: int | None


class RoomSettingsInfo(BaseModel):
    preset: str
    seats: int
    clock: int
    match: str


class RoomInfo(BaseModel):
    code: str
    kind: Literal["private", "practice", "play-now", "quick-match"]
    status: Literal["lobby", "playing", "finished"]
    host: int | None
    link: str
    settings: RoomSettingsInfo
    seats: list[SeatInfo]
    match: int
    commitment: str | None
    seed: str | None
    result: dict[str, Any] | None


class WelcomeMsg(BaseModel):
    v: Literal[1]
    type: Literal["welcome"]
    seat: int
    code: str
    name: str | None
    server_time: int


class StateMsg(BaseModel):
    v: Literal[1]
    type: Literal["state"]
    seq: int
    room: RoomInfo
    view: dict[str, Any] | None
    events: list[dict[str, Any]]
    clock: ClockInfo | None


class ErrorMsg(BaseModel):
    v: Literal[1]
    type: Literal["error"]
    code: str
    message: str
    ref: str | None = None


class PongMsg(BaseModel):
    v: Literal[1]
    type: Literal["pong"]
    t: float | int | str | None = None
    server_time: int


class QueueMsg(BaseModel):
    v: Literal[1]
    type: Literal["queue"]
    waiting: int
    name: str


class MatchedMsg(BaseModel):
    v: Literal[1]
    type: Literal["matched"]
    code: str
    seat: int
    token: str
    name: str
    ws: str


SERVER_MESSAGES: dict[str, type[BaseModel]] = {
    "welcome": WelcomeMsg, "state": StateMsg, "error": ErrorMsg, "pong": PongMsg,
    "queue": QueueMsg, "matched": MatchedMsg,
}


def validate_server_message(data: dict[str, Any]) -> BaseModel:
    """Check an outgoing message against its model (used by the tests)."""
    return SERVER_MESSAGES[data["type"]].model_validate(data)


# ----------------------------------------------------------------------------- REST bodies
class _Body(BaseModel):
    """REST bodies: unknown fields refused; form-style values ("3") accepted as numbers."""

    model_config = ConfigDict(extra="forbid")


class _NameMixin(_Body):
    name: str = "Player"

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v)


class CreateRoomBody(_NameMixin):
    preset: Annotated[str, Field(max_length=30)] | None = None
    seats: Annotated[int, Field(ge=2, le=6)] = 4
    clock: Annotated[int, Field(ge=1, le=3600)] | None = None
    match: Annotated[str, Field(max_length=8)] | None = None
    host_key: Annotated[str, Field(max_length=200)] | None = None


class JoinBody(_NameMixin):
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


class PracticeBody(_NameMixin):
    bots: Annotated[int, Field(ge=1, le=5)] = 3
    level: Annotated[str, Field(max_length=20)] = "easy"
    preset: Annotated[str, Field(max_length=30)] | None = None
    clock: Annotated[int, Field(ge=1, le=3600)] | None = None
    match: Annotated[str, Field(max_length=8)] | None = None


class PlayNowBody(_NameMixin):
    pass


class QuickMatchBody(_Body):
    preset: Annotated[str, Field(max_length=30)] | None = None


class SeatTicket(BaseModel):
    code: str
    seat: int
    token: str
    url: str
    qr: str
    ws: str


class QueueTicket(BaseModel):
    ticket: str
    name: str
    status: Literal["waiting", "matched"]
    waiting: int
    ws: str


class PresetInfo(BaseModel):
    name: str
    clock_choices: list[int]
    clock_default: int
    match_choices: list[str]
    match_default: str
    timeout_policy: str


class PresetsAnswer(BaseModel):
    presets: list[PresetInfo]
    default: str
    seats: dict[str, int]
    bot_levels: list[str]
