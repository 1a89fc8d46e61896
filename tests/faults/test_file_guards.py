"""Faults of the files the game reads, crafted past what Python's json module can read:
nesting thousands deep (it recurses once a level) and integers of thousands of digits
(Python refuses more than 4,300). Every reader goes through the guarded one
(:func:`clans_pi.saving.files.read_json`): one line naming the file, never a traceback,
nothing lost.
"""

from __future__ import annotations

import json
import logging

import pytest

from clans_pi.history.hiding_cache import CACHE_NAME as HIDING_CACHE
from clans_pi.history.hiding_cache import HidingCache
from clans_pi.history.index import CACHE_NAME as INDEX_CACHE
from clans_pi.saving.store import GameStore, payload_text
from tests.faults import fault
from tests.faults.test_store import Screen, _payload, saved_game, write_crafted
from tests.history_helpers import family_games, history
from tests.ui_helpers import BOARD, CHART

DEEP = {"3000-deep": 3_000, "100000-deep": 100_000}


def _deep(n: int) -> str:
    return "[" * n + "]" * n


def _long_integer_record() -> str:
    """A record whose first move comes from a territory of 5,000 digits."""
    return ('{"format": "clans-record/1", "players": ["Anna", "Ben"], "clans": [], '
            '"huts": {}, "moves": [{"from": ' + "9" * 5_000 + ', "to": 1}]}')


CRAFTED = {**{name: _deep(n) for name, n in DEEP.items()},
           "5000-digit-integer": _long_integer_record()}
SAID = {"3000-deep": "nested deeper than 64 levels",
        "100000-deep": "nested deeper than 64 levels",
        "5000-digit-integer": "an integer longer than 30 digits"}


@fault("save", "a file given to `clans-pi play --load FILE`, `render` or `replay` nested 3,000 or "
       "100,000 deep, or a record with a 5,000-digit integer",
       sees="one line naming the file and what is wrong; exit 1",
       kept="the file, untouched")
@pytest.mark.parametrize("crafted", sorted(CRAFTED))
@pytest.mark.parametrize("command", ["play", "render", "replay"])
def test_a_command_given_a_file_too_deep_or_with_too_long_an_integer(tmp_path, monkeypatch,
                                                                     capsys, command,
                                                                     crafted):
    from clans_pi import cli
    from clans_pi.ui import run

    monkeypatch.setattr(run, "play", lambda *a, **k: pytest.fail("the game started"))
    path = tmp_path / "crafted.json"
    path.write_text(CRAFTED[crafted], encoding="utf-8")
    before = path.read_bytes()
    args = {"play": ["play", "--load", str(path), "--state-dir", str(tmp_path)],
            "render": ["render", str(path), "-o", str(tmp_path / "x.png")],
            "replay": ["replay", str(path)]}[command]
    what = "record" if command == "replay" else "game file"
    assert cli.main(args) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"clans-pi {command}: {what} {path}: {SAID[crafted]}"], err
    assert path.read_bytes() == before and not (tmp_path / "x.png").exists()


@fault("save", "crafted save with a valid checksum found at start: nested 3,000 deep, or an "
       "integer of 5,000 digits",
       sees="the game one move earlier; one sentence: the save was damaged and moved aside",
       kept="the previous save; the bad file, moved aside")
@pytest.mark.parametrize("crafted", ["3000-deep", "5000-digit-integer"])
def test_a_save_too_deep_or_with_too_long_an_integer_at_start(tmp_path, monkeypatch, capsys,
                                                              crafted):
    from clans_pi import cli

    state = tmp_path / "state"
    ply = saved_game(state)
    store = GameStore(state)
    payload = _payload(store)
    value = _deep(3_000) if crafted == "3000-deep" else "9" * 5_000
    text = payload_text({**payload, "guide": 0}).replace('"guide":0', '"guide":' + value)
    write_crafted(store.current, None, text=text)
    bad = store.current.read_bytes()
    screen = Screen(monkeypatch)
    assert cli.main(["play", "--state-dir", str(state)]) == 0
    assert screen.screens == ["play"] and screen.ply == ply - 1
    damaged = [n for n in screen.notices if "damaged" in n]
    assert len(damaged) == 1 and damaged[0].startswith(
        "The saved game was damaged; it was moved aside (game.json.damaged-"), damaged
    assert [p.read_bytes() for p in state.glob("game.json.damaged-*")] == [bad]
    assert "Traceback" not in capsys.readouterr().err
    # Headless, from the same bad save: the maker's line says what is wrong with it.
    write_crafted(store.current, None, text=text)
    assert cli.main(["play", "--headless", "--seats", "random,random,random", "--state-dir",
                     str(state), "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"clans-pi: {store.current}: {SAID[crafted]}"], err
    assert out.splitlines()[1] == f"resumed at move {ply}"


@fault("save", "the past games' index, or the hiding readings' cache, nested 3,000 deep or "
       "holding a 5,000-digit integer",
       sees="nothing: the past games as always; one log line for the maker",
       kept="every record; the index rebuilt from them")
@pytest.mark.parametrize("crafted", ["3000-deep", "5000-digit-integer"])
def test_a_cache_too_deep_or_with_too_long_an_integer_is_rebuilt(tmp_path, caplog, crafted):
    records = tmp_path / "records"
    family_games(records, 3)
    files = sorted(g.file for g in history(records).games)
    cache = tmp_path / INDEX_CACHE
    assert json.loads(cache.read_text(encoding="utf-8"))["records"]  # the index was kept
    text = _deep(3_000) if crafted == "3000-deep" else '{"key": ' + "7" * 5_000 + "}"
    cache.write_text(text, encoding="utf-8")
    (tmp_path / HIDING_CACHE).write_text(text, encoding="utf-8")
    with caplog.at_level(logging.INFO):
        again = history(records)
        HidingCache(tmp_path, BOARD, CHART).load()  # read at start, on its own thread
    assert sorted(g.file for g in again.games) == files and again.damaged == []
    # Rebuilt: the next start reads it again.
    assert sorted(json.loads(cache.read_text(encoding="utf-8"))["records"]) == files
    lines = [r.getMessage() for r in caplog.records if INDEX_CACHE in r.getMessage()
             or HIDING_CACHE in r.getMessage()]
    assert lines == [f"{cache} not used, rebuilt: {SAID[crafted]}",
                     f"{tmp_path / HIDING_CACHE} not used, rebuilt: {SAID[crafted]}"], lines


@fault("save", "a record among the past games nested 3,000 deep or holding a 5,000-digit "
       "integer",
       sees="the other games; `clans-pi history` says in one line that it is left out and why",
       kept="the record, untouched; every other game")
@pytest.mark.parametrize("crafted", sorted(CRAFTED))
def test_a_record_too_deep_or_with_too_long_an_integer_is_left_out(tmp_path, capsys, crafted):
    from clans_pi import cli

    records = tmp_path / "records"
    family_games(records, 2)
    bad = records / "20261120-101010-crafted.json"
    bad.write_text(CRAFTED[crafted], encoding="utf-8")
    assert cli.main(["history", "--state-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"clans-pi history: {bad.name} left out: not readable "
                                f"({SAID[crafted]})"], err
    assert out.startswith(f"2 finished games in {records}")
    assert bad.read_text(encoding="utf-8") == CRAFTED[crafted]
