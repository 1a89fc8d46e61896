"""The finished board, to look back at after the reveal: the villages, each with what it
scored, beside it, and the clans' points under it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ...i18n import _, ngettext
from ...rules.constants import CLANS
from ...rules.observation import Observation
from ...rules.village import HOSTILE
from ...session import Session
from ..board_view import BoardView
from ..canvas import Canvas
from ..icons import chip_icon, hut_icon
from ..layout import play_layout, split_h
from ..panel import draw_good_bad, draw_score_row, terrain_tile
from ..theme import ACCENT, BG, CARD, PANEL, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from .base import Host


class FinalBoardScreen(Screen):
    name = "final_board"

    def __init__(self, app: Host, session: Session, back: Callable[[], None]) -> None:
        super().__init__(app)
        self.session = session
        self._back = back
        self.bv: BoardView | None = None

    def layout(self) -> None:
        self.lay = play_layout(self.size, self.session.board.aspect)
        if self.bv is None or self.bv.rect != self.lay.board:
            self.bv = BoardView(self.session.board, self.lay.board, self.app.look,
                                turned=self.lay.portrait)
        pad, u = self.lay.pad, self.lay.unit
        panel = self.lay.panel.inflate(-2 * pad, -2 * pad)
        self.buttons = [Button("back", pygame.Rect(panel.left, panel.bottom - u, panel.width, u),
                               _("Back to the scores"), self._back, style="primary",
                               px=self.lay.px(18))]
        self.caption = pygame.Rect(panel.left, panel.top, panel.width, round(u * 0.7))
        self.villages = pygame.Rect(panel.left, self.caption.bottom + pad, panel.width,
                                    panel.bottom - u - 2 * pad - self.caption.bottom)

    def back(self) -> None:
        self._back()

    def draw(self, canvas: Canvas) -> None:
        assert self.bv is not None
        lay = self.lay
        obs = self.session.public()
        canvas.fill(BG)
        canvas.fill(PANEL, lay.panel)
        canvas.region("panel", lay.panel)
        self.bv.draw(canvas, obs)
        strip = lay.strip.inflate(-2 * lay.pad, -2 * lay.pad)
        canvas.region("players", lay.strip)
        moves = ngettext("{n} move", "{n} moves", obs.ply).format(n=obs.ply)
        left, right = split_h(strip, 1, 3, gap=lay.pad)
        canvas.text(moves, left, lay.px(20), TEXT_DIM, align="left")
        draw_score_row(canvas, right, obs, lay.px(22), self.app.look)
        canvas.text(ngettext("{n} village", "{n} villages", len(obs.villages)).format(
            n=len(obs.villages)), self.caption, lay.px(22), TEXT, align="left")
        self._draw_villages(canvas, obs)
        self.draw_buttons(canvas)

    def _draw_villages(self, canvas: Canvas, obs: Observation) -> None:
        """Every village in founding order: its chip, its terrain, what it was worth to each
        clan in it (R14) and those clans; a hostile one crossed out (huts lost)."""
        lay = self.lay
        area = self.villages
        canvas.region("villages", area)
        villages = sorted(obs.villages, key=lambda v: v.chip)
        if not villages:
            return
        h = min(round(lay.unit * 0.8), (area.height - (len(villages) - 1) * 2) // len(villages))
        board = self.session.board
        for k, v in enumerate(villages):
            row = pygame.Rect(area.left, area.top + k * (h + 2), area.width, h)
            canvas.box(row, CARD, radius=4)
            inner = row.inflate(-4, -2)
            side = inner.height
            chip = pygame.Rect(inner.left, inner.top, side, side)
            canvas.surface.blit(chip_icon(v.chip, side, ACCENT, (20, 20, 24)), chip)
            tile = pygame.Rect(chip.right + 3, inner.top + 2, side - 4, side - 4)
            terrain_tile(canvas, board.terrain(v.territory), tile)
            value = pygame.Rect(tile.right + 3, inner.top, round(lay.px(20) * 1.4),
                                inner.height)
            if v.effect == HOSTILE:
                draw_good_bad(canvas.surface, value.inflate(-value.width // 3,
                                                            -value.height // 4), False)
                continue
            canvas.text(f"+{v.value}", value, lay.px(20), TEXT, align="left",
                        min_px=canvas.least_px)
            huts = [c for c, n in zip(CLANS, v.huts, strict=True) if n]
            room = inner.right - value.right - 2
            step = min(side, room // len(CLANS))  # the same size in every row
            for j, clan in enumerate(huts):
                icon = pygame.Rect(value.right + 2 + j * step, inner.centery - step // 2,
                                   step, step)
                canvas.surface.blit(hut_icon(clan, icon.width, look=self.app.look), icon)
