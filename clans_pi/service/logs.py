"""Where the game's log lines go: standard error, which systemd puts in the journal.

Under systemd (``StandardError=journal``) each line is prefixed with its syslog priority as
``<N>`` (sd-daemon(3)): journald strips the prefix and stores the priority, so
``journalctl -u clans-pi -p warning`` shows only the problems. systemd tells a process its
standard error is the journal with ``$JOURNAL_STREAM`` (``device:inode`` of that stream,
systemd.exec(5)); the prefix is used only when standard error really is that stream, so a
terminal never sees it.

Secrecy (R22): no log line may name a clan before the game is over. Modules log seats by
number and devices by id, never what they show; tests/test_logs.py plays whole games and
checks every line.
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from collections.abc import Mapping
from typing import TextIO

#: syslog priorities (sd-daemon(3)) for the logging levels.
PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6,
            logging.DEBUG: 7}
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR}


_installed: logging.Handler | None = None


class JournalFormatter(logging.Formatter):
    """``<priority>module: message``, one journal entry per line."""

    def format(self, record: logging.LogRecord) -> str:
        priority = PRIORITY.get(record.levelno, 6 if record.levelno < logging.WARNING else 3)
        text = super().format(record)
        # A multi-line message (an exception) would become several journal entries: the
        # priority goes on each of them.
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines())


def is_journal(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """True when ``stream`` is the journal stream systemd connected (``$JOURNAL_STREAM``)."""
    value = environ.get("JOURNAL_STREAM", "")
    try:
        device, inode = (int(x) for x in value.split(":"))
        st = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (device, inode)


def setup_logging(level: str | None = None, *, stream: TextIO | None = None,
                  environ: Mapping[str, str] | None = None) -> logging.Handler:
    """Send log lines to ``stream`` (standard error): the journal's format under systemd,
    ``clans-pi: message`` in a terminal. ``level`` (debug, info, warning, error) defaults
    to ``$CLANS_PI_LOG``, else info in the journal and warning in a terminal (where a
    player only wants to hear of problems). Returns the handler (tests remove it)."""
    env = os.environ if environ is None else environ
    stream = sys.stderr if stream is None else stream
    journal = is_journal(stream, env)
    name = (level or env.get("CLANS_PI_LOG") or ("info" if journal else "warning")).lower()
    handler = logging.StreamHandler(stream)
    if journal:
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("clans-pi: %(message)s"))
    root = logging.getLogger()
    global _installed
    if _installed is not None:  # called again (tests, a second command): replace, not add
        root.removeHandler(_installed)
    _installed = handler
    root.addHandler(handler)
    root.setLevel(LEVELS.get(name, logging.INFO))
    if name not in LEVELS:
        logging.getLogger(__name__).warning(
            "CLANS_PI_LOG=%r is not one of %s; logging at info", name, ", ".join(LEVELS))
    return handler


def where(exc: BaseException) -> str:
    """``file.py:line`` where ``exc`` was raised: for a log line that must not carry the
    exception's message (it could name a clan, R22)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{os.path.basename(last.filename)}:{last.lineno}"
