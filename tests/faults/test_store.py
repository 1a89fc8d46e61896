"""Faults of the saved game and its state directory: a read-only, unwritable or full SD
card, a stop at each step of a save, damaged and crafted saves, two games on one directory.

Tests run as root here, where chmod stops nothing; the file system's refusals are injected
at the OS calls the code makes (``open``, ``os.replace``, ``os.unlink``, ...), so the real
code paths run and meet the same ``OSError`` a real card gives.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from clans_pi.saving.store import GameStore, cannot_save, checksum, payload_text
from clans_pi.table.headless import run_headless
from tests.faults import fault
from tests.ui_helpers import BOARD, CHART, display_app, finished_session, random_session

ROOT = Path(__file__).resolve().parents[2]

# ------------------------------------------------------------------ injecting the card


class Card:
    """The file system under ``root`` refusing writes with ``err`` (EROFS: remounted
    read-only; EACCES: another owner's directory; ENOSPC: full). A full card still creates
    empty files (there are inodes left) but cannot write into them, as ext4 does.
    ``card.healthy = True`` takes the fault away (the card remounted, space freed)."""

    _WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def __init__(self, monkeypatch: pytest.MonkeyPatch, root: Path, err: int) -> None:
        self.root = str(Path(root).resolve())
        self.err = err
        self.healthy = False
        self.refused: list[str] = []  # the calls refused, for the test to see it happened
        real_open, real_os_open = io.open, os.open

        def refuse(call: str, path: Any) -> None:
            if self.healthy or not self._under(path):
                return
            self.refused.append(f"{call} {path}")
            raise OSError(self.err, os.strerror(self.err), str(path))

        def fake_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            writes = any(c in mode for c in "wax+")
            if writes and not isinstance(file, int) and not self.healthy and self._under(file):
                if self.err != errno.ENOSPC:
                    refuse("open", file)
                f = real_open(file, mode, *args, **kwargs)  # created, empty
                return _FullFile(f, self, str(file))
            return real_open(file, mode, *args, **kwargs)

        def fake_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & self._WRITE_FLAGS and self.err != errno.ENOSPC:
                refuse("os.open", path)
            return real_os_open(path, flags, *args, **kwargs)

        def wrap(name: str, n_paths: int = 1) -> None:
            real = getattr(os, name)

            def fake(*args: Any, **kwargs: Any) -> Any:
                for path in args[:n_paths]:
                    if self.err == errno.ENOSPC and name in ("replace", "rename", "unlink",
                                                             "remove"):
                        break  # a full card still renames and deletes
                    if name == "mkdir" and self._under(path) and os.path.isdir(path):
                        raise FileExistsError(errno.EEXIST, "File exists", str(path))
                    refuse(f"os.{name}", path)
                return real(*args, **kwargs)

            monkeypatch.setattr(os, name, fake)

        monkeypatch.setattr(io, "open", fake_open)
        monkeypatch.setattr(builtins, "open", fake_open)
        monkeypatch.setattr(os, "open", fake_os_open)
        for name, n in (("replace", 2), ("rename", 2), ("unlink", 1), ("remove", 1),
                        ("mkdir", 1), ("rmdir", 1)):
            wrap(name, n)

    def _under(self, path: Any) -> bool:
        try:
            p = os.path.abspath(os.fspath(path))
        except TypeError:
            return False
        return p == self.root or p.startswith(self.root + os.sep)


class _FullFile:
    """A file opened on a full card: writing into it fails with ENOSPC."""

    def __init__(self, f: Any, card: Card, name: str) -> None:
        self._f, self._card, self._name = f, card, name

    def _full(self) -> None:
        if not self._card.healthy:
            self._card.refused.append(f"write {self._name}")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), self._name)

    def write(self, data: Any) -> int:
        self._full()
        return self._f.write(data)

    def flush(self) -> None:
        self._full()
        self._f.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)

    def __enter__(self) -> _FullFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()


def temp_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.name.endswith(".tmp"))


def saved_game(directory: Path, moves: int = 9, *, torn_temp: bool = False) -> int:
    """A game saved twice in ``directory`` (current and previous); the number of moves in
    the newest save. ``torn_temp``: and a half-written temp file beside it (a power cut
    during the next save)."""
    store = GameStore(directory)
    session = random_session(3, moves=moves - 1)
    store.save(session)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    store.save(session)
    if torn_temp:
        store.pending.write_text(store.current.read_text()[:200], encoding="utf-8")
    return session.public().ply


class Screen:
    """The touchscreen game started by ``clans-pi play`` as on the kiosk, its loop replaced
    by ``during`` (what the family does); what was shown is kept."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch,
                 during: Callable[[Any], None] = lambda app: None) -> None:
        from clans_pi.ui import app as app_module

        self.notices: list[str] = []  # shown and waiting their turn (no time passes)
        self.screens: list[str] = []
        self.ply: int | None = None
        screen = self

        def run(app: Any, *, first_frame_only: bool = False) -> None:
            app.redraw()
            screen.screens.append(app.screen.name)
            if app.session is not None:
                screen.ply = app.session.public().ply
            during(app)
            screen.notices = app.notices
            app.quit()

        monkeypatch.setattr(app_module.App, "run", run)
        monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
        monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def play_moves(app: Any, n: int) -> None:
    for _ in range(n):
        m = app.session.public().legal_moves[0]
        app.screen.move_huts(m.src, m.dst)
        if app.screen.order is not None:
            app.screen.found()


# ------------------------------------------------------------------ read-only, owner, full


@fault("save", "SD card read-only at start-up (ext4 remounted it), a torn temp save beside "
       "the game", sees="the game at its last move; one sentence: the SD card is read-only; "
       "play goes on", kept="the last saved move")
def test_read_only_card_at_start_up_with_a_torn_temp(tmp_path, monkeypatch, capsys):
    from clans_pi import cli

    state = tmp_path / "state"
    ply = saved_game(state, torn_temp=True)
    before = {p.name: p.read_bytes() for p in state.iterdir()}
    card = Card(monkeypatch, state, errno.EROFS)
    screen = Screen(monkeypatch, lambda app: play_moves(app, 2))  # and they play on
    assert cli.main(["play", "--state-dir", str(state)]) == 0
    assert screen.screens == ["play"] and screen.ply == ply
    sentence = ("The game cannot be saved: the SD card is read-only; play goes on, but a "
                "power cut would lose it.")
    assert screen.notices.count(sentence) == 1, screen.notices
    assert card.refused  # it did try
    assert {p.name: p.read_bytes() for p in state.iterdir()} == before  # nothing touched
    assert "Traceback" not in capsys.readouterr().err
    # The headless game: the same sentence in one line, it plays to the end, no traceback.
    assert cli.main(["play", "--headless", "--seats", "random,random,random", "--state-dir",
                     str(state), "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert out.count(sentence) == 1 and err == "", out + err
    assert out.splitlines()[0] == sentence and "saved move" not in out
    card.healthy = True  # remounted read-write: the old game is still there
    session, problems = GameStore(state).load(BOARD, CHART)
    assert problems == [] and session.public().ply == ply


def _can_mount_read_only() -> bool:
    """A private mount namespace with a tmpfs remounted read-only (root, unshare(1))."""
    try:
        probe = subprocess.run(["unshare", "-m", "sh", "-c", "d=$(mktemp -d) && mount -t "
                                "tmpfs tmpfs \"$d\" && mount -o remount,ro \"$d\" && ! touch "
                                "\"$d/x\" 2>/dev/null"], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_read_only(),
                    reason="needs root and unshare -m to mount a read-only tmpfs")
def test_a_really_read_only_card(tmp_path):
    """The same as above with nothing injected: the state directory on a file system the
    kernel really refuses to write (a tmpfs remounted read-only in a private mount
    namespace, as ext4 remounts the SD card after an error), the real program started from
    the command line, the touchscreen game (one frame) and the headless game."""
    source = tmp_path / "state"
    ply = saved_game(source, torn_temp=True)
    mount = tmp_path / "card"
    mount.mkdir()
    python = f"{sys.executable} -m clans_pi.cli play"
    script = (f'mount -t tmpfs tmpfs "{mount}" && cp -a "{source}/." "{mount}/" && '
              f'mount -o remount,ro "{mount}" && '
              f'{python} --first-frame --state-dir "{mount}" --size 800x480 && '
              'echo SCREEN-OK && '
              f'{python} --headless --seats random,random,random --seed 3 '
              f'--state-dir "{mount}" && ls -A "{mount}"')
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                            text=True, timeout=300, env=env, cwd=ROOT)
    out, err = result.stdout, result.stderr
    assert result.returncode == 0, out + err
    assert "Traceback" not in out + err
    assert "SCREEN-OK" in out
    # The touchscreen game's journal: one line (the screen has the sentence, tested above).
    assert [line for line in err.splitlines() if "Read-only file system" in line] == \
        err.splitlines(), err
    assert len(err.splitlines()) == 1, err
    lines = out.splitlines()
    played = lines[lines.index("SCREEN-OK") + 1:]
    sentence = ("The game cannot be saved: the SD card is read-only; play goes on, but a "
                "power cut would lose it.")
    assert played[0] == sentence and played.count(sentence) == 1, played
    assert f"resumed at move {ply + 1}" in played
    assert any(" winner" in line for line in played)  # played to the end
    assert set(played[-4:]) >= {"game.json", "game.json.tmp"}  # nothing removed, nothing new


@fault("save", "state directory owned by another user (not writable)",
       sees="one sentence: the game may not write to the directory (check its owner); play goes on",
       kept="the last saved move")
def test_unwritable_state_directory(tmp_path, monkeypatch, capsys):
    from clans_pi import cli

    state = tmp_path / "state"
    ply = saved_game(state)
    Card(monkeypatch, state, errno.EACCES)
    screen = Screen(monkeypatch)
    assert cli.main(["play", "--state-dir", str(state)]) == 0
    sentence = (f"The game cannot be saved: it may not write to {state} (check who owns "
                "it); play goes on, but a power cut would lose it.")
    assert screen.ply == ply and screen.notices.count(sentence) == 1, screen.notices
    capsys.readouterr()  # the journal's line for it (stderr)
    assert cli.main(["play", "--headless", "--seats", "easy,random", "--state-dir",
                     str(tmp_path / "state"), "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[:2] == [f"resumed at move {ply + 1}", sentence]
    assert out.count(sentence) == 1 and "saved move" not in out and err == ""


def test_each_refusal_has_its_own_sentence_in_every_language(tmp_path):
    from clans_pi import i18n

    said = {}
    for err in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT, errno.EIO):
        said[err] = cannot_save(OSError(err, os.strerror(err)), tmp_path)
    assert said[errno.EACCES] == said[errno.EPERM] and said[errno.ENOSPC] == said[errno.EDQUOT]
    assert len({said[e] for e in (errno.EROFS, errno.EACCES, errno.ENOSPC, errno.EIO)}) == 4
    assert "Input/output error" in said[errno.EIO]
    try:
        for code in ("de", "fr", "it", "ja"):
            assert i18n.set_language(code) is None
            for err in (errno.EROFS, errno.EACCES, errno.ENOSPC):
                text = cannot_save(OSError(err, os.strerror(err)), tmp_path)
                assert text != said[err] and "\n" not in text
    finally:
        i18n.set_language("en")


@fault("save", "SD card full at start-up with a finished game not yet kept as a record",
       sees="the finished game's end (the reveal); one sentence: the SD card is full",
       kept="the finished game's save, kept as a record once there is space")
def test_full_card_at_start_up_with_a_finished_save(tmp_path, monkeypatch):
    store = GameStore(tmp_path)
    session = finished_session(3)
    store.save(session)  # a cut during finish: the finished game is only a save
    (tmp_path / "records").mkdir()
    card = Card(monkeypatch, tmp_path, errno.ENOSPC)
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert loaded is not None and loaded.is_over and loaded.public() == session.public()
    assert problems == ["The game cannot be saved: the SD card is full; play goes on, but a "
                        "power cut would lose it."]
    assert card.refused and temp_files(tmp_path) == []  # no records/*.json.tmp left
    assert store.current.exists() and not list(store.records.glob("*.json"))
    # Still full at the next start: the same, and still nothing lost.
    store = GameStore(tmp_path)
    assert store.load(BOARD, CHART)[0].is_over and store.current.exists()
    # A new game is started, then space is freed: its first save keeps the record first.
    fresh = random_session(3, moves=2, seed=9)
    with pytest.raises(OSError):
        store.save(fresh)
    assert temp_files(tmp_path) == [] and store.current.exists()
    card.healthy = True
    store.save(fresh)
    records = list(store.records.glob("*.json"))
    assert len(records) == 1
    kept = json.loads(records[0].read_text())
    assert kept.pop("table")["seats"] == [{"name": s.name, "avatar": s.avatar, "kind": s.kind}
                                          for s in session.seats]
    assert kept == session.to_record()
    again, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and again.public() == fresh.public()


@fault("save", "SD card full during play", sees="one sentence, once: the SD card is full; "
       "play goes on, saved again quietly once there is space",
       kept="every move up to the full card, then every move after space is freed")
def test_full_card_during_play(tmp_path, monkeypatch):
    with display_app() as (app, _clock):
        shown: list[str] = []
        real_notify = app.notify
        app.notify = lambda text: (shown.append(text), real_notify(text))  # type: ignore
        app.table.store = GameStore(tmp_path)
        app.begin(random_session(3, moves=4), peeks=False)
        play_moves(app, 2)
        assert GameStore(tmp_path).load(BOARD, CHART)[0].public().ply == 6
        card = Card(monkeypatch, tmp_path, errno.ENOSPC)
        play_moves(app, 3)  # three saves fail
        assert shown == ["The game cannot be saved: the SD card is full; play goes on, but "
                         "a power cut would lose it."]
        assert temp_files(tmp_path) == [] and len(card.refused) == 3
        card.healthy = True  # space freed
        play_moves(app, 1)
        assert len(shown) == 1  # quietly
        loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
        assert problems == [] and loaded.public() == app.session.public()
        card.healthy = False  # full again: said again
        play_moves(app, 1)
        assert len(shown) == 2 and shown[0] == shown[1]


# ------------------------------------------------------------------ a stop during a save


class Kill(BaseException):
    """The process stops here (nothing after it runs, no ``except`` catches it)."""


STEPS = ("during the temp write", "after the temp write", "after current -> previous",
         "after temp -> current")


@contextmanager
def stop(monkeypatch: pytest.MonkeyPatch, step: str) -> Iterator[None]:
    """GameStore.save stops at ``step`` as a SIGKILL or power cut would stop it there."""
    real_replace, real_fsync = os.replace, os.fsync
    replaces = 0

    def replace(src: Any, dst: Any) -> None:
        nonlocal replaces
        replaces += 1
        if (step, replaces) in (("after the temp write", 1), ("after current -> previous", 2)):
            raise Kill
        real_replace(src, dst)

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):  # the directory, after the renames
            if step == "after temp -> current":
                raise Kill
        elif step == "during the temp write":  # half of it reached the card
            size = os.fstat(fd).st_size
            os.ftruncate(fd, size // 2)
            raise Kill
        real_fsync(fd)

    with monkeypatch.context() as m:
        m.setattr(os, "replace", replace)
        m.setattr(os, "fsync", fsync)
        with pytest.raises(Kill):
            yield


@fault("save", "power cut or SIGKILL at each step of a save (during and after the temp "
       "write, after each rename)", sees="the game at its last move, no message",
       kept="every move whose save was written")
@pytest.mark.parametrize("step", STEPS)
def test_a_stop_at_each_step_of_a_save(tmp_path, monkeypatch, step):
    store = GameStore(tmp_path)
    session = random_session(3, moves=5)
    for _ in range(3):  # current and previous both exist
        m = session.public().legal_moves[0]
        session.play(m.src, m.dst)
        store.save(session)
    done = session.public()
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    with stop(monkeypatch, step):
        store.save(session)
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == []
    # A temp file written whole is the newest save; a torn one is not.
    expected = done if step == "during the temp write" else session.public()
    assert loaded.public() == expected
    assert not GameStore(tmp_path).pending.exists()


@fault("save", "power cut during the save after a recovered temp save (two cuts in a row)",
       sees="the game at its last move, no message",
       kept="the recovered move (the temp save is made the game on load)")
def test_a_recovered_temp_save_is_promoted(tmp_path, monkeypatch):
    store = GameStore(tmp_path)
    session = random_session(3, moves=5)
    for _ in range(2):
        m = session.public().legal_moves[0]
        session.play(m.src, m.dst)
        store.save(session)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    with stop(monkeypatch, "after current -> previous"):
        store.save(session)
    seen = session.public()  # the players saw this move on the board before the cut
    assert not store.current.exists() and store.pending.exists()
    store = GameStore(tmp_path)
    resumed, problems = store.load(BOARD, CHART)
    assert problems == [] and resumed.public() == seen
    assert store.current.exists() and not store.pending.exists()  # promoted
    m = resumed.public().legal_moves[0]
    resumed.play(m.src, m.dst)
    with stop(monkeypatch, "during the temp write"):  # the second cut
        store.save(resumed)
    again, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and again.public() == seen


def test_a_recovered_temp_save_on_a_read_only_card_still_opens(tmp_path, monkeypatch):
    store = GameStore(tmp_path)
    session = random_session(3, moves=5)
    store.save(session)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    with stop(monkeypatch, "after the temp write"):
        store.save(session)
    Card(monkeypatch, tmp_path, errno.EROFS)
    resumed, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert resumed.public() == session.public()
    assert problems == ["The game cannot be saved: the SD card is read-only; play goes on, "
                        "but a power cut would lose it."]


# ------------------------------------------------------------------ damaged and crafted


def _two_saves(directory: Path) -> tuple[GameStore, int]:
    ply = saved_game(directory)
    return GameStore(directory), ply - 1


def _damaged(problems: list[str], directory: Path) -> bool:
    return (len(problems) == 1 and problems[0].startswith("The saved game was damaged")
            and "\n" not in problems[0] and bool(list(directory.glob("game.json.damaged-*"))))


@fault("save", "torn temp save (a power cut while it was written)",
       sees="the game at its last move, no message", kept="the last saved move")
def test_a_torn_temp_save(tmp_path):
    ply = saved_game(tmp_path, torn_temp=True)
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and loaded.public().ply == ply
    assert not GameStore(tmp_path).pending.exists()


@fault("save", "corrupt or empty save (a bad SD card)",
       sees="the game one move earlier; one sentence: the save was damaged and moved aside",
       kept="the previous save; the damaged file, moved aside")
@pytest.mark.parametrize("damage", ["flipped bit", "empty", "zeros"])
def test_a_corrupt_or_empty_save(tmp_path, damage):
    store, older = _two_saves(tmp_path)
    data = store.current.read_bytes()
    if damage == "flipped bit":
        i = len(data) // 2
        data = data[:i] + bytes([data[i] ^ 4]) + data[i + 1:]
    store.current.write_bytes({"flipped bit": data, "empty": b"", "zeros": b"\0" * 4096}[damage])
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert loaded.public().ply == older and _damaged(problems, tmp_path)


def write_crafted(path: Path, payload: Any, *, text: str | None = None) -> None:
    """A save whose checksum holds for ``payload`` (or its JSON ``text``), as if written by
    someone who knows the format."""
    text = payload_text(payload) if text is None else text
    head = json.dumps({"format": "clans-save/1", "sha256": checksum(text)})[:-1]
    path.write_text(f'{head}, "payload": {text}}}', encoding="utf-8")


def _payload(store: GameStore) -> dict[str, Any]:
    return json.loads(store.current.read_text(encoding="utf-8"))["payload"]


@fault("save", "save with a valid checksum but illegal moves",
       sees="the game one move earlier; one sentence: the save was damaged and moved aside",
       kept="the previous save; the bad file, moved aside")
def test_an_illegal_move_save(tmp_path):
    store, older = _two_saves(tmp_path)
    payload = _payload(store)
    moves = payload["game"]["record"]["moves"]
    moves[-1] = {**moves[-1], "to": moves[-1]["from"]}  # onto itself: no such move
    write_crafted(store.current, payload)
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert loaded.public().ply == older and _damaged(problems, tmp_path)


@fault("save", "crafted save with a valid checksum: generation Infinity",
       sees="the game one move earlier; one sentence: the save was damaged and moved aside",
       kept="the previous save; the bad file, moved aside")
def test_a_crafted_save_with_an_infinite_generation(tmp_path):
    store, older = _two_saves(tmp_path)
    payload = _payload(store)
    text = payload_text({**payload, "generation": 0}).replace('"generation":0',
                                                            '"generation":Infinity')
    write_crafted(store.current, None, text=text)
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert loaded.public().ply == older and _damaged(problems, tmp_path)


@fault("save", "crafted save with a valid checksum: 100,000 nested brackets",
       sees="the game one move earlier; one sentence: the save was damaged and moved aside",
       kept="the previous save; the bad file, moved aside")
def test_a_crafted_save_nested_deep(tmp_path):
    store, older = _two_saves(tmp_path)
    payload = _payload(store)
    deep = "[" * 100_000 + "]" * 100_000
    text = payload_text({**payload, "guide": 0}).replace('"guide":0', '"guide":' + deep)
    write_crafted(store.current, None, text=text)
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert loaded.public().ply == older and _damaged(problems, tmp_path)


# ------------------------------------------------------------------ two games, one directory


def _wait_for_lock_holder(state: Path, proc: subprocess.Popen[str]) -> None:
    """Until ``proc`` holds the state directory (its pid is in the lock file)."""
    from clans_pi.saving.lock import LOCK_FILE

    lock = state / LOCK_FILE
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if lock.read_text().strip() == str(proc.pid):
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"the first game never took {lock}: {proc.poll()}")


@fault("save", "a second game process started on the same state directory",
       sees="the second says in one line that another game is using it, exits 1",
       kept="the first game and its save, untouched")
@pytest.mark.slow
def test_a_second_game_on_the_same_state_directory(tmp_path):
    state = tmp_path / "state"
    saved_game(state)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "clans_pi.cli", "play"]
    first = subprocess.Popen([*cli, "--state-dir", str(state)], env=env, text=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_lock_holder(state, first)
        said = (f"clans-pi play: another Clans Pi game is already using {state} "
                f"(pid {first.pid})")
        for second in ([*cli, "--first-frame", "--state-dir", str(state)],
                       [*cli, "--headless", "--seats", "random,random", "--state-dir",
                        str(state)]):
            proc = subprocess.run(second, env=env, capture_output=True, text=True,
                                  timeout=120, check=False)
            assert proc.returncode == 1 and proc.stdout == "", proc.stdout + proc.stderr
            assert proc.stderr.strip() == said
        assert not (state / "records").exists()  # neither played on
        # The kiosk's game is killed (SIGKILL): the next one starts at once.
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        proc = subprocess.run([*cli, "--headless", "--seats", "random,random,random",
                               "--state-dir", str(state), "--quiet"], env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        assert len(list((state / "records").glob("*.json"))) == 1
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()


def test_the_game_opens_where_the_lock_file_cannot_be_made(tmp_path, monkeypatch):
    """A read-only card: no lock file can be created, and none is needed (nobody can write
    there); the game still opens."""
    state = tmp_path / "state"
    ply = saved_game(state)
    Card(monkeypatch, state, errno.EROFS)
    lines: list[str] = []
    import random

    session = run_headless(state, ["random", "random", "random"], BOARD, CHART,
                           random.Random(2), lines.append)
    assert session.is_over and lines[0] == f"resumed at move {ply + 1}"
    assert lines[1].startswith("The game cannot be saved: the SD card is read-only")


def test_a_lock_file_on_a_read_only_card_still_keeps_a_second_game_out(tmp_path, monkeypatch):
    from clans_pi.saving.lock import LOCK_FILE, StateDirBusy, StateLock

    (tmp_path / LOCK_FILE).write_text("1\n")  # left by an earlier game (pid 1: not a game)
    Card(monkeypatch, tmp_path, errno.EROFS)
    with (StateLock.take(tmp_path),  # locked read-only; pid 1 is alive but not the holder
          pytest.raises(StateDirBusy, match=r"already using \S+$")):
        StateLock.take(tmp_path)
    with StateLock.take(tmp_path):  # let go: the next game takes it
        pass


@fault("save", "the state directory is a link to / or another system directory (run as root)",
       sees="one line naming the directory and where it leads; the game does not start",
       kept="everything in that directory, untouched: nothing written there")
@pytest.mark.parametrize("how", ["touchscreen", "headless"])
def test_a_state_directory_that_leads_to_a_system_directory(tmp_path, monkeypatch, capsys,
                                                            how):
    """Stands in for /: a directory of this test's, made a system directory for the game,
    so that a regression writes into the test's own directory, never into a real one."""
    from clans_pi import cli
    from clans_pi.saving import lock

    system = tmp_path / "system"
    system.mkdir()
    (system / "etc").mkdir()
    monkeypatch.setattr(lock, "SYSTEM_DIRS", lock.SYSTEM_DIRS | {system.resolve()})
    link = tmp_path / "state"
    link.symlink_to(system)
    args = (["play", "--first-frame", "--state-dir", str(link)] if how == "touchscreen" else
            ["play", "--headless", "--seats", "random,random", "--state-dir", str(link)])
    assert cli.main(args) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == (
        f"clans-pi play: {link} (it leads to {system.resolve()}) is a directory of the "
        "system's own; give the game a state directory of its own, e.g. /var/lib/clans-pi")
    assert sorted(p.name for p in system.iterdir()) == ["etc"]  # nothing written


def test_the_real_system_directories_are_refused_and_a_game_s_own_is_not(tmp_path):
    from clans_pi.saving.lock import StateDirRefused, refuse_system_dir

    for path in ("/", "/etc", "/var/lib", "/boot/firmware"):
        with pytest.raises(StateDirRefused, match="a directory of the system's own"):
            refuse_system_dir(Path(path))
    refuse_system_dir(tmp_path / "clans-pi")  # a directory of its own (not yet made)
    refuse_system_dir(Path("/var/lib/clans-pi"))


@fault("save", "a game begun with --load FILE over a finished game still waiting for its end "
       "to be shown saved as generation 1: the next start took the finished one (45), and "
       "forgetting it after its end took the loaded game with it",
       sees="the loaded game at the next start, where it was left",
       kept="the loaded game; the finished one's record")
def test_a_loaded_game_saves_newer_than_a_finished_game_waiting_to_be_shown(tmp_path):
    store = GameStore(tmp_path)
    done = finished_session(3)
    for _ in range(45):  # a game's worth of saves, its last one finished
        store.save(done)
    loaded = random_session(2, moves=4)
    GameStore(tmp_path).save(loaded)  # as `clans-pi play --load FILE` begins: no load first
    found, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and found is not None
    assert not found.is_over and [s.name for s in found.seats] == [
        s.name for s in loaded.seats], "the finished game came back instead"
