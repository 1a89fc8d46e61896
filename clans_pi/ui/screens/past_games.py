"""Past games: the finished games kept on this table, newest first, each a row with when it
ended, its players (picture, name, score; the winners crowned) and how it ended. A drag
scrolls the list a row at a time (only the rows in sight are drawn, so a thousand games
scroll as fast as ten); a tap opens the game's replay; the bin deletes it after a question.

The list is the past games' index (:class:`clans_pi.history.History`), read again from the
records each time this screen opens: a game that just ended is there, a record deleted or
damaged meanwhile is not. The games are over, so their clans and scores are public (R20).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import pygame

from ...history import History, PastGame, RecordGone
from ...i18n import _, ngettext
from ...rules.errors import ClansError
from ...session import Seat
from ..canvas import Canvas, shortened
from ..icons import draw_bin, draw_crown
from ..layout import split_h, split_v
from ..panel import draw_avatar
from ..scrolling import Scroll, draw_scrollbar
from ..seat_kinds import shown_name
from ..theme import ACCENT, BG, CARD, PANEL_HI, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen
from .confirm import ConfirmScreen

if TYPE_CHECKING:
    from .base import Host, Pos

log = logging.getLogger(__name__)

#: How often (ms) the list asks again for the games while the first reading goes on.
READ_AGAIN_MS = 200
#: How far (in units of the touch target's side) a finger moves before a press is a drag.
DRAG_SLOP = 0.25


def day_text(date: datetime, now: datetime) -> str:
    """The day a game ended, as the list says it: today, yesterday, or the date."""
    if date.date() == now.date():
        return _("Today")
    if date.date() == (now - timedelta(days=1)).date():
        return _("Yesterday")
    # TRANSLATORS: a date in the past games' list; reorder the fields as your language
    # writes dates (e.g. "{day}.{month}.{year}").
    return _("{day}/{month}/{year}").format(day=date.day, month=date.month, year=date.year)


def end_text(end: str) -> str:
    """How a game ended, in a few words (R19)."""
    if end == "twelfth_village":
        return _("12th village")
    return _("no move left")



class PastGamesScreen(Screen):
    """The list of finished games; ``back`` leaves it (the start screen)."""

    name = "past_games"

    def __init__(self, app: Host, history: History, back: Callable[[], None], *,
                 now: Callable[[], datetime] | None = None) -> None:
        super().__init__(app)
        self.history = history
        self._back = back
        self.now = now or (lambda: datetime.now().astimezone())
        # None while the game's first reading of the records (at start) is still going on:
        # the screen says so and asks again every READ_AGAIN_MS instead of freezing.
        found = history.try_refresh()
        self.reading = found is None
        self.games: list[PastGame] = found or []
        self.scroll = Scroll()  # in rows: its offset is the first row in sight

    # ------------------------------------------------------------ layout

    @property
    def wide(self) -> bool:
        """Room for a game on one line; narrower screens give each game two."""
        return self.size[0] >= 13 * self.unit

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        head = pygame.Rect(pad, pad, w - 2 * pad, u)
        side = min(round(u * 4), head.width // 3)
        back = pygame.Rect(head.left, head.top, side, u)
        board = pygame.Rect(head.right - side, head.top, side, u)
        self.title = pygame.Rect(back.right + pad, head.top, board.left - back.right - 2 * pad,
                                 u)
        self.fixed = [
            Button("back", back, _("Back"), self._back, px=self.px(20)),
            Button("scoreboard", board, _("Scoreboard"), self._scoreboard, style="primary",
                   px=self.px(20)),
        ]
        self.list = pygame.Rect(pad, head.bottom + pad, w - 2 * pad - self.px(8),
                                h - head.bottom - 2 * pad)
        self.bar = pygame.Rect(self.list.right + self.px(3), self.list.top, self.px(5),
                               self.list.height)
        self.row_h = round(u * (1.55 if self.wide else 2.3))
        self.gap = self.px(6)
        self.per_page = max(1, (self.list.height + self.gap) // (self.row_h + self.gap))
        if len(self.games) >= self.per_page:  # a full list: its rows share the height
            self.row_h = (self.list.height + self.gap) // self.per_page - self.gap
        self.scroll.resize(len(self.games), self.per_page)
        self._rows()

    @property
    def top(self) -> int:
        """The first row in sight."""
        return self.scroll.offset

    @property
    def step(self) -> int:
        """A row and the gap under it, in pixels."""
        return self.row_h + self.gap

    def _rows(self) -> None:
        """The rows in sight and their delete buttons, for the list scrolled to ``top``."""
        self.rows: list[tuple[PastGame, pygame.Rect]] = []
        buttons = list(self.fixed)
        u = self.unit
        for k, game in enumerate(self.games[self.top:self.top + self.per_page]):
            r = pygame.Rect(self.list.left, self.list.top + k * self.step, self.list.width,
                            self.row_h)
            self.rows.append((game, r))
            bin_rect = pygame.Rect(r.right - u - self.px(6), r.top + self.px(6), u, u)
            if self.wide:
                bin_rect.centery = r.centery
            buttons.append(Button(f"delete{self.top + k}", bin_rect, "",
                                  self._ask_delete(game), draw_icon=draw_bin))
        self.buttons = buttons

    def back(self) -> None:
        self._back()

    # ------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        canvas.text(_("Past games"), self.title, self.px(34), ACCENT)
        for b in self.fixed:
            b.draw(canvas)
        if not self.games:
            self._draw_empty(canvas)
            return
        now = self.now()
        for (game, r), b in zip(self.rows, self.buttons[len(self.fixed):], strict=True):
            self._draw_row(canvas, game, r, now, b.rect)
            b.draw(canvas)
        draw_scrollbar(canvas, self.bar, self.scroll)  # where the rows in sight are

    def wakeup(self) -> int | None:
        return self.app.clock() + READ_AGAIN_MS if self.reading else None

    def tick(self, now: int) -> bool:
        if not self.reading:
            return False
        found = self.history.try_refresh()
        if found is None:
            return False
        self.reading, self.games = False, found
        self.layout()
        return True

    def _draw_empty(self, canvas: Canvas) -> None:
        box = self.list.inflate(-self.px(40), -self.px(40))
        if self.reading:
            canvas.paragraph(_("Reading the past games…"), box, self.px(24), TEXT_DIM,
                             align="center")
            return
        text = _("No finished game yet. Every game played to its end on this table is "
                 "kept here, to see again move by move.")
        damaged = len(self.history.damaged)
        if damaged:
            text += " " + ngettext("{n} kept game could not be read.",
                                   "{n} kept games could not be read.", damaged).format(n=damaged)
        canvas.paragraph(text, box, self.px(24), TEXT_DIM, align="center")

    def _draw_row(self, canvas: Canvas, game: PastGame, r: pygame.Rect, now: datetime,
                  bin_rect: pygame.Rect) -> None:
        canvas.box(r, CARD, radius=self.px(10))
        canvas.target(f"game:{game.file}", r)
        pad = self.px(8)
        inner = r.inflate(-2 * pad, -2 * pad)
        small, big = self.px(17), self.px(21)
        if self.wide:
            when_w = round(inner.width * 0.17)
            when = pygame.Rect(inner.left, inner.top, when_w, inner.height)
            players = pygame.Rect(when.right + pad, inner.top,
                                  bin_rect.left - 2 * pad - when.right, inner.height)
            day, time, how = split_v(when, 1.1, 1, 1)
        else:  # two lines: when and how it ended beside the bin, the players under them
            top = pygame.Rect(inner.left, inner.top, bin_rect.left - pad - inner.left,
                              bin_rect.bottom - inner.top - self.px(6))
            day, time, how = split_h(top, 1.2, 0.7, 1.5, gap=pad)
            players = pygame.Rect(inner.left, bin_rect.bottom + self.px(2), inner.width,
                                  inner.bottom - bin_rect.bottom - self.px(2))
        canvas.text(day_text(game.date, now), day, big, TEXT, align="left")
        canvas.text(f"{game.date:%H:%M}", time, small, TEXT_DIM, align="left")
        canvas.text(end_text(game.end), how, small, TEXT_DIM, align="left")
        cells = split_h(players, *[1] * len(game.players), gap=pad)
        for k, (p, cell) in enumerate(zip(game.players, cells, strict=True)):
            if p.winner:
                canvas.box(cell, PANEL_HI, radius=self.px(8), border=ACCENT)
            side = min(cell.height - self.px(6), round(cell.width * 0.34))
            pic = pygame.Rect(cell.left + self.px(4), cell.centery - side // 2, side, side)
            draw_avatar(canvas, Seat(p.name, p.avatar, p.kind), k, pic)
            text = pygame.Rect(pic.right + self.px(5), cell.top + self.px(2),
                               cell.right - pic.right - self.px(8), cell.height - self.px(4))
            name, score = split_v(text, 1, 1)
            least = canvas.least_px
            canvas.text(shortened(shown_name(p), least, name.width), name, small,
                        ACCENT if p.winner else TEXT, align="left")
            drawn = canvas.text(str(p.score), score, big, ACCENT if p.winner else TEXT,
                                align="left")
            if p.winner:
                crown = min(score.height, round(big * 0.9))
                spot = pygame.Rect(drawn.right + self.px(5), score.centery - crown // 2,
                                   crown, crown)
                if spot.right <= cell.right:
                    draw_crown(canvas.surface, spot, ACCENT)

    # ------------------------------------------------------------ input

    def down(self, pos: Pos) -> None:
        self.scroll.press(pos[1] / self.step)

    def move(self, pos: Pos) -> None:
        top = self.top
        dragged = self.scroll.drag(pos[1] / self.step, DRAG_SLOP * self.unit / self.step)
        if dragged and self.top != top:
            self._rows()
            self.partial = None

    def up(self, pos: Pos) -> None:
        held = self.scroll.held
        if self.scroll.release() or not held:
            return
        for game, r in self.rows:
            if r.collidepoint(pos):
                self.open(game)
                return

    def key(self, ev: pygame.event.Event) -> None:
        steps = {pygame.K_DOWN: 1, pygame.K_UP: -1, pygame.K_PAGEDOWN: self.per_page,
                 pygame.K_PAGEUP: -self.per_page}
        if ev.key in steps:
            self.scroll_to(self.top + steps[ev.key])

    def scroll_to(self, top: int) -> None:
        """Show the rows from ``top`` on (kept within the list)."""
        before = self.top
        self.scroll.to(top)
        if self.top != before:
            self._rows()
            self.partial = None

    # ------------------------------------------------------------ actions

    def open(self, game: PastGame) -> None:
        """Replay ``game`` on the board; a record damaged or gone since says so."""
        from .past_replay import ReplayScreen

        try:
            replay = self.history.open(game.file)
        except RecordGone:
            self.app.notify(_("This game is no longer kept on this table."))
            self._reload()
            return
        except ClansError as exc:
            log.warning("past game %s cannot be replayed: %s", game.file, exc)
            self.app.notify(_("This game cannot be replayed: its record is damaged."))
            self._reload()
            return
        self.app.show(ReplayScreen(self.app, replay, back=lambda: self.app.show(self)))

    def _reload(self) -> None:
        self.games = self.history.refresh()
        self.layout()

    def _scoreboard(self) -> None:
        from .scoreboard import ScoreboardScreen

        self.app.show(ScoreboardScreen(self.app, self.history,
                                       back=lambda: self.app.show(self)))

    def _ask_delete(self, game: PastGame) -> Callable[[], None]:
        def ask() -> None:
            names = _(", ").join(shown_name(p) for p in game.players if p.winner)
            text = ngettext("{winners} won it, {day} at {time}. It leaves the list and the "
                            "scoreboard for good.",
                            "{winners} shared the win, {day} at {time}. It leaves the list and "
                            "the scoreboard for good.", len(game.winners)).format(
                winners=names, day=day_text(game.date, self.now()),
                time=f"{game.date:%H:%M}")
            self.app.show(ConfirmScreen(self.app, title=_("Delete this game?"), text=text,
                                        yes=_("Delete the game"), no=_("Keep the game"),
                                        act=lambda: self._delete(game),
                                        back=lambda: self.app.show(self)))

        return ask

    def _delete(self, game: PastGame) -> None:
        try:
            self.history.delete(game.file)
        except OSError as exc:  # a read-only or failing card: the game stays
            self.app.notify(_("The game could not be deleted ({error}).").format(
                error=exc.strerror or exc))
        self.games = self.history.games
        self.app.show(self)
