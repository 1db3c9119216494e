"""Protocol version 1: pydantic models of every message and REST body (docs/protocol.md).

Incoming WebSocket frames go through :func:`parse_client_message`, which turns every kind
of bad input into a :class:`ProtocolError` with a stable code; nothing reaches a room
unless it validated.
"""

from __future__ import annotations

import json
import math
import re
import sys
import unicodedata
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    field_validator,
    model_validator,
)

from colorclash.server.name_rules import (
    hidden_or_smeared,
    imitates_computer,
    imitates_site,
    writes_a_seat_tag,
)

VERSION = 1
NAME_MAX = 20


class ProtocolError(Exception):
    """A refused message: ``code`` is stable (docs/protocol.md section 5)."""

    def __init__(self, code: str, message: str, ref: str | None = None, status: int = 400,
                 retry_after: int | None = None, reason: str | None = None):
        # A lone surrogate a client sent ("\ud800"), quoted back in the message, cannot be
        # encoded as UTF-8: the answer was an HTTP 500, and on a socket no answer at all.
        message = message.encode("utf-8", "backslashreplace").decode("utf-8")
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref
        self.status = status
        self.retry_after = retry_after
        self.reason = reason  # which case of the code (a page words each in its language)
        # an action's refusal: the ``seq`` the action carried (Hub.handle), so that a client
        # waiting for the answer to a later action knows this one is not it
        self.seq: int | None = None

    def to_message(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"v": VERSION, "type": "error", "code": self.code,
                               "message": self.message}
        if self.ref:
            msg["ref"] = self.ref
        if self.retry_after:
            msg["retry_after"] = self.retry_after
        if self.reason:
            msg["reason"] = self.reason
        if self.seq is not None:
            msg["seq"] = self.seq
        return msg


class BadName(ValueError):
    """A text that is not an acceptable name; ``reason`` says which rule it broke, for
    the error's ``reason`` field (the browser words each in the page's language):
    ``empty``, ``too_long``, ``invisible`` (control or format characters: a tab, a line
    break, the joiner inside some emoji), ``unreadable`` (blank letters, characters drawn
    many letters wide, stacked accents), ``computer`` (imitates the computer players),
    ``reserved`` (could pass for the site's own: "Admin", "System", "Color Clash"),
    ``tag`` (a seat's tag in brackets: "Ana (host)")."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def clean_name(value: str) -> str:
    """A display name: trimmed, every run of spaces (of any kind) one plain space, 1..20
    characters, no control or format characters (a tab or a line break is refused, not
    turned into a space), and nothing that imitates the computer players' label."""
    text = str(value)
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") or ch in "\u2028\u2029":
            raise BadName("invisible", "name contains a control or invisible character "
                          "(tabs, line breaks and the joiners inside some emoji included)")
    # every kind of space (no-break, en quad, ideographic, ...) is a plain one: "A\u00a0na"
    # would otherwise differ from "A na" without looking it
    name = "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in text).strip()
    name = re.sub(r" {2,}", " ", name)
    if not name:
        raise BadName("empty", "name must not be empty")
    if len(name) > NAME_MAX:
        raise BadName("too_long", f"name must be at most {NAME_MAX} characters")
    smeared = hidden_or_smeared(name)
    if smeared:
        raise BadName("unreadable", smeared)
    if imitates_computer(name):
        raise BadName("computer", "that name is kept for computer players; choose another")
    if imitates_site(name):
        raise BadName("reserved", "that name could pass for the site's own (Admin, System, "
                      "Color Clash, Seat 2, Host, ...); choose another")
    if writes_a_seat_tag(name):
        raise BadName("tag", "a seat's tag in brackets (host, you, away, left) could pass "
                      "for the table's own; choose another name")
    return name


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ----------------------------------------------------------------------------- engine action
ACTION_FIELDS_MAX = 6


class EngineAction(BaseModel):
    """An engine action as a client may send it: a ``type`` and a few scalar fields, each
    game's own (Color Clash: ``card``, ``color``, ``target``; Coloretto: ``row``; Rainbow:
    ``hand``, ``turned``, ``place``). The shape is checked here, legality by the engine."""

    model_config = ConfigDict(extra="allow", strict=True)
    type: Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[a-z_]+$")]

    @model_validator(mode="after")
    def _scalar_fields(self) -> EngineAction:
        extra = self.model_extra or {}
        if len(extra) > ACTION_FIELDS_MAX:
            raise ValueError(f"an action has at most {ACTION_FIELDS_MAX} fields besides type")
        for name, value in extra.items():
            if not re.fullmatch(r"[a-z_]{1,20}", name):
                raise ValueError(f"unknown action field {name[:20]!r}")
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, int):
                if not -1000 <= value <= 1000:
                    raise ValueError(f"{name}: a number between -1000 and 1000")
            elif isinstance(value, str):
                if not 1 <= len(value) <= 40:
                    raise ValueError(f"{name}: text of 1 to 40 characters")
            else:
                raise ValueError(f"{name}: a text, a whole number or true/false")
        return self

    def to_engine(self) -> dict[str, Any]:
        # Every field goes to the engine as sent, null too: the engine refuses a field
        # its action does not have, or of the wrong kind (dropping nulls here let
        # ``{"type": "draw", "bogus": null}`` be taken as a plain draw).
        return {"type": self.type, **(self.model_extra or {})}


# ----------------------------------------------------------------------------- client -> server
class ActionMsg(_Strict):
    v: Literal[1]
    type: Literal["action"]
    action: EngineAction
    # Optional: the ``seq`` of the state the action was chosen on. A table that moved on
    # since (a clock ran out, a double click's first action) refuses it as
    # ``stale_action`` instead of applying it to a table it was not chosen for.
    seq: int | None = None

    @field_validator("seq")
    @classmethod
    def _a_count(cls, v: Any) -> Any:
        if v is not None and not 0 <= v < 2**63:
            raise ValueError("seq must be a state's seq: an integer from 0")
        return v


class ReadyMsg(_Strict):
    v: Literal[1]
    type: Literal["ready"]
    ready: bool = True


OPTION_TEXT_MAX = 30
_JSON_KINDS = {list: "a list", dict: "an object", float: "a decimal number"}


def _option_value(value: Any) -> str | int | bool:
    """An option's value as a message may give it: a word, a whole number, true or false
    (what the option takes is the game's to check), or null: the option left out. One
    sentence for anything else, where pydantic's union listed three ("clock.constrained-str:
    … clock.int: … clock.bool: …")."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, str):
        if len(value) > OPTION_TEXT_MAX:
            raise ValueError(f"an option's value is at most {OPTION_TEXT_MAX} characters")
        return value
    kind = _JSON_KINDS.get(type(value), type(value).__name__)
    raise ValueError(f"an option's value is a word, a whole number, true or false, not {kind}")


OptionValue = Annotated[Any, PlainValidator(_option_value)]


def _top_match(value: Any) -> str | bool:
    """``match`` at the top of a body: text, as the settings message takes it (``"3"``);
    a number names a match length only inside ``options`` (the REST bodies took one at
    the top too, which protocol.md and the settings message refuse: a contract check)."""
    value = _option_value(value)
    _no_match_number(value, "at the top of a body")
    return value


def _no_match_number(value: Any, where: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool):
        raise ValueError(f'{where} it is text ("{value}"); a number names a match length '
                         "only inside options")


TopMatch = Annotated[Any, PlainValidator(_top_match)]


class SettingsPatch(_Strict):
    # Ranges are checked by the room (bad_settings), types here (bad_message).
    preset: Annotated[str, Field(max_length=30)] | None = None
    seats: int | None = None
    clock: int | None = None
    match: Annotated[str, Field(max_length=8)] | None = None
    # any other option of the room's game and preset (GET /api/games), e.g. "scoring"
    options: Annotated[dict[Annotated[str, Field(max_length=30)], OptionValue],
                       Field(max_length=16)] | None = None

    @field_validator("match", mode="before")
    @classmethod
    def _match_text(cls, v: Any) -> Any:
        # (said as the REST bodies say it: "Input should be a valid string" here)
        _no_match_number(v, "in settings")
        return v

    def to_patch(self) -> dict[str, Any]:
        """The flat patch (``clock`` and ``match`` may also come inside ``options``: in
        both places they must agree, as when a room is made; the socket let ``options``
        win without a word)."""
        top = self.model_dump(exclude_none=True, exclude={"options"})
        try:
            return merge_options(top, self.options)
        except ProtocolError as exc:  # (refused as the settings message's, as the room's are)
            exc.ref = "settings"
            raise


def same_option_value(a: Any, b: Any) -> bool:
    """Do two givings of one option agree? A whole number and its text do (``3`` and
    ``"3"``: which of them the option takes is the game's, checked with the room)."""
    if a == b:
        return True
    if any(isinstance(v, bool) for v in (a, b)):
        return False
    return {type(a), type(b)} == {int, str} and str(a) == str(b)


def merge_options(top: dict[str, Any], options: dict[str, Any] | None) -> dict[str, Any]:
    """``top`` (fields given at the top of a request) with the game's ``options`` merged
    in. An option given at the top too must have the same value (``bad_settings``); a null
    in ``options`` is the option left out (as at the top); ``preset`` and ``seats`` are no
    options."""
    merged = dict(top)
    for name, value in (options or {}).items():
        if name in ("preset", "seats"):
            raise ProtocolError("bad_settings", f"{name} is not an option of the game: give "
                                "it beside options, not inside", status=422)
        if value is None:
            continue
        given = merged.get(name)
        if given is not None and not same_option_value(value, given):
            raise ProtocolError("bad_settings", f"{name} is given twice, as {given!r} and "
                                f"as options.{name} {value!r}: give it once", status=422)
        merged[name] = value
    return merged


class SettingsMsg(_Strict):
    v: Literal[1]
    type: Literal["settings"]
    settings: SettingsPatch


class AddBotMsg(_Strict):
    v: Literal[1]
    type: Literal["add_bot"]
    seat: int  # checked by the room: bad_seat
    level: Annotated[str, Field(max_length=20)] | None = None  # default: the game's


class RemoveBotMsg(_Strict):
    v: Literal[1]
    type: Literal["remove_bot"]
    seat: int


class RemovePlayerMsg(_Strict):
    v: Literal[1]
    type: Literal["remove_player"]
    seat: int


class StartMsg(_Strict):
    v: Literal[1]
    type: Literal["start"]


class ReopenMsg(_Strict):
    v: Literal[1]
    type: Literal["reopen"]


class LeaveMsg(_Strict):
    v: Literal[1]
    type: Literal["leave"]


class PingMsg(_Strict):
    v: Literal[1]
    type: Literal["ping"]
    t: int | float | None = None  # any finite number, echoed in the pong

    @field_validator("t", mode="before")
    @classmethod
    def _a_number(cls, v: Any) -> Any:
        # (a text was refused in the validation library's words, one line per member of
        # the union: "t.int: Input should be a valid integer; t.float: ...")
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            raise ValueError("t must be a number (an integer or a float), or null")
        return v

    @field_validator("t")
    @classmethod
    def _small(cls, v: Any) -> Any:
        if isinstance(v, int) and not -(2**63) <= v < 2**63:  # signed 64 bits
            raise ValueError("t must be an integer of 64 bits (-2**63 to 2**63 - 1), "
                             "or a float")
        return v


CLIENT_MESSAGES: dict[str, type[BaseModel]] = {
    "action": ActionMsg,
    "ready": ReadyMsg,
    "settings": SettingsMsg,
    "add_bot": AddBotMsg,
    "remove_bot": RemoveBotMsg,
    "remove_player": RemovePlayerMsg,
    "start": StartMsg,
    "reopen": ReopenMsg,
    "leave": LeaveMsg,
    "ping": PingMsg,
}


def _game_option_names() -> frozenset[str]:
    from colorclash.engine import GAMES  # (the engine imports nothing of the server)

    return frozenset(o.name for d in GAMES.values() for p in d.presets
                     for o in d.options_for(p))


def error_text(err: Any, takes_options: bool = False) -> str:
    """What one of pydantic's errors says, without its "Value error, " prefix (our own
    checks' messages are written for people already). A field no message of its kind
    has is told so, and where to put it if it is a game's option (pydantic's "Extra
    inputs are not permitted" for a Coloretto ``scoring`` sent beside ``options``) where
    the message has ``options`` (a lobby's settings; ``takes_options``: a REST body)."""
    kind = err.get("type")
    if kind == "extra_forbidden":
        loc = [str(x) for x in err.get("loc", ()) if x != "body"]
        beside = loc[:1] == ["settings"] and len(loc) == 2 or takes_options and len(loc) == 1
        if beside and loc[-1] in _game_option_names() - {"clock", "match"}:
            return "an option of the game: give it inside \"options\""
        return "no such field in this message"
    msg = str(err.get("msg") or "invalid")
    return msg.removeprefix("Value error, ") if kind == "value_error" else msg


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ())) or "message"
        parts.append(f"{loc}: {error_text(err)}")
    return "; ".join(parts)


class NonFinite(ValueError):
    """NaN, Infinity or a number too large for a double: not JSON (RFC 8259)."""


def _refuse_constant(name: str) -> Any:
    raise NonFinite(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFinite(f"{text[:20]} is too large for a number")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 4000:  # (Python's own limit is 4,300 digits: a vague error)
        raise NonFinite(f"{text[:20]}... has {len(text):,} digits: too large for a number")
    return int(text)


# Twenty digits in a row: possibly an integer beyond 64 bits, which orjson reads as a
# float (10**30 became 1e30, and a seat or a clock of that size was refused as a value of
# the wrong type, bad_message, instead of out of range).
_LONG_DIGITS = re.compile(r"[0-9]{19}")  # past 64 bits, orjson reads an integer as a float


def loads_strict(raw: str | bytes) -> Any:
    """``json.loads`` that refuses NaN, Infinity and numbers that overflow to infinity
    (Python's json module accepts all three; they are not JSON). orjson, which refuses
    them too, reads every frame first; what it refuses goes through the json module, so
    that the error says why. A frame with a very long number goes to the json module
    at once, so that an integer stays an integer however large (the command then refuses
    it as out of range: ``bad_seat``, ``bad_settings``)."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if not _LONG_DIGITS.search(text):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite_float,
                      parse_int=_bounded_int)


def dumps(msg: Any) -> str:
    """Compact JSON for the wire (orjson: several times faster than the json module, and
    encoding the states was the largest cost of a busy process). Never NaN or Infinity:
    orjson writes them as null, so nothing invalid can reach a client."""
    return orjson.dumps(msg).decode()


def parse_forwarded_message(data: dict[str, Any]) -> BaseModel:
    """A client message that the process its player is connected to has validated (and
    judged the size of, on the frame as it came) and passed on to the room's owner: read
    again, but its size is not judged again. Encoded anew it is not the frame it was
    (``json.dumps`` wrote each emoji as 12 bytes): a message of 3 KB went through a
    process as ``too_large``, and directly got its real answer (attacker QA)."""
    # (json, not orjson: a key may hold a lone surrogate, written "\\ud800" by the client)
    return parse_client_message(json.dumps(data, ensure_ascii=False), max_frame=sys.maxsize)


def parse_client_message(raw: str | bytes, max_frame: int = 8192,
                         allowed: tuple[str, ...] | None = None) -> BaseModel:
    """Validate one incoming frame; raise :class:`ProtocolError` with a stable code."""
    size = len(raw)
    if isinstance(raw, str) and max_frame < 4 * size <= 4 * max_frame:
        # a text's characters may take up to 4 bytes each: the limit is in bytes
        size = len(raw.encode("utf-8", "surrogatepass"))
    if size > max_frame:
        raise ProtocolError("too_large", f"frame of {size} bytes exceeds {max_frame} bytes")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "frame is not valid UTF-8") from None
    try:
        data = loads_strict(raw)
    except NonFinite as exc:
        raise ProtocolError("bad_json", f"frame is not valid JSON: {exc}") from None
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    if type(data.get("v")) is not int or data["v"] != VERSION:  # not true, not 1.0
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
    kind: str  # "turn", "next", or a game's short clock ("window", "drawn")
    seat: int | None
    deadline: int
    remaining_ms: int
    seconds: float
    hold: list[int] | None = None  # "next": the seats that may hold the pause (ready false)
    cut: bool | None = None  # "turn": the away clock, shorter than the room's (absent: not)


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
    former: str | None = None  # an empty seat freed after the match: who played it
    left: bool | None = None  # a person who chose to leave while playing (a substitute plays)
    substitute_at: int | None = None  # playing, away: when a computer substitute takes the seat


class RoomSettingsInfo(BaseModel):
    """preset, seats and each option of the game's preset (Color Clash: clock, match)."""

    model_config = ConfigDict(extra="allow")
    preset: str
    seats: int
    clock: int | None = None


class RoomInfo(BaseModel):
    code: str
    kind: Literal["private", "practice", "play-now", "quick-match"]
    status: Literal["lobby", "playing", "finished"]
    host: int | None
    link: str
    game: str
    settings: RoomSettingsInfo
    seats: list[SeatInfo]
    match: int
    commitment: str | None
    seed: str | None
    result: dict[str, Any] | None
    records: list[int]


class WelcomeMsg(BaseModel):
    v: Literal[1]
    type: Literal["welcome"]
    seat: int
    code: str
    name: str | None
    server_time: int
    grace: float | None = None


class RecentMoment(BaseModel):
    seq: int
    events: list[dict[str, Any]]


class StateMsg(BaseModel):
    v: Literal[1]
    type: Literal["state"]
    seq: int
    room: RoomInfo
    view: dict[str, Any] | None
    events: list[dict[str, Any]]
    clock: ClockInfo | None
    log_hash: str | None
    recent: list[RecentMoment] | None = None  # a socket's first state only


class CompactStateMsg(StateMsg):
    """A state on a ``compact=1`` socket: ``room`` (and ``view.options``) left out when
    the room has not changed since the socket's previous state."""
    room: RoomInfo | None = None


class ErrorMsg(BaseModel):
    v: Literal[1]
    type: Literal["error"]
    code: str
    message: str
    ref: str | None = None
    retry_after: int | None = None  # rate_limited: seconds before a retry is accepted


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
    if data["type"] == "state" and "room" not in data:
        return CompactStateMsg.model_validate(data)
    return SERVER_MESSAGES[data["type"]].model_validate(data)


# ----------------------------------------------------------------------------- REST bodies
class _Body(BaseModel):
    """REST bodies, as strict as the WebSocket's frames: unknown fields and values of the
    wrong JSON type ("3" or 3.0 for a number, 1 for a flag) are refused (bad_message)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class _NameMixin(_Body):
    name: str = "Player"

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v)


class _GameMixin(_Body):
    game: Annotated[str, Field(max_length=30)] | None = None  # default: color-clash


class _OptionsMixin(_GameMixin):
    # Any option of the game's preset besides clock and match (GET /api/games).
    options: Annotated[dict[Annotated[str, Field(max_length=30)], OptionValue],
                       Field(max_length=16)] | None = None


class CreateRoomBody(_NameMixin, _OptionsMixin):
    # Ranges (seats, clock, match) are the room's to check: bad_settings, guest_limit.
    preset: Annotated[str, Field(max_length=30)] | None = None
    seats: int | None = None
    # (options of the preset, given at the top level: any option value, so that a wrong
    # one is told in the option's words, as in ``options``: "takes a number (15, 20, …)")
    clock: OptionValue | None = None
    match: TopMatch | None = None
    host_key: Annotated[str, Field(max_length=200)] | None = None


class JoinBody(_NameMixin):
    seat: int | None = None  # checked by the room: bad_seat


class PracticeBody(_NameMixin, _OptionsMixin):
    bots: int | None = None  # default: the game's usual table (Color Clash: 3)
    level: Annotated[str, Field(max_length=20)] | None = None  # default: the game's
    preset: Annotated[str, Field(max_length=30)] | None = None
    clock: OptionValue | None = None  # (as in CreateRoomBody)
    match: TopMatch | None = None


class PlayNowBody(_NameMixin, _GameMixin):
    pass


class QuickMatchBody(_GameMixin):
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
    game: str
    preset: str


class PresetInfo(BaseModel):
    name: str
    clock_choices: list[int]
    clock_default: int
    match_choices: list[str] = []
    match_default: str | None = None
    timeout_policy: str | None = None


class PresetsAnswer(BaseModel):
    presets: list[PresetInfo]
    default: str
    seats: dict[str, int]
    bot_levels: list[str]
