"""Keep every test away from the user's own saved game and settings, and from the
machine's fonts; and the fixtures many test files share (gpiozero's mock pins, the real
firmware's modules)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tests import browser_helpers, fake_machine
from tests.font_helpers import LATIN_AND_DIGITS, PINNED_CJK, font_without

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    if PINNED_CJK is None:  # else the tests would draw with whatever the machine has
        raise pytest.UsageError(
            "the dev extra's Japanese font (noto-cjk-sans-jp-regular) is not installed: "
            "./scripts/test installs it (pip install -e '.[dev]')")


@pytest.fixture(autouse=True)
def _private_state(tmp_path_factory, monkeypatch):
    """Saves, records and pairings go to a fresh directory (children inherit it)."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path_factory.mktemp("state")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def _pinned_fonts(monkeypatch):
    """Japanese is drawn with the dev extra's font, not whatever ``fc-match`` answers here
    (Droid Sans Fallback has no Latin letters or digits): children inherit it too."""
    monkeypatch.setenv("CLANS_PI_CJK_FONT", PINNED_CJK)


@pytest.fixture(params=["compiled", "python"])
def search_path(request, monkeypatch) -> str:
    """A test taking it runs twice: on the compiled core's search and on the Python one
    (``CLANS_PI_CORE=python``; search workers inherit it). Where no C compiler is (or the
    Python path was chosen), the compiled run is skipped; where there is one, a core that is
    not built fails it (the set-up builds it: scripts/_venv.sh)."""
    from tests.compiled_helpers import the_core

    if request.param == "python":
        monkeypatch.setenv("CLANS_PI_CORE", "python")
    else:
        the_core()  # skipped without a compiler or with CLANS_PI_CORE=python
    return request.param


@pytest.fixture
def compiled_twin(monkeypatch):
    """Every move and playout of the test is checked against the compiled core
    (tests/compiled_helpers.py): a rules test module takes it for all its tests."""
    from tests.compiled_helpers import twin

    with twin(monkeypatch) as twins:
        yield twins


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """Chromium under Playwright, one for a test module (tests/browser_helpers.py)."""
    with browser_helpers.launched() as browser:
        yield browser


@pytest.fixture(scope="session")
def no_latin(tmp_path_factory) -> str:
    """A Japanese face without ASCII's letters, digits and punctuation, nor Latin-1, as
    Droid Sans Fallback is (made from the pinned font, so on any machine)."""
    return font_without(LATIN_AND_DIGITS, tmp_path_factory.mktemp("fonts") / "nolatin.otf")


@pytest.fixture
def pin_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins, with PWM as lgpio gives a Pi's LEDs; the pins are released
    afterwards. Pass it as ``pin_factory=`` (the global factory stays untouched)."""
    made = MockFactory(pin_class=MockPWMPin)
    yield made
    made.reset()


@pytest.fixture
def global_pin_factory() -> Iterator[None]:
    """For tests that touch gpiozero's global ``Device.pin_factory``: none at the start
    (the code under test picks one), the one before put back afterwards."""
    saved = Device.pin_factory
    Device.pin_factory = None
    yield
    Device.pin_factory = saved


@pytest.fixture(autouse=True)
def _no_log_handler_outlives_its_test() -> Iterator[None]:
    """The game's log handler (clans_pi.service.logs.setup_logging, called by cli.main) writes
    to the standard error of the test that installed it, which pytest closes after it: removed
    then, or a later test's log lines go to a closed file ("--- Logging error ---")."""
    yield
    import logging

    from clans_pi.service import logs

    if logs._installed is not None:
        logging.getLogger().removeHandler(logs._installed)
        logs._installed = None


@pytest.fixture
def firmware(monkeypatch: pytest.MonkeyPatch) -> Iterator[SimpleNamespace]:
    """The firmware modules as on the Pico (``config``, ``hw``, ``handheld``) on a fresh fake
    board, everything put back afterwards (:func:`tests.fake_machine.firmware`)."""
    with fake_machine.firmware(monkeypatch.syspath_prepend, ("config", "hw", "handheld")) as fw:
        yield fw
