"""Log lines: the journal's priority prefix under systemd, plain in a terminal, and never a
clan before the game is over (R22), over a whole game on the touchscreen with seat devices."""

from __future__ import annotations

import io
import logging
import os
import re

import pytest

from clans_pi.service.logs import JournalFormatter, is_journal, setup_logging

SECRET = re.compile(r"\b(red|blue|green|yellow|black|clan)\b", re.IGNORECASE)


@pytest.fixture
def restore_root():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_journal_lines_carry_their_syslog_priority():
    fmt = JournalFormatter("%(name)s: %(message)s")

    def line(level: int, msg: str) -> str:
        return fmt.format(logging.LogRecord("clans_pi.x", level, __file__, 1, msg, (), None))

    assert line(logging.WARNING, "a handheld lost") == "<4>clans_pi.x: a handheld lost"
    assert line(logging.ERROR, "cannot save") == "<3>clans_pi.x: cannot save"
    assert line(logging.INFO, "ready") == "<6>clans_pi.x: ready"
    assert line(logging.DEBUG, "two\nlines") == "<7>clans_pi.x: two\n<7>lines"


def test_the_journal_is_recognised_by_its_device_and_inode(tmp_path):
    with open(tmp_path / "stream", "w") as stream:
        st = os.fstat(stream.fileno())
        assert is_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not is_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})
        assert not is_journal(stream, {"JOURNAL_STREAM": "garbage"})
        assert not is_journal(stream, {})
    assert not is_journal(io.StringIO(), {"JOURNAL_STREAM": "1:2"})  # no file descriptor


def test_setup_in_the_journal_and_in_a_terminal(tmp_path, restore_root):
    with open(tmp_path / "journal", "w+") as stream:
        st = os.fstat(stream.fileno())
        setup_logging(stream=stream, environ={"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        logging.getLogger("clans_pi.ui").info("display: kmsdrm")
        stream.seek(0)
        assert stream.read() == "<6>clans_pi.ui: display: kmsdrm\n"
    terminal = io.StringIO()
    setup_logging(stream=terminal, environ={})
    logging.getLogger("clans_pi.ui").info("not shown: a terminal gets warnings only")
    logging.getLogger("clans_pi.ui").warning("settings: bad line")
    assert terminal.getvalue() == "clans-pi: settings: bad line\n"
    streams = [getattr(h, "stream", None) for h in logging.getLogger().handlers]
    assert streams.count(terminal) == 1
    debug = io.StringIO()
    setup_logging(stream=debug, environ={"CLANS_PI_LOG": "DEBUG"})
    logging.getLogger("clans_pi.x").debug("fine detail")
    assert debug.getvalue() == "clans-pi: fine detail\n"
    assert terminal not in [getattr(h, "stream", None) for h in logging.getLogger().handlers]


def test_a_whole_touchscreen_game_logs_no_clan_before_the_end(tmp_path, caplog, pin_factory):
    """Start, deal peeks on GPIO seats (mock pins), every move saved, the end: all log lines
    at every level. Before the game is over none names a clan; afterwards it may."""
    import random

    from clans_pi.hardware.seats import SeatDevices
    from clans_pi.saving.store import GameStore
    from clans_pi.session import Seat, Session
    from clans_pi.settings.config import Config
    from tests.ui_helpers import BOARD, CHART, display_app

    caplog.set_level(logging.DEBUG)
    config = Config(seats={1: "gpio", 2: "gpio", 3: "screen", 4: "screen"})
    devices = SeatDevices.open(config, pin_factory=pin_factory)
    rng = random.Random(3)
    with display_app() as (app, clock):
        app.table.devices, app.table.store = devices, GameStore(tmp_path)
        session = Session.new([Seat("Ada"), Seat("Bo"), Seat("Cy")], BOARD, CHART, rng)
        app.begin(session, peeks=True)
        while not session.is_over:
            clock.advance(40)
            app.pump()
            move = rng.choice(session.public().legal_moves)
            app.play_move(move.src, move.dst)
        before = [r.getMessage() for r in caplog.records]
        app.reveal()
        app.pump()
        devices.close()
    assert any("moves played" in line for line in before)  # the log does say things
    assert any("game over after" in r.getMessage() for r in caplog.records)
    assert [line for line in before if SECRET.search(line)] == []
