"""Short animations of what a move did, built from the move's public events.

Each step lasts at most 600 ms; a tap skips the rest, and after a computer's move still
counts as the next person's tap (:func:`.screens.play_states.press`). Nothing
here knows any clan's owner: events are public (R22).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.events import (
    EpochChanged,
    Event,
    Moved,
    Strife,
    VillageFounded,
    VillageScored,
    VillageUnscored,
)

MAX_STEP_MS = 600
DURATIONS = {
    "moved": 320,
    "founded": 480,
    "strife": 520,
    "scored": 600,
    "unscored": 450,
    "epoch": 600,
}


@dataclass(frozen=True, slots=True)
class Step:
    """One animated thing: ``kind`` (a DURATIONS key), where, and what to show."""

    kind: str
    territory: int
    duration: int
    src: int = -1
    huts: int = 0
    value: int = 0
    clans: tuple[str, ...] = ()
    effect: str = ""
    chip: int = 0
    epoch: int = 0


def steps_for(events: list[Event]) -> list[Step]:
    """The animation of a move's events, in the order they happened."""
    out: list[Step] = []
    for e in events:
        if isinstance(e, Moved):
            out.append(Step("moved", e.dst, DURATIONS["moved"], src=e.src, huts=e.huts))
        elif isinstance(e, VillageFounded):
            out.append(Step("founded", e.territory, DURATIONS["founded"], chip=e.chip,
                            epoch=e.epoch))
        elif isinstance(e, Strife):
            out.append(Step("strife", e.territory, DURATIONS["strife"], clans=e.removed))
        elif isinstance(e, VillageScored):
            out.append(Step("scored", e.territory, DURATIONS["scored"], value=e.value,
                            clans=e.clans, effect=e.effect))
        elif isinstance(e, VillageUnscored):
            out.append(Step("unscored", e.territory, DURATIONS["unscored"]))
        elif isinstance(e, EpochChanged):
            out.append(Step("epoch", -1, DURATIONS["epoch"], epoch=e.epoch))
    return out


class Animation:
    """Steps played one after another from ``start`` (app clock, ms)."""

    def __init__(self, steps: list[Step], start: int) -> None:
        self.steps = steps
        self.start = start
        self.end = start + sum(s.duration for s in steps)

    def at(self, now: int) -> tuple[Step, float] | None:
        """The step showing at ``now`` and its progress 0..1, or None when finished."""
        t = now - self.start
        for s in self.steps:
            if t < s.duration:
                return s, max(0.0, t / s.duration)
            t -= s.duration
        return None

    def done(self, now: int) -> bool:
        return now >= self.end
