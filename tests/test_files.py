"""The files the game keeps: where they live and the one atomic write every one goes through."""

from __future__ import annotations

import errno
import json
import os
import stat

import pytest

from clans_pi.hardware.handhelds import PairingStore
from clans_pi.saving.files import temp_of, user_state_dir, write_atomic


def test_the_state_directory_is_the_services_else_the_users(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path / 'a'}:{tmp_path / 'b'}")
    assert user_state_dir() == tmp_path / "a"  # systemd lists several: the first
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert user_state_dir() == tmp_path / "xdg" / "clans-pi"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_state_dir() == tmp_path / "home" / ".local" / "state" / "clans-pi"


def _fsyncs(monkeypatch) -> list[str]:
    """Every fsync from now on, as "file" or "dir", in order."""
    seen: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        seen.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return seen


def test_a_write_syncs_the_file_then_the_directory_and_leaves_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text("old")
    seen = _fsyncs(monkeypatch)
    write_atomic(path, "new")
    assert path.read_text() == "new" and seen == ["file", "dir"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_with_previous_the_old_file_is_kept_beside_the_new(tmp_path):
    path, previous = tmp_path / "game.json", tmp_path / "game.prev.json"
    write_atomic(path, "one", previous=previous)  # nothing to keep yet
    assert path.read_text() == "one" and not previous.exists()
    write_atomic(path, "two", previous=previous)
    assert path.read_text() == "two" and previous.read_text() == "one"
    assert not temp_of(path).exists()


@pytest.mark.parametrize("fails", ["write", "fsync", "rename", "directory fsync"])
def test_a_failing_write_raises_keeps_the_old_file_and_leaves_no_temp(tmp_path, monkeypatch,
                                                                      fails):
    path = tmp_path / "pairs.json"
    path.write_text("old")
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        is_dir = stat.S_ISDIR(os.fstat(fd).st_mode)
        if (fails, is_dir) in (("fsync", False), ("directory fsync", True)):
            raise full
        real_fsync(fd)

    def replace(src, dst) -> None:
        if fails == "rename":
            raise full
        real_replace(src, dst)

    class FullFile:
        def __init__(self, *args, **kwargs) -> None:
            self.f = open(*args, **kwargs)  # noqa: SIM115 - closed in __exit__

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self.f.close()

        def write(self, text: str) -> int:
            raise full

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    if fails == "write":
        import clans_pi.saving.files as files_module

        monkeypatch.setattr(files_module, "open", FullFile, raising=False)
    with pytest.raises(OSError) as info:
        write_atomic(path, "new")
    assert info.value.errno == errno.ENOSPC
    assert not temp_of(path).exists()
    # Only a failed directory fsync comes after the rename: the new text is in place then.
    assert path.read_text() == ("new" if fails == "directory fsync" else "old")


def test_the_handheld_pairing_is_written_the_same_way(tmp_path, monkeypatch):
    seen = _fsyncs(monkeypatch)
    store = PairingStore(tmp_path / "handhelds.json")
    store.pair(1, "aa01")
    assert seen == ["file", "dir"] and store.problem is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["handhelds.json"]
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(
        OSError(errno.EROFS, os.strerror(errno.EROFS))))
    store.pair(2, "bb02")
    assert "cannot save the handheld pairing" in (store.problem or "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["handhelds.json"]  # no temp


def test_a_rename_failing_after_the_old_file_became_previous_keeps_the_newest_copy(
        tmp_path, monkeypatch):
    """The save's second rename fails (after game.json became game.prev.json): the complete
    temp file is the only copy of the newest move, so it stays for loading to recover."""
    path, previous = tmp_path / "game.json", tmp_path / "game.prev.json"
    write_atomic(path, "one", previous=previous)
    real_replace = os.replace

    def replace(src, dst) -> None:
        if str(src) == str(temp_of(path)):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError):
        write_atomic(path, "two", previous=previous)
    assert previous.read_text() == "one" and not path.exists()
    assert temp_of(path).read_text() == "two"


# ------------------------------------------------------------------ the guarded reader


def test_the_guarded_reader_reads_a_normal_file_as_json_does(tmp_path):
    from clans_pi.saving.files import read_json

    doc = {"format": "clans-record/1", "moves": [{"from": 3, "to": 7, "order": [1, 2]}],
           "n": -12345678901234567890, "x": 1.5, "s": "[[[{{{\\\"]]]", "none": None}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    assert read_json(path, "record") == doc


@pytest.mark.parametrize(("text", "said"), [
    ("[" * 3_000 + "]" * 3_000, "nested deeper than 64 levels"),
    ("[" * 100_000, "nested deeper than 64 levels"),  # not even closed
    ('{"a": ' * 65 + "1" + "}" * 65, "nested deeper than 64 levels"),
    ('{"n": ' + "9" * 5_000 + "}", "an integer longer than 30 digits"),
    ("[-" + "1" * 31 + "]", "an integer longer than 30 digits"),
    ("{", "not valid JSON at line 1, column 2: Expecting property name enclosed in "
          "double quotes"),
])
def test_the_guarded_reader_refuses_depth_and_long_integers_in_one_line(tmp_path, text, said):
    from clans_pi.saving.files import FileError, read_json

    path = tmp_path / "crafted.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileError) as info:
        read_json(path, "record")
    assert str(info.value) == f"record {path}: {said}" and info.value.problem == said


def test_depth_and_digits_at_the_limits_are_read(tmp_path):
    from clans_pi.saving.files import nesting, read_json

    text = "[" * 64 + "-" + "9" * 30 + "]" * 64
    assert nesting(text) == 64
    path = tmp_path / "edge.json"
    path.write_text(text, encoding="utf-8")
    data = read_json(path)
    for _ in range(63):
        data = data[0]
    assert data == [-int("9" * 30)]
    # Brackets inside strings (escaped quotes too) are not nesting.
    assert nesting('["[[[[", "\\"]]]{{{", {"k": "[\\\\"}]') == 2


def test_the_guarded_reader_refuses_a_file_over_its_size_unread(tmp_path):
    from clans_pi.saving.files import FileError, FileMissing, read_json

    path = tmp_path / "big.json"
    path.write_text("[" + "0," * 600 + "0]", encoding="utf-8")
    with pytest.raises(FileError) as info:
        read_json(path, "game file", limit=1_000)
    assert str(info.value) == f"game file {path}: larger than 1000 bytes"
    assert len(read_json(path, limit=2_000)) == 601
    with pytest.raises(FileMissing) as missing:
        read_json(tmp_path / "nope.json", "record")
    assert str(missing.value) == f"record {tmp_path / 'nope.json'}: no such file"


@pytest.mark.parametrize(("text", "said"), [
    ("a = " + "[" * 3_000 + "]" * 3_000, "not valid TOML (nested too deep)"),
    ("a = " + "{b = " * 3_000 + "1" + "}" * 3_000, "not valid TOML (nested too deep)"),
    ("a = " + "9" * 5_000, "not valid TOML (an integer too long to read)"),
])
def test_a_settings_file_too_deep_or_with_too_long_an_integer_is_one_line(tmp_path, text,
                                                                          said):
    from clans_pi.settings.config import load_config

    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    _config, problems = load_config(path)
    assert problems == [f"{path}: {said}; using the defaults"]
