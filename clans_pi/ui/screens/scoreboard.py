"""The family's scoreboard: per person (and per computer level) games, wins (a shared win
counts as a share, R21), average and best score, and how often the computers read their
clan right; for the last 30 days or for all time. Many rows scroll by dragging them.

The columns are measured for the window: a narrow or upright window drops the least
needed ones (read right, then best, then average) rather than draw text too small to read
from across the table; a name too long for its column ends in an ellipsis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from ...history import RECENT_DAYS, History, Standing, recent_since, scoreboard
from ...i18n import _, ngettext
from ...session import Seat, level_label
from ..canvas import Canvas, least_px, line_size, shortened, text_width
from ..layout import split_h
from ..panel import draw_avatar
from ..scrolling import Scroll, draw_scrollbar
from ..theme import ACCENT, BG, CARD, PANEL, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Pos, Screen
from .merge_names import MergeNamesScreen

if TYPE_CHECKING:
    from .base import Host

#: The table's columns, most needed first: a narrow window drops them from the end.
COLUMNS = ("wins", "games", "average", "best", "read")

#: A name as long as the on-screen keyboard lets a family type (names.MAX_NAME letters):
#: the name column keeps room for one before figures are left out.
LONG_NAME = "Maximilianne"


def wins_text(wins: float) -> str:
    """Wins with shared wins as shares (R21): "3", "2½", or "1.3" after a three-way share."""
    whole = round(wins)
    if abs(wins - whole) < 1e-6:
        return str(whole)
    if abs(wins * 2 - round(wins * 2)) < 1e-6:
        return f"{int(wins)}½" if wins > 1 else "½"
    return decimal(wins)


def decimal(value: float) -> str:
    """``value`` with one decimal, in the language's way of writing it."""
    # TRANSLATORS: the decimal sign in figures such as an average score of 23.5 (in German
    # and French a comma).
    return f"{value:.1f}".replace(".", _("."))


def read_right_text(s: Standing) -> str:
    """How often the computers named this player's clan right: "3 of 5", or a dash."""
    if s.guessed == 0:
        return "—"
    # TRANSLATORS: the computers' final guesses of a player's clan: right ones of all.
    return _("{right} of {guessed}").format(right=s.read_right, guessed=s.guessed)


def figure(s: Standing, column: str) -> str:
    """What ``column`` of the scoreboard shows for ``s``."""
    if column == "wins":
        return wins_text(s.wins)
    if column == "games":
        return str(s.games)
    if column == "average":
        return decimal(s.average)
    if column == "best":
        return str(s.best)
    return read_right_text(s)


def heading(column: str) -> str:
    return {"wins": _("Wins"), "games": _("Games"), "average": _("Average"),
            "best": _("Best"), "read": _("Read right")}[column]


def short_name(s: Standing) -> str:
    """A row's name in fewer letters: a computer's level alone ("Hard")."""
    return s.name if s.is_human else level_label(s.kind)


def shown_name(s: Standing, px: int, width: int) -> str:
    """A row's name as it fits ``width`` at ``px``: whole, or a computer's level alone, or
    cut short with an ellipsis."""
    if text_width(s.name, px) <= width:
        return s.name
    return shortened(short_name(s), px, width)


def ranks(rows: Sequence[Standing]) -> list[int]:
    """Each row's place: equal wins and average share a place (1, 2, 2, 4)."""
    out: list[int] = []
    for k, s in enumerate(rows):
        same = k and (s.wins, s.average) == (rows[k - 1].wins, rows[k - 1].average)
        out.append(out[-1] if same else k + 1)
    return out


@dataclass(frozen=True, slots=True)
class Table:
    """Where the table's parts go: the heading row, the rows' window, the columns."""

    head: pygame.Rect
    body: pygame.Rect
    bar: pygame.Rect  # the scroll bar's track
    row_h: int
    rank: tuple[int, int]  # (left, width) of each column
    picture: tuple[int, int]
    name: tuple[int, int]
    columns: tuple[tuple[str, int, int], ...]  # (column, left, width)
    head_px: int
    px: int


class ScoreboardScreen(Screen):
    """The standings of the past games in ``history``; ``back`` leaves (Back, Escape)."""

    name = "scoreboard"

    def __init__(self, app: Host, history: History, back: Callable[[], None]) -> None:
        super().__init__(app)
        self.history = history
        self._back = back
        self.recent = False  # the period shown: the last 30 days, or all time
        self.scroll = Scroll()
        self.table: Table | None = None
        self._notices = pygame.Rect(0, 0, 0, 0)
        self.standings: dict[bool, list[Standing]] = {}  # by period: recent or not
        self.games: dict[bool, int] = {}  # how many games each period counts
        self.reload()

    # ------------------------------------------------------------ the figures

    def reload(self) -> None:
        """Read the records again (new, changed and deleted games) and count anew."""
        games = self.history.refresh()
        since = recent_since()
        self.standings = {False: scoreboard(games), True: scoreboard(games, since=since)}
        self.games = {False: len(games), True: sum(g.date >= since for g in games)}

    @property
    def rows(self) -> list[Standing]:
        """The standings of the period shown, best first."""
        return self.standings[self.recent]

    # ------------------------------------------------------------ layout

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(8)
        top = pygame.Rect(pad, pad, w - 2 * pad, u)
        if w < round(640 * self.scale):  # upright or narrow: the switch under the title
            self.title = top
            switch = pygame.Rect(pad, top.bottom + pad, w - 2 * pad, u)
        else:
            self.title = pygame.Rect(pad, pad, round((w - 2 * pad) * 0.4), u)
            switch = pygame.Rect(self.title.right + pad, pad, w - 3 * pad - self.title.width,
                                 u)
        recent, every = split_h(switch, 1, 1, gap=pad)
        bottom = pygame.Rect(pad, h - pad - u, w - 2 * pad, u)
        back, merge = split_h(bottom, 1, 1.4, gap=pad)
        px = self.px(20)
        self.buttons = [
            Button("period_recent", recent, ngettext("Last {n} day", "Last {n} days",
                                                RECENT_DAYS).format(n=RECENT_DAYS),
                   self._period(True), style="primary" if self.recent else "normal", px=px),
            Button("period_all", every, _("All time"), self._period(False),
                   style="normal" if self.recent else "primary", px=px),
            Button("back", back, _("Back"), self._back, px=px),
            Button("merge", merge, _("Merge names"), self._merge,
                   enabled=len(self.history.names()) >= 2, px=px),
        ]
        area = pygame.Rect(pad, switch.bottom + pad, w - 2 * pad,
                           bottom.top - pad - switch.bottom - pad)
        self._notices = pygame.Rect(0, switch.bottom, w, bottom.top - switch.bottom)
        self.table = self.table_for(area)
        rows = len(self.rows)
        self.scroll.resize(rows * self.table.row_h, self.table.body.height)

    def _least(self) -> int:
        return least_px(self.size)

    def table_for(self, area: pygame.Rect) -> Table:
        """The table at the largest size up to the window's scale at which every column
        fits ``area``'s width (an upright window is narrow for its scale); where none does
        at a readable size, the least needed columns are left out."""
        ts = self.scale
        while True:
            table, dropped = self._table_at(area, ts)
            if not dropped or round(26 * ts) <= self._least():
                return table
            ts *= 0.92

    def _table_at(self, area: pygame.Rect, ts: float) -> tuple[Table, bool]:
        """The table with its sizes designed at scale 1 scaled by ``ts`` (never under the
        least readable size), and whether some column had to be left out."""
        least = self._least()
        px = max(least, round(26 * ts))
        head_px = max(least, round(19 * ts))
        head = pygame.Rect(area.left, area.top, area.width, line_size(head_px) + 4)
        row_h = max(round(52 * ts), round(line_size(px) * 1.5))
        body = pygame.Rect(area.left, head.bottom, area.width, area.bottom - head.bottom)
        gap = max(6, round(14 * ts))
        bar_w = max(4, round(6 * ts))
        bar = pygame.Rect(area.right - bar_w, body.top + 2, bar_w, body.height - 4)
        width = area.width - bar_w - gap // 2
        rank_w = text_width("88", px) + gap // 2
        pic_w = row_h - 6
        every = [*self.standings[False], *self.standings[True]]
        widths = {c: max([text_width(heading(c), head_px),
                          *(text_width(figure(s, c), px) for s in every)]) + gap
                  for c in COLUMNS}
        # Room for the names (a computer's may be its level alone, see shown_name), up to
        # a long one: longer ones end in an ellipsis.
        name_least = min(max((text_width(short_name(s), px) for s in every), default=0),
                         text_width(LONG_NAME, px))
        shown = list(COLUMNS)
        while len(shown) > 1 and (rank_w + pic_w + gap + name_least
                                  + sum(widths[c] for c in shown)) > width:
            shown.pop()
        name_w = width - rank_w - pic_w - gap - sum(widths[c] for c in shown)
        x = area.left
        rank = (x, rank_w)
        picture = (x + rank_w, pic_w)
        name = (picture[0] + pic_w + gap // 2, name_w)
        x = name[0] + name_w
        columns = []
        for c in shown:
            columns.append((c, x, widths[c]))
            x += widths[c]
        table = Table(head, body, bar, row_h, rank, picture, name, tuple(columns), head_px,
                      px)
        return table, len(shown) < len(COLUMNS)

    def notice_area(self) -> pygame.Rect:
        """Notices (what a merge did) go over the table's foot, not over the period
        switch."""
        return self._notices

    # ------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        canvas.fill(BG)
        assert self.table is not None
        canvas.text(_("Scoreboard"), self.title, self.px(34), TEXT, align="left")
        t = self.table
        if not self.rows:
            self._draw_empty(canvas, t)
        else:
            self._draw_head(canvas, t)
            self._draw_rows(canvas, t)
            draw_scrollbar(canvas, t.bar, self.scroll)
        self.draw_buttons(canvas)

    def _draw_empty(self, canvas: Canvas, t: Table) -> None:
        r = t.head.union(t.body).inflate(-self.px(16), -self.px(8))
        canvas.box(r, PANEL, radius=12)
        canvas.region("empty", r)
        if self.recent and self.standings[False]:
            title = ngettext("No games in the last {n} day.", "No games in the last {n} days.",
                             RECENT_DAYS).format(n=RECENT_DAYS)
            text = _("All time shows the games played before.")
        else:
            title = _("No games yet.")
            text = _("Every game played to its end is counted here: who played, who won "
                     "and how well.")
        inner = r.inflate(-self.px(24), -self.px(16))
        head = pygame.Rect(inner.left, inner.top, inner.width, min(inner.height // 2,
                                                                   round(self.unit * 1.2)))
        canvas.text(title, head, self.px(30), TEXT)
        body = pygame.Rect(inner.left, head.bottom, inner.width, inner.bottom - head.bottom)
        canvas.paragraph(text, body, self.px(22), TEXT_DIM, align="center")

    def _draw_head(self, canvas: Canvas, t: Table) -> None:
        count = self.games[self.recent]
        label = ngettext("{n} game", "{n} games", count).format(n=count)
        box = pygame.Rect(t.name[0], t.head.top, t.name[1] - 4, t.head.height)
        canvas.text(shortened(label, max(t.head_px, canvas.least_px), box.width), box,
                    t.head_px, TEXT_DIM, align="left")
        for c, left, width in t.columns:
            box = pygame.Rect(left, t.head.top, width, t.head.height)
            canvas.text(heading(c), box, t.head_px, ACCENT if c == "wins" else TEXT_DIM)

    def _draw_rows(self, canvas: Canvas, t: Table) -> None:
        rows = self.rows
        places = ranks(rows)
        first = self.scroll.offset // t.row_h
        last = min(len(rows), (self.scroll.offset + t.body.height) // t.row_h + 1)
        canvas.region("standings", t.body)
        clip = canvas.surface.get_clip()
        canvas.surface.set_clip(t.body)
        try:
            for k in range(first, last):
                top = t.body.top + k * t.row_h - self.scroll.offset
                self._draw_row(canvas, t, rows[k], k, places[k], top)
        finally:
            canvas.surface.set_clip(clip)

    def _draw_row(self, canvas: Canvas, t: Table, s: Standing, k: int, place: int,
                  top: int) -> None:
        row = pygame.Rect(t.body.left, top, t.bar.left - t.body.left - 2, t.row_h)
        canvas.box(row.inflate(0, -2), CARD if k % 2 == 0 else PANEL, radius=6)
        ink = TEXT if s.is_human else TEXT_DIM
        px = max(t.px, canvas.least_px)
        canvas.text(str(place), pygame.Rect(t.rank[0], top, t.rank[1] - 2, t.row_h), t.px,
                    ACCENT if place == 1 else TEXT_DIM, align="right")
        pic = pygame.Rect(t.picture[0], top, t.picture[1], t.row_h).inflate(-2, -6)
        draw_avatar(canvas, Seat(s.name, s.avatar, s.kind), k, pic)
        box = pygame.Rect(t.name[0], top, t.name[1] - 4, t.row_h)
        canvas.text(shown_name(s, px, box.width), box, t.px, ink, align="left")
        for c, left, width in t.columns:
            box = pygame.Rect(left, top, width, t.row_h)
            canvas.text(figure(s, c), box, t.px, ACCENT if c == "wins" and place == 1
                        else ink)

    # ------------------------------------------------------------ input

    def _period(self, recent: bool) -> Callable[[], None]:
        def act() -> None:
            self.recent = recent
            self.scroll.to(0)
            self.layout()

        return act

    def _merge(self) -> None:
        self.app.show(MergeNamesScreen(self.app, self.history, back=self._returned,
                                       done=self._merged))

    def _returned(self) -> None:
        self.app.show(self)

    def _merged(self, notice: str) -> None:
        """Back from merging names: count anew and say what happened."""
        self.reload()
        self.app.show(self)
        self.app.notify(notice)

    def down(self, pos: Pos) -> None:
        if self.table is not None and self.table.body.collidepoint(pos):
            self.scroll.press(pos[1])

    def move(self, pos: Pos) -> None:
        self.scroll.drag(pos[1], self.px(10))

    def up(self, pos: Pos) -> None:
        self.scroll.release()

    def scroll_by(self, rows: int) -> None:
        """Move the list ``rows`` rows on (negative: back): the keyboard's arrows."""
        if self.table is not None:
            self.scroll.to(self.scroll.offset + rows * self.table.row_h)

    def key(self, ev: pygame.event.Event) -> None:
        steps = {pygame.K_DOWN: 1, pygame.K_UP: -1, pygame.K_PAGEDOWN: 5, pygame.K_PAGEUP: -5}
        if ev.key in steps:
            self.scroll_by(steps[ev.key])

    def back(self) -> None:
        self._back()
