"""Saving after every move: round trips, damaged saves moved aside for the previous good
one, finished games kept as records, and SIGKILL at random moments (200+ kills) losing no
completed move."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import re
import signal
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clans_pi.rules.record import replay, result
from clans_pi.saving.store import SAVE_FORMAT, GameStore
from clans_pi.table.headless import run_headless
from tests.ui_helpers import BOARD, CHART, random_session


def test_round_trip_keeps_game_seats_and_undo(tmp_path):
    store = GameStore(tmp_path)
    session = random_session(3, moves=7)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    store.save(session)
    loaded, problems = store.load(BOARD, CHART)
    assert problems == []
    assert loaded.public() == session.public()
    assert loaded.seats == session.seats
    assert loaded.can_undo  # the rules still allow taking the last move back
    assert loaded.private(1).own_clan == session.private(1).own_clan
    doc = json.loads(store.current.read_text())
    assert doc["format"] == SAVE_FORMAT and len(doc["sha256"]) == 64


def test_nothing_saved_means_no_game(tmp_path):
    assert GameStore(tmp_path / "none").load(BOARD, CHART) == (None, [])


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty"])
def test_damaged_save_is_moved_aside_and_the_previous_one_used(tmp_path, damage):
    store = GameStore(tmp_path)
    session = random_session(3, moves=5)
    store.save(session)
    before = session.public().ply
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    store.save(session)
    data = store.current.read_bytes()
    if damage == "flip":
        i = data.index(b'"from"')
        data = data[:i + 8] + bytes([data[i + 8] ^ 1]) + data[i + 9:]
    elif damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "garbage":
        data = b"\x00\xff" * 50
    else:
        data = b""
    store.current.write_bytes(data)
    loaded, problems = store.load(BOARD, CHART)
    assert loaded is not None and loaded.public().ply == before
    assert len(problems) == 1 and problems[0].startswith("The saved game was damaged")
    assert "\n" not in problems[0]
    assert "the last good save is used" in problems[0]
    assert not store.current.exists()
    assert list(tmp_path.glob("game.json.damaged-*"))


def test_damaged_saves_with_no_older_one_say_a_new_game_starts(tmp_path):
    """Both saves damaged: one sentence (not one per file, not 'an older save is used'),
    naming where they went; the start screen opens."""
    store = GameStore(tmp_path)
    store.save(random_session(3, moves=5))
    store.save(random_session(3, moves=6))
    store.current.write_bytes(b"{")
    store.previous.write_bytes(b"")
    loaded, problems = store.load(BOARD, CHART)
    assert loaded is None and len(problems) == 1
    asides = sorted(p.name for p in tmp_path.glob("game*.damaged-*"))
    assert len(asides) == 2 and all(name in problems[0] for name in asides)
    assert problems[0].endswith("There is no older save: a new game starts.")


def test_finished_game_becomes_a_record_that_replays(tmp_path):
    store = GameStore(tmp_path)
    session = random_session(3, moves=10_000)
    assert session.is_over
    path = store.finish(session)
    assert store.finish(session) == path  # once only
    state = replay(json.loads(path.read_text()), BOARD, CHART)
    assert result(state)["scores"] == list(session.public().scores)
    assert store.load(BOARD, CHART) == (None, [])


def _child(state, seed, said):  # pragma: no cover - runs in the fork server's children
    with open(said, "w", buffering=1, encoding="utf-8") as out:
        run_headless(state, ["random", "random", "random"], BOARD, CHART, random.Random(seed),
                     lambda text: (out.write(text + "\n"), out.flush()))


@pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(),
                    reason="needs the forkserver start method")
@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_completed_move(tmp_path):
    """The headless game is killed at random moments and started again, over and over:
    every move it reported as saved is still there, every save loads, and each finished
    game's record replays to the result it printed.

    Each life is forked from a fork server (a small clean process, as the real game is),
    not from the test process: forked from a pytest process full of the UI tests' caches
    and threads, lives ran and died at other moments than the game ever does, and the
    count went wrong by one in some full runs."""
    rng = random.Random(2026)
    state = tmp_path / "state"
    kills = finished = 0
    reported = 0  # the highest move any life of the current game reported as saved
    # The current game ended and its save waits for its end to be told (a life killed
    # between its last move and its result): the next life tells that game's end.
    ended = False
    results: dict[str, list[int]] = {}
    lives = multiprocessing.get_context("forkserver")
    lives.set_forkserver_preload([__name__])  # each life starts with the game imported
    said = tmp_path / "said.txt"
    for _life in range(2000):  # never endless, should lives stop finishing games
        if kills >= 200 and finished >= 3:
            break
        said.write_text("", encoding="utf-8")
        life = lives.Process(target=_child, args=(state, rng.randrange(2**32), said))
        life.start()
        time.sleep(rng.uniform(0.0, 0.04))
        life.kill()
        life.join()
        lines = said.read_text(encoding="utf-8").splitlines()
        if life.exitcode == -signal.SIGKILL:
            kills += 1
        saved = [int(m.group(1)) for line in lines
                 if (m := re.match(r"saved move (\d+):", line))]
        if saved:
            reported = max(reported, *saved)
        record = next((line.split(": ", 1)[1] for line in lines
                       if line.startswith("record: ")), None)
        session, problems = GameStore(state).load(BOARD, CHART)
        assert problems == [], problems
        over = session is not None and session.is_over  # killed after its last move
        if record is not None or (session is None and reported) or over:
            # The game ended in this life (perhaps killed after its record was written, or
            # after its last move's save: its end is told by the next life, which forgets
            # its save only then). Counted once, however many lives tell it.
            if not ended:
                finished += 1
            ended = over
            if record is not None:
                results[record] = [int(line.split()[-2] if line.endswith("winner")
                                       else line.split()[-1])
                                   for line in lines if line.startswith("Random ")]
            reported = 0
            assert session is None or over or session.public().ply == 0
            continue
        if session is not None:
            assert session.public().ply >= reported, (session.public().ply, reported)
    assert kills >= 200 and finished >= 3, (kills, finished)
    records = sorted((state / "records").glob("*.json"))
    assert len(records) >= finished >= 3
    for path in records:
        game = replay(json.loads(path.read_text()), BOARD, CHART)
        assert game.is_over
        if str(path) in results:
            assert list(game.scores()) == results[str(path)]


def test_an_undone_move_stays_undone_whichever_file_survives(tmp_path):
    """After an undo the newest save has fewer moves than the previous one: loading must
    follow the order of saving, not the number of moves."""
    store = GameStore(tmp_path)
    session = random_session(3, moves=6)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    store.save(session)
    session.undo()
    store.save(session)
    assert store.previous.exists()
    loaded, _ = GameStore(tmp_path).load(BOARD, CHART)
    assert loaded.public().ply == 6
    # A cut between the two renames of the next save: previous + pending, no current.
    m2 = session.public().legal_moves[-1]
    session.play(m2.src, m2.dst)
    store2 = GameStore(tmp_path)
    store2.load(BOARD, CHART)
    store2.save(session)
    os.replace(store2.current, store2.pending)
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and loaded.public().moves[-1][:2] == (m2.src, m2.dst)


def test_undo_across_computer_replies_survives_a_restart(tmp_path):
    from tests.bot_fakes import with_kinds

    base = random_session(3, moves=6)
    person = base.current_seat
    s = with_kinds(base, tuple("human" if k == person else "normal" for k in range(3)))
    before = s.public()
    for _ in range(2):  # the person, then a computer
        m = s.public().legal_moves[0]
        s.play(m.src, m.dst)
    store = GameStore(tmp_path)
    store.save(s)
    loaded, problems = store.load(BOARD, CHART)
    assert problems == [] and loaded.undo_moves == 2
    loaded.undo()
    assert loaded.public() == before


def test_headless_computer_players_play_a_saved_game_to_a_record(tmp_path):
    """--seats easy,random: the computer player moves from its own view (R22), every move
    is saved, and the finished game's record replays to the same result."""
    from clans_pi.table.headless import parse_seats

    with pytest.raises(Exception, match="'expert' is not a computer player"):
        parse_seats("expert,random")
    lines: list[str] = []
    session = run_headless(tmp_path, parse_seats("easy,random"), BOARD, CHART,
                           random.Random(8), lines.append)
    assert session.is_over and [s.kind for s in session.seats] == ["easy", "random"]
    records = list((tmp_path / "records").iterdir())
    assert len(records) == 1
    replayed = replay(json.loads(records[0].read_text()), BOARD, CHART)
    assert result(replayed) == result(session._state)
    assert sum(line.startswith("saved move") for line in lines) == session.public().ply


# A crafted value for any place of a save, as raw JSON text: whatever JSON can say,
# including what Python cannot hold (Infinity, NaN, 1e999, 5,000-digit integers, nesting
# deeper than it recurses) and wrong types.
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12)
_RAW = (_JSON.map(lambda v: json.dumps(v))
        | st.sampled_from(["Infinity", "-Infinity", "NaN", "1e999", "-1e999", "1" * 5000,
                           "-" + "9" * 400, "1.5", "true", '""', "[]", "{}"])
        | st.integers(500, 200_000).map(lambda n: "[" * n + "]" * n)
        | st.integers(500, 200_000).map(lambda n: '{"a":' * n + "0" + "}" * n))


def _places(value, path=()):
    """Every place in a nested JSON value, as a path of keys and indexes."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _places(v, (*path, i))


def _fuzz_dir(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
    store = GameStore(base)
    session = random_session(3, moves=9)
    store.save(session)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    store.save(session)
    return base, json.loads(store.current.read_text())["payload"]


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@pytest.mark.slow
@given(data=st.data())
def test_load_never_raises_on_a_crafted_save_with_a_valid_checksum(tmp_path_factory, data):
    """Whatever a save with a valid checksum holds, loading returns a game (or none) and
    friendly sentences: a save it cannot use is moved aside like any damaged save."""
    import shutil

    from clans_pi.saving.store import checksum, payload_text
    from clans_pi.session import Session

    global _FUZZ
    if _FUZZ is None:
        _FUZZ = _fuzz_dir(tmp_path_factory)
    base, payload = _FUZZ
    places = list(_places(payload))
    path = data.draw(st.sampled_from(places), label="place")
    raw = data.draw(_RAW, label="value")
    marker = "\u0000crafted\u0000"
    crafted = json.loads(json.dumps(payload))
    if path:
        parent = crafted
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = marker
        text = payload_text(crafted).replace(json.dumps(marker), raw)
    else:
        text = raw
    directory = base.parent / f"{base.name}-run"
    shutil.rmtree(directory, ignore_errors=True)
    shutil.copytree(base, directory)
    head = json.dumps({"format": SAVE_FORMAT, "sha256": checksum(text)})[:-1]
    (directory / "game.json").write_text(f'{head}, "payload": {text}}}', encoding="utf-8")
    session, problems = GameStore(directory).load(BOARD, CHART)
    assert session is None or isinstance(session, Session)
    assert isinstance(problems, list) and all(isinstance(p, str) and "\n" not in p
                                              for p in problems)
    if problems:  # not usable: moved aside, and the previous save is the game
        assert list(directory.glob("game.json.damaged-*")) and session is not None


_FUZZ = None


def test_headless_resumes_a_game_stopped_after_its_last_move_at_its_end(tmp_path):
    """Killed after the last move's save, before its record: the next headless start tells
    the end and keeps the record, once; it deals no new game."""
    done = random_session(3, moves=10_000)
    GameStore(tmp_path).save(done)
    lines: list[str] = []
    session = run_headless(tmp_path, ["random"] * 3, BOARD, CHART, random.Random(1),
                           lines.append)
    ply = done.public().ply
    assert lines[0] == f"resumed after the last move ({ply} moves): the game is over"
    assert session.public() == done.public()
    records = list((tmp_path / "records").glob("*.json"))
    assert len(records) == 1 and lines[-1] == f"record: {records[0]}"
    assert GameStore(tmp_path).load(BOARD, CHART) == (None, [])
