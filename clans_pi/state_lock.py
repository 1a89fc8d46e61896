"""One game per state directory: a game holds an exclusive ``flock`` on the file ``lock``
there for as long as it runs, so a second game started on the same directory (a second
kiosk unit, a game started by hand beside the service) says so and stops instead of
resuming and overwriting the same save.

``flock(2)`` locks belong to the open file: the kernel drops the lock when the process
ends however it ends (SIGKILL, a crash), so a killed game never blocks the next start, and
nothing stale is left to clean up. The lock file holds the holder's pid, for the message
only. A card that refuses to create the lock file (read-only) still lets the game open:
the file is locked read-only if it exists, and without it nobody can write there anyway.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
from pathlib import Path
from types import TracebackType

from .rules.errors import ClansError

LOCK_FILE = "lock"
log = logging.getLogger(__name__)


class StateDirBusy(ClansError):
    """Another game holds the state directory (the message says which and its pid)."""


class StateLock:
    """The held lock on a state directory (``with StateLock.take(dir):``)."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd

    @classmethod
    def take(cls, directory: str | Path) -> StateLock:
        """Lock ``directory`` for this process, or raise :class:`StateDirBusy`."""
        directory = Path(directory)
        path = directory / LOCK_FILE
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            log.info("%s: %s", directory, exc)
        fd, writable = _open(path)
        if fd is None:
            return cls(path, None)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                log.info("%s: cannot lock (%s); going on without", path, exc)
                os.close(fd)
                return cls(path, None)
            holder = _holder(fd)
            os.close(fd)
            pid = f" (pid {holder})" if holder is not None else ""
            raise StateDirBusy(
                f"another Clans Pi game is already using {directory}{pid}") from None
        if writable:
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            except OSError as exc:  # a full card: the lock holds all the same
                log.info("%s: cannot write the pid (%s)", path, exc)
        return cls(path, fd)

    def release(self) -> None:
        """Let go (closing the file drops the lock; the file stays for the next game)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> StateLock:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _open(path: Path) -> tuple[int | None, bool]:
    """The lock file opened for writing, else read-only (a read-only card); else None."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644), True
    except OSError as exc:
        first = exc
    try:
        return os.open(path, os.O_RDONLY), False
    except OSError:
        log.info("%s: no lock file (%s); going on without", path, first)
        return None, False


def _holder(fd: int) -> int | None:
    """The pid written by the game holding the lock, if that process is alive."""
    try:
        pid = int(os.pread(fd, 32, 0).decode("ascii").strip())
    except (OSError, ValueError):
        return None
    if pid <= 0 or pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except PermissionError:
        return pid  # alive, another user's
    except OSError:
        return None  # stale: written by a game that locked before and is gone
    return pid
