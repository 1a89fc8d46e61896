"""What a touch on the play screen means, decided in one place: the screen's states and
their transitions, without pygame.

The board is in exactly one *mode* at a time:

==============  =====================================================================
Idle            nothing chosen
Selected        the mover's huts on ``src`` are chosen (``held``: the finger that chose
                them is still down, so moving it drags)
Dragging        those huts follow the finger, drawn as an arrow to ``pos``
ChoosingOrder   a move that founds several villages waits for their order (R11)
Animating       a played move is being shown; a tap ends it and still counts
==============  =====================================================================

Two *overlays* lie over any mode and do not end it: a territory's details card (``info``,
a long press) and a question (``dialog``: Undo, Menu). They are overlays, not modes,
because the board under them goes on: a selection stays chosen under the menu and is there
again after "Go on"; a move's animation runs on under a question; a computer's move may
arrive under a details card. The short message (the toast) is not here at all: it has its
own clock, is written from outside too (computer players, hints), and never changes what
an input means; the screen keeps it.

A move happens when the finger *lifts* on a lit territory, never when it lands: a finger
resting on the board, or held down to see a territory's huts, moves nothing, and sliding off
before lifting cancels. Only choosing huts happens on the way down, so that a drag can
start from them; a long press puts the choice back as it was.

Each input is one function ``(state, input…, game) -> Step``: the next state and the
effects the screen carries out (:class:`Say`, :class:`Play`, :class:`TakeBack`,
:class:`Leave`, :class:`Shown`, :class:`Repaint`, :class:`Unused`). The functions only read
the game (the public facts of :class:`Game`, which a :class:`~clans_pi.session.Session`
has); they never play, save or draw.

==============================  ================  =========================================
input                           in                goes to (effect)
==============================  ================  =========================================
press (finger down)             Animating         Idle (Shown), then as below
                                info open         info closed
                                dialog open       unchanged
                                computer to move  Idle (Say: it is thinking)
                                movable huts      Selected(t, held) (Repaint header+board)
                                anything else     the finger is remembered (``touch``)
drag (finger moves)             Selected(held),   Dragging(src, pos) (Repaint board)
                                Dragging
release (finger up)             Dragging          on src/off the map: Selected (Repaint
                                                  board); on a target: move it there;
                                                  elsewhere: Selected (Say why not)
                                on the territory  a target of src: ChoosingOrder, or Idle
                                it went down on   (Play); the selected huts again: Idle;
                                                  ChoosingOrder: village added (or Say
                                                  why not); off the map: Idle; huts that
                                                  cannot move: Say why not
                                elsewhere         nothing (sliding off cancels)
long_press                      Animating, dialog unchanged (Unused)
                                on a territory    info = t; nothing moves, the selection
                                                  is as before the press
timer(now)                      Animating, done   Idle (Shown)
back (Escape)                   dialog            dialog closed
                                ChoosingOrder     Idle
                                info              info closed
                                Selected/Dragging Idle
ask(dialog) (Undo, Menu)        any               dialog open
answer(name)                    dialog            closed; undo_yes: Idle unless Animating
                                                  (TakeBack); menu_new/quit/off: (Leave)
found, order_again, order_back  ChoosingOrder     Idle (Play); chosen cleared; Idle
move_huts(src, dst)             no dialog         as a tap on a target of src
play_move(move)                 any               Idle (Play)
moved(animation)                any               Animating
==============================  ================  =========================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol

from ...i18n import _
from ...rules.moves import Move
from ..animation import Animation

Pos = tuple[float, float]


# ------------------------------------------------------------------ the board's modes


@dataclass(frozen=True, slots=True)
class Idle:
    """Nothing chosen: a tap on the mover's huts chooses them."""


@dataclass(frozen=True, slots=True)
class Selected:
    """The huts on ``src`` are chosen; a tap on a target moves them there. ``held``: the
    finger that chose them is still down (moving it drags them)."""

    src: int
    held: bool = False


@dataclass(frozen=True, slots=True)
class Dragging:
    """The huts on ``src`` follow the finger, now at ``pos`` (kept on the board)."""

    src: int
    pos: Pos


@dataclass(frozen=True, slots=True)
class ChoosingOrder:
    """A move that founds several villages, waiting for the mover's order (R11)."""

    src: int
    dst: int
    founds: tuple[int, ...]
    chosen: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        return len(self.chosen) == len(self.founds)


@dataclass(frozen=True, slots=True)
class Animating:
    """A played move is being shown (from its public events); ``by_computer``: a computer
    player's (a press that ends its showing is the next person's, and counts)."""

    anim: Animation
    by_computer: bool = True


Mode = Idle | Selected | Dragging | ChoosingOrder | Animating


@dataclass(frozen=True, slots=True)
class Touch:
    """A finger down on the board: on territory ``on`` (None: off the map), when the huts
    on ``before`` were chosen (None: none). What it does is decided when it lifts."""

    on: int | None
    before: int | None


@dataclass(frozen=True, slots=True)
class Dialog:
    """A question over the board with its answers as buttons."""

    title: str
    text: str
    answers: tuple[tuple[str, str, str], ...]  # (button name, label, style)


@dataclass(frozen=True, slots=True)
class PlayState:
    """The play screen's interaction: the board's mode and the overlays over it."""

    mode: Mode = Idle()
    info: int | None = None  # the territory whose details card is open (long press)
    dialog: Dialog | None = None  # the open question
    touch: Touch | None = None  # the finger down on the board, until it lifts

    @property
    def selected(self) -> int | None:
        """The territory whose huts are chosen, if any."""
        return self.mode.src if isinstance(self.mode, Selected | Dragging) else None

    @property
    def order(self) -> ChoosingOrder | None:
        return self.mode if isinstance(self.mode, ChoosingOrder) else None

    @property
    def anim(self) -> Animation | None:
        return self.mode.anim if isinstance(self.mode, Animating) else None

    @property
    def quiet(self) -> bool:
        """Nothing is going on that a computer's move or the guide's card would cut into:
        no animation, question or village order."""
        return self.dialog is None and not isinstance(self.mode, Animating | ChoosingOrder)


# ------------------------------------------------------------------ effects


@dataclass(frozen=True, slots=True)
class Say:
    """Show a short message (why a tap was refused, ...)."""

    text: str


@dataclass(frozen=True, slots=True)
class Play:
    """Play this move for the player to move (checked legal by the game)."""

    src: int
    dst: int
    order: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Undo the last move (Host.take_back: the table takes it back and saves)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the game: ``how`` is "new" (the start menu), "quit" or "off" (switch off)."""

    how: str


@dataclass(frozen=True, slots=True)
class Shown:
    """A move's animation is over (if that was the last move, the reveal may come)."""


@dataclass(frozen=True, slots=True)
class Repaint:
    """Only these parts of the picture changed ("header", "board"); none: nothing did."""

    parts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Unused:
    """The input meant nothing here (a long press the screen did not take)."""


Effect = Say | Play | TakeBack | Leave | Shown | Repaint | Unused


class Step(NamedTuple):
    state: PlayState
    effects: tuple[Effect, ...] = ()


# ------------------------------------------------------------------ what is asked of the game


class SeatLike(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def is_human(self) -> bool: ...


class Game(Protocol):
    """The public facts the transitions read (a Session has them all)."""

    @property
    def seats(self) -> Sequence[SeatLike]: ...

    @property
    def current_seat(self) -> int: ...

    @property
    def can_undo(self) -> bool: ...

    def legal_targets(self, src: int) -> tuple[int, ...]: ...

    def refusal(self, src: int, dst: int | None = None) -> str | None: ...

    def founds(self, src: int, dst: int) -> tuple[int, ...]: ...


def _with_mode(s: PlayState, mode: Mode, *effects: Effect) -> Step:
    return Step(replace(s, mode=mode), effects)


def _unselected(s: PlayState) -> Mode:
    """The mode with any chosen huts let go (other modes stay)."""
    return Idle() if isinstance(s.mode, Selected | Dragging) else s.mode


def _choose(s: PlayState, src: int, dst: int, game: Game) -> Step:
    """The mover moves ``src`` into ``dst``: the order choice first when it founds several
    villages, else the move is played."""
    founds = game.founds(src, dst)
    if len(founds) >= 2:
        return _with_mode(s, ChoosingOrder(src, dst, founds))
    return _with_mode(s, Idle(), Play(src, dst))


# ------------------------------------------------------------------ pointer inputs


def press(s: PlayState, t: int | None, game: Game) -> Step:
    """A finger (or the mouse) goes down on the board, on territory ``t`` (None: off the
    map). Decided in this order: end an animation (the press still counts, as below),
    close a details card, wait for a question's answer, refuse while a computer moves; then
    movable huts are chosen (a drag may start from them) and anything else waits for the
    finger to lift."""
    if isinstance(s.mode, Animating):
        # The move's showing ends, and the press is the one the player meant: "tap huts,
        # then where they go" right after a computer's move chooses the huts. After a
        # person's move the finger is most likely still theirs (skipping their own move's
        # showing): only the showing ends, as it does with a computer to move next (no
        # "thinking" message for it).
        by_computer = s.mode.by_computer
        s = replace(s, mode=Idle(), touch=None)
        if (s.dialog is not None or not by_computer
                or not game.seats[game.current_seat].is_human):
            return Step(s, (Shown(),))
        after = press(s, t, game)
        return Step(after.state, (Shown(), *after.effects))
    mode = s.mode
    if s.info is not None:
        return Step(replace(s, info=None, touch=None))
    if s.dialog is not None:
        return Step(s)
    mover = game.seats[game.current_seat]
    if not mover.is_human:
        return _with_mode(replace(s, touch=None), _unselected(s), Say(
            _("{name} is thinking: wait for its move").format(name=mover.name)))
    src = s.selected
    s = replace(s, touch=Touch(t, src))
    if isinstance(mode, ChoosingOrder) or t is None:
        return Step(s)
    if src is not None and t != src and t in game.legal_targets(src):
        return Step(s)  # the move happens if the finger lifts here
    if game.refusal(t) is None:
        return _with_mode(s, Selected(t, held=True), Repaint(("header", "board")))
    return Step(s)


def _order_tap(s: PlayState, order: ChoosingOrder, t: int | None) -> Step:
    if t is None or t not in order.founds:
        return Step(s, (Say(_("Tap one of the new villages")),))
    if t in order.chosen:
        if order.complete and t == order.chosen[-1]:
            # The last village took its place by itself; tapping it next, as the header
            # says, confirms the order (as Found does) rather than being refused.
            return found(s)
        return Step(s, (Say(_("That one is already in the order")),))
    chosen = (*order.chosen, t)
    left = [v for v in order.founds if v not in chosen]
    if len(left) == 1:
        chosen = (*chosen, left[0])
    return _with_mode(s, replace(order, chosen=chosen))


def drag(s: PlayState, pos: Pos) -> Step:
    """The finger moves to ``pos`` (already kept on the board by the screen)."""
    mode = s.mode
    if isinstance(mode, Dragging) or (isinstance(mode, Selected) and mode.held):
        return _with_mode(s, Dragging(mode.src, pos), Repaint(("board",)))
    return Step(s)


def release(s: PlayState, t: int | None, game: Game) -> Step:
    """The finger comes up over territory ``t`` (None: off the map): a tap counts only where
    the finger went down (sliding off cancels); a drag drops its huts where it lifts."""
    touch, mode = s.touch, s.mode
    s = replace(s, touch=None)
    if s.dialog is not None or isinstance(mode, Animating):
        return Step(s)  # a question or a move came up under the finger: it does nothing
    if isinstance(mode, Dragging):
        src = mode.src
        if t is None or t == src:
            # Back where it started: a tap on the huts that were chosen lets them go.
            if touch is not None and touch.before == src and touch.on == src:
                return _with_mode(s, Idle(), Repaint(("header", "board")))
            return _with_mode(s, Selected(src), Repaint(("board",)))  # the arrow goes away
        if t in game.legal_targets(src):
            return _choose(s, src, t, game)
        return _with_mode(s, Selected(src), Say(game.refusal(src, t) or _("not there")))
    if touch is None or t != touch.on:  # slid off before lifting: nothing happens
        if isinstance(mode, Selected) and mode.held:
            return _with_mode(s, Selected(mode.src), Repaint())
        return Step(s, (Repaint(),))
    if isinstance(mode, ChoosingOrder):
        return _order_tap(s, mode, t)
    if t is None:
        return _with_mode(s, _unselected(s), Repaint(("header", "board")))
    src = touch.before
    if isinstance(mode, Selected) and mode.held:
        if src == t == mode.src:  # the chosen huts tapped again: let them go
            return _with_mode(s, Idle(), Repaint(("header", "board")))
        if mode.src == t:
            return _with_mode(s, Selected(t), Repaint())
        mode = Selected(mode.src)
    if src is not None and t in game.legal_targets(src):
        return _choose(s, src, t, game)
    reason = game.refusal(t) or _("not there")
    if src is not None and t != src:
        reason = game.refusal(src, t) or reason
    return _with_mode(s, _unselected(s), Say(reason))


def long_press(s: PlayState, t: int | None) -> Step:
    """A press held still on territory ``t``: its details card (not while a move is shown or
    a question is open). Nothing moves: a drag ends and the huts chosen before the press
    stay chosen (huts the press itself chose are let go)."""
    if isinstance(s.mode, Animating) or s.dialog is not None or t is None:
        return Step(s, (Unused(),))
    mode = s.mode
    if isinstance(mode, Dragging | Selected):
        before = s.touch.before if s.touch is not None else mode.src
        mode = Idle() if before is None else Selected(before)
    return Step(replace(s, mode=mode, info=t, touch=None))


# ------------------------------------------------------------------ time, keys, buttons


def timer(s: PlayState, now: int) -> Step:
    """The clock reached ``now`` (app clock, ms): a finished animation ends."""
    if isinstance(s.mode, Animating) and s.mode.anim.done(now):
        return _with_mode(s, Idle(), Shown())
    return Step(s)


def back(s: PlayState) -> Step:
    """Escape or a back gesture: close the question, else give up the village order, else
    close the details card, else let the chosen huts go."""
    if s.dialog is not None:
        return Step(replace(s, dialog=None))
    if isinstance(s.mode, ChoosingOrder):
        return _with_mode(s, Idle())
    if s.info is not None:
        return Step(replace(s, info=None))
    return _with_mode(s, _unselected(s))


def ask(s: PlayState, dialog: Dialog) -> Step:
    """Open a question (Undo, Menu) over the board."""
    return Step(replace(s, dialog=dialog))


ANSWERS_LEAVING = {"menu_new": "new", "menu_quit": "quit", "menu_off": "off"}


def answer(s: PlayState, name: str, game: Game) -> Step:
    """The question's button ``name`` was pressed: the question closes, and Take back
    undoes the last move (letting chosen huts go), New game / Quit / Switch off leave."""
    s = replace(s, dialog=None)
    if name == "undo_yes" and game.can_undo:
        # Nothing chosen on the board as it was stays chosen (a move being shown goes on).
        mode = s.mode if isinstance(s.mode, Animating) else Idle()
        return _with_mode(replace(s, touch=None), mode, TakeBack())
    if name in ANSWERS_LEAVING:
        return Step(s, (Leave(ANSWERS_LEAVING[name]),))
    return Step(s)


def found(s: PlayState) -> Step:
    """Found the villages in the chosen order (once every one has its place)."""
    order = s.order
    if order is None or not order.complete:
        return Step(s)
    return _with_mode(s, Idle(), Play(order.src, order.dst, order.chosen))


def order_again(s: PlayState) -> Step:
    """Start the village order again."""
    order = s.order
    return Step(s) if order is None else _with_mode(s, replace(order, chosen=()))


def order_back(s: PlayState) -> Step:
    """Give up this move (its huts are not moved)."""
    return _with_mode(s, Idle()) if isinstance(s.mode, ChoosingOrder) else Step(s)


# ------------------------------------------------------------------ moves


def move_huts(s: PlayState, src: int, dst: int, game: Game) -> Step:
    """The person to move moves ``src`` into ``dst``, as a tap on a target does: the order
    choice first when it founds several villages. Refused (ValueError) for a computer's turn,
    an illegal move or while a question is open."""
    if s.dialog is not None:
        raise ValueError("a question is open")
    if not game.seats[game.current_seat].is_human:
        raise ValueError("a computer player is to move")
    if dst not in game.legal_targets(src):
        raise ValueError(f"{src} -> {dst} is not a legal move")
    return _choose(replace(s, mode=_unselected(s), touch=None), src, dst, game)


def play_move(s: PlayState, move: Move) -> Step:
    """A whole move (its village order included) is played as it is: a computer player's,
    checked by the caller. Nothing stays chosen."""
    return _with_mode(replace(s, touch=None), Idle(), Play(move.src, move.dst, move.order))


def moved(s: PlayState, anim: Animation, by_computer: bool = True) -> Step:
    """A move was played (``by_computer``: a computer player's): show it."""
    return _with_mode(replace(s, touch=None), Animating(anim, by_computer))
