"""One player's chart, large: how sure the table was of their clan after each move (as the
computers read moves, which a line over the chart says), with the blind guess, the moves
that gave it away (numbered on the chart, in words beside it: a tap opens the replay at
that move), what each other seat and an onlooker made of them at the end, and what the
computers believed during play.

Opened from a finished game's results (the live reveal or a past game's); everything comes
from the reading of :mod:`clans_pi.history.hiding` (the game is over: R20)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from ...history.hiding import READING_NOTE, SEAT_BLIND, Hiding, percent
from ...i18n import _
from ..canvas import Canvas, line_size
from ..guess_words import how_sure
from ..hiding_chart import Line, draw_chart
from ..icons import hut_icon
from ..layout import split_h, split_v
from ..panel import draw_avatar
from ..seat_kinds import shown_name
from ..theme import ACCENT, BG, PANEL, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen

if TYPE_CHECKING:
    from ...session import Session
    from .base import Host


class HidingScreen(Screen):
    """``seat``'s reading in ``hiding`` (the finished game of ``session``). ``replay_at``
    opens the replay at a move; ``during``: the computers' final guesses of this player
    (guessing seat, clan named, weight)."""

    name = "hiding"

    def __init__(self, app: Host, hiding: Hiding, session: Session, seat: int, *,
                 back: Callable[[], None], replay_at: Callable[[int], None],
                 during: Sequence[tuple[int, str, float]] = ()) -> None:
        super().__init__(app)
        self.hiding = hiding
        self.session = session
        self.seat = seat
        seat_info = session.seats[seat]
        found = hiding.of(seat_info.name)
        assert found is not None, "the reading is of this game"
        self.player = found
        self._back = back
        self._replay_at = replay_at
        self.during = list(during)

    def back(self) -> None:
        self._back()

    def layout(self) -> None:
        w, h = self.size
        pad, u = self.px(10), self.unit
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.0))
        self.verdict = pygame.Rect(pad, self.title.bottom, w - 2 * pad, round(u * 0.7))
        body = pygame.Rect(pad, self.verdict.bottom + pad, w - 2 * pad,
                           h - self.verdict.bottom - 2 * pad)
        portrait = h > w
        if portrait:
            self.chart_box, side = split_v(body, 1, 1.2, gap=pad)
        else:
            self.chart_box, side = split_h(body, 1.25, 1, gap=pad)
        gives = self.player.giveaways
        rows = max(1, len(gives))
        least = round(44 * self.scale) + 2
        bh = max(least, min(round(u * 1.15), side.height // (rows + 3)))
        self.list_head = pygame.Rect(side.left, side.top, side.width, round(u * 0.6))
        back_h = max(least, round(u * 0.9))
        self.back_rect = pygame.Rect(side.left, side.bottom - back_h, side.width, back_h)
        top = self.list_head.bottom + pad // 2
        self.buttons = []
        for i, g in enumerate(gives):
            r = pygame.Rect(side.left, top + i * (bh + pad // 2), side.width, bh)
            self.buttons.append(Button(f"giveaway{i}", r, action=lambda m=g.move:
                                       self._replay_at(m)))
        after = top + len(gives) * (bh + pad // 2) if gives else self.list_head.bottom + bh
        self.seen = pygame.Rect(side.left, after + pad // 2, side.width,
                                self.back_rect.top - pad - after - pad // 2)
        self.buttons.append(Button("back", self.back_rect, _("Back"), self.back,
                                   px=self.px(22)))

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        player, _hiding = self.player, self.hiding
        seat = self.session.seats[self.seat]
        pic = pygame.Rect(self.title.left, self.title.top, self.title.height,
                          self.title.height)
        draw_avatar(canvas, seat, self.seat, pic)
        icon = pygame.Rect(pic.right + 6, pic.top + pic.height // 8, pic.height * 3 // 4,
                           pic.height * 3 // 4)
        canvas.surface.blit(hut_icon(player.clan, icon.width, look=self.app.look), icon)
        title = pygame.Rect(icon.right + 8, self.title.top, self.title.right - icon.right - 8,
                            self.title.height)
        canvas.text(_("{name}: how sure the table was of their clan").format(
            name=shown_name(seat)),
                    title, self.px(26), TEXT, align="left", min_px=self.px(14))
        canvas.text(player.verdict.text(), self.verdict, self.px(22), ACCENT, align="left")
        self._draw_chart(canvas)
        canvas.text(_("Moves that gave it away") if player.giveaways
                    else _("No single move gave it away"), self.list_head, self.px(18),
                    TEXT_DIM, align="left")
        self.draw_buttons(canvas)
        for i, g in enumerate(player.giveaways):
            b = self.buttons[i]
            inner = b.rect.inflate(-12, -6)
            num, words = split_h(inner, 1, 7, gap=self.px(6))
            side = min(num.width, num.height)
            disc = pygame.Rect(num.left, num.centery - side // 2, side, side)
            pygame.draw.circle(canvas.surface, ACCENT, disc.center, side // 2)
            canvas.text(str(i + 1), disc, self.px(18), BG)
            canvas.paragraph(g.line(), words, self.px(16), TEXT)
        self._draw_seen(canvas)

    def _draw_chart(self, canvas: Canvas) -> None:
        box = self.chart_box
        pygame.draw.rect(canvas.surface, PANEL, box, border_radius=8)
        inner = box.inflate(-self.px(12), -self.px(12))
        # What the percentages are, over the chart in two lines at most: the computers'
        # reading, an estimate for people (clans_pi.history.hiding's words).
        note_px = max(self.px(14), canvas.least_px)
        note = pygame.Rect(inner.left, inner.top, inner.width, 2 * line_size(note_px))
        canvas.paragraph(_(READING_NOTE), note, note_px, TEXT_DIM)
        label_w = self.px(46)
        axis_h = self.px(22)
        top = note.bottom + self.px(12)  # room for the "100 %" label, centred on the top
        plot = pygame.Rect(inner.left + label_w, top, inner.width - label_w,
                           inner.bottom - axis_h - top)
        player, total = self.player, self.hiding.total
        area = draw_chart(canvas, plot, [Line(player.clan, player.table)], total,
                          look=self.app.look, scale=self.scale, blind=SEAT_BLIND,
                          name="large", background=PANEL,
                          markers=[(g.move, g.after, str(i + 1))
                                   for i, g in enumerate(player.giveaways)],
                          label=_("blind guess"), label_px=self.px(13))
        for p in (0.0, 0.5, 1.0):
            y = round(area.bottom - area.height * p)
            cell = pygame.Rect(inner.left, y - self.px(10), label_w - 4, self.px(20))
            canvas.text(f"{round(100 * p)} %", cell, self.px(15), TEXT_DIM, align="right")
        # The first point is the deal (no move made yet), the last the last move.
        axis = pygame.Rect(area.left, plot.bottom + 2, area.width, axis_h - 2)
        left, right = split_h(axis, 1, 1, gap=self.px(6))
        # TRANSLATORS: under the first point of the chart of how well a player hid,
        # which is the deal (before the first move).
        canvas.text(_("deal"), left, self.px(15), TEXT_DIM, align="left")
        canvas.text(_("move {n}").format(n=total), right, self.px(15), TEXT_DIM, align="right")

    def _draw_seen(self, canvas: Canvas) -> None:
        """At the end: what each other seat and an onlooker put on the true clan, and what
        the computers believed during play."""
        box = self.seen
        if box.height < self.px(18):
            return
        seen = [_("{name} {p} %").format(
                    name=shown_name(self.session.seats[self.session.seat_of(v)]),
                    p=percent(curve[-1]))
                for v, curve in sorted(self.player.by_seat.items())]
        seen.append(_("an onlooker {p} %").format(p=percent(self.player.onlooker[-1])))
        text = _("At the end: {readings}.").format(readings=_(", ").join(seen))
        for k, clan, weight in self.during:
            text += " " + _("During play {name} named {clan}: {how}.").format(
                name=shown_name(self.session.seats[k]), clan=self.app.look.label(clan),
                how=how_sure(weight))
        canvas.paragraph(text, box, self.px(16), TEXT_DIM)
