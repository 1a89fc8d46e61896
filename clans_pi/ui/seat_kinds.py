"""Who plays a seat, as the screens say it: a person, or a computer player at one of three
levels, whose name is its picture's animal and its level, e.g. "Owl (Hard)".

A typed name cannot hold brackets (the on-screen keyboard has none; a physical keyboard's
are refused), so a computer player's name never equals a person's.
"""

from __future__ import annotations

from ..i18n import N_, _
from ..session import COMPUTER_KINDS, HUMAN, SEAT_KINDS, Seat
from .avatars import AVATARS, avatar

LEVEL_LABEL = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


def level_label(kind: str) -> str:
    """A computer level's name in the language in use."""
    return _(LEVEL_LABEL[kind]) if kind in LEVEL_LABEL else kind.capitalize()


def kind_label(kind: str) -> str:
    """The seat-kind button's label: "Person", "Computer: Hard", ..."""
    if kind == HUMAN:
        return _("Person")
    return _("Computer: {level}").format(level=level_label(kind))


def next_kind(kind: str) -> str:
    """The kind a tap on the button switches to: person, easy, normal, hard, person, ..."""
    kinds = SEAT_KINDS
    return kinds[(kinds.index(kind) + 1) % len(kinds)] if kind in kinds else HUMAN


def computer_name(avatar_key: str, kind: str) -> str:
    # TRANSLATORS: a computer player's name, e.g. "Owl (Hard)"; keep the brackets (a typed
    # name cannot hold them, so a person's name never equals a computer's).
    return _("{animal} ({level})").format(animal=avatar(avatar_key).label,
                                          level=level_label(kind))


def default_name(seat: Seat) -> str:
    """The name ``seat`` would have from its picture alone, in the language in use."""
    if not seat.avatar:
        return seat.name
    if seat.is_human:
        return avatar(seat.avatar).label
    return computer_name(seat.avatar, seat.kind)


def with_kind(seat: Seat, kind: str, index: int) -> Seat:
    """``seat`` played by ``kind``: a computer is named after its picture and level; a seat
    that becomes a person again takes its picture's name."""
    key = seat.avatar or AVATARS[index % len(AVATARS)].key
    if kind in COMPUTER_KINDS:
        return Seat(computer_name(key, kind), key, kind)
    if seat.is_human:
        return Seat(seat.name, key, HUMAN)
    return Seat(avatar(key).label, key, HUMAN)

