"""Readable from every chair: the board's numbers are at least 12 px high at
800x480 on solid plates, every territory with two or more huts shows its total (the number
the 7+ rule, R9, needs), the order slots tell hostile from favourable terrain and show what
each village is worth (R11, R14), and names are whole on the upright display."""

from __future__ import annotations

from collections import Counter

import pytest

from clans_pi.session import Seat, Session
from clans_pi.ui.screens.play import PlayScreen

from .ui_helpers import SIZES, offscreen_app, random_session


def _play(size, *, moves=38, seed=2026, n=4):
    app, _ = offscreen_app(size)
    app.table.session = random_session(n, seed=seed, moves=moves)
    app.table.seats = list(app.table.session.seats)
    assert not app.table.session.is_over
    app.play()
    app.redraw()
    return app


def _numbers(app, *kinds):
    return [d for d in app.canvas.records if d.kind in kinds]


@pytest.mark.parametrize("moves", [0, 20, 30, 40])
def test_r9_every_territory_with_two_or_more_huts_shows_its_total(moves):
    app = _play((800, 480), moves=moves)
    obs = app.session.public()
    villages = {v.territory for v in obs.villages}
    want = Counter(str(sum(h)) for t, h in enumerate(obs.huts)
                   if sum(h) >= 2 and t not in villages)
    shown = Counter(d.name for d in _numbers(app, "total"))
    assert shown == want


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 800), (720, 1280)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_boards_numbers_are_12px_high_on_a_solid_plate(size):
    """Hut counts, totals, village chips and values: digits at least 12 px high as drawn,
    each on a plate of one colour (not over the clans' stripes and dots)."""
    app = _play(size, moves=40)
    numbers = _numbers(app, "count", "total")
    assert len(numbers) > 10
    surf = app.surface
    for d in numbers:
        assert d.height >= 12, f"{d.kind} {d.name} is {d.height} px high"
        r = d.rect
        # The plate's colour just inside its left and right ends, level with the digits'
        # middle: the same on both sides (a solid plate), whatever the hut under it.
        left = surf.get_at((r.left + 1, r.centery))[:3]
        right = surf.get_at((r.right - 2, r.centery))[:3]
        assert left == right, f"{d.kind} {d.name} at {r}: {left} vs {right}"


def test_the_digits_drawn_are_as_high_as_recorded():
    """The figure the test above reads is measured, not assumed: the ink of a total's
    digits on the screen is at least that high."""
    app = _play((800, 480), moves=40)
    total = _numbers(app, "total")[0]
    plate = app.surface.subsurface(total.rect).copy()
    back = plate.get_at((plate.get_width() // 2, 1))
    rows = [y for y in range(plate.get_height())
            if any(plate.get_at((x, y)) != back for x in range(3, plate.get_width() - 3))]
    assert max(rows) - min(rows) + 1 >= total.height >= 12


def test_r11_r14_order_slots_show_worth_and_tell_hostile_from_favourable():
    app, _ = offscreen_app((800, 480))
    app.table.session = random_session(3, seed=1, moves=28)
    app.table.seats = list(app.table.session.seats)
    app.play()
    screen: PlayScreen = app.screen
    session = app.session
    m = next(m for m in session.public().legal_moves if len(session.founds(m.src, m.dst)) >= 2)
    screen.move_huts(m.src, m.dst)
    for t in screen.order.founds[:-1]:
        screen.tap_territory(t)
    app.redraw()
    texts = " | ".join(d.name for d in app.canvas.records if d.kind == "text")
    for k, t in enumerate(screen.order.chosen):
        worth = session.village_worth(m.src, m.dst, t, k)
        slot = session.slot_preview(k)
        terrain = session.board.terrain(t)
        if terrain in slot.hostile:
            assert "hostile" in texts and "0: huts lost" in texts
        else:
            assert f"worth {worth}" in texts
            assert ("favourable" if terrain in slot.favourable else "neutral") in texts


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_names_are_whole_on_every_display(size):
    long = ("Maximilian", "Anastasia", "Konstantin", "Bartholomew")
    base = random_session(4, moves=10)
    order = base.public().players
    seats = [Seat(long[i], "") for i in range(4)]
    named = {p: long[i] for i, p in enumerate(sorted(order))}
    data = base.to_record()
    data["players"] = [named[p] for p in order]
    from clans_pi.rules.record import replay

    from .ui_helpers import BOARD, CHART
    state = replay(data, BOARD, CHART)
    session = Session(state, seats)
    app, _ = offscreen_app(size)
    app.table.session = session
    app.table.seats = list(session.seats)
    app.play()
    app.redraw()
    drawn = {d.name: d for d in app.canvas.records if d.kind == "text"}
    for name in long:
        assert name in drawn and drawn[name].fits, f"{name} is cut at {size}"
        assert drawn[name].rect.width >= 40


@pytest.mark.parametrize("px", [18, 20, 22, 26])
@pytest.mark.parametrize("text", ["The twelfth village is founded.", "Clan points",
                                  "twelfth", "points", "Epoch III · +3"])
def test_letters_are_spaced_as_the_font_designs_them(text, px):
    """Small text had uneven letter spacing ("twel fth", "point s"): SDL_ttf hints the
    glyphs at small sizes and rounds every advance to a whole pixel. Drawn, a line is as
    wide as the font's own design for it (measured at a large size, where rounding does
    not matter), within 0.15 px a letter (hinted, "The twelfth village is
    founded." came out 8 % wider, 0.6 px a letter), and wrapping measures the width drawn."""
    import pygame

    from clans_pi.ui.canvas import rendered, text_width

    design = pygame.font.Font(None, px * 8).size(text)[0] / 8
    drawn = rendered(text, px, (255, 255, 255))
    assert abs(drawn.get_width() - design) <= max(1.0, 0.15 * len(text)), (
        drawn.get_width(), design)
    assert text_width(text, px) == drawn.get_width()


@pytest.mark.parametrize(("weight", "words"), [(1.0, "sure"), (0.9, "sure"), (0.89, "likely"),
                                               (0.5, "likely"), (0.49, "a guess"),
                                               (0.26, "a guess")])
def test_the_reveal_says_how_sure_a_guess_was_in_words(weight, words):
    """A computer's guess at the reveal is worded by its weight (sure >= 0.9, likely >=
    0.5, else a guess): no "100 %" on a guess that may be wrong."""
    from clans_pi.ui.guess_words import how_sure

    assert how_sure(weight) == words


def test_the_rules_button_says_where_it_goes_back_to():
    from .ui_helpers import act

    app, _ = offscreen_app((800, 480))
    app.start_menu()
    app.rules(app.start_menu, from_game=False)
    assert app.screen.button("back").label == "Back"
    app.table.session = random_session(2, moves=4)
    app.table.seats = list(app.table.session.seats)
    app.play()
    act(app.screen, "rules")
    assert app.screen.name == "rules" and app.screen.button("back").label == "Back to the game"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (480, 320)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_rules_page_has_a_picture_of_the_games_pieces(size):
    """Rules pages show pictures drawn with the board's own pieces (huts in the clans'
    colours, terrain tiles, plates, the chart), not text alone."""
    from clans_pi.ui.clan_look import DEFAULT_LOOK
    from clans_pi.ui.screens.rules import PAGES
    from clans_pi.ui.theme import TERRAIN_COLORS

    app, _ = offscreen_app(size)
    app.start_menu()
    app.rules(app.start_menu, from_game=False)
    for page in range(len(PAGES)):
        app.screen.page = page
        app.screen.layout()
        app.redraw()
        picture = next(d.rect for d in app.canvas.records
                       if d.kind == "region" and d.name == "picture")
        assert picture.width * picture.height >= 0.15 * size[0] * size[1]
        colours = {app.surface.get_at((x, y))[:3]
                   for x in range(picture.left, picture.right, 2)
                   for y in range(picture.top, picture.bottom, 2)}
        pieces = {DEFAULT_LOOK.color(c) for c in ("red", "blue")} | set(TERRAIN_COLORS.values())
        assert len(colours & pieces) >= 2, f"page {page + 1} shows none of the game's pieces"
