"""What every screen has: a layout for a window size, drawing, and pointer handling with
buttons (tap and press-and-hold) handled once here."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from ..canvas import Canvas
from ..layout import scale_for
from ..widgets import Button

if TYPE_CHECKING:
    from ...hardware.seats import SeatDevices
    from ...history import History
    from ...history.hiding_cache import HidingCache
    from ...rules.board import Board
    from ...rules.epochs import EpochChart
    from ...rules.events import Event
    from ...rules.moves import Move
    from ...rules.observation import Observation
    from ...session import Seat
    from ...settings.wifi import Hotspot
    from ...table.computers import BotFactory, Worker
    from ...table.guide import Guide, Tip
    from ..clan_look import ClanLook

Pos = tuple[float, float]
#: A press this soon (ms) after a finger lifted, within a finger's width of where it lifted,
#: is that finger tapping again (a double tap): a button that came up under it ignores it.
DOUBLE_TAP_MS = 400
#: Something the first-game guide points at: ("circle" | "rect", its bounding rectangle).
Spot = tuple[str, pygame.Rect]


class TableView(Protocol):
    """What a screen may ask of the table itself: a seat's own view (its peek), and the
    computer players' work (the hint, whose search is under way, the guesses at the end).
    Everything else about the game comes from the screen's Session views or the Host."""

    def private(self, seat: int) -> Observation: ...
    def can_hint(self) -> bool: ...
    def ask_hint(self) -> None: ...
    def hint(self) -> tuple[str, Move | None]: ...
    def thinking_seat(self) -> int | None: ...
    def guesses(self) -> dict[int, Worker | None]: ...


class Host(Protocol):
    """What a screen (and the guide's card) may ask of the app showing it, and nothing
    more: implemented by :class:`clans_pi.ui.app.App`, which screens never import. The
    game itself is behind ``play_move``/``take_back`` (the table plays, saves and tells), the
    computers' hints and guesses, and the navigation between screens."""

    board: Board
    chart: EpochChart
    look: ClanLook  # the clans' colours and marks
    kiosk: bool  # the appliance: Switch off instead of Quit
    bots: BotFactory | None  # None: no computer players are offered
    hints: bool
    wifi: Hotspot | None  # the Wi-Fi the phones join, when the settings name one
    history: History | None  # the finished games kept on this table; None: none are kept
    hiding: HidingCache  # how well each player hid, read once per finished game

    def clock(self) -> int: ...

    @property
    def last_lift(self) -> tuple[int, Pos] | None:
        """When (app clock, ms) and where the last finger came up, if one has."""

    @property
    def devices(self) -> SeatDevices | None: ...

    @property
    def guide(self) -> Guide: ...

    @property
    def table(self) -> TableView: ...

    @property
    def saving(self) -> bool: ...

    # the way between screens
    def show(self, screen: Screen) -> None: ...
    def start_menu(self) -> None: ...
    def new_game(self, seats: Sequence[Seat], phones: Iterable[int] | None = None) -> None: ...
    def peek(self, seat: int) -> None: ...
    def show_hint(self) -> None: ...
    def play(self) -> None: ...
    def reveal(self) -> None: ...
    def rematch(self) -> None: ...
    def rules(self, back: Callable[[], None], *, from_game: bool = True) -> None: ...
    def ask_switch_off(self, back: Callable[[], None], *, game_kept: bool = False) -> None: ...
    def quit(self, status: int = 0) -> None: ...
    def past_games(self, back: Callable[[], None]) -> None: ...
    def replay_game(self, record: Any, move: int, back: Callable[[], None]) -> None: ...

    def notify(self, text: str) -> None:
        """A short message over the screen for everyone (never a clan)."""

    # the game
    def play_move(self, src: int, dst: int,
                  order: Sequence[int] | None = None) -> list[Event]: ...
    def take_back(self) -> None: ...

    # the language and the first-game guide's card
    def set_language(self, code: str, *, remember: bool = True) -> None: ...
    def close_tip(self) -> None: ...
    def skip_guide(self) -> None: ...


class Screen:
    """A full-window screen. Subclasses build ``self.buttons`` in :meth:`layout` and draw
    in :meth:`draw`; pointer events reach :meth:`down` / :meth:`move` / :meth:`up` /
    :meth:`long_press` only when no button took them."""

    name = "screen"

    def __init__(self, app: Host) -> None:
        self.app = app
        self.size = (0, 0)
        self.scale = 1.0
        self.buttons: list[Button] = []
        self._pressed: Button | None = None
        # The buttons there when the last finger lifted over this screen (see pointer_down).
        self._at_lift: frozenset[str] = frozenset()
        # Set by an input handler whose whole effect lies inside these rectangles; the app
        # then redraws only them (a partial redraw). None means "redraw everything".
        self.partial: list[pygame.Rect] | None = None

    # ------------------------------------------------------------ sizing

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.scale = scale_for(size)
        self.layout()

    def layout(self) -> None:
        """Compute rectangles and ``self.buttons`` for ``self.size``."""

    def px(self, size: float) -> int:
        return max(9, round(size * self.scale))

    @property
    def unit(self) -> int:
        return max(48, round(48 * self.scale))

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect((0, 0), self.size)

    # ------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        raise NotImplementedError

    #: The app's notice hangs from the top of :meth:`notice_area` (else it stands on its
    #: bottom).
    notice_from_top = False

    def notice_area(self) -> pygame.Rect:
        """Where the app's notices go on this screen (at its bottom): by default a band
        along the top of the window; the play screen keeps them off the board."""
        return pygame.Rect(0, 0, self.size[0], max(56, round(72 * self.scale)))

    def draw_buttons(self, canvas: Canvas) -> None:
        for b in self.buttons:
            b.draw(canvas)

    # ------------------------------------------------------------ time

    def wakeup(self) -> int | None:
        """When (app clock, ms) this screen next needs :meth:`tick`, or None."""
        return None

    def tick(self, now: int) -> bool:
        """Advance animations and timers; return True if the picture changed."""
        return False

    # ------------------------------------------------------------ the first-game guide

    def guide_ready(self) -> bool:
        """The guide's card may come up over this screen now (nothing is going on that it
        would hide). Screens that show no guide say no."""
        return False

    def guide_area(self) -> pygame.Rect:
        """Where the guide's card goes: the middle of the screen, unless a screen keeps it
        off what the tip points at."""
        pad = self.px(10)
        w = min(self.size[0] - 2 * pad, round(540 * self.scale))
        h = min(self.size[1] - 2 * pad, round(340 * self.scale))
        r = pygame.Rect(0, 0, w, h)
        r.center = self.rect.center
        return r

    def guide_spots(self, tip: Tip) -> list[Spot]:
        """What the guide's card about ``tip`` points at on this screen."""
        return []

    # ------------------------------------------------------------ input

    def _came_up_under(self, b: Button, pos: Pos) -> bool:
        """Whether button ``b`` appeared where a finger lifted a moment ago (a double tap:
        the second tap is meant for what the first one pressed, not for ``b``)."""
        lift = self.app.last_lift
        if lift is None or b.name in self._at_lift:
            return False
        at, (x, y) = lift
        return (self.app.clock() - at < DOUBLE_TAP_MS
                and (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= self.unit ** 2)

    def pointer_down(self, pos: Pos) -> None:
        for b in reversed(self.buttons):
            if b.hit(pos):
                if self._came_up_under(b, pos):
                    return  # that finger presses nothing: neither the button nor the board
                b.pressed = True
                self._pressed = b
                # Only the button's look changes, unless its hold action says otherwise (a
                # held peek darkens the whole screen: it sets ``partial`` to None).
                self.partial = [b.rect]
                if b.hold and b.action is not None:
                    b.action(True)
                return
        self.down(pos)

    def pointer_move(self, pos: Pos) -> None:
        if self._pressed is None:
            self.move(pos)

    def pointer_up(self, pos: Pos, *, after_long: bool = False) -> None:
        self._at_lift = frozenset(b.name for b in self.buttons if b.enabled)
        b, self._pressed = self._pressed, None
        if b is None:
            if not after_long:  # a long press already did its thing; its release is not a tap
                self.up(pos)
            return
        b.pressed = False
        if b.action is None:
            self.partial = [b.rect]
        elif b.hold:
            b.action(False)
        elif b.rect.collidepoint(pos) and b.enabled:
            b.action()
        else:
            self.partial = [b.rect]  # let go elsewhere: only the button changes back

    def pointer_long(self, pos: Pos) -> bool:
        """A press held still; returns True if the screen used it (then the release is
        not a tap)."""
        if self._pressed is None:
            return self.long_press(pos)
        return False

    def down(self, pos: Pos) -> None:
        pass

    def move(self, pos: Pos) -> None:
        pass

    def up(self, pos: Pos) -> None:
        pass

    def long_press(self, pos: Pos) -> bool:
        return False

    def device_event(self, seat: int, kind: str) -> None:
        """A seat device's button ("press", "release") or state ("lost", "back", "stuck")."""

    def key(self, ev: pygame.event.Event) -> None:
        """A key on a physical keyboard (desktop); most screens need none."""

    def back(self) -> None:
        """The Escape key (desktop) or a back gesture: by default nothing."""

    def button(self, name: str) -> Button:
        """The button called ``name`` (tests press buttons by name)."""
        for b in self.buttons:
            if b.name == name:
                return b
        raise KeyError(f"{self.name} screen has no button {name!r}")
