"""Faults of the display: the machine's fonts. A Japanese face without Latin letters or
digits (Droid Sans Fallback, which ``fc-match :lang=ja`` answers where ImageMagick or
Ghostscript pulled in fonts-droid-fallback), and no Japanese face at all.

The faces are made on any machine from the pinned font (tests/font_helpers.py): the same
glyphs with the characters the machine's face lacks taken out of its character map."""

from __future__ import annotations

import functools
import logging

import pytest

from clans_pi import i18n
from clans_pi.settings.config import Config
from clans_pi.ui import canvas, fonts, languages
from clans_pi.ui.clan_look import DEFAULT_LOOK
from clans_pi.ui.run import play
from clans_pi.ui.screens.language import LanguageScreen
from tests.faults import fault
from tests.i18n_helpers import language, text_problems
from tests.test_ui_guide_cards import _card_app
from tests.test_ui_layout import SCREENS, START_SCREENS, _check_fits
from tests.ui_helpers import BOARD, CHART, offscreen_app


@pytest.fixture
def machine(monkeypatch):
    """A machine (a Pi, no dev extra) whose only Japanese face is what fc-match answers."""
    def having(path: str | None) -> None:
        monkeypatch.delenv("CLANS_PI_CJK_FONT", raising=False)
        monkeypatch.setattr(fonts, "KNOWN_PATHS", ())
        monkeypatch.setattr(fonts, "_fc_match", lambda: path)
        monkeypatch.setattr(fonts, "_package_font", lambda: None)
        fonts.cjk_font.cache_clear()

    yield having
    fonts.cjk_font.cache_clear()
    assert languages.use("en") is None
    fonts.cjk_font.cache_clear()


def _ink(text: str, px: int = 24) -> bytes:
    surf = canvas.rendered(text, px, (255, 255, 255))
    return bytes(surf.get_view("A"))  # type: ignore[arg-type]


@fault("display", "the Japanese font has no Latin letters or digits (Droid Sans Fallback)",
       sees="names and numbers in the bundled font inside Japanese text, no boxes",
       kept="Japanese, the game")
@pytest.mark.slow
def test_a_japanese_font_without_latin_letters_borrows_them_from_the_bundled_font(
        machine, no_latin, caplog):
    machine(no_latin)
    with caplog.at_level(logging.INFO, logger="clans_pi.ui.fonts"):
        assert fonts.cjk_font() == no_latin  # it draws Japanese: nothing better here
    with language("ja"):
        assert canvas.face() == no_latin
        app = _card_app((800, 480), "secret")
        shown = {d.name for d in app.canvas.records if d.kind == "text"}
        assert "Annaさんだけが見てください" in shown
        assert not text_problems(app)
        for name in ("play", "reveal", "rules1"):
            app, _ = offscreen_app()
            app.table.seats = []
            SCREENS[name](app)
            app.redraw()
            assert not text_problems(app), (name, text_problems(app))
        # Boxes are all alike; letters and digits are not.
        assert _ink("Anna") != _ink("Bbbb") and _ink("0123") != _ink("4567")
        assert _ink("Annaさん") != _ink("Bbbbさん")
        assert canvas.missing_glyphs("Anna", no_latin) == "Anna"  # the face alone: boxes
        assert canvas._runs(no_latin, "Annaさん") == (
            (canvas.bundled_file(), "Anna"), (no_latin, "さん"))
    assert "and the bundled font for the" in caplog.text


@fault("display", "no Japanese font at all",
       sees="Japanese greyed out with `sudo apt install fonts-noto-cjk`; English shown",
       kept="the game, in English")
def test_without_any_japanese_font_japanese_is_greyed_out_with_the_apt_hint(
        machine, tmp_path, caplog):
    machine(None)
    app, _ = offscreen_app()
    app.start_menu()
    app.show(LanguageScreen(app, lambda code: None, app.start_menu))
    app.redraw()
    assert not app.screen.button("lang_ja").enabled
    shown = {d.name for d in app.canvas.records if d.kind == "text"}
    assert "Japanese needs a Japanese font: sudo apt install fonts-noto-cjk" in shown
    assert not text_problems(app)
    caplog.clear()  # the lookup said it once (cached); now the settings ask for Japanese
    with caplog.at_level(logging.WARNING):
        play(BOARD, CHART, size=(800, 480), fullscreen=False, rotate=0, seed=1,
             first_frame_only=True, config=Config(language="ja"), state_dir=tmp_path)
    assert i18n.language() == "en"
    assert sum("fonts-noto-cjk" in r.getMessage() for r in caplog.records) == 1
    assert not any(r.exc_info for r in caplog.records)


#: Where the start screen's seat cards used to cut their texts short.
CUT_SHORT = (("start", 3, (480, 320)), ("start", 2, (1024, 768)),
             ("start_with_computers", 4, (480, 480)), ("start_with_computers", 2, (600, 700)))


@fault("display", "The start screen with fewer seats than four (three at 480x320, two at "
       "1024x768) or with computer players on a small screen: the seat cards' texts cut short",
       sees="every seat's name, whose seat it is and 'tap to change' whole: the cards laid "
       "out so their texts fit, for 2, 3 and 4 players at every size",
       kept="the seats and their choices")
@pytest.mark.parametrize(("screen", "players", "size"), CUT_SHORT,
                         ids=[f"{s}-{n}-{w}x{h}" for s, n, (w, h) in CUT_SHORT])
def test_the_start_screen_seat_texts_fit_every_player_count(screen, players, size):
    _check_fits(screen, size, DEFAULT_LOOK,
                functools.partial(START_SCREENS[screen], players=players))


def _touching(number: int, ink_px: int, ring: bool) -> list[tuple[int, int]]:
    """The pixels of a badge's number (drawn blue) that touch its ring (green) or the
    outside of its plate, side by side: a number kept inside has a clear pixel all round."""
    from clans_pi.ui.icons import count_badge

    fill, ink, green = (200, 0, 0), (0, 0, 200), (0, 200, 0)
    badge = count_badge(number, ink_px, fill, ink, green if ring else None)
    w, h = badge.get_size()

    def is_(colour_at: int, p: tuple[int, int]) -> bool:  # the colour's channel leads
        c = badge.get_at(p)
        return c.a > 0 and c[colour_at] > max(c[k] for k in range(3) if k != colour_at)

    text = [(x, y) for x in range(w) for y in range(h) if is_(2, (x, y))]
    assert text, number

    def bad(x: int, y: int) -> bool:
        return (not (0 <= x < w and 0 <= y < h) or badge.get_at((x, y)).a == 0
                or is_(1, (x, y)))

    return [(x, y) for x, y in text
            if any(bad(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))]


@fault("display", "two-digit numbers on their plates (the chips 10 to 12, a count of 10 or more "
       "on the board, the rules' last page) crossed the plate's ring and its round ends",
       sees="every number whole inside its plate, a clear pixel all round",
       kept="the game")
@pytest.mark.parametrize("ink_px", [8, 12, 16])
@pytest.mark.parametrize("ring", [True, False])
def test_a_plate_s_number_stays_inside_its_plate_and_ring(ink_px, ring):
    """Two-digit counts and chips (a ringed 10 on the board, the rules' chips 10 to 12) kept
    inside the plate: no digit over the ring or off the plate's round ends."""
    for number in (1, 7, 10, 11, 12, 24, 60):
        assert _touching(number, ink_px, ring) == [], number


@fault("display", "after the move that ended the game, the panel said whose turn it was and "
       "'Tap huts to move them' under 'Epoch V begins' until the reveal",
       sees="'Game over' and why (12th village, no move left) until the reveal",
       kept="the game and its end")
def test_the_finished_game_s_last_move_is_nobody_s_turn():
    """While the game's last move is shown, before the reveal, the panel says the game is
    over and why, not whose turn it is or what to tap (R18, R19)."""
    from clans_pi.i18n import _
    from clans_pi.rules.moves import Move
    from clans_pi.rules.record import replay
    from clans_pi.session import Session
    from clans_pi.ui.screens.play import PlayScreen
    from tests.ui_helpers import random_session

    finished = random_session(3, seed=5, moves=10_000)
    data = finished.to_record()
    last = data["moves"].pop()
    before = Session(replay(data, BOARD, CHART), finished.seats)
    app, _clock = offscreen_app((800, 480))
    app.table.session = before
    app.table.seats = list(before.seats)
    app.play()
    order = tuple(last["order"]) if "order" in last else None
    app.screen.play_move(Move(last["from"], last["to"], order))
    assert before.is_over and isinstance(app.screen, PlayScreen)  # its last move, shown
    app.full = True
    app.redraw()
    texts = [d.name for d in app.canvas.records if d.kind in ("text", "paragraph")]
    assert _("Game over") in texts
    assert f"Move {before.public().ply} · 12th village" in texts, texts
    assert not [t for t in texts if "'s turn" in t or "Tap huts" in t], texts


@fault("display", "ordering several new villages: after the first taps the last village took "
       "its place by itself, and tapping it next, as the header says, was refused ('That one "
       "is already in the order')",
       sees="the tap on the last village founds them in the order shown (as Found does)",
       kept="the move and its order")
def test_tapping_the_last_village_placed_by_itself_founds_them():
    from dataclasses import replace

    from clans_pi.ui.screens import play_states as ps
    from tests.test_play_states import DONE, ORDER, G

    s = ORDER  # three new villages, 7, 8 and 9, waiting for their order
    for t in (8, 7):  # 9 then takes the last place by itself
        s = ps.release(replace(s, touch=ps.Touch(t, None)), t, G).state
    assert s == DONE
    step = ps.release(replace(s, touch=ps.Touch(9, None)), 9, G)
    assert step.effects == (ps.Play(1, 3, (8, 7, 9)),)


@fault("display", "Past games, a game, its result: the winner's name cut short ('Owl (Norm'), "
       "the crown beside it taking its room",
       sees="the winner's name whole, as the other players' are, the crown on the picture",
       kept="the game's record")
@pytest.mark.parametrize("code", ["en", "de"])
def test_the_past_result_shows_the_winner_s_name_whole(code):
    from clans_pi.history.replay import GameReplay
    from clans_pi.ui.screens.past_replay import ReplayScreen
    from clans_pi.ui.seat_kinds import computer_name
    from tests.test_ui_layout import act
    from tests.ui_helpers import finished_session

    session = finished_session(4)
    record = session.to_record()
    winner = session.public().winners[0]
    record["players"] = ["Ann", "Bo", "Cy", "Dee"]
    record["players"][winner] = "Owl (Normal)"
    with language(code):
        app, _clock = offscreen_app((800, 480))
        screen = ReplayScreen(app, GameReplay(record, "x.json", BOARD, CHART),
                              back=app.start_menu)
        app.show(screen)
        while screen.button("epoch_next").enabled:
            act(screen, "epoch_next")
        act(screen, "result")
        app.full = True
        app.redraw()
        names = [d.name for d in app.canvas.records if d.kind == "text"]
        whole = computer_name("owl", "normal")  # "Eule (Mittel)" in German, as at the table
        assert whole in names, names


@fault("display", "Past games of games played in another language (in German: 'Fox' and "
       "'Owl (Normal)' listed and crowned, while the start screen says 'Fuchs' and "
       "'Eule (Mittel)')",
       sees="a picture's own name and a computer's name in the language in use, in the list, "
       "the replay and the result, as at the table; a typed name as typed",
       kept="the records as they were written (old ones without the table's seats too)")
@pytest.mark.parametrize("code", ["de", "ja"])
def test_past_games_name_pictures_and_computers_in_the_language_in_use(tmp_path, code):
    import random

    from clans_pi.saving.store import GameStore
    from clans_pi.ui.app import App
    from clans_pi.ui.avatars import avatar
    from clans_pi.ui.screens.past_games import PastGamesScreen
    from clans_pi.ui.seat_kinds import computer_name
    from tests.history_helpers import NOW, finished_record, write_record
    from tests.test_ui_layout import act
    from tests.ui_helpers import FakeClock

    records = tmp_path / "records"
    # Played in English, with the table's seats; in French; and an old record that kept
    # only the players' names.
    english = finished_record([("Fox", "fox", "human"), ("Owl (Normal)", "owl", "normal"),
                               ("Anna", "bear", "human")], 3)
    french = finished_record([("Lièvre", "hare", "human"), ("Loup (Difficile)", "wolf", "hard")],
                             4, ended=NOW.replace(hour=19))
    old = finished_record([("Cat", "", "human"), ("Deer (Easy)", "", "easy")], 5,
                          ended=NOW.replace(hour=18))
    del old["table"]
    for k, record in enumerate((english, french, old)):
        write_record(records, record, f"2026112{5 - k}-200000-{k:010d}.json")
    typed = {"Anna"}
    with language(code):
        wanted = {avatar("fox").label, computer_name("owl", "normal"), avatar("hare").label,
                  computer_name("wolf", "hard"), avatar("cat").label,
                  computer_name("deer", "easy")}
        kept = {"Fox", "Owl (Normal)", "Lièvre", "Loup (Difficile)", "Cat", "Deer (Easy)"}
        app = App(BOARD, CHART, size=(800, 480), rng=random.Random(1), clock=FakeClock(),
                  record=True, store=GameStore(tmp_path))
        app.start_menu()
        act(app.screen, "past_games")
        screen = app.screen
        assert isinstance(screen, PastGamesScreen)
        screen.now = lambda: NOW

        def drawn() -> set[str]:
            app.full = True
            app.redraw()
            return {d.name for d in app.canvas.records if d.kind == "text"}

        shown = drawn()
        assert wanted | typed <= shown and not kept & shown, (shown, wanted)
        for game, row in list(screen.rows):  # each game's replay, then its result
            names = {(p.name, p.winner) for p in game.players}
            screen.pointer_down(row.center)
            screen.pointer_up(row.center)
            replay = app.screen
            assert replay.name == "past_replay"
            act(replay, "strip")  # the players' cards rather than the chart of how they hid
            shown = drawn()
            assert not kept & shown and len(wanted & shown) == len(names - {("Anna", False),
                                                                           ("Anna", True)})
            while replay.button("epoch_next").enabled:
                act(replay, "epoch_next")
            act(replay, "result")
            shown = drawn()
            assert not kept & shown, shown
            headline = next(d.name for d in app.canvas.records if d.kind == "text")
            assert not any(name in headline for name, _won in names if name not in typed)
            act(app.screen, "back")
            act(replay, "back")
            assert app.screen is screen
