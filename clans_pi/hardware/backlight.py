"""The display's backlight (Linux sysfs), and dimming it when nobody has touched the game.

The kernel's sysfs ABI for backlights (Documentation/ABI/stable/sysfs-class-backlight):
each backlight is a directory ``/sys/class/backlight/<name>/`` (a symlink into
``/sys/devices/...``) with

- ``max_brightness``: read-only, the highest value;
- ``brightness``: read-write, 0 to ``max_brightness``; reading it gives the level stored in
  the driver (what was last set), which is what user space should decide by;
- ``actual_brightness``: the level read back from the hardware, which may differ (not used);
- ``bl_power``: 0 on, 4 off (not used: dimming only lowers ``brightness``).

On a Raspberry Pi the name depends on the display and the kernel driver: ``rpi_backlight``
for the original 7" Touch Display with the older firmware driver; with today's KMS drivers
the display's controller at I2C address 0x45, named ``<bus>-0045``: ``10-0045`` on a Pi 4,
``4-0045`` or ``6-0045`` on a Pi 5 (DSI1, DSI0), ``11-0045`` reported for Touch Display 2.
Others (``soc:backlight`` of a GPIO/PWM backlight, ``intel_backlight`` on a laptop) work
the same way. HDMI screens have none.

Writing ``brightness`` needs root unless something hands it over: systemd/
90-clans-pi-backlight.rules gives the ``video`` group write access, and
systemd/clans-pi.service keeps the known Raspberry Pi names writable inside its read-only
``/sys`` (see the comment there). Neither is needed to read.

Intended use, in the app (times in milliseconds from the app's own clock)::

    dimmer = IdleDimmer(Backlight.find(name=config_name or None), dim_after_s=600,
                        dim_percent=10, now_ms=now, memo=state_dir / "backlight")
    ...
    if dimmer.activity(now):       # every touch, click, key or seat-device press
        continue                   # the screen was dark: this touch only wakes it
    dimmer.tick(now)               # every loop turn; dimmer.wakeup() says when it is due
    ...
    dimmer.restore()               # on the way out

Nothing here raises into the app: a backlight that cannot be written is logged once, as a
warning, and the game goes on at whatever brightness the screen has.
"""

from __future__ import annotations

import errno
import logging
import math
import os
from pathlib import Path

from ..saving.files import write_atomic

log = logging.getLogger(__name__)

__all__ = ["SYSFS_BACKLIGHT", "Backlight", "IdleDimmer"]

SYSFS_BACKLIGHT = Path("/sys/class/backlight")


def _read_int(path: Path) -> int:
    """An integer sysfs attribute (one line, a trailing newline)."""
    return int(path.read_text(encoding="ascii").strip())


class Backlight:
    """One Linux backlight device: a directory with ``brightness`` and ``max_brightness``.

    ``max_brightness`` is read once, here; ``brightness`` on every :meth:`read`. Raises
    OSError or ValueError when ``max_brightness`` cannot be read (use :meth:`find`, which
    skips such devices).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.name = self.path.name
        self._max = _read_int(self.path / "max_brightness")
        if self._max < 1:
            raise ValueError(f"{self.path}: max_brightness is {self._max}")
        self._warned = False

    def __repr__(self) -> str:
        return f"Backlight({str(self.path)!r}, max_brightness={self._max})"

    @classmethod
    def find(cls, root: Path = SYSFS_BACKLIGHT, name: str | None = None) -> Backlight | None:
        """The backlight called ``name`` under ``root``, or else the first one by name.

        Only directories with both ``brightness`` and ``max_brightness`` (a number of at least
        1) count. None when there is no such device, or when the named one is not usable.
        """
        root = Path(root)
        if name:
            candidates = [root / name]
        else:
            try:
                candidates = sorted(root.iterdir(), key=lambda p: p.name)
            except OSError:
                return None
        for path in candidates:
            if not (path / "brightness").is_file():
                continue
            try:
                return cls(path)
            except (OSError, ValueError) as error:
                log.debug("backlight %s skipped: %s", path, error)
        if name:
            log.warning("no usable backlight %r in %s", name, root)
        return None

    @property
    def max_brightness(self) -> int:
        """The highest brightness (``max_brightness``)."""
        return self._max

    def read(self) -> int:
        """The brightness now (``brightness``); ``max_brightness`` when it cannot be read."""
        try:
            return min(max(_read_int(self.path / "brightness"), 0), self._max)
        except (OSError, ValueError) as error:
            self._warn_once(f"cannot read {self.path / 'brightness'}: {error}")
            return self._max

    def set(self, value: int) -> bool:
        """Set the brightness, clamped to 0..``max_brightness``. False when it failed."""
        value = min(max(int(value), 0), self._max)
        target = self.path / "brightness"
        try:
            # Opened like the shell's "echo N > brightness" but without O_CREAT (the
            # attribute must exist); sysfs takes the value from this one write(2).
            fd = os.open(target, os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC)
            try:
                os.write(fd, str(value).encode("ascii"))
            finally:
                os.close(fd)
        except OSError as error:
            self._warn_once(f"cannot set {target} to {value}: {error}{_hint(error, self.name)}")
            return False
        return True

    def _warn_once(self, message: str) -> None:
        if self._warned:
            log.debug("%s", message)
            return
        self._warned = True
        log.warning("%s (the screen's brightness stays as it is)", message)


def _hint(error: OSError, name: str) -> str:
    """What to do about a refused write, for the warning."""
    if error.errno == errno.EROFS:
        return (
            f"; /sys is read-only in the service's sandbox: allow this device with "
            f"'systemctl edit clans-pi', [Service] "
            f"ReadWritePaths=-/sys/class/backlight/{name}/brightness"
        )
    if error.errno in (errno.EACCES, errno.EPERM):
        return (
            "; only root may write it: install systemd/90-clans-pi-backlight.rules and "
            "be in the video group"
        )
    return ""


class IdleDimmer:
    """Dims the backlight after ``dim_after_s`` seconds without activity; a touch wakes it.

    Times are the caller's clock in milliseconds (the app's ``monotonic_ms()``), passed in
    to every call; ``now_ms`` is the time the idle count starts from. ``dim_after_s`` of 0
    or less (or a ``backlight`` of None) disables dimming: :meth:`tick` never dims.

    Dimming reads the brightness at that moment (so a brightness someone set meanwhile is
    kept), lowers it to ``dim_percent`` of ``max_brightness`` (at least 1, so the screen is
    still faintly lit, unless ``dim_percent`` is 0), and the next :meth:`activity` puts the
    brightness read back. A screen already as dim as that is left alone.

    ``memo`` (optional, e.g. a file in the state directory): while dimmed, the brightness to
    go back to is kept there too. A game that died while dimmed (a crash, the watchdog)
    would otherwise start again from the dim level and take it for the normal one; with the
    memo, the next start puts the brightness back first.
    """

    def __init__(
        self,
        backlight: Backlight | None,
        *,
        dim_after_s: float,
        dim_percent: int,
        now_ms: int = 0,
        memo: Path | None = None,
    ) -> None:
        self.backlight = backlight
        enabled = backlight is not None and dim_after_s > 0 and math.isfinite(dim_after_s)
        self._after_ms: int | None = max(1, round(dim_after_s * 1000)) if enabled else None
        percent = min(max(int(dim_percent), 0), 100)
        self.dim_level = 0
        if backlight is not None and percent > 0:
            self.dim_level = max(1, round(backlight.max_brightness * percent / 100))
        self._memo = Path(memo) if memo is not None else None
        self._last = now_ms
        self._saved: int | None = None  # the brightness to go back to, while dimmed
        self._recover()

    @property
    def enabled(self) -> bool:
        """True when this dimmer can dim at all."""
        return self._after_ms is not None

    @property
    def dimmed(self) -> bool:
        """True while the screen is dimmed by this dimmer."""
        return self._saved is not None

    def activity(self, now_ms: int) -> bool:
        """Someone touched, clicked, typed or pressed a seat button: restart the idle count.

        Returns True when the screen was dimmed and this wakes it (the app may then ignore
        this touch, which only meant "wake up"), False otherwise.
        """
        self._last = now_ms
        if self._saved is None:
            return False
        self._undim()
        return True

    def tick(self, now_ms: int) -> None:
        """Dim when the idle time is up; call it every loop turn (cheap otherwise)."""
        if self._after_ms is None or self._saved is not None:
            return
        if now_ms - self._last < self._after_ms:
            return
        assert self.backlight is not None
        # Whatever happens now, the next try is a whole idle period away: a device that
        # refuses writes is not written every frame.
        self._last = now_ms
        current = self.backlight.read()
        if current <= self.dim_level:
            return  # already this dim (or off): nothing to do, nothing to wake from
        self._write_memo(current)
        if self.backlight.set(self.dim_level):
            self._saved = current
        else:
            self._clear_memo()

    def wakeup(self) -> int | None:
        """When :meth:`tick` next has something to do (ms); None while dimmed or disabled."""
        if self._after_ms is None or self._saved is not None:
            return None
        return self._last + self._after_ms

    def restore(self) -> None:
        """Put the brightness back if dimmed (when the game quits); harmless otherwise."""
        if self._saved is not None:
            self._undim()

    def _undim(self) -> None:
        assert self.backlight is not None and self._saved is not None
        self.backlight.set(self._saved)
        self._saved = None
        self._clear_memo()

    # --- the memo: surviving a crash while dimmed ---------------------------------------
    def _recover(self) -> None:
        if self._memo is None or self.backlight is None:
            return
        try:
            value = int(self._memo.read_text(encoding="ascii").strip())
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            log.debug("backlight memo %s ignored: %s", self._memo, error)
            self._clear_memo()
            return
        log.info("putting the backlight back to %d (the game stopped while dimmed)", value)
        self.backlight.set(value)
        self._clear_memo()

    def _write_memo(self, value: int) -> None:
        if self._memo is None:
            return
        try:
            write_atomic(self._memo, f"{value}\n")
        except OSError as error:
            log.debug("cannot write backlight memo %s: %s", self._memo, error)

    def _clear_memo(self) -> None:
        if self._memo is None:
            return
        try:
            self._memo.unlink(missing_ok=True)
        except OSError as error:
            log.debug("cannot remove backlight memo %s: %s", self._memo, error)
