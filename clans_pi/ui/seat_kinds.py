"""Who plays a seat, as the screens say it: a person, or a computer player at one of three
levels, whose name is its picture's animal and its level, e.g. "Owl (Hard)".

A typed name cannot hold brackets (the on-screen keyboard has none; a physical keyboard's
are refused), so a computer player's name never equals a person's.

The levels' words (:func:`level_label`, :func:`kind_label`) live with the seats in
:mod:`clans_pi.session`: the past games' scoreboard names computers by them too.
"""

from __future__ import annotations

from ..i18n import _
from ..session import COMPUTER_KINDS, HUMAN, LEVEL_LABEL, SEAT_KINDS, Seat, kind_label, level_label
from .avatars import AVATARS, avatar


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



def seats_from_names(names: list[str]) -> list[Seat]:
    """Seats for a game known only by its players' names (a record, a clans-state file):
    a computer's name ("Owl (Hard)") gives back its picture and level, a name that is a
    picture's ("Fox") that picture; every other player gets a picture nobody else has, so
    the pictures follow the players, not the turn order."""
    by_name: dict[str, Seat] = {}
    for a in AVATARS:
        by_name.setdefault(a.label, Seat(a.label, a.key))
        by_name.setdefault(a.name, Seat(a.name, a.key))
        for kind in COMPUTER_KINDS:
            by_name.setdefault(computer_name(a.key, kind), Seat("", a.key, kind))
            english = f"{a.name} ({LEVEL_LABEL.get(kind, kind)})"
            by_name.setdefault(english, Seat("", a.key, kind))
    seats: list[Seat | None] = []
    used: set[str] = set()
    for name in names:
        known = by_name.get(name)
        if known is not None and known.avatar not in used:
            used.add(known.avatar)
            seats.append(Seat(name, known.avatar, known.kind))
        else:
            seats.append(None)
    free = iter(a.key for a in AVATARS if a.key not in used)
    return [s if s is not None else Seat(name, next(free, "")) for s, name in zip(seats, names,
                                                                                  strict=True)]


__all__ = ["LEVEL_LABEL", "computer_name", "default_name", "kind_label", "level_label",
           "next_kind", "seats_from_names", "with_kind"]
