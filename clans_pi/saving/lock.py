"""One game per state directory: a game holds an exclusive ``flock`` on the file ``lock``
there for as long as it runs, so a second game started on the same directory (a second
kiosk unit, a game started by hand beside the service) says so and stops instead of
resuming and overwriting the same save.

``flock(2)`` locks belong to the open file: the kernel drops the lock when the process
ends however it ends (SIGKILL, a crash), so a killed game never blocks the next start, and
nothing stale is left to clean up. The message names the holder's pid as the kernel lists
it in /proc/locks (the lock file also holds it, written by the holder, for people). A card
that refuses to create the lock file (read-only) still lets the game open: the file is
locked read-only if it exists, and without it nobody can write there anyway.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
from pathlib import Path
from types import TracebackType

from ..rules.errors import ClansError

LOCK_FILE = "lock"
log = logging.getLogger(__name__)


class StateDirBusy(ClansError):
    """Another game holds the state directory (the message says which and its pid)."""


class StateDirRefused(ClansError):
    """The state directory is, or leads by a link to, a directory of the system's own."""


#: Directories of the system's own: a game never keeps its saves, records and lock there
#: (a state directory that is one of them, or a link to one, is refused in one line).
SYSTEM_DIRS = frozenset(Path(p) for p in (
    "/", "/bin", "/boot", "/boot/firmware", "/dev", "/etc", "/home", "/lib", "/lib64",
    "/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp",
    "/usr", "/usr/bin", "/usr/lib", "/usr/local", "/usr/share", "/var", "/var/cache",
    "/var/lib", "/var/log", "/var/tmp"))


def refuse_system_dir(directory: Path) -> None:
    """Raise :class:`StateDirRefused` when ``directory`` resolves (links followed) to one of
    :data:`SYSTEM_DIRS`: run as root, the game would write its files there without a word."""
    resolved = directory.resolve()
    if resolved in SYSTEM_DIRS:
        where = "" if resolved == directory.absolute() else f" (it leads to {resolved})"
        raise StateDirRefused(
            f"{directory}{where} is a directory of the system's own; give the game a "
            "state directory of its own, e.g. /var/lib/clans-pi")


class StateLock:
    """The held lock on a state directory (``with StateLock.take(dir):``)."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd

    @classmethod
    def take(cls, directory: str | Path) -> StateLock:
        """Lock ``directory`` for this process, or raise :class:`StateDirBusy` (another
        game has it) or :class:`StateDirRefused` (it is a system directory)."""
        directory = Path(directory)
        refuse_system_dir(directory)
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
    """The pid of the game holding the lock: the kernel's word for it (/proc/locks), else
    the pid that game wrote if that process is alive (a stale pid is never named)."""
    pid = _locker(fd)
    if pid is None:
        try:
            pid = int(os.pread(fd, 32, 0).decode("ascii").strip())
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except PermissionError:
            pass  # alive, another user's
        except (OSError, OverflowError):
            return None  # gone: written by a game that locked before
    return None if pid <= 0 or pid == os.getpid() else pid


def _locker(fd: int) -> int | None:
    """Who holds the flock on ``fd``'s file, from /proc/locks (Linux; proc(5)): a line
    ``N: FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF`` (waiters are shown
    with ``->`` and skipped); 0 when the file is locked but the holder cannot be named,
    None without /proc/locks."""
    try:
        st = os.fstat(fd)
        lines = Path("/proc/locks").read_text(encoding="ascii").splitlines()
    except (OSError, ValueError):
        return None
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in lines:
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == where:
            try:
                return int(fields[4])
            except ValueError:
                return 0
    return 0
