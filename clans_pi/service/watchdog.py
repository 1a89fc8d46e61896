"""Telling systemd how the game is doing: a tiny sd_notify(3) client, no dependencies.

systemd/clans-pi.service runs the game with ``Type=notify`` and ``WatchdogSec=30``: systemd
waits for ``READY=1`` before it counts the game as started, and kills and restarts it when
``WATCHDOG=1`` stops coming for 30 seconds (a hang). Messages are datagrams on the
AF_UNIX socket named by ``$NOTIFY_SOCKET`` (a path, or an abstract name written with a
leading ``@``); ``$WATCHDOG_USEC`` is the watchdog interval.

Intended use, in the app::

    notifier = Notifier()            # reads the environment once
    ...                              # open the display, draw the first frame
    notifier.ready()                 # or notifier.ready("Waiting for players")
    while running:
        notifier.watchdog()          # every loop turn: sends at most every interval/2
        ...
        notifier.status("Epoch 3, 2 players")   # now and then; systemctl status shows it
    notifier.stopping()

Started any other way (a terminal, tests) there is no ``$NOTIFY_SOCKET`` and every call
does nothing. No call ever raises into the app: a failure to send is logged once, as a
warning, and later sends are still tried (each one quietly).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

__all__ = ["Notifier"]


class Notifier:
    """sd_notify for one process; see the module docstring.

    ``environ`` defaults to ``os.environ`` and ``clock`` (seconds, monotonic) to
    ``time.monotonic``; both are there for tests.
    """

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        env = os.environ if environ is None else environ
        self._clock = clock
        self._address = _address(env.get("NOTIFY_SOCKET", ""))
        self._interval_us = _watchdog_usec(env) if self._address is not None else None
        self._sock: socket.socket | None = None
        self._last_ping: float | None = None
        self._logged = False

    @property
    def enabled(self) -> bool:
        """True when started by systemd with a notify socket."""
        return self._address is not None

    @property
    def interval_ms(self) -> int | None:
        """The watchdog interval in milliseconds, or None when there is no watchdog."""
        return None if self._interval_us is None else self._interval_us // 1000

    def ready(self, status: str | None = None) -> bool:
        """Start-up is finished (READY=1), optionally with a status line."""
        return self._send("READY=1" if status is None else f"READY=1\n{_status(status)}")

    def status(self, text: str) -> bool:
        """A one-line status for ``systemctl status clans-pi`` (STATUS=...)."""
        return self._send(_status(text))

    def stopping(self) -> bool:
        """The game is shutting down on purpose (STOPPING=1)."""
        return self._send("STOPPING=1")

    def watchdog(self) -> bool:
        """WATCHDOG=1, at most once per half watchdog interval: call it every loop turn.

        Returns True when a message was sent this time.
        """
        if self._interval_us is None:
            return False
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self._interval_us / 2e6:
            return False
        # Counted as sent even when sending fails, so a broken socket is not hammered.
        self._last_ping = now
        return self._send("WATCHDOG=1")

    def close(self) -> None:
        """Close the socket (it is opened again if needed)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _send(self, message: str) -> bool:
        if self._address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                # Never stall the game loop: a full socket queue is an error, not a wait.
                self._sock.setblocking(False)
            self._sock.sendto(message.encode(), self._address)
        except Exception as error:  # never into the app: OSError, UnicodeError, ...
            self.close()
            if not self._logged:
                self._logged = True
                log.warning("cannot notify systemd at %r: %s", self._address, error)
            return False
        return True


def _address(value: str) -> str | bytes | None:
    """The socket address from $NOTIFY_SOCKET: a path, or @name for an abstract socket."""
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode()
    if value:  # e.g. "vsock:..." (newer systemd, for virtual machines): not for a Pi
        log.warning("NOTIFY_SOCKET=%r is not a Unix socket: not notifying systemd", value)
    return None


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """$WATCHDOG_USEC when the watchdog is meant for this process (sd_watchdog_enabled(3))."""
    pid = env.get("WATCHDOG_PID")
    if pid is not None and pid != str(os.getpid()):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec if usec > 0 else None


def _status(text: str) -> str:
    # One message line per variable: a newline would end STATUS= early.
    return "STATUS=" + " ".join(text.splitlines())
