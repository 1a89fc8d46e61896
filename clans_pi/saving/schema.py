"""The saved game's schema (``clans-save/1``): every field a save may hold, its type and its
bounds, declared once and checked in one place (:func:`check_save`) before anything of the
save is used, so that no value a crafted file can hold reaches the game.

Declared with msgspec rather than pydantic or a checker of our own: msgspec is one small C
extension without dependencies (aarch64 wheels for every Python the Pi runs), strict by
default (no ``"1"`` taken for 1, no ``true`` for an integer, no float for an integer), and
its one-line errors name the first wrong value's place (``... - at
`$.payload.phones.retired```). Pydantic would bring pydantic-core, typing-extensions and
annotated-types and coerce values unless told not to in every model; our own checker would
be one more parser of untrusted input to get right.

What the schema cannot say (the moves are legal, the seats are the game's players) the
rules check when the game is replayed (:func:`clans_pi.rules.record.from_json`). Fields a
save does not know are ignored: nothing reads them and the next save does not keep them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct, field

from ..rules.constants import CLANS, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, NUM_TERRITORIES

SAVE_FORMAT = "clans-save/1"

#: Text shown on the screen: no control characters, no lone surrogates (not UTF-8).
_SHOWN = r"^[^\x00-\x1f\x7f\ud800-\udfff]*\Z"
#: A player's name: what the on-screen keyboard lets a family type (12 letters), with room
#: for the headless game's and older versions' names; the rules hold records to the same
#: bound (MAX_NAME_LENGTH code points: combining marks count).
Name = Annotated[str, Meta(min_length=1, max_length=MAX_NAME_LENGTH, pattern=_SHOWN)]
#: An avatar's key ("" lets the screen choose one; an unknown key is drawn as "").
Avatar = Annotated[str, Meta(max_length=32, pattern=r"^[a-z0-9_-]*\Z")]
#: Who plays a seat: a person, a computer level, or the headless game's random mover.
Kind = Literal["human", "easy", "normal", "hard", "random"]
Territory = Annotated[int, Meta(ge=0, lt=NUM_TERRITORIES)]
Count = Annotated[int, Meta(ge=0, le=1_000_000)]
Short = Annotated[str, Meta(max_length=64, pattern=_SHOWN)]
#: A phone seat's link: 26 characters of lower-case base32 (22 of base64url in older saves).
Token = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{22,64}\Z")]
#: A phone seat's number (0-based) as a JSON object's key.
SeatKey = Annotated[str, Meta(pattern=rf"^[0-{MAX_PLAYERS - 1}]\Z")]


class Epoch(Struct):
    number: Count
    chips: Count
    bonus: Count
    name: Short = ""
    favourable: list[Short] = []
    hostile: list[Short] = []


class Chart(Struct):
    epochs: Annotated[list[Epoch], Meta(min_length=1, max_length=64)]
    format: Short = "clans-epochs/1"
    id: Short = ""


class Move(Struct, omit_defaults=True):
    src: Territory = field(name="from")
    dst: Territory = field(name="to")
    order: Annotated[list[Territory], Meta(max_length=NUM_TERRITORIES)] | None = None


class Record(Struct):
    format: Literal["clans-record/1"]
    players: Annotated[list[Name], Meta(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    clans: Annotated[list[Literal[CLANS]], Meta(max_length=len(CLANS))]  # type: ignore[valid-type]
    huts: Annotated[dict[Annotated[str, Meta(pattern=r"^[0-9]{1,2}\Z")],
                         Literal[CLANS]],  # type: ignore[valid-type]
                    Meta(max_length=NUM_TERRITORIES)]
    moves: Annotated[list[Move], Meta(max_length=10_000)]


class Game(Struct):
    format: Literal["clans-state/1"]
    board: Short
    chart: Chart
    record: Record


class Seat(Struct):
    name: Name
    avatar: Avatar = ""
    kind: Kind = "human"


class Phones(Struct):
    """The phone seats' links (:class:`clans_pi.phones.tokens.SeatTokens` as JSON)."""

    tokens: dict[SeatKey, Token] = {}
    retired: Annotated[list[Token], Meta(max_length=64)] = []


class Payload(Struct):
    game: Game
    seats: Annotated[list[Seat], Meta(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    generation: Annotated[int, Meta(ge=1, lt=2**62)]
    can_undo: bool = False
    undo_moves: Count | None = None  # saves before computers: can_undo only
    guide: Annotated[list[Short], Meta(max_length=1000)] = []  # saves before the guide
    phones: Phones | None = None  # saves without phone seats


class SaveFile(Struct):
    format: Literal["clans-save/1"]
    sha256: Annotated[str, Meta(pattern=r"^[0-9a-f]{64}\Z")]
    payload: Payload


class SchemaError(ValueError):
    """A save that does not fit the schema: what is wrong and where, in one line."""


def check_save(doc: Any) -> Payload:
    """The save ``doc`` (its JSON, read) checked against the schema: its payload, typed.
    Raises :class:`SchemaError` naming the first wrong value and its place."""
    try:
        save = msgspec.convert(doc, SaveFile)
    except msgspec.ValidationError as exc:
        raise SchemaError(str(exc)) from None
    payload = save.payload
    if payload.phones is not None:
        seats = [int(k) for k in payload.phones.tokens]
        if any(k >= len(payload.seats) for k in seats):
            raise SchemaError("a phone link for a seat the game does not have - at "
                              "`$.payload.phones.tokens`")
        if len(set(payload.phones.tokens.values())) != len(seats):
            raise SchemaError("two seats share a phone link - at `$.payload.phones.tokens`")
    return payload


def phone_links(payload: Payload) -> dict[str, Any]:
    """The checked phone links as the session keeps them (empty: no phone seats)."""
    if payload.phones is None:
        return {}
    return msgspec.to_builtins(payload.phones)  # type: ignore[no-any-return]
