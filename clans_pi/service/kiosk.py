"""Leaving the game on the kiosk, agreed with ``systemd/clans-pi.service``.

On a desktop, Quit (the menu, Ctrl+Q, closing the window) ends the program with status 0.
On the kiosk (``clans-pi play --kiosk``, as the service runs it) there is no desktop to go
back to, so each way out asks the service for what comes next by its exit status, and the
unit acts on it in ``ExecStopPost=`` (``tests/test_systemd_unit.py`` checks the unit
against these numbers):

* the family's *Switch off* (the menu, after a confirmation): the Pi powers off;
* a maker's Ctrl+Q on a keyboard: the login prompt comes back on tty1.

Both are listed in ``SuccessExitStatus=``, so neither counts as a failure and
``Restart=on-failure`` does not start the game again. ``systemctl stop`` (SIGTERM) and a
shutdown still end with status 0, which asks for nothing. The game is saved after every
move, so every way out keeps it: the next start goes on where it was left.
"""

from __future__ import annotations

#: Exit status for the family's Switch off: the service powers the Pi off.
SWITCH_OFF = 10
#: Exit status for Ctrl+Q on the kiosk: the service gives tty1 back to a login prompt.
CONSOLE = 11
