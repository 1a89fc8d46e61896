"""Starting the touchscreen game, and rendering one screen to a PNG without a display."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Sequence
from contextlib import ExitStack, nullcontext
from pathlib import Path
from typing import Any

import pygame

from ..hardware.backlight import Backlight, IdleDimmer
from ..i18n import N_, _, ngettext
from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.errors import ClansError
from ..saving.lock import StateLock
from ..saving.store import SAVE_FORMAT, GameStore, read_save
from ..service.stopping import stopped_by_sigterm
from ..service.watchdog import Notifier
from ..session import Session
from ..settings.config import Config, Problem
from ..settings.language import chosen_language
from ..settings.options import RENDER_SCREENS, size_problem
from ..table.guide import GUIDE_FILE, GuideMemory
from ..table.players import ComputerPlayers
from . import languages
from .app import START_NOTICE_MS, App, monotonic_ms
from .clan_look import ClanLook
from .display import Display, NoDisplayError
from .languages import FILE_NAME, LanguageFile
from .seat_kinds import seats_from_names
from .sound import Sounds

log = logging.getLogger(__name__)



def _read(app: App) -> None:
    """A picture is drawn once: the screen's reading of how well each player hid first."""
    reading = getattr(app.screen, "reading", None)
    if reading is not None:
        reading.wait(120)


def _read_history(app: App) -> None:
    """The past games' index, then the kept readings of how well each player hid (read
    while the family sits down, on a daemon thread)."""
    assert app.history is not None
    app.history.refresh()
    app.hiding.load()

def play(board: Board, chart: EpochChart, *, size: tuple[int, int], fullscreen: bool,
         rotate: int, seed: int | None, load: Any = None, first_frame_only: bool = False,
         config: Config | None = None, notices: list[str] | None = None,
         state_dir: Path | None = None, kiosk: bool = False,
         load_from: str = "game file") -> int:
    """Open the display and run the game until the window closes (or SIGTERM); return the
    exit status the players asked for (``kiosk``: see clans_pi/service/kiosk.py).

    Under systemd it says READY=1 once the first frame is on the screen and keeps the
    watchdog fed from the main loop (clans_pi/service/watchdog.py). The state directory is locked
    first: a second game on it stops there (StateDirBusy), before any window opens.
    """
    with StateLock.take(state_dir) if state_dir is not None else nullcontext():
        return _play(board, chart, size=size, fullscreen=fullscreen, rotate=rotate, seed=seed,
                     load=load, first_frame_only=first_frame_only, config=config,
                     notices=notices, state_dir=state_dir, kiosk=kiosk, load_from=load_from)


def _play(board: Board, chart: EpochChart, *, size: tuple[int, int], fullscreen: bool,
          rotate: int, seed: int | None, load: Any, first_frame_only: bool,
          config: Config | None, notices: list[str] | None, state_dir: Path | None,
          kiosk: bool, load_from: str) -> int:
    notifier = Notifier()
    try:
        display = Display(size, rotate=rotate, fullscreen=fullscreen)
    except NoDisplayError as exc:
        notifier.status(f"No display: {exc}")
        log.info("no display: %s", exc)  # the technical reason: the journal, not the player
        raise ClansError(NO_SCREEN) from None
    w, h = display.window.get_size()
    too_small = size_problem(display.size, what=f"the screen, {display.size[0]}x"
                             f"{display.size[1]},")
    if too_small is not None:  # a full screen smaller than --size was checked for
        display.close()
        raise ClansError(too_small)
    log.info("display: SDL video driver %s, %dx%d%s, rotated %d", display.driver, w, h,
             " full screen" if fullscreen else " window", rotate)
    settings = config or Config()
    # The start screen's remembered choice, else the settings' language; before anything
    # that makes a notice, so every notice is in it.
    problem = use_language(settings, state_dir)
    # The settings' problems name the file, key and value as written there (English keys);
    # the sentence around them is in the players' language.
    notices = settings_notices(notices or [])
    if problem is not None:
        log.warning("%s", problem)
        notices.append(problem)
    devices = None
    if config is not None:  # the settings' seat devices; phones the start screen may choose
        from ..hardware.seats import SeatDevices

        devices = SeatDevices.open(config)
    store = GameStore(state_dir) if state_dir is not None else None
    sounds = Sounds.open(settings.sound, settings.volume / 100)  # after the display (docs)
    dimmer, dim_problem = _dimmer(settings, state_dir)
    stops = ExitStack()
    try:
        app = table_app(board, chart, settings, state_dir, display=display, seed=seed,
                        devices=devices, store=store, notifier=notifier, sounds=sounds,
                        dimmer=dimmer, kiosk=kiosk)
        if dim_problem:
            app.notify(dim_problem, START_NOTICE_MS)
        if app.history is not None:  # the past games' index, read while the family sits down
            threading.Thread(target=_read_history, args=(app,), name="clans-history",
                             daemon=True).start()
        # systemctl stop (and a shutdown) sends SIGTERM: leave the loop so the seat devices
        # are switched off and closed below. The game itself was saved after its last move.
        stops.enter_context(stopped_by_sigterm(app.stop))
        resumed = None
        if load is None:  # the game the table kept; what went wrong on the way after
            resumed = app.table.saved_game()  # the settings' notices
            notices = [*(notices or []), *app.table.take_notices()]
        if load is not None:
            app.begin(load_game(load, board, chart, load_from), peeks=False)
        elif resumed is not None:
            app.begin(resumed, peeks=False)
        else:
            app.start_menu()
        # What went wrong on the way stays a minute: nobody may be watching the table start.
        for text in notices or []:
            app.notify(text, START_NOTICE_MS)
        if resumed is not None and not resumed.is_over:  # a finished one shows its end
            app.notify(_("The game goes on where it was left."))
        app.run(first_frame_only=first_frame_only)
    finally:
        notifier.stopping()
        stops.close()  # SIGTERM's handling as before the game
        if dimmer is not None:
            dimmer.restore()  # full brightness for whatever comes after the game
        if devices is not None:
            devices.close()
        sounds.close()
        display.close()
        notifier.close()
    log.info("stopped (exit status %d)", app.exit_status)
    return app.exit_status


def table_app(board: Board, chart: EpochChart, settings: Config, state_dir: Path | None, *,
              display: Display | None = None, size: tuple[int, int] = (800, 480),
              seed: int | None = None, devices: Any = None, store: GameStore | None = None,
              notifier: Notifier | None = None, sounds: Sounds | None = None,
              dimmer: IdleDimmer | None = None, kiosk: bool = False) -> App:
    """The game's App as the table runs it with ``settings`` and its state in ``state_dir``:
    one place for the game (:func:`play`) and its pictures (:func:`render`)."""
    language_file = LanguageFile(state_dir / FILE_NAME) if state_dir is not None else None
    return App(board, chart, display=display, size=size, rng=random.Random(seed),
               devices=devices, store=store, notifier=notifier, sounds=sounds, dimmer=dimmer,
               bots=ComputerPlayers(board, chart, settings.think_seconds, seed=seed,
                                    workers=settings.workers),
               hints=settings.hints, look=clan_look(settings), language_file=language_file,
               guide=GuideMemory(state_dir / GUIDE_FILE if state_dir is not None else None),
               kiosk=kiosk, wifi=settings.hotspot)


def use_language(settings: Config, state_dir: Path | None) -> str | None:
    """Switch to the start screen's remembered language, else the settings'; a problem
    with it as a notice (None: none)."""
    return languages.use(chosen_language(settings.language, state_dir))


def render_start(board: Board, chart: EpochChart, *, size: tuple[int, int], out: Path,
                 settings: Config, problems: Sequence[str] = (), state_dir: Path | None = None,
                 kiosk: bool = False, rotate: int = 0) -> None:
    """The start screen as the table shows it when it starts with ``settings`` (and the
    settings' ``problems`` as its notice) and its state in ``state_dir`` (the remembered
    language, the guide, past games), to ``out``; ``kiosk``: as the appliance shows it
    (with Switch off). No seat devices are opened: handhelds' and phones' buttons are not
    drawn."""
    from .display import rotate_picture

    problem = use_language(settings, state_dir)  # first: the notices are said in it
    notices = settings_notices(problems)
    if problem is not None:
        notices.append(problem)
    app = table_app(board, chart, settings, state_dir, size=size, kiosk=kiosk,
                    store=GameStore(state_dir) if state_dir is not None else None)
    app.start_menu()
    for text in notices:
        app.notify(text, START_NOTICE_MS)
    app.redraw()
    try:
        pygame.image.save(rotate_picture(app.surface, rotate), str(out))
    except (pygame.error, OSError) as exc:
        raise ClansError(f"cannot write {out}: {exc}") from None


#: Said when there is no screen to draw on: what to do, without SDL's words.
NO_SCREEN = ("no screen to draw on: run it on a desktop, or on the Pi's own screen (not over "
             "SSH), or try --headless")


def load_game(data: Any, board: Board, chart: EpochChart, where: str) -> Session:
    """The game in ``data`` (read from ``where``): the game's own save (clans-save/1, with
    its checks and seats), a saved position (clans-state/1) or a record (clans-record/1),
    whose seats are found again from the players' names (:func:`seats_from_names`)."""
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        return read_save(data, board, chart, where)[1]
    names = [seat.name for seat in Session.load(data, board, chart).seats]
    return Session.load(data, board, chart, seats=seats_from_names(names))


def settings_notices(problems: Sequence[str]) -> list[str]:
    """What the screen says of the settings' problems (each already in the log): one
    notice for one problem, and one for many, naming the first, rather than a queue of
    notices that would take a minute to read. A whole file left out is said once, with
    why; the card's own file is named as the maker knows it, not by its path."""
    if not problems:
        return []
    if len(problems) == 1:
        p = problems[0]
        if isinstance(p, Problem) and p.unused:
            if p.on_card:
                return [_("The card's clans-pi.toml was not used: {why}").format(why=p.what)]
            return [_("The settings file {file} was not used: {why}").format(file=p.file,
                                                                            why=p.what)]
        return [_("A setting was not used: {problem}").format(problem=_said(p))]
    return [ngettext("{n} problem in the settings; the first: {problem}; all in the log",
                     "{n} problems in the settings; the first: {problem}; all in the log",
                     len(problems)).format(n=len(problems), problem=_said(problems[0]))]


def _said(problem: str) -> str:
    """A problem's line for the screen: the card's own file named as the maker knows it."""
    if isinstance(problem, Problem) and problem.on_card:
        # TRANSLATORS: the settings file on the SD card's boot partition, which a maker
        # edits on their computer before the first start; the file name stays as it is.
        where = _("the card's clans-pi.toml")
        return f"{where}: {problem.what}" + (f"; {problem.unused}" if problem.unused else "")
    return problem


def clan_look(config: Config) -> ClanLook:
    """The clans' look the settings ask for (display.fifth_clan, display.clan_marks)."""
    return ClanLook(fifth=config.fifth_clan, marks=config.clan_marks)


#: Said when dimming is asked for but there is no backlight to dim.
NO_BACKLIGHT = N_("The screen cannot be dimmed: no backlight {name}in /sys/class/backlight "
                  "(display.dim_after_minutes is ignored).")


def _dimmer(config: Config, state_dir: Path | None) -> tuple[IdleDimmer | None, str | None]:
    """The backlight dimmer the settings ask for (display.dim_after_minutes), or None; and a
    notice when dimming was asked for but there is no backlight to dim."""
    if config.dim_after_minutes <= 0:
        return None, None
    backlight = Backlight.find(name=config.backlight or None)
    if backlight is None:
        where = f"'{config.backlight}' " if config.backlight else ""
        log.warning("%s", NO_BACKLIGHT.format(name=where))  # the log in English
        return None, _(NO_BACKLIGHT).format(name=where)
    log.info("dimming %s after %g minutes idle", backlight, config.dim_after_minutes)
    memo = state_dir / "backlight" if state_dir is not None else None
    return IdleDimmer(backlight, dim_after_s=config.dim_after_minutes * 60,
                      dim_percent=config.dim_percent, now_ms=monotonic_ms(),
                      memo=memo), None


def render(data: Any, board: Board, chart: EpochChart, *, size: tuple[int, int], screen: str,
           out: Path, rotate: int = 0, look: ClanLook | None = None,
           where: str = "game file") -> None:
    """Render ``screen`` of the game in ``data`` (a saved game or a record) to ``out``, the
    clans drawn as ``look`` shows them (default: black fifth clan, marks on)."""
    from .display import rotate_picture

    session = load_game(data, board, chart, where)
    app = App(board, chart, size=size, look=look or ClanLook())
    app.table.session = session
    app.table.seats = list(session.seats)
    if screen == "play":
        if session.is_over:
            raise ClansError("the game is over: there is no play screen; use --screen board "
                             "or --screen reveal")
        app.play()
    elif screen == "reveal":
        if not session.is_over:
            raise ClansError("the game is not over yet: --screen reveal needs a finished game")
        app.reveal()
        _read(app)
    elif screen == "hiding":  # the first seat's large chart of how well they hid
        if not session.is_over:
            raise ClansError("the game is not over yet: --screen hiding needs a finished game")
        app.reveal()
        _read(app)
        app.screen.open_hiding(0)  # type: ignore[union-attr]
    elif screen == "peek":  # the first person's (a computer's clan is never drawn: R22)
        people = [k for k, seat in enumerate(session.seats) if seat.is_human]
        if not people:
            raise ClansError(f"{where}: no seat is played by a person, so there is no peek "
                             "to draw")
        app.peek(people[0])
    elif screen == "board":
        from .screens.final_board import FinalBoardScreen

        app.show(FinalBoardScreen(app, session, back=app.reveal))
    elif screen == "rules":
        app.rules(app.play)
    elif screen == "start":
        app.start_menu()
    elif screen == "replay":  # the past games' replay, at the game's last move
        if not session.is_over:
            raise ClansError("the game is not over yet: --screen replay needs a finished game")
        from ..history import GameReplay
        from .screens.past_replay import ReplayScreen

        # From the file's own record (a clans-state/1 holds one), as the past games read it.
        record = data.get("record", data) if isinstance(data, dict) else data
        replay = GameReplay(record, Path(where).name, board, chart)
        replay.go(replay.total)
        app.show(ReplayScreen(app, replay, back=app.start_menu))
        _read(app)
    else:
        raise ClansError(f"unknown screen {screen!r}; one of {', '.join(RENDER_SCREENS)}")
    app.redraw()
    try:
        pygame.image.save(rotate_picture(app.surface, rotate), str(out))
    except (pygame.error, OSError) as exc:
        raise ClansError(f"cannot write {out}: {exc}") from None
