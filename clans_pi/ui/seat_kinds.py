"""Who plays a seat, as the screens say it: a person, or a computer player at one of three
levels, whose name is its picture's animal and its level, e.g. "Owl (Hard)".

A typed name cannot hold brackets (the on-screen keyboard has none; a physical keyboard's
are refused), so a computer player's name never equals a person's.
"""

from __future__ import annotations

from ..session import COMPUTER_KINDS, HUMAN, SEAT_KINDS, Seat
from .avatars import AVATARS, avatar

LEVEL_LABEL = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}


def kind_label(kind: str) -> str:
    """The seat-kind button's label: "Person", "Computer: Hard", ..."""
    if kind == HUMAN:
        return "Person"
    return f"Computer: {LEVEL_LABEL.get(kind, kind.capitalize())}"


def next_kind(kind: str) -> str:
    """The kind a tap on the button switches to: person, easy, normal, hard, person, ..."""
    kinds = SEAT_KINDS
    return kinds[(kinds.index(kind) + 1) % len(kinds)] if kind in kinds else HUMAN


def computer_name(avatar_key: str, kind: str) -> str:
    return f"{avatar(avatar_key).name} ({LEVEL_LABEL.get(kind, kind.capitalize())})"


def with_kind(seat: Seat, kind: str, index: int) -> Seat:
    """``seat`` played by ``kind``: a computer is named after its picture and level; a seat
    that becomes a person again takes its picture's name."""
    key = seat.avatar or AVATARS[index % len(AVATARS)].key
    if kind in COMPUTER_KINDS:
        return Seat(computer_name(key, kind), key, kind)
    if seat.is_human:
        return Seat(seat.name, key, HUMAN)
    return Seat(avatar(key).name, key, HUMAN)
