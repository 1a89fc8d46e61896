"""The play screen: the board, whose turn it is, the epoch chart and scores, and moves by
tap or drag, with the village order choice, undo, a territory's details and the peeks.

Everything drawn comes from the session's public view (R22); the only thing that ever shows
a clan is the peek screen this one opens for one seat. A computer player's turn shows a
thinking indicator on its row; its move comes through :meth:`PlayScreen.computer_move`, the
same path as a person's. A hint (when on) follows the mover's clan, so it is never drawn
here: the Hint button (a person's turn only) opens the private hint screen for the person to
move (:mod:`.hint`).

What an input means is decided in :mod:`.play_states` (the screen's states and their
transitions); this module turns pointer positions into territories, hands each input to a
transition and carries out the effects it returns (play, undo, a message, leaving, a partial
redraw). Drawing is in :mod:`.play_draw`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from ...i18n import _, ngettext
from ...rules.moves import Move
from ...session import Session
from ..animation import Animation, steps_for
from ..board_view import BoardView
from ..guide_overlay import spot_circle
from ..layout import play_layout, split_h, split_v
from ..panel import epoch_rows
from ..widgets import Button
from . import play_states as states
from .base import Pos, Spot
from .play_draw import SPIN_MS, PlayPicture
from .play_states import (
    ChoosingOrder,
    Dialog,
    Leave,
    Play,
    PlayState,
    Repaint,
    Say,
    Shown,
    Step,
    TakeBack,
    Unused,
)

if TYPE_CHECKING:
    from ...table.guide import Tip
    from .base import Host

TOAST_MS = 2200


class PlayScreen(PlayPicture):
    name = "play"

    def __init__(self, app: Host, session: Session) -> None:
        super().__init__(app)
        self.session = session
        self.state = PlayState()
        self._toast: tuple[str, int] | None = None  # (text, until): over any state
        self.lay = None
        self.bv = None
        self._spun: tuple[int | None, int] = (None, 0)  # (thinking seat, frame) drawn

    # ------------------------------------------------------------ what is shown

    @property
    def selected(self) -> int | None:
        """The territory whose huts are chosen, if any."""
        return self.state.selected

    @property
    def order(self) -> ChoosingOrder | None:
        """The village order being chosen (R11), if any."""
        return self.state.order

    @property
    def dialog(self) -> Dialog | None:
        """The question open over the board, if any."""
        return self.state.dialog

    @property
    def info(self) -> int | None:
        """The territory whose details card is open, if any."""
        return self.state.info

    @property
    def anim(self) -> Animation | None:
        """The move being shown, if any."""
        return self.state.anim

    @property
    def toast(self) -> tuple[str, int] | None:
        """The short message over the board and when it goes (app clock, ms), if any."""
        return self._toast

    # ------------------------------------------------------------ layout

    def layout(self) -> None:
        lay = play_layout(self.size, self.session.board.aspect)
        if self.bv is None or self.bv.rect != lay.board:
            self.bv = BoardView(self.session.board, lay.board, self.app.look,
                                turned=lay.portrait)
        self.lay = lay
        self._build_buttons()

    def _build_buttons(self) -> None:
        lay = self.lay
        assert lay is not None
        u, pad = lay.unit, lay.pad
        self.buttons = []
        dialog, order = self.state.dialog, self.state.order
        if dialog is not None:
            card = self._dialog_rect()
            row = pygame.Rect(card.left + pad, card.bottom - u - pad, card.width - 2 * pad, u)
            for (name, label, style), r in zip(
                dialog.answers, split_h(row, *[1] * len(dialog.answers), gap=pad),
                strict=True,
            ):
                self.buttons.append(Button(name, r, label, self._answer(name), style=style,
                                           px=lay.px(20)))
            return
        area = self._panel_parts()["buttons"]
        if order is not None:
            found, rest = split_v(area, 1, 1, gap=pad)
            reset, back = split_h(rest, 1, 1, gap=pad)
            self.buttons += [
                # TRANSLATORS: the button that founds the new villages in the chosen order.
                Button("found", found, _("Found"), self.found, enabled=order.complete,
                       style="primary", px=lay.px(22)),
                Button("order_reset", reset, _("Again"), self.order_again,
                       enabled=bool(order.chosen), px=lay.px(18)),
                Button("order_cancel", back, _("Back"), self.order_back, px=lay.px(18)),
            ]
            return
        # Undo across the column (its name is long in some languages), Rules and Menu side
        # by side under it; Hint, when on, across the column above.
        hint = self._button_count() == 4
        names = ["hint"] * hint + ["undo", "rules", "menu"]
        rows = split_v(area, *([1] * (2 + hint)), gap=pad)
        cells = [*rows[:-1], *split_h(rows[-1], 1, 1, gap=pad)]
        rects = dict(zip(names, cells, strict=True))
        if "hint" in rects:
            self.buttons.append(Button("hint", rects["hint"], _("Hint"), self.app.show_hint,
                                       enabled=self.app.table.can_hint(), px=lay.px(18)))
        self.buttons += [
            Button("undo", rects["undo"], _("Undo"), self.ask_undo,
                   enabled=self.session.can_undo, px=lay.px(18)),
            Button("rules", rects["rules"], _("Rules"), lambda: self.app.rules(self.app.play),
                   px=lay.px(18)),
            Button("menu", rects["menu"], _("Menu"), self.ask_menu, px=lay.px(18)),
        ]
        for seat, card in enumerate(self._seat_rows()):
            if not self.session.seats[seat].is_human:
                continue  # a computer player has no peek: its clan is never shown (R22)
            # The whole card is the button (drawn with the players' row, not by itself).
            self.buttons.append(Button(f"peek{seat}", card, "", self._peek(seat)))

    # ------------------------------------------------------------ the state's changes

    def _apply(self, step: Step) -> Step:
        """Enter ``step``'s state, then carry out its effects in order."""
        before, self.state = self.state, step.state
        if (before.dialog, before.order) != (step.state.dialog, step.state.order):
            self._build_buttons()  # the buttons show the question or the village order
        for effect in step.effects:
            if isinstance(effect, Say):
                self.say(effect.text)
            elif isinstance(effect, Play):
                self._play(effect)
            elif isinstance(effect, TakeBack):
                self.app.take_back()
                self._build_buttons()
            elif isinstance(effect, Leave):
                self._leave(effect.how)
            elif isinstance(effect, Shown):
                self._reveal_when_told()
            elif isinstance(effect, Repaint):
                self._repaint(effect.parts)
        return step

    def _play(self, play: Play) -> None:
        order = None if play.order is None else list(play.order)
        by_computer = not self.session.seats[self.session.current_seat].is_human
        events = self.app.play_move(play.src, play.dst, order)  # played, saved, heard
        self._toast = None
        self.state = states.moved(self.state, Animation(steps_for(events), self.app.clock()),
                                  by_computer=by_computer).state
        self._build_buttons()

    def _leave(self, how: str) -> None:
        if how == "new":
            self.app.start_menu()
        elif how == "quit":
            self.app.quit()
        elif how == "off":
            self.app.ask_switch_off(back=self.app.play, game_kept=True)

    def _repaint(self, parts: tuple[str, ...]) -> None:
        """Only ``parts`` changed: a partial redraw (none while a message is up)."""
        if not parts:
            self.partial = []  # nothing to redraw
        elif self._toast is None and self.lay is not None:
            rects = {"header": self._header_rect(), "board": self.lay.board_area}
            self.partial = [rects[p] for p in parts]

    # ------------------------------------------------------------ time

    def wakeup(self) -> int | None:
        due = []
        now = self.app.clock()
        if self.state.anim is not None:
            due.append(now + 16)  # ~60 frames a second while animating
        if self._toast is not None:
            due.append(self._toast[1])
        if self.app.table.thinking_seat() is not None:
            due.append((now // SPIN_MS + 1) * SPIN_MS)  # the indicator's next frame
        return min(due) if due else None

    def tick(self, now: int) -> bool:
        if self.session.is_over and self._reveal_when_told():
            return True
        changed = False
        if self._toast is not None and now >= self._toast[1]:
            self._toast = None
            changed = True
        if self.state.anim is not None:
            changed = True
            self._apply(states.timer(self.state, now))
        seat = self.app.table.thinking_seat()
        spun = (seat, now // SPIN_MS if seat is not None else 0)
        if spun != self._spun:
            was, self._spun = self._spun[0], spun
            if not changed and seat is not None and was in (None, seat):
                # Only the indicator moved: redraw its row alone.
                self.partial = [self._seat_rows()[seat]]
            changed = True
        return changed

    def ready_for_computer(self) -> bool:
        """A computer player's move may be played and seen now: nothing else is going on
        (no animation, question or village order)."""
        return self.state.quiet

    def computer_move(self, move: Move) -> None:
        """Play a computer player's move (the app checked it), as a person's is played."""
        self.play_move(move)

    def play_move(self, move: Move) -> None:
        """Play ``move`` whole, its village order included (checked by the session): the
        huts move, the move is shown and saved, as after a tap."""
        self._apply(states.play_move(self.state, move))

    def _reveal_when_told(self) -> bool:
        """Once the game is over and its last move is seen (and explained, if the guide had
        something to say about it), the reveal."""
        if (self.session.is_over and self.state.anim is None
                and not self.app.guide.waiting("play")):
            self.app.reveal()
            return True
        return False

    # ------------------------------------------------------------ the first-game guide

    def guide_ready(self) -> bool:
        """After the move's animation, with no question or village order open."""
        return self.state.quiet

    def guide_area(self) -> pygame.Rect:
        """Where the guide's card goes: the half of the board away from what the card
        points at (the panel is too narrow for it), so that the territory and the chart
        stay in sight."""
        lay = self.lay
        assert lay is not None
        area = lay.board_area.inflate(-2 * lay.pad, -2 * lay.pad)
        w = min(area.width // 2 + lay.unit, round(380 * lay.scale))
        h = max(area.height // 2, round(220 * lay.scale))
        tip = self.app.guide.current
        spots = [r for _, r in self.guide_spots(tip)] if tip is not None else []
        sides = [pygame.Rect(area.left, area.top, w, area.height),
                 pygame.Rect(area.right - w, area.top, w, area.height),
                 pygame.Rect(area.left, area.bottom - h, area.width, h),
                 pygame.Rect(area.left, area.top, area.width, h)]

        def hidden(r: pygame.Rect) -> int:
            return sum(r.clip(spot).width * r.clip(spot).height for spot in spots)

        under = lay.strip.inflate(-2 * lay.pad, -2 * lay.pad)
        if under.height >= round(220 * lay.scale):  # a turned board: the room under it
            sides.insert(0, under)
        column = lay.panel.inflate(-2 * lay.pad, -2 * lay.pad)
        if column.width >= 200:  # a column wide enough for the card (1024x768 and up)
            sides.append(column)
        return min(sides, key=hidden)  # the first that hides nothing, else the least

    def guide_spots(self, tip: Tip) -> list[Spot]:
        bv = self.bv
        assert bv is not None
        spots = []
        if tip.territory is not None:
            ax, ay = bv.anchors[tip.territory]
            far = max(math.hypot(x - ax, y - ay) for x, y in bv.polygons[tip.territory])
            spots.append(spot_circle((ax, ay), min(max(far, bv.hut * 1.3), bv.hut * 2.6)))
        if tip.epoch is not None:
            rows = epoch_rows(self.chart_rect(), self.session.chart)
            spots.append(("rect", rows[tip.epoch - 1]))
        return spots

    # ------------------------------------------------------------ input

    def _territory_at(self, pos: Pos) -> int | None:
        return self.bv.territory_at(pos) if self.bv is not None else None

    def down(self, pos: Pos) -> None:
        self._apply(states.press(self.state, self._territory_at(pos), self.session))

    def tap_territory(self, t: int | None) -> None:
        """A tap on territory ``t`` (None: off the map): the finger down and up on it, as
        :meth:`down` and :meth:`up` on a point of it."""
        self._apply(states.press(self.state, t, self.session))
        self._apply(states.release(self.state, t, self.session))

    def move(self, pos: Pos) -> None:
        area = self.lay.board_area if self.lay is not None else self.rect
        # The drag arrow (head and outline included) stays on the board, so a partial
        # redraw of the board covers it.
        hut = self.bv.hut if self.bv else 16
        inner = area.inflate(-2 * hut, -2 * hut)
        self._apply(states.drag(self.state, (min(max(pos[0], inner.left), inner.right - 1),
                                             min(max(pos[1], inner.top), inner.bottom - 1))))

    def up(self, pos: Pos) -> None:
        self._apply(states.release(self.state, self._territory_at(pos), self.session))

    def long_press(self, pos: Pos) -> bool:
        if self.bv is None:
            return False
        step = self._apply(states.long_press(self.state, self.bv.territory_at(pos)))
        return not any(isinstance(e, Unused) for e in step.effects)

    def back(self) -> None:
        self._apply(states.back(self.state))

    def say(self, text: str) -> None:
        """A short message over the board (a refused tap, ...)."""
        self._toast = (text, self.app.clock() + TOAST_MS)

    # ------------------------------------------------------------ moves and buttons

    def move_huts(self, src: int, dst: int) -> None:
        """The person to move moves the huts of ``src`` into ``dst`` (as a tap on ``src``,
        then on ``dst``, does): the village order choice opens first when the move founds
        several villages. ValueError if the move is not legal or a computer is to move."""
        self._apply(states.move_huts(self.state, src, dst, self.session))

    def found(self) -> None:
        """The Found button: found the villages in the chosen order."""
        self._apply(states.found(self.state))

    def order_again(self) -> None:
        """The Again button: choose the village order from the start."""
        self._apply(states.order_again(self.state))

    def order_back(self) -> None:
        """The Back button of the village order: the huts are not moved."""
        self._apply(states.order_back(self.state))

    def answer(self, name: str) -> None:
        """Answer the open question with its button ``name``."""
        self._apply(states.answer(self.state, name, self.session))

    def _answer(self, name: str):
        return lambda: self.answer(name)

    # ------------------------------------------------------------ dialogs

    def _peek(self, seat: int):
        return lambda: self.app.peek(seat)

    def ask_undo(self) -> None:
        obs = self.session.public()
        if not self.session.can_undo or not obs.moves:
            return
        back = self.session.undo_moves
        mover = self.session.seats[self.session.seat_of((obs.current_player - back)
                                                        % self.session.num_seats)]
        if back == 1:
            text = _("{name}'s move (the white arrow) is taken back and {name} moves "
                     "again.").format(name=mover.name)
        else:
            # TRANSLATORS: {n} (2 or more) computer moves came after the person's move; a
            # form only one computer move takes says "the computer move", without {n}.
            text = ngettext("{name}'s move and the computer move after it are taken back; "
                            "{name} moves again.",
                            "{name}'s move and the {n} computer moves after it are taken "
                            "back; {name} moves again.", back - 1).format(name=mover.name,
                                                                          n=back - 1)
        self._apply(states.ask(self.state, Dialog(
            _("Take back the last move?"),
            text,
            (("undo_yes", _("Take back"), "danger"), ("undo_no", _("Keep it"), "normal")),
        )))

    def ask_menu(self) -> None:
        saving = self.app.saving
        if self.app.kiosk:  # the appliance: no desktop to quit to (clans_pi/service/kiosk.py)
            text = (_("New game ends this game for good. Switch off keeps it: it goes on "
                      "where it was left the next time the table is switched on.") if saving
                    else _("New game ends this game for good. The game cannot be saved now: "
                           "after Switch off it goes on from the last move that was saved."))
            leave = ("menu_off", _("Switch off"), "danger")
        else:
            text = (_("New game ends this game for good. Quit keeps it: it goes on where it "
                      "was left the next time the game is started.") if saving
                    else _("New game ends this game for good. The game cannot be saved now: "
                           "after Quit it goes on from the last move that was saved."))
            leave = ("menu_quit", _("Quit"), "danger")
        self._apply(states.ask(self.state, Dialog(
            _("Menu"), text,
            (("menu_new", _("New game"), "danger"), leave, ("menu_back", _("Go on"), "primary")),
        )))
