"""Colour-blind play on the screen: each clan's mark on its huts, the score track and the
peek, switched by display.clan_marks; the fifth clan shown black or white (R3,
display.fifth_clan) everywhere a clan is shown; and R22 still holds with both."""

from __future__ import annotations

import itertools

import pygame
import pytest

from clans_pi.rules.constants import CLANS
from clans_pi.settings.config import Config
from clans_pi.ui.clan_look import ClanLook
from clans_pi.ui.clan_marks import MARKS
from clans_pi.ui.icons import hut_icon
from clans_pi.ui.run import clan_look
from clans_pi.ui.theme import CLAN_COLORS
from tests.test_ui_secrecy import STATES, _pixels, _variants
from tests.ui_helpers import act, finished_session, offscreen_app, random_session, with_clans

MARKED = ClanLook(marks=True)
PLAIN = ClanLook(marks=False)
WHITE = ClanLook(fifth="white")


def _count(surface: pygame.Surface, color: tuple[int, int, int],
           rect: pygame.Rect | None = None) -> int:
    """How many pixels of ``surface`` (in ``rect``) are exactly ``color``."""
    area = surface.subsurface(rect) if rect is not None else surface
    w, h = area.get_size()
    return sum(area.get_at((x, y))[:3] == color for x in range(w) for y in range(h))


def _mark_pixels(icon: pygame.Surface, color: tuple[int, int, int]) -> frozenset[tuple[int, int]]:
    w, h = icon.get_size()
    return frozenset((x, y) for x in range(w) for y in range(h)
                     if icon.get_at((x, y))[:3] == color and icon.get_at((x, y))[3] == 255)


# ------------------------------------------------------------------ the marks on a hut


@pytest.mark.parametrize("size", [12, 18, 40])
def test_each_clan_has_its_own_mark_on_its_hut_even_at_the_smallest_size(size: int) -> None:
    """12 px is the smallest hut the board draws; 18 px is the hut at 800x480."""
    marks = {}
    for clan in CLANS:
        icon = hut_icon(clan, size, look=MARKED)
        body = _count(icon, MARKED.color(clan))
        marked = _mark_pixels(icon, MARKED.mark_color(clan))
        assert len(marked) >= 0.15 * (body + len(marked)), f"{clan}: its mark hardly shows"
        marks[clan] = marked
    for a, b in itertools.combinations(CLANS, 2):
        assert marks[a] != marks[b], f"{a} and {b} have the same pattern"
    assert set(MARKS) == set(CLANS)


@pytest.mark.parametrize("clan", CLANS)
def test_without_marks_a_hut_is_its_plain_colour(clan: str) -> None:
    icon = hut_icon(clan, 18, look=PLAIN)
    assert _count(icon, PLAIN.mark_color(clan)) == 0
    assert _count(icon, PLAIN.color(clan)) > 0.4 * 18 * 18


def test_the_number_on_a_marked_hut_stands_on_its_plain_colour() -> None:
    """The count is written on a plate of the clan's plain colour: no mark touches it."""
    for clan in CLANS:
        icon, bare = hut_icon(clan, 18, 5, look=MARKED), hut_icon(clan, 18, look=MARKED)
        # The digit's pixels: changed by writing the number, and not the plate's colour.
        digit = {(x, y) for x in range(18) for y in range(18)
                 if icon.get_at((x, y)) != bare.get_at((x, y))
                 and icon.get_at((x, y))[:3] != MARKED.color(clan)}
        assert len(digit) >= 6, f"{clan}: no number"
        near = {(x + dx, y + dy) for x, y in digit for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        assert not near & _mark_pixels(icon, MARKED.mark_color(clan)), clan


# ------------------------------------------------------------------ on the screens


def _play_app(look: ClanLook, session=None, size=(800, 480)):
    app, _ = offscreen_app(size)
    app.look = look
    app.table.session = session or random_session(4, moves=30)
    app.table.seats = list(app.session.seats)
    app.play()
    app.redraw()
    return app


def _first_hut(app) -> tuple[str, pygame.Rect]:
    obs = app.session.public()
    bv = app.screen.bv
    t = next(t for t, huts in enumerate(obs.huts) if any(huts))
    present = [CLANS[c] for c, n in enumerate(obs.huts[t]) if n]
    return present[0], bv.cluster(t, len(present))[0]


def test_the_board_and_the_score_track_show_the_marks_when_on_and_not_when_off() -> None:
    on, off = _play_app(MARKED), _play_app(PLAIN)
    clan, rect = _first_hut(on)
    assert _count(on.surface, MARKED.mark_color(clan), rect) > 0
    assert _count(off.surface, PLAIN.mark_color(clan), rect) == 0
    track = next(d.rect for d in on.canvas.records if d.kind == "region" and d.name == "scores")
    icons = 8 + min(40, track.height // len(CLANS)) + 4  # each row: a hut, then its bar
    bars = pygame.Rect(track.left + icons, track.top, track.width - icons, track.height)
    for clan in CLANS:  # each row's hut and bar carry the mark
        assert _count(on.surface, MARKED.mark_color(clan), track) > 20, clan
        assert _count(off.surface, PLAIN.mark_color(clan), track) == 0, clan
        if on.session.public().clan_points[clan]:
            assert _count(on.surface, MARKED.mark_color(clan), bars) > 10, clan


def _held_peek(look: ClanLook, session, seat: int):
    app, _ = offscreen_app((800, 480))
    app.look = look
    app.table.session = session
    app.table.seats = list(session.seats)
    app.peek(seat)
    act(app.screen, "hold", True)
    app.redraw()
    return app


def test_the_held_peek_shows_the_clans_mark_when_on() -> None:
    session = random_session(4, moves=3)
    clan = session.private(2).own_clan
    assert clan is not None
    on, off = _held_peek(MARKED, session, 2), _held_peek(PLAIN, session, 2)
    hold = on.screen.hold_rect
    assert _count(on.surface, MARKED.mark_color(clan), hold) > 100
    assert _count(off.surface, PLAIN.mark_color(clan), hold) == 0


# ------------------------------------------------------------------ black or white (R3)


def _with_black(session, seat: int = 0):
    """``session`` with seat ``seat``'s player holding the black clan."""
    player = session.player_of(seat)
    others = iter(c for c in CLANS if c != "black")
    clans = tuple("black" if p == player else next(others)
                  for p in range(session.num_seats))
    return with_clans(session, clans)


def _texts(app) -> list[str]:
    return [d.name for d in app.canvas.records if d.kind in ("text", "paragraph")]


@pytest.mark.parametrize(("fifth", "name"), [("black", "Black"), ("white", "White")])
def test_the_fifth_clans_colour_and_name_follow_the_setting_everywhere(fifth, name) -> None:
    look = ClanLook(fifth=fifth)
    other = "White" if fifth == "black" else "Black"
    colour, hidden = CLAN_COLORS[fifth], CLAN_COLORS["white" if fifth == "black" else "black"]
    session = _with_black(random_session(4, moves=30))
    # The held peek of the black clan's seat: its colour and its name.
    peek = _held_peek(look, session, 0)
    assert peek.surface.get_at(peek.screen.swatch_rect().move(4, 4).topleft)[:3] == colour
    assert f"Your clan: {name}" in _texts(peek) and not any(other in t for t in _texts(peek))
    # The board and the score track.
    play = _play_app(look, session)
    assert _count(play.surface, colour) > 50 and _count(play.surface, hidden) == 0
    # The long-press card of a territory with huts of the fifth clan.
    obs = session.public()
    t = next(t for t, huts in enumerate(obs.huts) if huts[CLANS.index("black")])
    play.screen.long_press(play.screen.bv.anchors[t])
    play.redraw()
    assert f"{name}: {obs.huts[t][CLANS.index('black')]}" in _texts(play)
    # The reveal.
    done = _with_black(finished_session(4))
    app, _ = offscreen_app((800, 480))
    app.look = look
    app.table.session = done
    app.table.seats = list(done.seats)
    app.reveal()
    app.redraw()
    assert name in _texts(app) and other not in _texts(app)
    assert _count(app.surface, colour) > 20


def test_the_rules_name_the_fifth_clan_as_the_settings_show_it() -> None:
    for look, name in ((ClanLook(), "black"), (WHITE, "white")):
        app, _ = offscreen_app((800, 480))
        app.look = look
        app.rules(app.start_menu)
        app.redraw()
        words = " ".join(_texts(app))
        assert f"yellow and {name}." in words, words


# ------------------------------------------------------------------ from the settings


def test_the_settings_choose_the_look() -> None:
    assert clan_look(Config()) == ClanLook(fifth="black", marks=True)
    assert clan_look(Config(fifth_clan="white", clan_marks=False)) == ClanLook("white", False)


def test_the_game_started_from_the_settings_file_uses_its_look(tmp_path, monkeypatch) -> None:
    from clans_pi import cli
    from clans_pi.ui import app as app_module

    seen: list[ClanLook] = []
    monkeypatch.setattr(app_module.App, "run",
                        lambda self, *, first_frame_only=False: seen.append(self.look))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    config = tmp_path / "config.toml"
    config.write_text('[display]\nfifth_clan = "white"\nclan_marks = false\n', encoding="utf-8")
    assert cli.main(["play", "--config", str(config), "--state-dir", str(tmp_path)]) == 0
    assert seen == [ClanLook(fifth="white", marks=False)]


# ------------------------------------------------------------------ R22


@pytest.mark.parametrize("look", [MARKED, WHITE, PLAIN], ids=["marks", "white", "plain"])
@pytest.mark.parametrize("state", ["play", "info_and_toast", "peek_not_held", "order_choice"])
def test_r22_marks_and_white_reveal_nothing(state: str, look: ClanLook) -> None:
    """Marks are per clan, not per player: the same public game with other secret clans
    still draws the same pixels."""
    session = random_session(3, seed=1, moves=28)

    def prepare(app, clock):
        app.look = look
        STATES[state](app, clock)

    assert len({_pixels(v, (800, 480), prepare) for v in _variants(session)}) == 1
