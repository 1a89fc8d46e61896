"""Who plays a seat, as the screens say it: a person, or a computer player at one of three
levels, whose name is its picture's animal and its level, e.g. "Owl (Hard)".

A typed name cannot hold brackets (the on-screen keyboard has none; a physical keyboard's
are refused), so a computer player's name never equals a person's.

The levels' words (:func:`level_label`, :func:`kind_label`) live with the seats in
:mod:`clans_pi.session`: the past games' scoreboard names computers by them too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol

from ..i18n import LANGUAGES, N_, _, gettext_in
from ..session import COMPUTER_KINDS, HUMAN, LEVEL_LABEL, SEAT_KINDS, Seat, kind_label, level_label
from .avatars import AVATARS, avatar


def next_kind(kind: str) -> str:
    """The kind a tap on the button switches to: person, easy, normal, hard, person, ..."""
    kinds = SEAT_KINDS
    return kinds[(kinds.index(kind) + 1) % len(kinds)] if kind in kinds else HUMAN


# TRANSLATORS: a computer player's name, e.g. "Owl (Hard)"; keep the brackets (a typed
# name cannot hold them, so a person's name never equals a computer's).
COMPUTER_NAME = N_("{animal} ({level})")


def computer_name(avatar_key: str, kind: str) -> str:
    """A computer player's name, its picture's animal and its level ("Owl (Hard)")."""
    return _computer_name(_, avatar_key, kind)


def _computer_name(gettext: Callable[[str], str], avatar_key: str, kind: str) -> str:
    """A computer player's name in the language of ``gettext``."""
    level = gettext(LEVEL_LABEL[kind]) if kind in LEVEL_LABEL else kind.capitalize()
    return gettext(COMPUTER_NAME).format(animal=gettext(avatar(avatar_key).name), level=level)


class Player(Protocol):
    """A seat as a game or a record keeps it (a Seat, a past game's PastPlayer)."""

    @property
    def name(self) -> str: ...

    @property
    def avatar(self) -> str: ...

    @property
    def kind(self) -> str: ...


@functools.cache
def _default_names() -> dict[str, tuple[str, str]]:
    """Every name a seat gets from its picture alone, in every language: a picture's own
    name ("Fox", "Fuchs", ...) and a computer's ("Owl (Normal)", "Eule (Mittel)", ...), each
    with its picture and who plays it."""
    names: dict[str, tuple[str, str]] = {}
    for code in LANGUAGES:
        gettext = gettext_in(code)
        for a in AVATARS:
            names.setdefault(gettext(a.name), (a.key, HUMAN))
            for kind in COMPUTER_KINDS:
                names.setdefault(_computer_name(gettext, a.key, kind), (a.key, kind))
    return names


def shown_name(player: Player) -> str:
    """``player``'s name as the table says it now: a name the seat had from its picture
    alone (a picture's own name, a computer's), kept by a game played in any language, in
    the language in use ("Fox" and "Owl (Normal)" are "Fuchs" and "Eule (Mittel)" in
    German); a typed name as typed. A record that kept no picture (an old one) is known by
    the name alone."""
    known = _default_names().get(player.name)
    if known is None:
        return player.name
    key, kind = known
    if player.avatar and (player.avatar, player.kind) != (key, kind):
        return player.name  # a typed name that happens to be another picture's
    return avatar(key).label if kind == HUMAN else computer_name(key, kind)


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
           "next_kind", "seats_from_names", "shown_name", "with_kind"]
