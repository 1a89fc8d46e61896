"""The finished board, to look back at after the reveal (long-press a territory for its huts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ...i18n import _, ngettext
from ...session import Session
from ..board_view import BoardView
from ..canvas import Canvas
from ..layout import play_layout
from ..panel import draw_epoch_chart, draw_score_track
from ..theme import BG, PANEL, TEXT
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
            self.bv = BoardView(self.session.board, self.lay.board, self.app.look)
        pad, u = self.lay.pad, self.lay.unit
        panel = self.lay.panel.inflate(-2 * pad, -2 * pad)
        self.buttons = [Button("back", pygame.Rect(panel.left, panel.bottom - u, panel.width, u),
                               _("Back to the scores"), self._back, style="primary",
                               px=self.px(20))]
        self.caption = pygame.Rect(panel.left, panel.top, panel.width, u)

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
        chart = pygame.Rect(strip.left, strip.top, round(strip.width * 0.58), strip.height)
        scores = pygame.Rect(chart.right + lay.pad, strip.top,
                             strip.right - chart.right - lay.pad, strip.height)
        draw_epoch_chart(canvas, chart, self.session.chart, obs, lay.px(15))
        draw_score_track(canvas, scores, obs, lay.px(16), self.app.look)
        villages = ngettext("{n} village", "{n} villages", len(obs.villages)).format(
            n=len(obs.villages))
        moves = ngettext("{n} move", "{n} moves", obs.ply).format(n=obs.ply)
        # TRANSLATORS: e.g. "12 villages, 41 moves" under the final board.
        canvas.text(_("{villages}, {moves}").format(villages=villages, moves=moves),
                    self.caption, lay.px(20), TEXT)
        self.draw_buttons(canvas)
