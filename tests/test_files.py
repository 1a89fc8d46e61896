"""The files the game keeps: where they live and the one atomic write every one goes through."""

from __future__ import annotations

import errno
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
