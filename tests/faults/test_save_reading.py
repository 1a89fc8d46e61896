"""Faults of reading a save: crafted saves with a valid checksum whose values the game
cannot use (any JSON in any field), and pictures of a save's screens that have nothing to
show.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from clans_pi.saving.store import GameStore
from clans_pi.session import Seat, Session
from tests.faults import fault
from tests.faults.test_store import Screen, _payload, saved_game, write_crafted
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


@fault("save", "a save's peek drawn (`clans-pi render SAVE --screen peek -o PEEK.png`) whose "
       "first seat is a computer's",
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


@fault("save", "crafted save with a valid checksum: phone links of the wrong type ('retired': "
       "5) or for no seat (a seat '²')",
       sees="the game one move earlier; one sentence: the save was damaged and moved aside",
       kept="the previous save; the bad file, moved aside")
@pytest.mark.parametrize(("phones", "said"), [
    ({"tokens": {}, "retired": 5}, "Expected `array`, got `int` - at `$.payload.phones.retired`"),
    ({"tokens": {"²": "A" * 22}, "retired": []},
     "Expected `str` matching regex '^[0-3]\\\\Z' - at `key` in `$.payload.phones.tokens`"),
], ids=["retired-5", "seat-superscript-2"])
def test_a_crafted_save_with_bad_phone_links(tmp_path, monkeypatch, capsys, phones, said):
    """At every start, on the touchscreen and headless: the bad save is moved aside once
    and the previous one is the game, never a traceback (a crash loop on the kiosk)."""
    from clans_pi import cli

    state = tmp_path / "state"
    ply = saved_game(state)
    store = GameStore(state)
    payload = _payload(store)
    payload["phones"] = phones
    write_crafted(store.current, payload)
    bad = store.current.read_bytes()
    # The kiosk's settings: a phone may be a seat (phones are served on an address).
    config = tmp_path / "config.toml"
    config.write_text('[phones]\nlisten = "127.0.0.1:0"\n', encoding="utf-8")
    screen = Screen(monkeypatch)
    assert cli.main(["play", "--config", str(config), "--state-dir", str(state)]) == 0
    assert screen.screens == ["play"] and screen.ply == ply - 1
    assert [n for n in screen.notices if "damaged" in n] == [
        n for n in screen.notices if n.startswith("The saved game was damaged; it was moved "
                                                  "aside (game.json.damaged-")]
    assert any("damaged" in n for n in screen.notices), screen.notices
    aside = list(state.glob("game.json.damaged-*"))
    assert [p.read_bytes() for p in aside] == [bad]  # kept, not deleted
    assert "Traceback" not in capsys.readouterr().err
    # The next start opens the same game without a word: no crash loop.
    screen = Screen(monkeypatch)
    assert cli.main(["play", "--config", str(config), "--state-dir", str(state)]) == 0
    assert screen.ply == ply - 1 and not [n for n in screen.notices if "damaged" in n]
    # Headless, from the same bad save: one sentence, then the previous game played on.
    write_crafted(store.current, payload)
    capsys.readouterr()
    assert cli.main(["play", "--headless", "--seats", "random,random,random", "--state-dir",
                     str(state), "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    # The log's one line for the maker: which file, what is wrong and where in it.
    assert err.splitlines() == [f"clans-pi: {store.current}: {said}"], err
    assert out.splitlines()[0].startswith("The saved game was damaged")
    assert out.splitlines()[1] == f"resumed at move {ply}"
