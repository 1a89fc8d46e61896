"""The way between screens: which screen comes after which, and what the table does on the
way (a new deal, the end). The only module that builds the game's screens from outside
them; it imports them at the top. Screens know the app only as
:class:`~clans_pi.ui.screens.base.Host`, and this module as :class:`Shell` (the Host and
the table), so nothing imports :mod:`clans_pi.ui.app` back, not even for type checking.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..i18n import _
from ..service import kiosk
from ..session import Seat, Session
from ..table.guide import Tip
from .screens.base import Host
from .screens.confirm import ConfirmScreen
from .screens.hint import HintScreen
from .screens.past_games import PastGamesScreen
from .screens.past_replay import ReplayScreen
from .screens.peek import PeekScreen
from .screens.play import PlayScreen
from .screens.reveal import RevealScreen
from .screens.rules import RulesScreen
from .screens.start import StartScreen

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger(__name__)


class Shell(Host, Protocol):
    """What the navigation needs of the app: the screens' Host, and the table."""

    table: Table

    @property
    def session(self) -> Session | None: ...

    @property
    def seats(self) -> list[Seat]: ...

    def show_notices(self) -> None: ...


class Navigator:
    """Takes ``app`` from screen to screen; ``app.table`` plays the game."""

    def __init__(self, app: Shell) -> None:
        self.app = app

    def start_menu(self) -> None:
        app = self.app
        app.table.leave()  # the last game's clans leave the devices; it is not kept
        app.show_notices()
        app.show(StartScreen(app, app.seats))

    def new_game(self, seats: Sequence[Seat], phones: Iterable[int] | None = None) -> None:
        """Deal for ``seats`` and walk every human seat through its private peek;
        ``phones``: the seats that see their clan on a phone (None: as before)."""
        self.app.table.new_game(seats, phones=phones)
        self._begun(peeks=True)

    def begin(self, session: Session, *, peeks: bool = True) -> None:
        """Play ``session`` (a loaded or resumed game: ``peeks`` False goes to the board)."""
        self.app.table.begin(session, resumed=not peeks)
        self._begun(peeks=peeks)

    def rematch(self) -> None:
        self.app.table.rematch()
        self._begun(peeks=True)

    def _begun(self, *, peeks: bool) -> None:
        self.app.show_notices()
        if peeks:
            self.deal_peek(0)
        else:
            self.play()

    def deal_peek(self, seat: int) -> None:
        app = self.app
        session = app.session
        assert session is not None
        while seat < session.num_seats and session.seats[seat].kind != "human":
            seat += 1
        if seat >= session.num_seats:
            self.play()
            return
        device = app.devices.peek_kind(seat) if app.devices is not None else None
        app.guide.offer(Tip("secret", "peek", session.public().ply))
        app.show(PeekScreen(app, session, seat, done=lambda: self.deal_peek(seat + 1),
                            deal=True, device=device))

    def peek(self, seat: int) -> None:
        """A seat's peek during the game, returning to the board."""
        app = self.app
        assert app.session is not None
        if not app.session.seats[seat].is_human:
            return  # a computer player's clan is never shown (R22)
        app.show(PeekScreen(app, app.session, seat, done=app.play, deal=False))

    def show_hint(self) -> None:
        """The Hint button: the search starts for the person to move, whose private screen
        shows it while held (R22: the advice follows their clan). Nothing on a computer's
        turn or with hints off."""
        app = self.app
        session = app.session
        if session is None or not app.table.can_hint():
            return
        app.table.ask_hint()
        app.show(HintScreen(app, session, session.current_seat))

    def play(self) -> None:
        app = self.app
        session = app.session
        assert session is not None
        if session.is_over:
            self.reveal()
        else:
            app.table.play_on()
            obs = session.public()
            if any(s.is_human for s in session.seats):  # a demo has no secret to keep
                app.guide.offer(Tip("secret", "play", obs.ply))  # resumed: no deal's peeks
            mover = session.seats[session.current_seat].name
            app.guide.offer(Tip("move", "play", obs.ply, name=mover))
            app.show(PlayScreen(app, session))

    def reveal(self) -> None:
        app = self.app
        session = app.session
        assert session is not None
        app.table.finish()  # the devices show the results; the record is kept (the save
        # goes once the reveal is on the screen: App.redraw)
        app.show_notices()
        obs = session.public()
        app.guide.offer(Tip("end", "reveal", obs.ply, reason=obs.end or ""))
        app.show(RevealScreen(app, session))

    def rules(self, back: Callable[[], None], *, from_game: bool = True) -> None:
        self.app.show(RulesScreen(self.app, back, from_game=from_game))

    def replay_game(self, record: object, move: int, back: Callable[[], None]) -> None:
        """The replay of the finished game ``record`` at ``move`` (the large chart of how
        well a player hid: a give-away tapped); ``back`` returns."""
        from ..history.replay import GameReplay

        replay = GameReplay(record, "", self.app.board, self.app.chart)
        replay.go(move)
        self.app.show(ReplayScreen(self.app, replay, back=back))

    def past_games(self, back: Callable[[], None]) -> None:
        """The finished games kept on this table; ``back`` leaves them (the start screen,
        as the family left it)."""
        app = self.app
        if app.history is not None:
            app.show(PastGamesScreen(app, app.history, back=back))

    def ask_switch_off(self, back: Callable[[], None], *, game_kept: bool = False) -> None:
        """The kiosk's Switch off, after a confirmation; ``back`` if the answer is no.
        ``game_kept``: asked during a game (which is kept and resumed), so say so."""
        app = self.app

        def switch_off() -> None:
            log.info("switching off at the players' request")
            app.quit(kiosk.SWITCH_OFF)

        if game_kept and app.saving:
            text = _("The game is kept: it goes on where it was left the next time the table "
                     "is switched on. Unplug the power only once the Pi's green light has "
                     "stopped blinking.")
        elif game_kept:
            text = _("The game cannot be saved now: the next time the table is switched on, "
                     "it goes on from the last move that was saved. Unplug the power only "
                     "once the Pi's green light has stopped blinking.")
        else:
            text = _("Unplug the power only once the Pi's green light has stopped blinking.")
        app.show(ConfirmScreen(app, title=_("Switch the table off?"), text=text,
                               yes=_("Switch off"), no=_("Go on"), act=switch_off, back=back))
