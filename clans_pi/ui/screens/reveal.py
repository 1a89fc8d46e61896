"""The final reveal (R20, R21): every player's clan, clan points, chips, total, the winners;
then a rematch or a new game. Drawn from the public view, which holds the clans only now
that the game is over. Under each computer player, its last guess of every other player's
clan (the likeliest clan and how sure it was), from its own view without the reveal.

:class:`ResultsScreen` draws the results of any finished game; :class:`RevealScreen` is the
live game's, a past game's is :mod:`.past_result`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from ...bots.calibration import likeliest
from ...history.hiding import SEAT_BLIND, record_of_view
from ...i18n import N_, _
from ...session import Session
from ..canvas import Canvas, shortened, shortened_in
from ..guess_words import how_sure
from ..hiding_chart import Line, draw_chart, draw_ring
from ..icons import draw_crown, hut_icon
from ..layout import split_h, split_v
from ..panel import draw_avatar
from ..seat_kinds import shown_name
from ..theme import ACCENT, BG, BUTTON, CARD, GOOD, PANEL_HI, TEXT, TEXT_DIM
from ..widgets import Button
from .base import Screen
from .final_board import FinalBoardScreen

if TYPE_CHECKING:
    from ...history.hiding_cache import Reading
    from .base import Host

#: The results table's columns: player, clan, clan points, chips, total, how well hidden.
WEIGHTS = (2.4, 1.7, 1.3, 1.1, 1.1, 3.2)
#: The same in a narrow window (under NARROW px): the clan as its hut alone, the chart
#: without its verdict (the large chart, a tap away, says it).
NARROW_WEIGHTS = (3.2, 0.8, 1.3, 1.3, 1.3, 1.8)
NARROW = 720
#: How often (ms) the ring turns while the reading is worked out.
RING_MS = 150

REASONS = {
    "twelfth_village": N_("The twelfth village is founded. The clans are:"),
    "no_moves": N_("No move is left. The clans are:"),
}


class ResultsScreen(Screen):
    """A finished game's results from ``session``'s public view (R20, R21): the winners, how
    the game ended, a row per seat (picture, name, clan, clan points, chips, total), a line
    under some rows (:meth:`_has_note`, :meth:`_draw_note`) and a row of buttons
    (:meth:`_buttons`). The live game's reveal and a past game's result are two of them."""

    def __init__(self, app: Host, session: Session, record: Any = None) -> None:
        super().__init__(app)
        self.session = session
        # How well each player hid: worked out on its own thread (kept once read); the
        # charts fill in when it is ready, with a ring meanwhile.
        self.record = record if record is not None else record_of_view(session.public())
        self.reading: Reading = app.hiding.reading(self.record)
        #: What each chart shows (seat -> its curve), as drawn: the tests compare it.
        self.shown: dict[int, Sequence[float]] = {}
        self._drawn_done = False

    def layout(self) -> None:
        w, h = self.size
        u, pad = self.unit, self.px(10)
        self.title = pygame.Rect(pad, pad, w - 2 * pad, round(u * 1.1))
        self.sub = pygame.Rect(pad, self.title.bottom, w - 2 * pad, round(u * 0.6))
        bottom = pygame.Rect(pad, h - u - pad, w - 2 * pad, u)
        self.narrow = w < self.px(NARROW)
        self.weights = NARROW_WEIGHTS if self.narrow else WEIGHTS
        self.buttons = self._buttons(bottom)
        self.table = pygame.Rect(pad, self.sub.bottom + pad, w - 2 * pad,
                                 bottom.top - pad - self.sub.bottom - pad)
        self.chart_cells: list[pygame.Rect] = []
        for seat, row in enumerate(self._rows()[1]):
            cell = split_h(row.inflate(-8, -6), *self.weights, gap=4)[-1]
            cell = pygame.Rect(cell.left, row.top, cell.width, row.height)  # a finger's room
            self.chart_cells.append(cell)
            self.buttons.append(Button(f"hiding{seat}", cell, action=lambda s=seat:
                                       self.open_hiding(s)))

    def _rows(self) -> tuple[pygame.Rect, list[pygame.Rect]]:
        """The table's head and its rows (one a seat)."""
        n = self.session.num_seats
        row_h = min(round(self.unit * 1.5), self.table.height // (n + 1))
        # The gap between rows shrinks where it would push the last row under the buttons
        # (four players at 480x320).
        gap = min(self.px(4), max(1, (self.table.height - round(row_h * (n + 0.6))) // n))
        table = pygame.Rect(self.table.left, self.table.top, self.table.width,
                            round(row_h * (n + 0.6)) + gap * n)
        head, *rows = split_v(table, 0.6, *[1] * n, gap=gap)
        return head, rows

    def wakeup(self) -> int | None:
        """While the reading is worked out: the ring turns."""
        return None if self.reading.done else self.app.clock() + RING_MS

    def tick(self, now: int) -> bool:
        return not (self.reading.done and self._drawn_done)

    def open_hiding(self, seat: int) -> None:
        """The large chart of ``seat``'s reading (once there is one)."""
        hiding = self.reading.result
        if hiding is None:
            return
        from .hiding import HidingScreen

        self.app.show(HidingScreen(self.app, hiding, self.session, seat,
                                   back=lambda: self.app.show(self),
                                   replay_at=self.replay_at, during=self.during(seat)))

    def during(self, seat: int) -> list[tuple[int, str, float]]:
        """What the computers believed of ``seat``'s clan at the end of play: (the seat
        that guessed, the clan it named, its weight), from the record's kept guesses."""
        hiding = self.reading.result
        if hiding is None:
            return []
        p = self.session.player_of(seat)
        return [(self.session.seat_of(by), clan, w) for by, of, clan, w in hiding.guesses
                if of == p]

    def replay_at(self, move: int) -> None:
        """The game's replay at ``move`` (a give-away tapped on the large chart)."""
        self.app.replay_game(self.record, move, back=lambda: self.app.show(self))

    def _draw_hiding(self, canvas: Canvas, seat: int) -> None:
        """``seat``'s small chart and verdict in its row's last cell (a button: tap it for
        the large chart), or the ring while the reading is worked out."""
        column = self.chart_cells[seat]  # the tap target: the column, the row's height
        inner = self._rows()[1][seat].inflate(-8, -6)
        main = split_v(inner, 1.7, 1)[0] if self._has_note(seat) else inner
        box = pygame.Rect(column.left, main.top, column.width, main.height)
        pygame.draw.rect(canvas.surface, BUTTON, box, border_radius=8)
        cell = box.inflate(-6, -6)
        if self.narrow:
            chart, words = cell, None
        else:
            chart, words = split_h(cell, 1, 1.1, gap=self.px(6))
        hiding = self.reading.result
        name = self.session.seats[seat].name
        player = hiding.of(name) if hiding is not None else None
        if player is None:
            if self.reading.done:
                canvas.paragraph(_("Could not read this game"), words or chart, self.px(14),
                                 TEXT_DIM)
                return
            draw_ring(canvas, chart, self.reading.progress, scale=self.scale,
                      name=f"ring{seat}")
            if words is not None:
                canvas.paragraph(_("Reading the game"), words, self.px(14), TEXT_DIM)
            return
        self.shown[seat] = player.table
        draw_chart(canvas, chart, [Line(player.clan, player.table)], hiding.total,
                   look=self.app.look, scale=self.scale, blind=SEAT_BLIND, name=f"chart{seat}",
                   markers=[(g.move, g.after, "") for g in player.giveaways],
                   background=BG)
        if words is not None:
            canvas.paragraph(player.verdict.text(), words, self.px(15), TEXT)

    def _buttons(self, bottom: pygame.Rect) -> list[Button]:
        """The buttons along ``bottom``."""
        raise NotImplementedError

    def _has_note(self, seat: int) -> bool:
        """Whether ``seat``'s row has a second line (:meth:`_draw_note`)."""
        return False

    def _draw_note(self, canvas: Canvas, seat: int, line: pygame.Rect) -> None:
        """The second line of ``seat``'s row, in ``line``."""

    def draw(self, canvas: Canvas) -> None:
        obs = self.session.public()
        assert obs.revealed_clans is not None and obs.scores is not None
        canvas.fill(BG)
        # A name longer than the keyboard types (an older version's, a record's) is cut
        # with an ellipsis: the title keeps its "wins!".
        names = [shown_name(self.session.seats[self.session.seat_of(p)]) for p in obs.winners]
        headline = shortened_in(_headline, names, self.px(18), self.title.width, self.px(4))
        # Shrinks further than other titles: two or three long names in German are wide.
        canvas.text(headline, self.title, self.px(40), ACCENT, min_px=self.px(18))
        reason = REASONS.get(obs.end or "")
        canvas.text(_(reason) if reason else _("The game is over. The clans are:"),
                    self.sub, self.px(20), TEXT_DIM)
        n = self.session.num_seats
        head, rows = self._rows()
        weights = self.weights
        heads = (_("Player"), _("Clan"), _("Clan pts"), _("Chips"), _("Total"),
                 # TRANSLATORS: the results' column of how well each player hid, narrow.
                 _("Hidden?") if self.narrow else _("How well hidden"))
        for text, cell in zip(heads, split_h(head, *weights, gap=4), strict=True):
            canvas.text(text, cell, self.px(16), TEXT_DIM)
        for seat, row in enumerate(rows):
            canvas.region(f"row{seat}", row)
            p = self.session.player_of(seat)
            clan = obs.revealed_clans[p]
            won = p in obs.winners
            canvas.box(row, PANEL_HI if won else CARD, radius=8,
                       border=ACCENT if won else None)
            inner = row.inflate(-8, -6)
            noted = self._has_note(seat)
            main = split_v(inner, 1.7, 1)[0] if noted else inner
            who, clan_cell, pts, chips, total, _chart = split_h(main, *weights, gap=4)
            side = min(who.height, who.width * 2 // 5)
            pic = pygame.Rect(who.left, who.centery - side // 2, side, side)
            draw_avatar(canvas, self.session.seats[seat], seat, pic)
            # The winner's crown sits on the picture: the name has the cell's whole width.
            name = pygame.Rect(pic.right + 6, who.top, who.right - pic.right - 12, who.height)
            shown = shortened(shown_name(self.session.seats[seat]), canvas.least_px, name.width)
            canvas.text(shown, name, self.px(22), ACCENT if won else TEXT, align="left")
            if won:
                crown = round(side * 0.5)
                draw_crown(canvas.surface, pygame.Rect(pic.right - crown * 3 // 4,
                                                       pic.top - crown // 4, crown, crown),
                           ACCENT)
            side = min(clan_cell.height * 3 // 4,
                       clan_cell.width * (1 if self.narrow else 2) // (1 if self.narrow else 5))
            icon = pygame.Rect(clan_cell.left, clan_cell.centery - side // 2, side, side)
            canvas.surface.blit(hut_icon(clan, icon.width, look=self.app.look), icon)
            if not self.narrow:
                label = pygame.Rect(icon.right + 6, clan_cell.top,
                                    clan_cell.right - icon.right - 6, clan_cell.height)
                canvas.text(self.app.look.label(clan), label, self.px(20), TEXT, align="left")
            canvas.text(str(obs.clan_points[clan]), pts, self.px(22), TEXT)
            canvas.text(str(obs.chips[p]), chips, self.px(22), TEXT)
            canvas.text(str(obs.scores[p]), total, self.px(26), ACCENT if won else TEXT)
            if noted:
                line = pygame.Rect(inner.left + 6, main.bottom, inner.width - 6,
                                   inner.bottom - main.bottom)
                self._draw_note(canvas, seat, line)
        for b in self.buttons:  # the charts' cells are drawn with their charts
            if not b.name.startswith("hiding"):
                b.draw(canvas)
        for seat in range(n):
            self._draw_hiding(canvas, seat)
        self._drawn_done = self.reading.done


class RevealScreen(ResultsScreen):
    """The live game's reveal: its buttons are a look at the board, a new game and a
    rematch; under each computer player, its guesses of the others' clans."""

    name = "reveal"

    def __init__(self, app: Host, session: Session) -> None:
        super().__init__(app, session)
        app.table.guesses()  # each computer player's guess, worked out meanwhile

    def _buttons(self, bottom: pygame.Rect) -> list[Button]:
        board, new, again = split_h(bottom, 1, 1, 1.4, gap=self.px(10))
        return [
            Button("board", board, _("See the board"), self._board, px=self.px(20)),
            Button("new_game", new, _("New game"), self.app.start_menu, px=self.px(20)),
            Button("rematch", again, _("Rematch"), self.app.rematch, style="primary",
                   px=self.px(22)),
        ]

    def guide_ready(self) -> bool:
        return True

    def guide_area(self) -> pygame.Rect:
        """The lower part: the winner and the first rows of scores stay in sight."""
        pad = self.px(10)
        top = self.table.top + self.table.height // 3
        w = min(self.size[0] - 2 * pad, round(600 * self.scale))
        return pygame.Rect((self.size[0] - w) // 2, top, w, self.size[1] - pad - top)

    def _board(self) -> None:
        self.app.show(FinalBoardScreen(self.app, self.session, back=lambda: self.app.reveal()))

    def _has_note(self, seat: int) -> bool:
        return not self.session.seats[seat].is_human

    def during(self, seat: int) -> list[tuple[int, str, float]]:
        """The computers' guesses of ``seat``'s clan as this reveal shows them."""
        p = self.session.player_of(seat)
        out = []
        for k, worker in sorted(self.app.table.guesses().items()):
            if k == seat or worker is None or not worker.done or worker.error is not None:
                continue
            guess = worker.result if isinstance(worker.result, dict) else {}
            clan, weight = likeliest(guess.get(p))
            if clan is not None:
                out.append((k, clan, weight))
        return out

    def _draw_note(self, canvas: Canvas, seat: int, line: pygame.Rect) -> None:
        self._draw_guess(canvas, seat, line)

    def _draw_guess(self, canvas: Canvas, seat: int, line: pygame.Rect) -> None:
        """"Guessed: [Anna's picture][red hut] likely ..." for every other player."""
        session = self.session
        obs = session.public()
        assert obs.revealed_clans is not None
        worker = self.app.table.guesses().get(seat)
        label = pygame.Rect(line.left, line.top, round(line.width * 0.16), line.height)
        canvas.text(_("Guessed:"), label, self.px(15), TEXT_DIM, align="left")
        rest = pygame.Rect(label.right + 4, line.top, line.right - label.right - 4, line.height)
        if worker is None or (worker.done and worker.error is not None):
            canvas.text(_("no guess"), rest, self.px(15), TEXT_DIM, align="left")
            return
        if not worker.done:
            canvas.text(_("working it out"), rest, self.px(15), TEXT_DIM, align="left")
            return
        guess = worker.result if isinstance(worker.result, dict) else {}
        others = [k for k in range(session.num_seats) if k != seat]
        h = line.height
        for k, cell in zip(others, split_h(rest, *[1] * len(others), gap=h // 2), strict=True):
            p = session.player_of(k)
            clan, sure = likeliest(guess.get(p))
            pic = pygame.Rect(cell.left, cell.top, h, h)
            draw_avatar(canvas, session.seats[k], k, pic)
            text = pygame.Rect(pic.right + 3, cell.top, cell.right - pic.right - 3, h)
            if clan is None:
                canvas.text("?", text, self.px(15), TEXT_DIM, align="left")
                continue
            icon = pygame.Rect(pic.right + 2, cell.top + h // 10, h - h // 5, h - h // 5)
            canvas.surface.blit(hut_icon(clan, icon.width, look=self.app.look), icon)
            text.left = icon.right + 3
            text.width = cell.right - icon.right - 3
            right = clan == obs.revealed_clans[p]
            canvas.text(how_sure(sure), text, self.px(16), GOOD if right else TEXT_DIM,
                        align="left")


def _headline(winners: list[str]) -> str:
    """The reveal's title: who won, or who share the win (R21)."""
    if len(winners) == 1:
        return _("{name} wins!").format(name=winners[0])
    if len(winners) == 2:
        return _("{first} and {second} share the win!").format(first=winners[0],
                                                             second=winners[1])
    return _("{names} and {last} share the win!").format(names=_(", ").join(winners[:-1]),
                                                        last=winners[-1])
