"""A finished game replayed on the board ("Past games"): step forward and back a
move or an epoch at a time, or play it at a chosen speed; at the end, its result.

Everything shown comes from the replay's public view at the move shown and its
:class:`~clans_pi.history.past_game.PastGame`: the game is over, so the clans are public
(R20) and the players' row shows each player's clan beside their picture. The board shows
the last move's arrow and the villages with their chips and values, the panel the move
number, the epoch and the score track at that move, and the controls.

Playing is a timer: :meth:`ReplayScreen.wakeup` says when the next move is due and
:meth:`ReplayScreen.tick` shows it; stepping by hand pauses, and playing stops at the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from ...history.hiding import SEAT_BLIND
from ...i18n import _
from ..board_view import BoardView
from ..canvas import Canvas, line_size, shortened
from ..hiding_chart import Line, draw_chart, draw_ring, percent_label
from ..icons import draw_arrow, draw_pause, draw_play, draw_step, hut_icon
from ..layout import play_layout, split_h, split_v
from ..panel import draw_avatar, draw_chips, draw_epoch_table, draw_score_track
from ..seat_kinds import shown_name
from ..theme import ACCENT, BG, CARD, PANEL, PANEL_HI, SELECT, TEXT, TEXT_DIM, Color, roman
from ..widgets import Button
from .base import Screen
from .past_result import PastResultScreen

if TYPE_CHECKING:
    from ...history.hiding_cache import Reading
    from ...history.replay import GameReplay
    from ...rules.observation import Observation
    from ..layout import Layout
    from .base import Host

#: The playing speeds, slowest first: milliseconds per move, and how many times the
#: slowest that is (the speed button's label: 1, 2, 4 and a multiplication sign).
SPEEDS: tuple[tuple[int, int], ...] = ((1000, 1), (500, 2), (250, 4))
#: How often (ms) the ring turns while the reading is worked out.
RING_MS = 150


class ReplayScreen(Screen):
    """The replay of ``replay``; ``back`` leaves it (to the past games' list)."""

    name = "past_replay"

    def __init__(self, app: Host, replay: GameReplay, back: Callable[[], None]) -> None:
        super().__init__(app)
        self.replay = replay
        self.game = replay.game
        self._back = back
        self.speed = 0  # an index into SPEEDS
        #: While playing: when (app clock, ms) the next move is shown; None: paused.
        self.due: int | None = None
        self.lay: Layout | None = None
        self.bv: BoardView | None = None
        # How sure the table was of each clan, move by move: the chart under the board
        # (a tap on it shows the players' cards instead, and back).
        self.reading: Reading = app.hiding.reading(replay.record)
        self.show_chart = True
        self._drawn_done = False
        #: What the chart shows (seat -> its curve), as drawn: the tests compare it.
        self.shown: dict[int, Sequence[float]] = {}

    # ------------------------------------------------------------ what is shown

    @property
    def obs(self) -> Observation:
        """The public view of the position shown."""
        return self.replay.view()

    @property
    def playing(self) -> bool:
        return self.due is not None

    @property
    def interval(self) -> int:
        """Milliseconds per move at the chosen speed."""
        return SPEEDS[self.speed][0]

    # ------------------------------------------------------------ the controls

    def step(self, by: int) -> None:
        """``by`` moves forward (negative: back), clamped to the game; pauses."""
        self.due = None
        self.replay.step(by)
        self._build_buttons()

    def epoch_step(self, forward: bool) -> None:
        """To the next epoch's start (or the end), or back to this epoch's start (or the
        one before when already there); pauses."""
        self.due = None
        if forward:
            self.replay.next_epoch()
        else:
            self.replay.previous_epoch()
        self._build_buttons()

    def play(self) -> None:
        """Show a move every :attr:`interval` ms from now, until the end or a pause."""
        if not self.replay.at_end:
            self.due = self.app.clock() + self.interval
        self._build_buttons()

    def pause(self) -> None:
        self.due = None
        self._build_buttons()

    def next_speed(self) -> None:
        """The next speed (after the fastest, the slowest again); a game playing goes on at
        the new speed from now."""
        self.speed = (self.speed + 1) % len(SPEEDS)
        if self.due is not None:
            self.due = self.app.clock() + self.interval
        self._build_buttons()

    def show_result(self) -> None:
        """The game's result (the reveal of that game); its button comes back here."""
        self.due = None
        self.app.show(PastResultScreen(self.app, self.replay, back=lambda: self.app.show(self)))

    def back(self) -> None:
        self.due = None
        self._back()

    def key(self, ev: pygame.event.Event) -> None:
        """A keyboard (desktop): arrows step a move, Page Up/Down an epoch, Space plays."""
        k = ev.key
        if k == pygame.K_RIGHT:
            self.step(1)
        elif k == pygame.K_LEFT:
            self.step(-1)
        elif k == pygame.K_PAGEDOWN:
            self.epoch_step(True)
        elif k == pygame.K_PAGEUP:
            self.epoch_step(False)
        elif k == pygame.K_SPACE and self.playing:
            self.pause()
        elif k == pygame.K_SPACE:
            self.play()

    # ------------------------------------------------------------ time

    def wakeup(self) -> int | None:
        if self.show_chart and not self.reading.done:
            ring = self.app.clock() + RING_MS
            return ring if self.due is None else min(self.due, ring)
        return self.due

    def tick(self, now: int) -> bool:
        waiting = self.show_chart and not (self.reading.done and self._drawn_done)
        if waiting and (self.due is None or now < self.due):
            return True  # the ring turns, or the chart has just come
        if self.due is None or now < self.due:
            return False
        self.replay.step(1)
        if self.replay.at_end:
            self.due = None  # playing stops at the end
        else:
            # The next move a whole interval later; a late loop turn does not make up
            # for lost time by showing moves in a burst.
            later = self.due + self.interval
            self.due = later if later > now else now + self.interval
        self._build_buttons()
        return True

    # ------------------------------------------------------------ where things are

    def layout(self) -> None:
        lay = play_layout(self.size, self.replay.board.aspect)
        self.lay = lay
        if self.bv is None or self.bv.rect != lay.board:
            self.bv = BoardView(self.replay.board, lay.board, self.app.look,
                                turned=lay.portrait)
        u, pad = lay.unit, lay.pad
        panel = lay.panel.inflate(-2 * pad, -2 * pad)
        self.header = pygame.Rect(panel.left, panel.top, panel.width, round(u * 1.2))
        rows = 4
        # The buttons keep their full height while the score track keeps room for its five
        # rows; in a short window (480x320) they give up some, never under a touch target.
        least = math.ceil(44 * lay.scale) + 2
        scores_least = round(u * 2.2)
        spare = panel.height - self.header.height - pad - scores_least - rows * pad
        bh = max(least, min(u, spare // rows))
        buttons = pygame.Rect(panel.left, panel.bottom - rows * bh - (rows - 1) * pad,
                              panel.width, rows * bh + (rows - 1) * pad)
        self.controls = split_v(buttons, *([1] * rows), gap=pad)
        middle = pygame.Rect(panel.left, self.header.bottom + pad, panel.width,
                             buttons.top - pad - self.header.bottom - pad)
        if middle.height > 10 * u:  # a tall column: the table keeps its natural rows
            middle.height = 10 * u
        if middle.height >= 6 * u:  # room for the epoch chart under the score track
            self.scores, self.chart = split_v(middle, 1, 1.2, gap=pad)
        else:
            self.scores, self.chart = middle, None
        self._build_buttons()

    def _build_buttons(self) -> None:
        """The controls, as the position and playing stand now: a step that would not
        move is off; at the end, the result takes the place of play and speed."""
        lay = self.lay
        if lay is None:
            return
        pad = lay.pad
        replay = self.replay
        first, last = replay.ply == 0, replay.at_end
        top, moves, epochs, leave = self.controls
        back_move, next_move = split_h(moves, 1, 1, gap=pad)
        back_epoch, next_epoch = split_h(epochs, 1, 1, gap=pad)
        buttons = []
        if last:
            buttons.append(Button("result", top, _("See the result"), self.show_result,
                                  style="primary", px=lay.px(20)))
        else:
            play, speed = split_h(top, 1, 1, gap=pad)
            if self.playing:
                buttons.append(Button("pause", play, action=self.pause, draw_icon=draw_pause))
            else:
                buttons.append(Button("play", play, action=self.play, style="primary",
                                      draw_icon=draw_play))
            # TRANSLATORS: the replay's speed button: 1, 2 or 4 times as fast as a move a
            # second, with the multiplication sign (U+00D7) as a video player shows it.
            buttons.append(Button("speed", speed, _("{factor}\u00d7").format(
                factor=SPEEDS[self.speed][1]), self.next_speed, px=lay.px(30)))
        buttons += [
            Button("move_back", back_move, action=lambda: self.step(-1), enabled=not first,
                   draw_icon=_step_icon(forward=False, double=False)),
            Button("move_next", next_move, action=lambda: self.step(1), enabled=not last,
                   draw_icon=_step_icon(forward=True, double=False)),
            Button("epoch_back", back_epoch, action=lambda: self.epoch_step(False),
                   enabled=not first, draw_icon=_step_icon(forward=False, double=True)),
            Button("epoch_next", next_epoch, action=lambda: self.epoch_step(True),
                   enabled=not last, draw_icon=_step_icon(forward=True, double=True)),
            Button("back", leave, _("Back"), self.back, px=lay.px(22)),
        ]
        strip = lay.strip.inflate(-lay.pad, -lay.pad)
        self.buttons = [Button("strip", strip, action=self.toggle_chart), *buttons]

    def toggle_chart(self) -> None:
        """The chart under the board, or the players' cards."""
        self.show_chart = not self.show_chart

    def seat_cards(self) -> list[pygame.Rect]:
        """Each seat's card under the board, in table order: side by side, or one above
        the other where the room under the board is tall (a turned board)."""
        lay = self.lay
        assert lay is not None
        area = lay.strip.inflate(-2 * lay.pad, -2 * lay.pad)
        n = len(self.game.players)
        if area.height >= n * round(lay.unit * 1.4):
            h = min(round(lay.unit * 1.8), (area.height - (n - 1) * lay.pad) // n)
            return [pygame.Rect(area.left, area.top + k * (h + lay.pad), area.width, h)
                    for k in range(n)]
        return split_h(area, *([1] * n), gap=lay.pad)

    # ------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        lay, bv = self.lay, self.bv
        assert lay is not None and bv is not None
        obs = self.obs
        canvas.fill(BG)
        canvas.fill(PANEL, lay.panel)
        canvas.region("panel", lay.panel)
        bv.draw(canvas, obs)  # the huts, the villages with chips and values, the last move
        canvas.region("players", lay.strip)
        canvas.target("strip", self.buttons[0].rect)  # a tap: the chart or the cards
        if self.show_chart:
            self._draw_chart(canvas)
        else:
            mover = self.replay.mover()
            for k, card in enumerate(self.seat_cards()):
                self._draw_seat(canvas, k, card, obs, moved=k == mover)
        self._draw_header(canvas, obs)
        draw_score_track(canvas, self.scores, obs, lay.px(22), self.app.look)
        if self.chart is not None:
            draw_epoch_table(canvas, self.chart, self.replay.chart, obs.chips_taken,
                             obs.epoch if obs.end is None else 0, lay.px(18))
        for b in self.buttons[1:]:
            b.draw(canvas)

    def _draw_chart(self, canvas: Canvas) -> None:
        """Every player's line (how sure the table was of their clan) with the move shown
        marked, and beside it each player with that figure at the move shown."""
        lay = self.lay
        assert lay is not None
        area = lay.strip.inflate(-3 * lay.pad, -3 * lay.pad)
        n = len(self.game.players)
        chart, legend = split_h(area, 2.2, 1, gap=lay.pad)
        hiding = self.reading.result
        if hiding is None:
            if self.reading.done:
                canvas.paragraph(_("Could not read this game"), legend, lay.px(16), TEXT_DIM)
            else:
                draw_ring(canvas, chart, self.reading.progress, scale=lay.scale, name="ring")
                canvas.paragraph(_("Reading the game"), legend, lay.px(16), TEXT_DIM)
            self._drawn_done = self.reading.done
            return
        self._drawn_done = True
        ply = self.replay.ply
        cols = 2 if n > 2 and legend.width > legend.height * 2 else 1
        lines = []
        for k, cell in enumerate(_grid(legend, n, cols, gap=2)):
            player = hiding.of(self.game.players[k].name)
            if player is None:
                continue
            self.shown[k] = player.table
            lines.append(Line(player.clan, player.table))
            side = min(cell.height, cell.width // 3)
            pic = pygame.Rect(cell.left, cell.centery - side // 2, side, side)
            draw_avatar(canvas, self.replay.seats[k], k, pic)
            hut = max(8, side * 3 // 4)
            canvas.surface.blit(hut_icon(player.clan, hut, look=self.app.look),
                                (pic.right + 2, cell.centery - hut // 2))
            left = pic.right + hut + 4
            canvas.text(percent_label(player.table[ply]),
                        pygame.Rect(left, cell.top, cell.right - left, cell.height),
                        lay.px(18), TEXT, align="left", min_px=lay.px(10))
        draw_chart(canvas, chart, lines, hiding.total, look=self.app.look, scale=lay.scale,
                   blind=SEAT_BLIND, name="replay", current=ply, background=BG)

    def _draw_header(self, canvas: Canvas, obs: Observation) -> None:
        """"Move 12 of 41" over the epoch (or that the game is over)."""
        lay = self.lay
        assert lay is not None
        top, sub = split_v(self.header, 1.2, 1)
        canvas.text(_("Move {n} of {total}").format(n=obs.ply, total=self.replay.total), top,
                    lay.px(24), TEXT, align="left")
        if obs.end is not None:
            canvas.text(_("Game over"), sub, lay.px(20), ACCENT, align="left")
        else:
            canvas.text(_("Epoch {epoch}").format(epoch=roman(obs.epoch)), sub, lay.px(20),
                        TEXT_DIM, align="left")

    def _draw_seat(self, canvas: Canvas, k: int, card: pygame.Rect, obs: Observation, *,
                   moved: bool) -> None:
        """Seat ``k``'s card: picture, name, clan (a hut in its colour: the game is over,
        R20) with its points, and chips, at the move shown; the seat that made the last
        move is framed, with the board's arrow on its picture."""
        lay = self.lay
        assert lay is not None
        seat = self.replay.seats[k]
        player = self.game.players[k]
        p = self.replay.final.player_of(k)
        points, chips = obs.clan_points[player.clan], obs.chips[p]
        canvas.box(card, PANEL_HI if moved else CARD, radius=8,
                   border=ACCENT if moved else None)
        inner = card.inflate(-8, -8)
        px = lay.px(20)
        line = round(line_size(max(px, canvas.least_px)) * 1.15)
        name_ink = ACCENT if moved else TEXT
        side = min(inner.height, round(lay.unit * 1.1))
        body_w = inner.width - side - lay.pad
        if body_w >= 5 * line or inner.height < 3 * line:
            # Wide (or short): the picture at the left, the name over the clan and chips.
            pic = pygame.Rect(inner.left, inner.centery - side // 2, side, side)
            body = pygame.Rect(pic.right + lay.pad, inner.top, body_w, inner.height)
            name, stats = split_v(body, 1, 1)
            clan, held = _clan_and_chips(stats, line, lay.pad)
        else:
            # Narrow and tall: the picture, then the name, the clan and the chips under it
            # (on one line when it is wide enough).
            one_line = inner.width >= 5 * line
            under = (2 if one_line else 3) * line
            side = max(line, min(inner.width, inner.height - under - lay.pad,
                                 round(lay.unit * 1.4)))
            top = inner.top + (inner.height - side - lay.pad - under) // 2  # centred
            pic = pygame.Rect(inner.left, top, side, side)
            below = pygame.Rect(inner.left, pic.bottom + lay.pad, inner.width, under)
            if one_line:
                name, stats = split_v(below, 1, 1)
                clan, held = _clan_and_chips(stats, line, lay.pad)
            else:
                name, clan, held = split_v(below, 1, 1, 1)
        draw_avatar(canvas, seat, k, pic)
        if moved:
            _draw_moved_mark(canvas.surface, pic)
        canvas.text(shortened(shown_name(seat), canvas.least_px, name.width), name, px, name_ink,
                    align="left")
        icon_side = min(clan.height, round(px * 1.3))
        icon = pygame.Rect(clan.left, clan.centery - icon_side // 2, icon_side, icon_side)
        canvas.surface.blit(hut_icon(player.clan, icon_side, look=self.app.look), icon)
        canvas.text(str(points), pygame.Rect(icon.right + 4, clan.top,
                                             clan.right - icon.right - 4, clan.height),
                    px, TEXT, align="left")
        narrow = held.width < 4 * line
        # Alone, the chip is as big as the clan's hut: its number is the count.
        draw_chips(canvas, held, chips, px if narrow else lay.px(18), count_only=narrow)
        canvas.note("count", str(chips), held)  # the number is on the chip: for the tests


def _clan_and_chips(stats: pygame.Rect, line: int,
                    gap: int) -> tuple[pygame.Rect, pygame.Rect]:
    """The clan's part and the chips' part of a card's line: halves where the chips have
    room for their word, else the chip alone at the right and the rest for the clan."""
    if stats.width >= 9 * line:
        clan, held = split_h(stats, 1, 1, gap=gap)
        return clan, held
    side = min(stats.height, round(line * 1.5))
    held = pygame.Rect(stats.right - side, stats.top, side, stats.height)
    return pygame.Rect(stats.left, stats.top, held.left - gap - stats.left, stats.height), held


def _grid(area: pygame.Rect, n: int, cols: int, *, gap: int) -> list[pygame.Rect]:
    """``n`` cells of ``area`` in ``cols`` columns, row by row."""
    rows = -(-n // cols)
    cells = []
    for r, row in enumerate(split_v(area, *([1] * rows), gap=gap)):
        cells += split_h(row, *([1] * cols), gap=gap)[: n - r * cols]
    return cells


def _step_icon(*, forward: bool, double: bool) -> Callable[[pygame.Surface, pygame.Rect, Color],
                                                           None]:
    """A step button's icon: a move (▶|) or an epoch (▶▶|), forward or back."""

    def draw(surface: pygame.Surface, rect: pygame.Rect, color: Color) -> None:
        draw_step(surface, rect, color, forward=forward, double=double)

    return draw


def _draw_moved_mark(surface: pygame.Surface, pic: pygame.Rect) -> None:
    """The last move's arrow, as the board draws it, on a dark disc at the picture's
    corner: this seat made the move shown."""
    mark = max(16, round(pic.height * 0.45))
    disc = pygame.Rect(pic.right - mark + 3, pic.bottom - mark + 3, mark, mark)
    pygame.draw.ellipse(surface, (20, 20, 24), disc)
    inset = disc.inflate(-mark // 3, -mark // 3)
    draw_arrow(surface, inset.midleft, inset.midright, SELECT, max(2, mark // 8), outline=None)
