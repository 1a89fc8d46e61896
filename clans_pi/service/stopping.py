"""``systemctl stop`` (and a shutdown) send SIGTERM: the game ends as *Quit* ends it, rather
than dying where it stands. Its loop is left, the computers' searches are cancelled and
waited for, the seat devices and the phones' server are closed, the state directory's lock
is let go, and it exits with status 0, which asks the service for nothing
(:mod:`clans_pi.service.kiosk`). The game was saved after its last move: the next start goes
on where it was left.

One handler for both games: the touchscreen's (:mod:`clans_pi.ui.run`: the app's loop is left)
and the headless game's (:mod:`clans_pi.table.headless`, which stops the table).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def stopped_by_sigterm(stop: Callable[[], None]) -> Iterator[None]:
    """While inside, SIGTERM calls ``stop`` (which must only set flags: it runs in a signal
    handler, between two lines of whatever the main thread was doing); the handling before
    comes back after. Outside the main thread (a test's game) signals cannot be handled:
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, lambda _sig, _frame: stop())
    try:
        yield
    finally:
        # None: a handler not set from Python (SDL's); the default then, as before the game.
        signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)
