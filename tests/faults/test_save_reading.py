"""Faults of reading a save: crafted saves with a valid checksum whose values the game
cannot use (any JSON in any field), and pictures of a save's screens that have nothing to
show.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from clans_pi.persistence import GameStore
from clans_pi.session import Seat, Session
from tests.faults import fault
from tests.ui_helpers import offscreen_app, random_session


def _save_with_kinds(directory: Path, kinds: list[str]) -> tuple[Path, Session]:
    """A game saved by the table whose seats are played by ``kinds`` (table order)."""
    played = random_session(len(kinds), moves=6)
    session = Session.load(played.to_json(), played.board, played.chart,
                           seats=[Seat(s.name, "", kind)
                                  for s, kind in zip(played.seats, kinds, strict=True)])
    store = GameStore(directory)
    store.save(session)
    return store.current, session


@fault("save", "clans-pi render SAVE --screen peek where the first seat is a computer's",
       sees="the first person's peek (no person at all: one line saying so, exit 1)",
       kept="the save, untouched")
def test_render_peek_of_a_save_whose_first_seat_is_a_computer(tmp_path, capsys):
    from clans_pi.cli import main
    from clans_pi.ui.screens.peek import PeekScreen

    path, session = _save_with_kinds(tmp_path / "state", ["easy", "human", "human"])
    before = path.read_bytes()
    out = tmp_path / "peek.png"
    assert main(["render", str(path), "--screen", "peek", "-o", str(out)]) == 0
    assert capsys.readouterr().err == ""
    # The picture is seat 2's own peek (the first person's), as the table draws it.
    app, _clock = offscreen_app()
    app.table.session = session
    app.table.seats = list(session.seats)
    app.show(PeekScreen(app, session, 1, done=app.play, deal=False))
    app.redraw()
    drawn = pygame.image.load(str(out))
    assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(app.surface, "RGB")
    # Nobody is a person: one line, no picture, no traceback.
    first = path
    path, _ = _save_with_kinds(tmp_path / "demo", ["easy", "hard"])
    none = tmp_path / "none.png"
    assert main(["render", str(path), "--screen", "peek", "-o", str(none)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"clans-pi render: {path}: no seat is played by a person, "
                                "so there is no peek to draw"], err
    assert not none.exists() and first.read_bytes() == before
