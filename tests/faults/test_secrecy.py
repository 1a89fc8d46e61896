"""Secrecy faults (R22) in what the table hands its computer players: a view that holds
more than its seat may know lets a bot's guess, shown at the reveal, say what it could not
have worked out."""

from __future__ import annotations

import itertools

import pytest

from clans_pi.rules.constants import CLANS
from clans_pi.table.computers import private_view

from ..ui_helpers import finished_session, with_clans
from . import fault

GAMES = [(n, seed) for n in (2, 3, 4) for seed in (1, 2, 3, 4)]


@fault("secrecy", "The view a computer player guesses the others' clans from, at the reveal, "
       "kept who won, which with the public clan points and chips narrows their clans",
       sees="each computer's guesses at the reveal, worked out from the game as it was played",
       kept="the others' clans stay out of every computer's view until its guess is made")
@pytest.mark.parametrize(("n", "seed"), GAMES, ids=[f"{n}p-seed{s}" for n, s in GAMES])
def test_the_guess_view_is_the_same_whoever_had_the_other_clans(n: int, seed: int) -> None:
    """For each seat of a finished game, every assignment of the other players' clans (each
    a different clan, none the seat's own) gives the very same view: the view cannot tell
    them apart, so neither can a guess made from it."""
    session = finished_session(n, seed=seed)
    assert session.is_over
    clans = tuple(session.to_record()["clans"])
    for seat in range(n):
        me = session.player_of(seat)
        view = private_view(session, seat)
        assert view.own_clan == clans[me]
        others = [p for p in range(n) if p != me]
        free = [c for c in CLANS if c != clans[me]]
        for chosen in itertools.permutations(free, len(others)):
            dealt = list(clans)
            for p, clan in zip(others, chosen, strict=True):
                dealt[p] = clan
            other = with_clans(session, tuple(dealt))
            assert private_view(other, seat) == view, (seat, chosen)
