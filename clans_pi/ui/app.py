"""The touchscreen app: which screen is showing, the event loop, and the way between screens.

The loop is event-driven: it sleeps until a finger, the mouse or a timer (an animation, a
long press, a message fading) needs it, and redraws only then, so the Pi idles cool. When
an input changed only part of the screen (a button pressed, a territory selected), only that
part is redrawn and sent to the display. Touch and mouse become one pointer: the first finger
or the left mouse button; mouse events that SDL made up from a touch are ignored.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from ..history import History
from ..history.hiding_cache import HidingCache
from ..i18n import _
from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.events import Event
from ..service import kiosk
from ..session import Seat, Session
from ..table import Table
from ..table.computers import BotFactory, Stage
from ..table.guide import Guide, GuideMemory
from . import languages
from .guide_overlay import GuideOverlay
from .languages import LanguageFile
from .phone_pictures import hint_png, seat_picture_png

if TYPE_CHECKING:
    from ..hardware.backlight import IdleDimmer
    from ..hardware.seats import SeatDevices
    from ..saving.store import GameStore
    from ..service.watchdog import Notifier
    from ..settings.wifi import Hotspot
    from .sound import Sounds
from .canvas import Canvas, line_size, wrap
from .clan_look import DEFAULT_LOOK, ClanLook
from .display import Display
from .navigation import Navigator
from .screens.base import Screen

log = logging.getLogger(__name__)

LONG_PRESS_MS = 550
NOTICE_MS = 5000
#: How long a problem found while starting stays (a broken settings file, a save moved
#: aside): the table may come on while nobody watches, and the maker must read the line.
START_NOTICE_MS = 60_000
IDLE_POLL_MS = 20
SLOP = 12  # pixels a finger may wander before a press is no longer a long press
#: Input that counts as someone at the table (wakes a dimmed screen).
WAKING_EVENTS = frozenset({pygame.FINGERDOWN, pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN,
                           pygame.MOUSEMOTION})


def monotonic_ms() -> int:
    """The app's clock. Not pygame.time.get_ticks(): that stays 0 until pygame.init() (or
    a pygame Clock) starts SDL's timer, and the app only starts the display, so long
    presses, animations and notices would never see time pass."""
    return time.monotonic_ns() // 1_000_000


class App:
    """The game on one display (or, with ``display`` None, on an off-screen surface).

    The game itself is the :class:`Table` (``self.table``): the App turns input into the
    table's calls and draws what the table's session shows. ``session``, ``devices``,
    ``store``, ``bots``... are the table's, named here for the screens."""

    def __init__(
        self,
        board: Board,
        chart: EpochChart,
        *,
        display: Display | None = None,
        size: tuple[int, int] = (800, 480),
        rng: random.Random | None = None,
        clock: Callable[[], int] | None = None,
        record: bool = False,
        devices: SeatDevices | None = None,
        store: GameStore | None = None,
        notifier: Notifier | None = None,
        sounds: Sounds | None = None,
        dimmer: IdleDimmer | None = None,
        bots: BotFactory | None = None,
        hints: bool = False,
        look: ClanLook = DEFAULT_LOOK,
        guide: GuideMemory | None = None,
        language_file: LanguageFile | None = None,
        kiosk: bool = False,
        wifi: Hotspot | None = None,
    ) -> None:
        pygame.font.init()
        self.board = board
        self.chart = chart
        self.display = display
        self.surface = display.surface if display is not None else pygame.Surface(size)
        self.size = self.surface.get_size()
        self.clock = clock or monotonic_ms
        self.record = record
        self.canvas = Canvas(self.surface, record=record)
        self.screen: Screen | None = None
        # The game: session, saves, seat devices, computer players, guide, status.
        self.table = Table(board, chart, rng=rng, devices=devices, store=store,
                           notifier=notifier, bots=bots, hints=hints, guide=guide,
                           stage=self._stage)
        self.table.listen(self._heard)
        # A phone seat's hint is drawn here, as the hint screen draws it (phone_pictures),
        # and each player's picture for their phone's page.
        self.table.hint_picture = lambda obs, move: hint_png(board, obs, move, self.look)
        self.table.seat_picture = seat_picture_png
        self.nav = Navigator(self)  # the way between screens
        # The finished games kept beside the saved game (read from their records).
        self.history = History(store.records, board, chart) if store is not None else None
        # How well each player hid, read once per finished game (kept beside the index).
        self.hiding = HidingCache(store.dir if store is not None else None, board, chart)
        self.table.hiding = self.hiding
        self.notice: tuple[str, int] | None = None  # the one showing, and until when
        self._waiting: list[tuple[str, int]] = []  # notices after it (and for how long)
        self.notifier = notifier  # systemd: READY=1 after the first frame, then the watchdog
        self.sounds = sounds  # None: silent
        self.dimmer = dimmer  # dims the backlight when idle; None: never
        self.look = look  # the clans' colours and marks as the settings want them
        self.overlay: GuideOverlay | None = None  # the guide's card, while one is up
        self.language_file = language_file  # the start screen's choice; None: not kept
        # The appliance (clans-pi.service): the menu offers Switch off instead of Quit, and
        # each way out asks the service for what comes next (clans_pi/service/kiosk.py).
        self.kiosk = kiosk
        self.wifi = wifi  # the Wi-Fi the phones join (the start screen shows it), or None
        self.exit_status = 0  # what the program exits with (kiosk: SWITCH_OFF, CONSOLE)
        self.running = True
        self.dirty = True
        self.full = True  # the next redraw must draw everything (else only self.damage)
        self.damage: list[pygame.Rect] = []
        self.partial_frames = 0
        self.frames = 0
        self._pointer: tuple[str, int] | None = None
        self.last_lift: tuple[int, tuple[float, float]] | None = None  # (ms, where)
        self._down_at = 0
        self._down_pos = (0.0, 0.0)
        self._long_done = False

    # ------------------------------------------------------------ the table's, read by screens

    @property
    def session(self) -> Session | None:
        return self.table.session


    @property
    def seats(self) -> list[Seat]:
        return self.table.seats


    @property
    def devices(self) -> SeatDevices | None:
        return self.table.devices



    @property
    def bots(self) -> BotFactory | None:
        return self.table.bots


    @property
    def hints(self) -> bool:
        return self.table.hints


    @property
    def guide(self) -> Guide:
        return self.table.guide


    def _stage(self) -> Stage | None:
        """Where a computer player's move goes: the play screen, when it is showing."""
        screen = self.screen
        if screen is None or screen.name != "play":
            return None
        return screen  # type: ignore[return-value]

    def _heard(self, events: Sequence[Event]) -> None:
        """Each move is heard (its public events only: R22)."""
        if self.sounds is not None:
            self.sounds.for_events(events)

    def show_notices(self) -> None:
        """The table's notices (a failing card, a handheld unplugged...) go on screen."""
        for text in self.table.take_notices():
            self.notify(text)

    # ------------------------------------------------------------ navigation

    def show(self, screen: Screen) -> None:
        self.screen = screen
        screen.resize(self.size)
        self._pointer = None
        self.dirty = self.full = True
        self.overlay = None
        if self.guide.current is not None:  # it waits for its own screen to come back
            if self.guide.current.screen == screen.name:
                self.overlay = GuideOverlay(self, screen, self.guide.current)
            else:
                self.guide.queue.insert(0, self.guide.current)
                self.guide.current = None

    def start_menu(self) -> None:
        self.nav.start_menu()

    def new_game(self, seats: Sequence[Seat], phones: Iterable[int] | None = None) -> None:
        """Deal for ``seats`` and walk every human seat through its private peek;
        ``phones``: the seats that see their clan on a phone (None: as before)."""
        self.nav.new_game(seats, phones)

    def begin(self, session: Session, *, peeks: bool = True) -> None:
        """Play ``session`` (a loaded or resumed game: ``peeks`` False goes to the board)."""
        self.nav.begin(session, peeks=peeks)

    def deal_peek(self, seat: int) -> None:
        """The deal's peeks from ``seat`` on (people only), then the board."""
        self.nav.deal_peek(seat)

    def peek(self, seat: int) -> None:
        """A seat's peek during the game, returning to the board."""
        self.nav.peek(seat)

    def show_hint(self) -> None:
        """The Hint button: the hint for the person to move, on their private screen."""
        self.nav.show_hint()

    def play(self) -> None:
        self.nav.play()

    def reveal(self) -> None:
        self.nav.reveal()

    def rematch(self) -> None:
        self.nav.rematch()

    def rules(self, back: Callable[[], None], *, from_game: bool = True) -> None:
        self.nav.rules(back, from_game=from_game)

    def past_games(self, back: Callable[[], None]) -> None:
        self.nav.past_games(back)

    def replay_game(self, record: Any, move: int, back: Callable[[], None]) -> None:
        self.nav.replay_game(record, move, back)

    def ask_switch_off(self, back: Callable[[], None], *, game_kept: bool = False) -> None:
        """The kiosk's Switch off, after a confirmation; ``back`` if the answer is no."""
        self.nav.ask_switch_off(back, game_kept=game_kept)

    def notify(self, text: str, ms: int = NOTICE_MS) -> None:
        """A short message for everyone over any screen (a handheld unplugged, a setting
        that could not be used, ...), for ``ms`` (a few seconds). Several wait their turn;
        the same text twice in a row is shown once."""
        if self.dimmer is not None:
            self.dimmer.activity(self.clock())  # a notice is worth seeing
        if self.notice is not None:
            if text != self.notice[0] and text not in (w for w, _ in self._waiting):
                self._waiting.append((text, ms))
            return
        self.notice = (text, self.clock() + ms)
        self.dirty = self.full = True

    @property
    def notices(self) -> list[str]:
        """The notice showing, then those waiting their turn."""
        return ([self.notice[0]] if self.notice is not None else []) + [
            text for text, _ in self._waiting]

    def _draw_notice(self) -> None:
        assert self.screen is not None and self.notice is not None
        s = self.screen.scale
        area = self.screen.notice_area()
        w = min(area.width - 8, round(640 * s))
        px = max(self.canvas.least_px, round(18 * s))
        margin = min(round(12 * s), max(4, w // 20))  # a narrow panel keeps room for words
        # As tall as its words need at a readable size (a narrow panel wraps them), at most
        # the area; never shorter than a finger.
        need = len(wrap(self.notice[0], px, w - 2 * margin)) * line_size(px) + 12
        r = pygame.Rect(0, 0, w, min(max(48, round(56 * s), need), area.height - 8))
        if self.screen.notice_from_top:
            r.midtop = (area.centerx, area.top + round(4 * s))
        else:
            r.midbottom = (area.centerx, area.bottom - round(4 * s))
        self.canvas.box(r, (20, 20, 24), radius=min(r.height // 3, round(14 * s)),
                        border=(255, 196, 64))
        self.canvas.region("notice", r)
        self.canvas.paragraph(self.notice[0], r.inflate(-2 * margin, -8), px,
                              (236, 236, 232), align="center")

    def _poll_devices(self, now: int) -> None:
        assert self.screen is not None
        for seat, kind in self.table.poll_devices(now):
            if self.dimmer is not None:
                self.dimmer.activity(now)  # a seat's button wakes the screen too
            if self.overlay is not None and kind in ("press", "release"):
                continue  # a seat's button does nothing under the guide's card either
            if kind == "again":
                self._ask_phone_again(seat)
                continue
            self.screen.device_event(seat, kind)
            self.dirty = self.full = True
        self.show_notices()

    def _ask_phone_again(self, seat: int) -> None:
        """A second phone opened seat ``seat``'s link: it gets nothing until the table
        says it is that player's new phone (a curious neighbour's gets nothing at all)."""
        from .screens.confirm import ConfirmScreen

        devices = self.table.devices
        if devices is None or devices.phones is None:
            return
        session = self.table.session
        name = (session.seats[seat].name if session is not None and seat < session.num_seats
                else _("Seat {n}").format(n=seat + 1))
        back_to = self.screen
        assert back_to is not None

        def use_it() -> None:
            devices.phones.server.take_over(seat)
            self.show(back_to)

        def not_it() -> None:  # the other phone gets nothing, now or later (R22)
            devices.phones.server.refuse(seat)
            self.show(back_to)

        self.show(ConfirmScreen(
            self, title=_("{name}'s phone again?").format(name=name),
            text=_("Another phone opened {name}'s link. Is it {name}'s? The first one then "
                   "stops showing the clan.").format(name=name),
            yes=_("Yes, use it"), no=_("No"), act=use_it, back=not_it))

    def quit(self, status: int = 0) -> None:
        """Leave the loop (the window closes) and exit with ``status``. Computer players'
        searches are cancelled (:meth:`run` waits for them as it returns). The game was
        saved after its last move: the next start goes on where it was left."""
        self.running = False
        self.exit_status = status
        self.table.stop_thinking()

    def stop(self) -> None:
        """SIGTERM (``systemctl stop``, a shutdown): leave the loop, status 0. Only a flag is
        set, as a signal handler may do between any two lines of the loop; the computers'
        searches are cancelled as :meth:`run` returns."""
        self.running = False

    def leave(self) -> None:
        """Ctrl+Q on a keyboard: on a desktop the program ends; on the kiosk the service
        then gives tty1 back to a login prompt (a maker with a keyboard). Not SDL's quit
        event: on the kiosk (kmsdrm, no window to close) that only comes from a signal SDL
        caught, a stop or restart of the service, which must ask for nothing."""
        self.quit(kiosk.CONSOLE if self.kiosk else 0)

    @property
    def saving(self) -> bool:
        """Whether the game in progress is being kept: saved after every move, the last
        save worked (a read-only, full or unwritable card keeps only older moves)."""
        return self.table.saving

    def play_move(self, src: int, dst: int, order: Sequence[int] | None = None) -> list[Event]:
        """Play a move at the table (the engine checks it; the table saves it and its
        listeners hear its public events, which are returned for the screen to animate)."""
        events = self.table.play(src, dst, order)
        self.show_notices()
        return events

    def take_back(self) -> None:
        """Undo at the table (a person's move with the computers' replies after it): saved,
        so it stays taken back; a computer player's search is cancelled."""
        self.table.undo()
        self.show_notices()

    def save(self) -> None:
        self.table.save()
        self.show_notices()

    # ------------------------------------------------------------ the first-game guide

    def _guide_tick(self) -> None:
        """Bring up the next tip waiting for this screen, when the screen is ready for it
        and no finger is down (a drag is not cut in two)."""
        screen = self.screen
        if (self.overlay is not None or screen is None or self._pointer is not None
                or not screen.guide_ready()):
            return
        tip = self.guide.take(screen.name)
        if tip is not None:
            self.overlay = GuideOverlay(self, screen, tip)
            log.info("guide: %s", tip.topic)
            self.dirty = self.full = True

    def close_tip(self) -> None:
        """"Got it": the tip is done for this game (saved with it)."""
        topic = self.guide.close()
        self.overlay = None
        self.dirty = self.full = True
        if topic is not None and topic != "end":
            self.save()  # a resumed game does not explain it again

    def skip_guide(self) -> None:
        """"Skip the guide": no more tips on this device until the start screen says so."""
        self.guide.skip()
        self.overlay = None
        self.dirty = self.full = True
        log.info("guide skipped")
        self.notify(_("The guide is off. The start screen can turn it on again."))

    def set_language(self, code: str, *, remember: bool = True) -> None:
        """Show everything in ``code`` from the next frame on (kept across restarts when
        ``remember``); a language that cannot be shown gives English and a notice."""
        problem = languages.use(code)
        if problem is not None:
            log.warning("%s", problem)
            self.notify(problem)
        if remember and self.language_file is not None:
            self.language_file.write(code)
        self.dirty = self.full = True

    # ------------------------------------------------------------ drawing

    def redraw(self) -> None:
        """Draw the screen: all of it, or only the damaged area when that is all that
        changed (a button pressed, a territory selected), and show it."""
        assert self.screen is not None
        self.canvas.records.clear()
        if self.full or not self.damage or self.overlay is not None:
            self.screen.draw(self.canvas)
            if self.overlay is not None:
                self.overlay.draw(self.canvas)
            if self.notice is not None:
                self._draw_notice()
            shown = None
        else:
            area = self.damage[0].unionall(self.damage[1:]).clip(self.surface.get_rect())
            self.surface.set_clip(area)
            try:
                self.screen.draw(self.canvas)
                if self.notice is not None:
                    self._draw_notice()
            finally:
                self.surface.set_clip(None)
            shown = [area]
            self.partial_frames += 1
        self.frames += 1
        self.dirty = self.full = False
        self.damage = []
        if self.display is not None:
            self.display.present(shown)
        if self.screen.name == "reveal":  # the end is on the screen: its save may go now
            self.table.end_shown()

    def _changed(self, screen: Screen) -> None:
        """After an input handler: note what it damaged (all, unless it said)."""
        if screen is not self.screen or screen.partial is None:
            self.full = self.dirty = True
        elif screen.partial:
            self.damage += screen.partial
            self.dirty = True
        # an empty list: the handler changed nothing visible
        screen.partial = None

    # ------------------------------------------------------------ events

    def handle(self, ev: pygame.event.Event) -> None:
        screen = self.screen
        if screen is None:
            return
        t = ev.type
        if (self.dimmer is not None and t in WAKING_EVENTS and not getattr(ev, "touch", False)
                and self.dimmer.activity(self.clock()) and t != pygame.MOUSEMOTION):
            return  # the touch that lights a dimmed screen does nothing else
        if t == pygame.QUIT:  # the window closed, or SDL caught SIGTERM/SIGINT
            self.quit()
        elif t == pygame.KEYDOWN:
            if ev.key == pygame.K_q and ev.mod & pygame.KMOD_CTRL:
                self.leave()
            elif self.overlay is not None:  # the guide's card takes the keyboard too
                if ev.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                    self.close_tip()
            elif ev.key == pygame.K_ESCAPE:
                screen.back()
            else:
                screen.key(ev)
            self.dirty = self.full = True
        elif t == pygame.FINGERDOWN:
            if self._pointer is None:
                self._press(("finger", ev.finger_id), self._finger_pos(ev))
        elif t == pygame.FINGERMOTION:
            if self._pointer == ("finger", ev.finger_id):
                self._motion(self._finger_pos(ev))
        elif t == pygame.FINGERUP:
            if self._pointer == ("finger", ev.finger_id):
                self._release(self._finger_pos(ev))
        elif getattr(ev, "touch", False):
            return  # a mouse event SDL synthesised from a finger: already handled
        elif t == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if self._pointer is None:
                self._press(("mouse", 0), self._mouse_pos(ev.pos))
        elif t == pygame.MOUSEMOTION:
            if self._pointer == ("mouse", 0):
                self._motion(self._mouse_pos(ev.pos))
        elif t == pygame.MOUSEBUTTONUP and ev.button == 1:
            if self._pointer == ("mouse", 0):
                self._release(self._mouse_pos(ev.pos))
        elif t in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self.dirty = self.full = True

    def _finger_pos(self, ev: pygame.event.Event) -> tuple[float, float]:
        if self.display is not None:
            return self.display.finger_pos(ev.x, ev.y)
        w, h = self.size
        return (min(ev.x * w, w - 1), min(ev.y * h, h - 1))

    def _mouse_pos(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.display.mouse_pos(pos) if self.display is not None else pos

    def _press(self, pointer: tuple[str, int], pos: tuple[float, float]) -> None:
        assert self.screen is not None
        self._pointer = pointer
        self._down_at = self.clock()
        self._down_pos = pos
        self._long_done = False
        if self.sounds is not None:
            self.sounds.play("tap")  # first: a move this press makes is heard after it
        if self.overlay is not None:
            self.overlay.pointer_down(pos)
            self.dirty = self.full = True
            return
        screen = self.screen
        screen.partial = None
        screen.pointer_down(pos)
        self._changed(screen)

    def _motion(self, pos: tuple[float, float]) -> None:
        assert self.screen is not None
        dx, dy = pos[0] - self._down_pos[0], pos[1] - self._down_pos[1]
        if dx * dx + dy * dy > (SLOP * self.screen.scale) ** 2:
            self._long_done = True  # moved: a drag, not a long press
        if self.overlay is not None:
            return
        screen = self.screen
        screen.partial = None
        screen.pointer_move(pos)
        self._changed(screen)

    def _release(self, pos: tuple[float, float]) -> None:
        assert self.screen is not None
        self._pointer = None
        self.last_lift = (self.clock(), pos)
        if self.overlay is not None:
            self._long_fired = False
            self.overlay.pointer_up(pos)
            self.dirty = self.full = True
            return
        screen = self.screen
        screen.partial = None
        screen.pointer_up(pos, after_long=self._long_fired)
        self._long_fired = False
        self._changed(screen)

    _long_fired = False

    def tick(self, now: int) -> None:
        """Everything that is due at ``now`` (ms): seat devices, a long press, the screen's
        animation, the guide's next card, computer players, the backlight, notices."""
        if self.devices is not None:
            self._poll_devices(now)
        screen = self.screen
        assert screen is not None
        if (
            self._pointer is not None
            and not self._long_done
            and now - self._down_at >= LONG_PRESS_MS
        ):
            self._long_done = True
            if self.overlay is None:
                self._long_fired = screen.pointer_long(self._down_pos)
                self.dirty = self.full = True
        screen.partial = None
        if screen.tick(now):
            self._changed(screen)  # all, unless the screen said which part (an indicator)
        self._guide_tick()
        if self.table.poll_computers(now):
            self.dirty = self.full = True
        self.show_notices()
        if self.dimmer is not None:
            self.dimmer.tick(now)
        if self.sounds is not None:
            self.sounds.rest(now)
        if self.notice is not None and now >= self.notice[1]:
            self.notice = None
            self.dirty = self.full = True
            if self._waiting:
                self.notify(*self._waiting.pop(0))

    def timeout(self) -> int | None:
        """Milliseconds until something needs the loop, or None to sleep until input."""
        assert self.screen is not None
        now = self.clock()
        due = []
        if self._pointer is not None and not self._long_done:
            due.append(self._down_at + LONG_PRESS_MS)
        wake = self.screen.wakeup()
        if wake is not None:
            due.append(wake)
        if self.notice is not None:
            due.append(self.notice[1])
        if self.dimmer is not None and (dim := self.dimmer.wakeup()) is not None:
            due.append(dim)
        if (bot := self.table.computer_wakeup()) is not None:
            due.append(bot)
        if not due:
            return None
        return max(1, min(due) - now)

    # ------------------------------------------------------------ the loop

    def pump(self) -> None:
        """Handle every queued event, run due timers, redraw if needed (one loop turn)."""
        for ev in pygame.event.get():
            self.handle(ev)
            if not self.running:
                return
        self.tick(self.clock())
        if self.dirty and self.running:
            self.redraw()

    def run(self, *, first_frame_only: bool = False) -> None:
        """Run until the window is closed.

        SDL's own wait (``pygame.event.wait``) polls every millisecond on drivers without
        a native wait, kmsdrm on the Pi among them, which keeps a core 2 % busy doing
        nothing. So the loop sleeps between polls instead: at most IDLE_POLL_MS of delay
        before a tap is seen, and about 50 cheap wake-ups a second when idle.
        """
        assert self.screen is not None
        try:
            self._loop(first_frame_only)
        finally:
            self.table.shutdown()  # no computer player's thread outlives the game

    def _loop(self, first_frame_only: bool) -> None:
        assert self.screen is not None
        self.redraw()
        if self.notifier is not None:
            self.notifier.ready(self.table.status())
        if first_frame_only:
            return
        while self.running:
            if self.notifier is not None:
                self.notifier.watchdog()  # sends at most every half watchdog interval
            events = pygame.event.get()
            for ev in events:
                self.handle(ev)
                if not self.running:
                    return
            if not events:
                timeout = self.timeout()
                wait = IDLE_POLL_MS if timeout is None else min(timeout, IDLE_POLL_MS)
                time.sleep(wait / 1000)
            self.tick(self.clock())
            if self.dirty and self.running:
                self.redraw()
