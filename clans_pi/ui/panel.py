"""The play screen's side panel and strip, drawn from public information only (R22):
the epoch chart, the clans' score track, and the players with their chips."""

from __future__ import annotations

import pygame

from ..i18n import _, ngettext
from ..rules.constants import CLANS, TERRAINS
from ..rules.epochs import EpochChart
from ..rules.observation import Observation
from ..session import Seat
from .avatars import AVATARS, avatar_surface, is_avatar
from .board_view import _mark
from .canvas import Canvas
from .clan_look import DEFAULT_LOOK, ClanLook
from .clan_marks import draw_mark, mark_period
from .icons import chip_icon, hut_icon
from .layout import split_h, split_v
from .theme import (
    ACCENT,
    CARD,
    PANEL_HI,
    TERRAIN_COLORS,
    TERRAIN_MARK,
    TEXT,
    TEXT_DIM,
    roman,
)


def avatar_key(seat: Seat, index: int) -> str:
    """The seat's avatar, or a default one by seat number when it has none or one this
    version does not know (a kept record from another version)."""
    if seat.avatar and is_avatar(seat.avatar):
        return seat.avatar
    return AVATARS[index % len(AVATARS)].key


def draw_avatar(canvas: Canvas, seat: Seat, index: int, rect: pygame.Rect) -> None:
    side = min(rect.width, rect.height)
    r = pygame.Rect(0, 0, side, side)
    r.center = rect.center
    canvas.surface.blit(avatar_surface(avatar_key(seat, index), side), r)


def terrain_tile(canvas: Canvas, terrain: str, rect: pygame.Rect) -> None:
    """A small square of ``terrain`` with its mark, as on the board."""
    pygame.draw.rect(canvas.surface, TERRAIN_COLORS[terrain], rect, border_radius=3)
    m = rect.height * 0.22
    _mark(canvas.surface, terrain, (rect.centerx, rect.centery), m, TERRAIN_MARK[terrain],
          max(1, rect.height // 12))
    pygame.draw.rect(canvas.surface, (20, 20, 24), rect, 1, border_radius=3)


def epoch_columns(rect: pygame.Rect, chart: EpochChart) -> list[pygame.Rect]:
    """Each epoch's column of the chart drawn in ``rect``, epoch I first."""
    inner = rect.inflate(-8, -8)
    label_w = round(inner.width * 0.2)
    return split_h(pygame.Rect(inner.left + label_w, inner.top, inner.width - label_w,
                               inner.height), *([1] * len(chart.epochs)), gap=3)


def draw_epoch_chart(canvas: Canvas, rect: pygame.Rect, chart: EpochChart, obs: Observation,
                     px: int) -> None:
    """Epochs as columns: chips left (filled dots), bonus, favourable and hostile terrain."""
    canvas.region("chart", rect)
    canvas.box(rect, CARD, radius=6)
    cols = epoch_columns(rect, chart)
    inner = rect.inflate(-8, -8)
    labels = pygame.Rect(inner.left, inner.top, cols[0].left - inner.left, inner.height)
    rows = split_v(labels, 1.1, 1, 1, 1, 1)
    labels_text = (_("Epoch"), _("Chips"), _("Bonus"), _("Good"), _("Bad"))
    for row, text in zip(rows, labels_text, strict=True):
        canvas.text(text, row.inflate(-2, 0), px, TEXT_DIM, align="left")
    first_chip = 1
    most = max(e.chips for e in chart.epochs)
    current = obs.epoch if obs.end is None else 0
    for epoch, col in zip(chart.epochs, cols, strict=True):
        taken = max(0, min(epoch.chips, obs.chips_taken - (first_chip - 1)))
        first_chip += epoch.chips
        cells = split_v(col, 1.1, 1, 1, 1, 1)
        if epoch.number == current:
            canvas.box(col, PANEL_HI, radius=4, border=ACCENT)
        ink = TEXT if taken < epoch.chips else TEXT_DIM
        canvas.text(roman(epoch.number), cells[0], round(px * 1.15), ink)
        _chip_dots(canvas, cells[1], epoch.chips, taken, most)
        canvas.text(f"+{epoch.bonus}", cells[2], px, ink)
        # TRANSLATORS: "all" terrains favourable / "none" hostile, in the epoch chart.
        _terrains(canvas, cells[3], epoch.favourable, _("all"), px)
        _terrains(canvas, cells[4], epoch.hostile, _("none"), px)


def epoch_rows(rect: pygame.Rect, chart: EpochChart) -> list[pygame.Rect]:
    """Each epoch's row of the table drawn by :func:`draw_epoch_table`, epoch I first."""
    inner = rect.inflate(-6, -6)
    head = max(14, inner.height // (len(chart.epochs) + 1) * 4 // 5)
    body = pygame.Rect(inner.left, inner.top + head, inner.width, inner.height - head)
    return split_v(body, *([1] * len(chart.epochs)), gap=1)


def draw_epoch_table(canvas: Canvas, rect: pygame.Rect, chart: EpochChart, chips_taken: int,
                     current: int, px: int) -> None:
    """The epoch chart as a narrow table, one row per epoch: its number, its chips (filled
    while still on the chart, ``chips_taken`` gone), its bonus, its favourable terrain
    (under a tick) and its hostile terrain (under a cross); epoch ``current`` framed (0:
    none, the game is over). Public (R15, R22)."""
    canvas.region("chart", rect)
    canvas.box(rect, CARD, radius=6)
    rows = epoch_rows(rect, chart)
    inner = rect.inflate(-6, -6)
    weights = (1.1, 1.5, 1.1, 1, 1)
    head = pygame.Rect(inner.left, inner.top, inner.width, rows[0].top - inner.top)
    cols = split_h(head, *weights, gap=2)
    side = max(8, min(head.height - 2, cols[3].width - 4))
    for col, good in ((cols[3], True), (cols[4], False)):
        mark = pygame.Rect(0, 0, side, side)
        mark.center = col.center
        draw_good_bad(canvas.surface, mark, good)
    first_chip = 1
    most = max(e.chips for e in chart.epochs)
    for epoch, row in zip(chart.epochs, rows, strict=True):
        taken = max(0, min(epoch.chips, chips_taken - (first_chip - 1)))
        first_chip += epoch.chips
        if epoch.number == current:
            canvas.box(row.inflate(4, 2), PANEL_HI, radius=4, border=ACCENT)
        ink = TEXT if taken < epoch.chips else TEXT_DIM
        cells = split_h(row, *weights, gap=2)
        canvas.text(roman(epoch.number), cells[0], px, ink)
        _chip_dots(canvas, cells[1], epoch.chips, taken, most)
        canvas.text(f"+{epoch.bonus}", cells[2], px, ink)
        # TRANSLATORS: "all" terrains favourable / "none" hostile, in the epoch chart.
        _terrains(canvas, cells[3], epoch.favourable, _("all"), px)
        _terrains(canvas, cells[4], epoch.hostile, _("none"), px)


GOOD = (96, 196, 112)  # the favourable column's tick
BAD_MARK = (226, 88, 80)  # the hostile column's cross


def draw_good_bad(surface: pygame.Surface, r: pygame.Rect, good: bool) -> None:
    """A tick (favourable terrain) or a cross (hostile terrain), in ``r``."""
    w = max(2, r.width // 5)
    if good:
        pts = [(r.left + r.width * 0.12, r.top + r.height * 0.55),
               (r.left + r.width * 0.4, r.top + r.height * 0.82),
               (r.left + r.width * 0.88, r.top + r.height * 0.2)]
        pygame.draw.lines(surface, GOOD, False, pts, w)
    else:
        a, b = r.inflate(-r.width // 4, -r.height // 4).topleft, r.inflate(
            -r.width // 4, -r.height // 4).bottomright
        pygame.draw.line(surface, BAD_MARK, a, b, w)
        pygame.draw.line(surface, BAD_MARK, (a[0], b[1]), (b[0], a[1]), w)


def _chip_dots(canvas: Canvas, cell: pygame.Rect, chips: int, taken: int, most: int) -> None:
    """One dot per chip of the epoch, filled while it is still on the chart; the same dot
    size in every column (sized for the epoch with the most chips)."""
    d = max(5, min(cell.height - 4, (cell.width - 4) // max(most, 1) - 2))
    total = chips * d + (chips - 1) * 2
    x = cell.centerx - total // 2
    for k in range(chips):
        r = pygame.Rect(x + k * (d + 2), cell.centery - d // 2, d, d)
        if k < chips - taken:
            pygame.draw.ellipse(canvas.surface, ACCENT, r)
        else:
            pygame.draw.ellipse(canvas.surface, TEXT_DIM, r, 1)


def _terrains(canvas: Canvas, cell: pygame.Rect, terrains: frozenset[str], every: str,
              px: int) -> None:
    if not terrains:
        canvas.text("–", cell, px, TEXT_DIM, min_px=px)  # noqa: RUF001 (a dash: none)
        return
    if len(terrains) == len(TERRAINS) and cell.width < 3 * px:  # a narrow table's "all":
        half = max(4, min(cell.width, cell.height) // 2 - 1)  # every terrain, 2 by 2
        x0, y0 = cell.centerx - half - 1, cell.centery - half - 1
        for k, t in enumerate(TERRAINS[:4]):
            terrain_tile(canvas, t, pygame.Rect(x0 + (k % 2) * (half + 2),
                                                y0 + (k // 2) * (half + 2), half, half))
        return
    if len(terrains) == len(TERRAINS):
        canvas.text(every, cell, px, TEXT_DIM, min_px=px)
        return
    side = max(8, min(cell.height - 2, cell.width // len(terrains) - 2))
    ts = [t for t in TERRAINS if t in terrains]
    x = cell.centerx - (len(ts) * (side + 2) - 2) // 2
    for k, t in enumerate(ts):
        terrain_tile(canvas, t, pygame.Rect(x + k * (side + 2), cell.centery - side // 2,
                                            side, side))


def draw_score_track(canvas: Canvas, rect: pygame.Rect, obs: Observation, px: int,
                     look: ClanLook = DEFAULT_LOOK) -> None:
    """The five clans' points with exact numbers (public, R22), best first is NOT used:
    rows stay in clan order so nobody reads anything into a row's position."""
    canvas.region("scores", rect)
    canvas.box(rect, CARD, radius=6)
    inner = rect.inflate(-8, -8)
    rows = split_v(inner, *([1] * len(CLANS)), gap=2)
    top = max(20, *obs.clan_points.values())
    for clan, row in zip(CLANS, rows, strict=True):
        points = obs.clan_points[clan]
        icon = min(row.height, 40)
        ir = pygame.Rect(row.left, row.centery - icon // 2, icon, icon)
        canvas.surface.blit(hut_icon(clan, icon, look=look), ir)
        num_w = round(row.width * 0.2)
        num = pygame.Rect(row.right - num_w, row.top, num_w, row.height)
        canvas.text(str(points), num, px, TEXT, align="right")
        bar_area = pygame.Rect(ir.right + 4, row.top + row.height // 4,
                               num.left - ir.right - 8, max(3, row.height // 2))
        pygame.draw.rect(canvas.surface, (30, 33, 40), bar_area, border_radius=3)
        fill = bar_area.copy()
        fill.width = round(bar_area.width * points / top)
        if fill.width:
            pygame.draw.rect(canvas.surface, look.color(clan), fill, border_radius=3)
            if look.marks:
                draw_mark(canvas.surface, clan, fill.inflate(-2, -2), look.mark_color(clan),
                          mark_period(icon))


def draw_chips(canvas: Canvas, rect: pygame.Rect, chips: int, px: int, *,
               count_only: bool = False) -> None:
    """A chip symbol and how many chips a player holds (public, R22); ``count_only``:
    the chip with its number alone, where there is no room for the word."""
    side = max(4, min(rect.height, rect.width, round(px * 1.2)))
    r = pygame.Rect(rect.left, rect.centery - side // 2, side, side)
    canvas.surface.blit(chip_icon(chips, side, ACCENT, (20, 20, 24)), r)
    if count_only:
        return
    rest = pygame.Rect(r.right + 4, rect.top, rect.right - r.right - 4, rect.height)
    # TRANSLATORS: after the number of chips a player holds, drawn as a chip with the number.
    canvas.text(ngettext("chip", "chips", chips), rest, px, TEXT_DIM, align="left")


def draw_score_row(canvas: Canvas, rect: pygame.Rect, obs: Observation, px: int,
                   look: ClanLook = DEFAULT_LOOK) -> None:
    """The five clans' points side by side, each a hut and its number (public, R22), in
    clan order."""
    canvas.region("scores", rect)
    for clan, cell in zip(CLANS, split_h(rect, *([1] * len(CLANS)), gap=2), strict=True):
        side = min(cell.height, round(px * 1.3), cell.width // 2)
        icon = pygame.Rect(cell.left, cell.centery - side // 2, side, side)
        canvas.surface.blit(hut_icon(clan, side, look=look), icon)
        num = pygame.Rect(icon.right + 4, cell.top, cell.right - icon.right - 4, cell.height)
        canvas.text(str(obs.clan_points[clan]), num, px, TEXT, align="left")
