"""The play screen's state machine (clans_pi/ui/screens/play_states.py), without pygame:
every transition as a (state, input) -> (next state, effects) row, and random input
sequences against a real game that never reach an inconsistent state."""

from __future__ import annotations

import inspect
import random
import subprocess
import sys
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clans_pi.rules.board import load_default_board
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.moves import Move
from clans_pi.rules.setup import deal
from clans_pi.session import HUMAN, Seat, Session
from clans_pi.ui.animation import Animation, Step, steps_for
from clans_pi.ui.screens import play_states as ps
from clans_pi.ui.screens.play_states import (
    Animating,
    ChoosingOrder,
    Dialog,
    Dragging,
    Idle,
    Leave,
    Play,
    PlayState,
    Repaint,
    Say,
    Selected,
    Shown,
    TakeBack,
    Touch,
    Unused,
)


@dataclass
class FakeSeat:
    name: str
    is_human: bool = True


@dataclass
class FakeGame:
    """A tiny board's public facts: 1 moves into 2 or 3 (3 founds villages 7, 8 and 9),
    5 into 6; 4 is empty, 6 holds 7 huts; the drop from 1 onto 0 has no reason (the
    screen's fallback)."""

    current_seat: int = 0
    can_undo: bool = True
    seats: tuple[FakeSeat, ...] = (FakeSeat("Anna"), FakeSeat("Robo", is_human=False))

    TARGETS = {1: (2, 3), 5: (6,)}  # noqa: RUF012

    def legal_targets(self, src: int) -> tuple[int, ...]:
        return self.TARGETS.get(src, ())

    def refusal(self, src: int, dst: int | None = None) -> str | None:
        if src == 4:
            return "that territory is empty"
        if src not in self.TARGETS:
            return "7 or more huts cannot move"
        if dst is None or dst in self.TARGETS[src] or dst == 0:
            return None
        return "not a neighbouring territory"

    def founds(self, src: int, dst: int) -> tuple[int, ...]:
        return (7, 8, 9) if (src, dst) == (1, 3) else ()


G = FakeGame()
COMPUTER = FakeGame(current_seat=1)
NO_UNDO = FakeGame(can_undo=False)

A = Animation([Step("moved", 2, 320, src=1, huts=2)], 1000)  # ends at 1320
IDLE = PlayState()
SEL1 = PlayState(Selected(1))
HELD1 = PlayState(Selected(1, held=True))
DRAG1 = PlayState(Dragging(1, (10.0, 20.0)))
ORDER = PlayState(ChoosingOrder(1, 3, (7, 8, 9)))
DONE = PlayState(ChoosingOrder(1, 3, (7, 8, 9), (8, 7, 9)))
ANIM = PlayState(Animating(A))
MENU = Dialog("Menu", "New game ends this game", (("menu_new", "New game", "danger"),
                                                  ("menu_quit", "Quit", "danger"),
                                                  ("menu_back", "Go on", "primary")))
UNDO = Dialog("Take back the last move?", "Anna's move",
              (("undo_yes", "Take back", "danger"), ("undo_no", "Keep it", "normal")))


def over(state: PlayState, **kw: Any) -> PlayState:
    return replace(state, **kw)


BOARD_ONLY = Repaint(("board",))
# (in, input, its arguments, out, effects)
TABLE: list[tuple[PlayState, Any, tuple[Any, ...], PlayState, tuple[Any, ...]]] = [
    # a press: skip, close the card, wait for an answer, refuse while a computer moves ...
    # (a press that ends a move's showing still counts: huts tapped right after a
    # computer's move are chosen)
    (ANIM, ps.press, (2, G), over(IDLE, touch=Touch(2, None)), (Shown(),)),
    (ANIM, ps.press, (1, G), over(HELD1, touch=Touch(1, None)),
     (Shown(), Repaint(("header", "board")))),
    (ANIM, ps.press, (1, COMPUTER), IDLE, (Shown(),)),
    # A person's own move shown: the press only ends the showing (the finger is theirs,
    # not the next person's choosing huts).
    (PlayState(Animating(A, by_computer=False)), ps.press, (1, G), IDLE, (Shown(),)),
    (over(ANIM, dialog=MENU), ps.press, (1, G), over(IDLE, dialog=MENU), (Shown(),)),
    (over(ANIM, info=3), ps.press, (2, G), IDLE, (Shown(),)),
    (over(SEL1, info=3), ps.press, (2, G), SEL1, ()),
    (over(SEL1, dialog=MENU), ps.press, (2, G), over(SEL1, dialog=MENU), ()),
    (SEL1, ps.press, (5, COMPUTER), IDLE, (Say("Robo is thinking: wait for its move"),)),
    (IDLE, ps.press, (1, COMPUTER), IDLE, (Say("Robo is thinking: wait for its move"),)),
    # ... a finger landing decides nothing but choosing movable huts (a drag may start
    # from them); the rest waits for it to lift (the ``touch``)
    (ORDER, ps.press, (8, G), over(ORDER, touch=Touch(8, None)), ()),
    (SEL1, ps.press, (None, G), over(SEL1, touch=Touch(None, 1)), ()),
    (SEL1, ps.press, (2, G), over(SEL1, touch=Touch(2, 1)), ()),
    (IDLE, ps.press, (1, G), over(HELD1, touch=Touch(1, None)), (Repaint(("header", "board")),)),
    (SEL1, ps.press, (5, G), PlayState(Selected(5, held=True), touch=Touch(5, 1)),
     (Repaint(("header", "board")),)),
    (SEL1, ps.press, (1, G), over(HELD1, touch=Touch(1, 1)), (Repaint(("header", "board")),)),
    (IDLE, ps.press, (4, G), over(IDLE, touch=Touch(4, None)), ()),
    # a finger moving drags only the huts it chose
    (HELD1, ps.drag, ((5.0, 6.0),), PlayState(Dragging(1, (5.0, 6.0))), (BOARD_ONLY,)),
    (DRAG1, ps.drag, ((5.0, 6.0),), PlayState(Dragging(1, (5.0, 6.0))), (BOARD_ONLY,)),
    (SEL1, ps.drag, ((5.0, 6.0),), SEL1, ()),
    (IDLE, ps.drag, ((5.0, 6.0),), IDLE, ()),
    # a finger up where it went down: the tap acts (a move only now) ...
    (over(SEL1, touch=Touch(2, 1)), ps.release, (2, G), IDLE, (Play(1, 2),)),
    (over(SEL1, touch=Touch(3, 1)), ps.release, (3, G), ORDER, ()),
    (over(ORDER, touch=Touch(8, None)), ps.release, (8, G),
     PlayState(ChoosingOrder(1, 3, (7, 8, 9), (8,))), ()),
    (PlayState(ChoosingOrder(1, 3, (7, 8, 9), (8,)), touch=Touch(7, None)), ps.release, (7, G),
     DONE, ()),
    (over(ORDER, touch=Touch(None, None)), ps.release, (None, G), ORDER,
     (Say("Tap one of the new villages"),)),
    (over(ORDER, touch=Touch(2, None)), ps.release, (2, G), ORDER,
     (Say("Tap one of the new villages"),)),
    (PlayState(ChoosingOrder(1, 3, (7, 8, 9), (8,)), touch=Touch(8, None)), ps.release, (8, G),
     PlayState(ChoosingOrder(1, 3, (7, 8, 9), (8,))), (Say("That one is already in the order"),)),
    # ... the last village, placed by itself, tapped next as the header asks: found them
    (over(DONE, touch=Touch(9, None)), ps.release, (9, G), IDLE, (Play(1, 3, (8, 7, 9)),)),
    (over(DONE, touch=Touch(7, None)), ps.release, (7, G), DONE,
     (Say("That one is already in the order"),)),
    (over(HELD1, touch=Touch(1, None)), ps.release, (1, G), SEL1, (Repaint(),)),
    (over(HELD1, touch=Touch(1, 1)), ps.release, (1, G), IDLE, (Repaint(("header", "board")),)),
    (over(SEL1, touch=Touch(None, 1)), ps.release, (None, G), IDLE,
     (Repaint(("header", "board")),)),
    (over(IDLE, touch=Touch(4, None)), ps.release, (4, G), IDLE,
     (Say("that territory is empty"),)),
    (over(SEL1, touch=Touch(4, 1)), ps.release, (4, G), IDLE,
     (Say("not a neighbouring territory"),)),
    (over(SEL1, touch=Touch(6, 1)), ps.release, (6, G), IDLE,
     (Say("not a neighbouring territory"),)),
    # ... elsewhere: sliding off cancels; a finger nobody saw land does nothing ...
    (over(SEL1, touch=Touch(2, 1)), ps.release, (3, G), SEL1, (Repaint(),)),
    (over(SEL1, touch=Touch(2, 1)), ps.release, (None, G), SEL1, (Repaint(),)),
    (over(ORDER, touch=Touch(8, None)), ps.release, (9, G), ORDER, (Repaint(),)),
    (over(HELD1, touch=Touch(1, None)), ps.release, (2, G), SEL1, (Repaint(),)),
    (HELD1, ps.release, (1, G), SEL1, (Repaint(),)),
    (SEL1, ps.release, (2, G), SEL1, (Repaint(),)),
    (IDLE, ps.release, (2, G), IDLE, (Repaint(),)),
    (over(SEL1, touch=Touch(2, 1), dialog=UNDO), ps.release, (2, G), over(SEL1, dialog=UNDO),
     ()),
    (over(ANIM, touch=Touch(2, 1)), ps.release, (2, G), ANIM, ()),
    # ... and a drag drops its huts where it lifts
    (DRAG1, ps.release, (None, G), SEL1, (BOARD_ONLY,)),
    (DRAG1, ps.release, (1, G), SEL1, (BOARD_ONLY,)),
    (over(DRAG1, touch=Touch(1, 1)), ps.release, (1, G), IDLE, (Repaint(("header", "board")),)),
    (DRAG1, ps.release, (2, G), IDLE, (Play(1, 2),)),
    (DRAG1, ps.release, (3, G), ORDER, ()),
    (DRAG1, ps.release, (4, G), SEL1, (Say("not a neighbouring territory"),)),
    (DRAG1, ps.release, (0, G), SEL1, (Say("not there"),)),
    # a long press: a territory's card, over anything but a move shown or a question; it
    # never moves, and the huts chosen before it stay chosen
    (ANIM, ps.long_press, (2,), ANIM, (Unused(),)),
    (over(SEL1, dialog=MENU), ps.long_press, (2,), over(SEL1, dialog=MENU), (Unused(),)),
    (IDLE, ps.long_press, (None,), IDLE, (Unused(),)),
    (IDLE, ps.long_press, (2,), over(IDLE, info=2), ()),
    (DRAG1, ps.long_press, (2,), over(SEL1, info=2), ()),
    (HELD1, ps.long_press, (1,), over(SEL1, info=1), ()),
    (over(HELD1, touch=Touch(1, None)), ps.long_press, (1,), over(IDLE, info=1), ()),
    (PlayState(Selected(5, held=True), touch=Touch(5, 1)), ps.long_press, (5,),
     over(SEL1, info=5), ()),
    (over(SEL1, touch=Touch(2, 1)), ps.long_press, (2,), over(SEL1, info=2), ()),
    (ORDER, ps.long_press, (8,), over(ORDER, info=8), ()),
    # time
    (ANIM, ps.timer, (1319,), ANIM, ()),
    (ANIM, ps.timer, (1320,), IDLE, (Shown(),)),
    (SEL1, ps.timer, (99999,), SEL1, ()),
    # Escape: the question, the order, the card, the chosen huts, in that order
    (over(ORDER, dialog=MENU), ps.back, (), ORDER, ()),
    (over(ORDER, info=8), ps.back, (), over(IDLE, info=8), ()),
    (over(SEL1, info=2), ps.back, (), SEL1, ()),
    (SEL1, ps.back, (), IDLE, ()),
    (DRAG1, ps.back, (), IDLE, ()),
    (ANIM, ps.back, (), ANIM, ()),
    # questions: they lie over the board, which waits (or animates) under them
    (SEL1, ps.ask, (MENU,), over(SEL1, dialog=MENU), ()),
    (ANIM, ps.ask, (UNDO,), over(ANIM, dialog=UNDO), ()),
    (over(SEL1, dialog=UNDO), ps.answer, ("undo_yes", G), IDLE, (TakeBack(),)),
    (over(SEL1, dialog=UNDO), ps.answer, ("undo_yes", NO_UNDO), SEL1, ()),
    (over(ANIM, dialog=UNDO), ps.answer, ("undo_yes", G), ANIM, (TakeBack(),)),
    (over(DONE, dialog=UNDO), ps.answer, ("undo_yes", G), IDLE, (TakeBack(),)),
    (over(SEL1, dialog=UNDO), ps.answer, ("undo_no", G), SEL1, ()),
    (over(SEL1, dialog=MENU), ps.answer, ("menu_new", G), SEL1, (Leave("new"),)),
    (over(IDLE, dialog=MENU), ps.answer, ("menu_quit", G), IDLE, (Leave("quit"),)),
    (over(IDLE, dialog=MENU), ps.answer, ("menu_off", G), IDLE, (Leave("off"),)),
    (over(SEL1, dialog=MENU), ps.answer, ("menu_back", G), SEL1, ()),
    # the village order's buttons
    (DONE, ps.found, (), IDLE, (Play(1, 3, (8, 7, 9)),)),
    (over(DONE, info=8), ps.found, (), over(IDLE, info=8), (Play(1, 3, (8, 7, 9)),)),
    (ORDER, ps.found, (), ORDER, ()),
    (IDLE, ps.found, (), IDLE, ()),
    (DONE, ps.order_again, (), ORDER, ()),
    (IDLE, ps.order_again, (), IDLE, ()),
    (DONE, ps.order_back, (), IDLE, ()),
    (SEL1, ps.order_back, (), SEL1, ()),
    # moves made elsewhere
    (SEL1, ps.move_huts, (5, 6, G), IDLE, (Play(5, 6),)),
    (ANIM, ps.move_huts, (1, 3, G), ORDER, ()),
    (HELD1, ps.play_move, (Move(1, 2),), IDLE, (Play(1, 2),)),
    (over(IDLE, info=4), ps.play_move, (Move(1, 3, (9, 8, 7)),), over(IDLE, info=4),
     (Play(1, 3, (9, 8, 7)),)),
    (IDLE, ps.moved, (A,), ANIM, ()),
    (IDLE, ps.moved, (A, False), PlayState(Animating(A, by_computer=False)), ()),
    (over(IDLE, info=2), ps.moved, (A,), over(ANIM, info=2), ()),
]


@pytest.mark.parametrize(("state", "fn", "args", "after", "effects"), TABLE,
                         ids=[f"{k}-{row[1].__name__}" for k, row in enumerate(TABLE)])
def test_transition(state, fn, args, after, effects):
    assert fn(state, *args) == (after, effects)


def test_the_table_covers_every_input():
    inputs = {name for name, f in inspect.getmembers(ps, inspect.isfunction)
              if f.__module__ == ps.__name__ and not name.startswith("_")
              and next(iter(inspect.signature(f).parameters), None) == "s"}
    assert inputs == {row[1].__name__ for row in TABLE}
    assert len(inputs) == 14


def test_moves_made_elsewhere_are_refused_when_not_legal_or_not_a_persons():
    with pytest.raises(ValueError, match="not a legal move"):
        ps.move_huts(SEL1, 1, 4, G)
    with pytest.raises(ValueError, match="computer"):
        ps.move_huts(IDLE, 5, 6, COMPUTER)
    with pytest.raises(ValueError, match="question"):
        ps.move_huts(over(IDLE, dialog=MENU), 5, 6, G)


def test_quiet_means_no_animation_question_or_order():
    assert IDLE.quiet and SEL1.quiet and DRAG1.quiet and over(IDLE, info=2).quiet
    assert not ANIM.quiet and not ORDER.quiet and not over(SEL1, dialog=MENU).quiet


def test_what_the_state_shows():
    assert (SEL1.selected, DRAG1.selected, ORDER.selected, ANIM.selected) == (1, 1, None, None)
    assert ORDER.order == ORDER.mode and SEL1.order is None
    assert ANIM.anim is A and IDLE.anim is None
    assert not ORDER.mode.complete and DONE.mode.complete


def test_the_state_machine_imports_no_pygame():
    code = ("import sys\nimport clans_pi.ui.screens.play_states\n"
            "assert 'pygame' not in sys.modules, 'pygame imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


# ------------------------------------------------------------------ random input sequences

BOARD, CHART = load_default_board(), load_default_chart()
KINDS = ("press", "tap", "drag", "release", "long", "timer", "back", "ask_undo", "ask_menu",
         "answer", "found", "again", "order_back", "computer", "move_huts")


class Table:
    """Carries out the effects against a real game, as the play screen does, and checks
    that no person's input ever plays for a computer or plays an illegal move."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.state = PlayState()
        self.now = 0
        self.left = False

    def apply(self, step: ps.Step, *, by_person: bool) -> None:
        self.state = step.state
        for e in step.effects:
            if isinstance(e, Play):
                mover = self.session.seats[self.session.current_seat]
                assert mover.is_human or not by_person, "a person's input moved a computer"
                assert e.dst in self.session.legal_targets(e.src)
                founds = self.session.founds(e.src, e.dst)
                if len(founds) >= 2 and by_person:  # a person always chose the order (R11)
                    assert e.order is not None and sorted(e.order) == list(founds)
                events = self.session.play(e.src, e.dst, e.order)
                self.state = ps.moved(self.state, Animation(steps_for(events), self.now)).state
            elif isinstance(e, TakeBack):
                assert self.session.can_undo
                self.session.undo()
            elif isinstance(e, Leave):
                self.left = True

    def territory(self, k: int) -> int | None:
        """A territory worth tapping (often one that does something), or None."""
        s = self.session
        near = sorted(s.movable())
        if self.state.selected is not None:
            near += list(s.legal_targets(self.state.selected))
        if self.state.order is not None:
            near += list(self.state.order.founds)
        pool = [None, *near, *near, *range(len(s.public().huts))]
        return pool[k % len(pool)]

    def do(self, kind: str, k: int) -> None:
        s, state = self.session, self.state
        human = s.seats[s.current_seat].is_human
        buttons = state.dialog is None and state.order is None  # Undo, Menu shown
        if kind == "press":
            self.apply(ps.press(state, self.territory(k), s), by_person=True)
        elif kind == "tap":
            t = self.territory(k)
            self.apply(ps.press(state, t, s), by_person=True)
            self.apply(ps.release(self.state, t, s), by_person=True)
        elif kind == "drag":
            self.apply(ps.drag(state, (float(k % 800), float(k % 480))), by_person=True)
        elif kind == "release":
            self.apply(ps.release(state, self.territory(k), s), by_person=True)
        elif kind == "long":
            self.apply(ps.long_press(state, self.territory(k)), by_person=True)
        elif kind == "timer":
            self.now += k % 1500
            self.apply(ps.timer(state, self.now), by_person=True)
        elif kind == "back":
            self.apply(ps.back(state), by_person=True)
        elif kind == "ask_undo" and buttons and s.can_undo:
            self.apply(ps.ask(state, UNDO), by_person=True)
        elif kind == "ask_menu" and buttons:
            self.apply(ps.ask(state, MENU), by_person=True)
        elif kind == "answer" and state.dialog is not None:
            names = [a[0] for a in state.dialog.answers]
            self.apply(ps.answer(state, names[k % len(names)], s), by_person=True)
        elif kind == "found" and state.order is not None:
            self.apply(ps.found(state), by_person=True)
        elif kind == "again" and state.order is not None:
            self.apply(ps.order_again(state), by_person=True)
        elif kind == "order_back" and state.order is not None:
            self.apply(ps.order_back(state), by_person=True)
        elif kind == "computer" and not human and state.quiet:  # as the app's computers do
            moves = s.public().legal_moves
            self.apply(ps.play_move(state, moves[k % len(moves)]), by_person=False)
        elif kind == "move_huts":
            m = s.public().legal_moves[k % len(s.public().legal_moves)]
            if human and state.dialog is None:
                self.apply(ps.move_huts(state, m.src, m.dst, s), by_person=True)
            else:
                with pytest.raises(ValueError):
                    ps.move_huts(state, m.src, m.dst, s)

    def check(self) -> None:
        state, s = self.state, self.session
        mode = state.mode
        mover = s.seats[s.current_seat]
        assert state.selected is None or state.anim is None  # never a selection while shown
        if isinstance(mode, Selected | Dragging | ChoosingOrder):
            assert mover.is_human, f"{mode} while a computer is to move"
        if isinstance(mode, Selected | Dragging):
            assert s.refusal(mode.src) is None, f"{mode}: those huts cannot move"
        if isinstance(mode, Dragging) or (isinstance(mode, Selected) and mode.held):
            assert state.info is None  # a card and a finger on the huts never together
        if isinstance(mode, ChoosingOrder):
            assert mode.dst in s.legal_targets(mode.src)
            assert mode.founds == s.founds(mode.src, mode.dst) and len(mode.founds) >= 2
            assert len(set(mode.chosen)) == len(mode.chosen)
            assert set(mode.chosen) <= set(mode.founds)
            assert len(mode.chosen) != len(mode.founds) - 1  # the last one goes by itself
        if state.dialog is not None:
            assert state.dialog in (UNDO, MENU)
        assert isinstance(mode, Idle | Selected | Dragging | ChoosingOrder | Animating)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10_000), people=st.lists(st.booleans(), min_size=2, max_size=4),
       moves=st.integers(0, 40), pick=st.randoms(use_true_random=False))
@pytest.mark.slow
def test_random_inputs_never_reach_an_inconsistent_state(seed, people, moves, pick):
    """200 inputs of every kind (a territory worth tapping more often than not) on a game
    of people and computers: after each one the state is consistent."""
    rng = random.Random(seed)
    names = ["Anna", "Ben", "Cleo", "Dev"][:len(people)]
    state = deal(BOARD, names, rng, CHART)
    for _ in range(moves):
        if state.is_over:
            break
        state.play(state.random_legal_move(rng.random))
    if state.is_over:
        return
    kinds = {name: HUMAN if person else "hard" for name, person in zip(names, people,
                                                                          strict=True)}
    session = Session(state, [Seat(name, kind=kinds[name]) for name in state.players])
    table = Table(session)
    for _ in range(200):
        if session.is_over or table.left:
            break
        table.do(pick.choice(KINDS), pick.randrange(10**6))
        table.check()
