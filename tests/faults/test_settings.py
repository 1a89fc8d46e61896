"""A settings file a maker got wrong never stops the game (already handled; injected here
for the fault table)."""

from __future__ import annotations

import pytest

from clans_pi import cli
from clans_pi.saving.store import GameStore
from clans_pi.settings import config
from clans_pi.table.guide import GUIDE_FILE, GuideMemory
from clans_pi.ui import languages
from clans_pi.ui.app import App

from ..ui_helpers import random_session
from . import fault


@pytest.fixture(autouse=True)
def _english_after():
    yield
    assert languages.use("en") is None


def _start_with(tmp_path, monkeypatch, text: str) -> tuple[int, list[str]]:
    """Start the real program with a settings file holding ``text``; return its exit status
    and the notices it put on the screen."""
    shown: list[str] = []

    def run(self: App, *, first_frame_only: bool = False) -> None:
        self.pump()
        assert self.screen is not None and self.screen.name == "start"  # the game is up
        while self.notice is not None:
            shown.append(self.notice[0])
            self.tick(self.notice[1])
        self.quit()

    monkeypatch.setattr(App, "run", run)
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    status = cli.main(["play", "--config", str(config), "--state-dir", str(tmp_path)])
    return status, shown


@fault("settings", "A settings file that is not TOML",
       sees="one sentence naming the file and line; the game starts with the defaults",
       kept="the file as it is, the saved game")
def test_a_settings_file_that_is_not_toml(tmp_path, monkeypatch, capsys):
    status, shown = _start_with(tmp_path, monkeypatch, "[display\nsize = 800x480\n")
    assert status == 0
    assert len(shown) == 1 and "config.toml" in shown[0] and "line 1" in shown[0]
    assert "Traceback" not in capsys.readouterr().err
    assert (tmp_path / "config.toml").read_text(encoding="utf-8").startswith("[display\n")


@fault("settings", "Wrong values in the settings file",
       sees="one setting: a sentence with file, key, what is wrong, the default used; "
       "several: one notice with their number and the first, all of them in the log",
       kept="every other setting, the saved game")
def test_wrong_values_in_the_settings_file(tmp_path, monkeypatch, capsys):
    status, shown = _start_with(tmp_path, monkeypatch, 'sound = "loud"\nlanguage = "de"\n')
    assert status == 0
    assert [s.split(": ", 2)[-1] for s in shown] == [
        "sound: must be true or false, not 'loud'; using True"]
    assert all(s.startswith("Eine Einstellung") for s in shown), shown  # language was kept
    status, shown = _start_with(tmp_path, monkeypatch,
                                'sound = "loud"\nlanguage = "de"\n[display]\nrotate = 45\n')
    assert status == 0
    assert len(shown) == 1 and shown[0].startswith("2 Probleme in den Einstellungen; das "
                                                   "erste: "), shown
    assert "sound: must be true or false, not 'loud'; using True" in shown[0]
    err = capsys.readouterr().err
    assert "display.rotate: 45 is not one of 0, 90, 180, 270; using 0" in err
    assert "Traceback" not in capsys.readouterr().err


@fault("settings", "A broken clans-pi.toml on the card while a game is kept (the notice cut "
       "its path, said twice that settings were not used, and hid the scores for a minute)",
       sees="one sentence under the scores, every word of it: the card's clans-pi.toml was "
       "not used, and why (its line)",
       kept="the game, the scores in sight, the other settings, the file as it is")
@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
@pytest.mark.parametrize("settings", ["none", "de"])
def test_a_broken_cards_file_while_a_game_is_kept(tmp_path, monkeypatch, capsys, size,
                                                  settings):
    """The card's clans-pi.toml (the boot partition's, as a booted image has it) broken,
    with no settings file beside it (the defaults) or with /etc's (German, kept)."""
    boot, etc = tmp_path / "boot" / "firmware" / "clans-pi.toml", tmp_path / "etc.toml"
    boot.parent.mkdir(parents=True)
    boot.write_text('language = "fr"\n[seats\n2 = phone\n', encoding="utf-8")
    if settings == "de":
        etc.write_text('language = "de"\n', encoding="utf-8")
    monkeypatch.setattr(config, "DEFAULT_PATHS", (etc,))
    monkeypatch.setattr(config, "BOOT_PATHS", (boot,))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nobody"))
    state = tmp_path / "state"
    session = random_session(4, moves=30)
    GameStore(state).save(session)
    GuideMemory(state / GUIDE_FILE).set_done(True)
    seen: dict[str, object] = {}

    def run(self: App, *, first_frame_only: bool = False) -> None:
        self.pump()
        assert self.screen is not None and self.screen.name == "play"  # the game goes on
        self.canvas.record = True
        self.dirty = self.full = True
        self.redraw()
        seen["notice"] = self.notice[0] if self.notice is not None else None
        seen["records"] = list(self.canvas.records)
        seen["window"] = self.surface.get_rect()
        self.quit()

    monkeypatch.setattr(App, "run", run)
    status = cli.main(["play", "--state-dir", str(state), "--size", f"{size[0]}x{size[1]}"])
    assert status == 0
    assert "Traceback" not in capsys.readouterr().err
    text = seen["notice"]
    assert isinstance(text, str)
    # Named as the maker knows it, with what is wrong and where, said once.
    if settings == "de":
        assert "clans-pi.toml der Karte" in text and text.count("nicht übernommen") == 1, text
    else:
        assert "The card's clans-pi.toml" in text and text.count("not used") == 1, text
    assert str(boot.parent) not in text and "line 2" in text
    assert "the settings in it are not used" not in text and "using the defaults" not in text
    records = seen["records"]
    regions = {d.name: d.rect for d in records if d.kind == "region"}
    notice, scores = regions["notice"], regions["scores"]
    assert seen["window"].contains(notice)
    assert not notice.colliderect(scores), (notice, scores)  # every score row in sight
    drawn = records[[d.name for d in records].index("notice") + 1:]  # the notice's words
    assert [d.kind for d in drawn[:1]] == ["paragraph"] and drawn[0].fits
    lines = drawn[1:]
    assert all(d.kind == "text" and d.fits and notice.contains(d.rect) for d in lines), [
        d.name for d in lines if not d.fits]
    # Every word drawn, in order (a word too long for a line goes on over the next).
    assert "".join(d.name for d in lines).replace(" ", "") == text.replace(" ", "")
