"""clans_pi.hardware.backlight on a fake sysfs tree: finding the device, dimming when idle,
waking on a touch, and never raising when the brightness cannot be written.

The tree is laid out like the real one: /sys/class/backlight/<name> is a symlink into
/sys/devices/.../backlight/<name>. Times are passed in (milliseconds); nothing sleeps.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clans_pi.hardware import backlight as backlight_module
from clans_pi.hardware.backlight import Backlight, IdleDimmer

MINUTE_MS = 60_000


def make_device(
    sys_root: Path,
    name: str,
    *,
    max_brightness: int | str | None = 255,
    brightness: int | None = 200,
) -> Path:
    """A backlight device under sys_root/devices and its class symlink; the class path."""
    device = sys_root / "devices" / "platform" / "i2c" / name / "backlight" / name
    device.mkdir(parents=True)
    if max_brightness is not None:
        (device / "max_brightness").write_text(f"{max_brightness}\n")
    if brightness is not None:
        (device / "brightness").write_text(f"{brightness}\n")
    (device / "bl_power").write_text("0\n")
    klass = sys_root / "class" / "backlight"
    klass.mkdir(parents=True, exist_ok=True)
    link = klass / name
    link.symlink_to(Path("../..") / device.relative_to(sys_root))
    return link


def brightness_of(path: Path) -> int:
    return int((path / "brightness").read_text())


@pytest.fixture
def sysfs(tmp_path: Path) -> Path:
    return tmp_path / "sys"


@pytest.fixture
def panel(sysfs: Path) -> Backlight:
    link = make_device(sysfs, "10-0045", max_brightness=255, brightness=200)
    found = Backlight.find(sysfs / "class" / "backlight")
    assert found is not None and found.path == link
    return found


# --- Backlight.find ---------------------------------------------------------------------
def test_find_takes_the_first_complete_device_by_name(sysfs):
    make_device(sysfs, "rpi_backlight")
    make_device(sysfs, "10-0045", max_brightness=31, brightness=31)
    found = Backlight.find(sysfs / "class" / "backlight")
    assert found is not None
    assert found.name == "10-0045" and found.max_brightness == 31
    assert found.path.is_symlink()


def test_find_by_name(sysfs):
    make_device(sysfs, "10-0045")
    make_device(sysfs, "rpi_backlight", max_brightness=100, brightness=50)
    found = Backlight.find(sysfs / "class" / "backlight", name="rpi_backlight")
    assert found is not None and found.name == "rpi_backlight"
    assert found.max_brightness == 100 and found.read() == 50


def test_find_none_when_there_is_nothing(sysfs, tmp_path):
    assert Backlight.find(tmp_path / "no-such-dir") is None
    (sysfs / "class" / "backlight").mkdir(parents=True)
    assert Backlight.find(sysfs / "class" / "backlight") is None


def test_find_skips_incomplete_devices(sysfs):
    make_device(sysfs, "0-no-max", max_brightness=None)
    make_device(sysfs, "1-no-brightness", brightness=None)
    make_device(sysfs, "2-garbage-max", max_brightness="lots")
    make_device(sysfs, "3-zero-max", max_brightness=0)
    assert Backlight.find(sysfs / "class" / "backlight") is None
    make_device(sysfs, "4-good")
    found = Backlight.find(sysfs / "class" / "backlight")
    assert found is not None and found.name == "4-good"


def test_a_named_device_that_is_missing_or_incomplete_is_none_with_a_warning(sysfs, caplog):
    make_device(sysfs, "10-0045", brightness=None)
    with caplog.at_level(logging.WARNING, logger=backlight_module.__name__):
        assert Backlight.find(sysfs / "class" / "backlight", name="10-0045") is None
        assert Backlight.find(sysfs / "class" / "backlight", name="11-0045") is None
    assert len(caplog.records) == 2 and "11-0045" in caplog.records[1].getMessage()


# --- Backlight.read / set ---------------------------------------------------------------
def test_set_writes_the_number_and_clamps(panel):
    assert panel.set(17) is True
    assert (panel.path / "brightness").read_text() == "17"
    assert panel.read() == 17
    panel.set(10_000)
    assert panel.read() == 255
    panel.set(-5)
    assert panel.read() == 0


def test_a_write_that_fails_returns_false_and_warns_once(panel, caplog):
    # Tests may run as root, for whom chmod 0444 changes nothing: a directory in place of
    # the attribute fails for everyone (EISDIR).
    attribute = panel.path / "brightness"
    attribute.unlink()
    attribute.mkdir()
    with caplog.at_level(logging.WARNING, logger=backlight_module.__name__):
        assert panel.set(10) is False
        assert panel.set(20) is False
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "brightness" in warnings[0].getMessage()


@pytest.mark.parametrize(
    ("error", "hint"),
    [
        (OSError(30, "Read-only file system"), "ReadWritePaths=-/sys/class/backlight/10-0045"),
        (PermissionError(13, "Permission denied"), "90-clans-pi-backlight.rules"),
    ],
)
def test_the_warning_says_what_to_do(panel, caplog, monkeypatch, error, hint):
    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(backlight_module.os, "open", refuse)
    with caplog.at_level(logging.WARNING, logger=backlight_module.__name__):
        assert panel.set(10) is False
    assert hint in caplog.text


def test_an_unreadable_brightness_reads_as_full_without_raising(panel, caplog):
    (panel.path / "brightness").write_text("not a number\n")
    with caplog.at_level(logging.WARNING, logger=backlight_module.__name__):
        assert panel.read() == 255
    assert len(caplog.records) == 1


# --- IdleDimmer -------------------------------------------------------------------------
def dimmer_for(panel: Backlight, **kwargs) -> IdleDimmer:
    options = {"dim_after_s": 600, "dim_percent": 10, "now_ms": 0, **kwargs}
    return IdleDimmer(panel, **options)


def test_dims_after_the_idle_time_and_not_before(panel):
    dimmer = dimmer_for(panel)
    assert dimmer.wakeup() == 10 * MINUTE_MS
    dimmer.tick(10 * MINUTE_MS - 1)
    assert not dimmer.dimmed and brightness_of(panel.path) == 200
    dimmer.tick(10 * MINUTE_MS)
    assert dimmer.dimmed
    assert brightness_of(panel.path) == 26 == dimmer.dim_level  # 10 % of 255, rounded
    assert dimmer.wakeup() is None


def test_activity_restarts_the_idle_count(panel):
    dimmer = dimmer_for(panel)
    assert dimmer.activity(5 * MINUTE_MS) is False
    assert dimmer.wakeup() == 15 * MINUTE_MS
    dimmer.tick(14 * MINUTE_MS)
    assert not dimmer.dimmed
    dimmer.tick(15 * MINUTE_MS)
    assert dimmer.dimmed


def test_the_waking_activity_returns_true_and_restores_the_brightness(panel):
    dimmer = dimmer_for(panel)
    dimmer.tick(10 * MINUTE_MS)
    assert brightness_of(panel.path) == 26
    assert dimmer.activity(11 * MINUTE_MS) is True
    assert not dimmer.dimmed and brightness_of(panel.path) == 200
    assert dimmer.activity(11 * MINUTE_MS + 50) is False  # the next touch is a real one
    assert dimmer.wakeup() == 21 * MINUTE_MS + 50


def test_restores_the_brightness_as_it_was_when_dimming_began(panel):
    dimmer = dimmer_for(panel)
    panel.set(120)  # someone turned it down while the game was running
    dimmer.tick(10 * MINUTE_MS)
    assert brightness_of(panel.path) == 26
    dimmer.activity(10 * MINUTE_MS + 1)
    assert brightness_of(panel.path) == 120


def test_a_screen_already_that_dim_is_left_alone(panel):
    panel.set(5)
    dimmer = dimmer_for(panel)
    dimmer.tick(10 * MINUTE_MS)
    assert not dimmer.dimmed and brightness_of(panel.path) == 5
    assert dimmer.activity(10 * MINUTE_MS + 1) is False  # nothing to wake from
    assert dimmer.wakeup() == 20 * MINUTE_MS + 1


def test_dim_level_is_at_least_1_unless_zero_percent(sysfs):
    make_device(sysfs, "10-0045", max_brightness=31, brightness=31)
    tiny = Backlight.find(sysfs / "class" / "backlight")
    assert tiny is not None
    assert IdleDimmer(tiny, dim_after_s=1, dim_percent=1).dim_level == 1
    assert IdleDimmer(tiny, dim_after_s=1, dim_percent=10).dim_level == 3
    dark = IdleDimmer(tiny, dim_after_s=1, dim_percent=0)
    assert dark.dim_level == 0
    dark.tick(1000)
    assert brightness_of(tiny.path) == 0
    assert dark.activity(1001) is True and brightness_of(tiny.path) == 31
    assert IdleDimmer(tiny, dim_after_s=1, dim_percent=250).dim_level == 31


@pytest.mark.parametrize("after", [0, -1, float("nan"), float("inf")])
def test_disabled_never_dims(panel, after):
    dimmer = dimmer_for(panel, dim_after_s=after)
    assert not dimmer.enabled
    for now in (0, 10 * MINUTE_MS, 10**12):
        dimmer.tick(now)
        assert dimmer.wakeup() is None
    assert not dimmer.dimmed and brightness_of(panel.path) == 200
    assert dimmer.activity(10**12 + 1) is False


def test_no_backlight_means_disabled():
    dimmer = IdleDimmer(None, dim_after_s=60, dim_percent=10)
    assert not dimmer.enabled
    dimmer.tick(10**9)
    assert dimmer.wakeup() is None and not dimmer.dimmed
    assert dimmer.activity(10**9) is False
    dimmer.restore()


def test_restore_puts_the_brightness_back_and_is_harmless_otherwise(panel):
    dimmer = dimmer_for(panel)
    dimmer.restore()
    assert brightness_of(panel.path) == 200
    dimmer.tick(10 * MINUTE_MS)
    dimmer.restore()
    assert not dimmer.dimmed and brightness_of(panel.path) == 200
    dimmer.restore()
    assert brightness_of(panel.path) == 200


def test_a_backlight_that_refuses_writes_never_raises_and_is_retried_an_idle_period_later(
    panel, caplog
):
    attribute = panel.path / "brightness"
    attribute.unlink()
    attribute.mkdir()  # reads and writes fail, even for root
    dimmer = dimmer_for(panel)
    with caplog.at_level(logging.WARNING, logger=backlight_module.__name__):
        dimmer.tick(10 * MINUTE_MS)
        assert not dimmer.dimmed  # the screen did not go dark: no touch is swallowed
        assert dimmer.activity(10 * MINUTE_MS + 1) is False
        assert dimmer.wakeup() == 20 * MINUTE_MS + 1
        dimmer.tick(20 * MINUTE_MS + 1)
        dimmer.restore()
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


def test_a_failed_dim_write_leaves_the_dimmer_undimmed(panel, monkeypatch):
    dimmer = dimmer_for(panel)
    monkeypatch.setattr(panel, "set", lambda value: False)
    dimmer.tick(10 * MINUTE_MS)
    assert not dimmer.dimmed
    assert dimmer.wakeup() == 20 * MINUTE_MS


def test_the_memo_gives_the_brightness_back_after_a_crash_while_dimmed(panel, tmp_path):
    memo = tmp_path / "state" / "backlight"
    memo.parent.mkdir()
    dimmer = dimmer_for(panel, memo=memo)
    dimmer.tick(10 * MINUTE_MS)
    assert memo.read_text() == "200\n" and brightness_of(panel.path) == 26
    # The game dies here (no restore()); the next start reads the memo first.
    again = dimmer_for(panel, memo=memo)
    assert brightness_of(panel.path) == 200 and not memo.exists()
    assert not again.dimmed
    # A normal wake or restore removes the memo too.
    again.tick(10 * MINUTE_MS)
    assert memo.exists()
    again.activity(10 * MINUTE_MS + 1)
    assert not memo.exists()
    again.tick(20 * MINUTE_MS + 1)
    again.restore()
    assert not memo.exists() and brightness_of(panel.path) == 200


def test_a_damaged_or_unwritable_memo_is_ignored(panel, tmp_path):
    memo = tmp_path / "backlight"
    memo.write_text("garbage")
    dimmer = dimmer_for(panel, memo=memo)
    assert not memo.exists() and brightness_of(panel.path) == 200
    nowhere = dimmer_for(panel, memo=tmp_path / "missing-dir" / "backlight")
    nowhere.tick(10 * MINUTE_MS)
    assert nowhere.dimmed
    assert nowhere.activity(10 * MINUTE_MS + 1) is True
    assert brightness_of(panel.path) == 200
    assert not dimmer.dimmed


# --- a property: whatever the order of touches and ticks --------------------------------
events = st.lists(
    st.tuples(st.sampled_from(["tick", "touch", "user"]), st.integers(0, 3 * MINUTE_MS)),
    max_size=40,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=events,
    after_s=st.integers(1, 120),
    percent=st.integers(0, 100),
    start=st.integers(1, 255),
)
def test_brightness_is_the_users_or_the_dim_level_and_a_touch_brings_back_the_users(
    steps, after_s, percent, start
):
    root = Path(tempfile.mkdtemp(prefix="backlight-"))
    try:
        make_device(root, "10-0045", max_brightness=255, brightness=start)
        panel = Backlight.find(root / "class" / "backlight")
        assert panel is not None
        dimmer = IdleDimmer(panel, dim_after_s=after_s, dim_percent=percent, now_ms=0)
        users = start  # the brightness the user wants (they may change it while not dimmed)
        now = 0
        for kind, gap in steps:
            now += gap
            if kind == "tick":
                due = dimmer.wakeup()
                dimmer.tick(now)
                if due is not None and now >= due and users > dimmer.dim_level:
                    assert dimmer.dimmed
            elif kind == "touch":
                was_dimmed = dimmer.dimmed
                assert dimmer.activity(now) is was_dimmed
                assert brightness_of(panel.path) == users
            elif not dimmer.dimmed:  # "user": someone sets the brightness by hand
                users = (users * 7 + gap) % 256
                panel.set(users)
            level = brightness_of(panel.path)
            assert level == (dimmer.dim_level if dimmer.dimmed else users)
            assert dimmer.wakeup() is None or dimmer.wakeup() > now or kind != "tick"
        dimmer.restore()
        assert brightness_of(panel.path) == users
    finally:
        shutil.rmtree(root)


# --- in the app -------------------------------------------------------------------------
def test_the_app_dims_when_idle_and_the_waking_touch_does_nothing_else(panel):
    """After the idle time the screen dims; the first touch only lights it (no
    territory gets selected by it), the next touch plays; a seat's button wakes it too."""
    import random

    from clans_pi.session import Seat, Session
    from tests.ui_helpers import BOARD, CHART, display_app, tap, territory_point

    with display_app() as (app, clock):
        app.dimmer = IdleDimmer(panel, dim_after_s=60, dim_percent=10, now_ms=clock())
        session = Session.new([Seat("Ada"), Seat("Bo")], BOARD, CHART, random.Random(2))
        app.begin(session, peeks=False)
        app.pump()
        assert app.timeout() <= MINUTE_MS  # the loop wakes up in time to dim
        clock.advance(MINUTE_MS - 1)
        app.pump()
        assert brightness_of(panel.path) == 200
        clock.advance(1)
        app.pump()
        assert brightness_of(panel.path) == round(255 * 0.10)
        src = session.public().legal_moves[0].src
        tap(app, territory_point(app, src))
        assert brightness_of(panel.path) == 200 and app.screen.selected is None
        tap(app, territory_point(app, src))
        assert app.screen.selected == src
        clock.advance(MINUTE_MS)
        app.pump()
        assert app.dimmer.dimmed
        app.notify("Seat 2's handheld was unplugged")
        assert not app.dimmer.dimmed and brightness_of(panel.path) == 200


def test_dimming_asked_for_without_a_backlight_is_a_notice(monkeypatch, tmp_path):
    from clans_pi.settings.config import Config
    from clans_pi.ui import run

    monkeypatch.setattr(Backlight, "find", classmethod(lambda cls, root=None, name=None: None))
    assert run._dimmer(Config(), tmp_path) == (None, None)  # not asked for: nothing said
    dimmer, text = run._dimmer(Config(dim_after_minutes=5, backlight="dsi-1"), tmp_path)
    assert dimmer is None
    assert text == ("The screen cannot be dimmed: no backlight 'dsi-1' in /sys/class/backlight "
                    "(display.dim_after_minutes is ignored).")
