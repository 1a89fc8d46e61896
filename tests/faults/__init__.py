"""The fault table: every fault the kiosk is known to meet, injected by a test, and the
table of docs/faults.md built from them (``tests/faults/test_table.py`` checks it is up to
date; ``python -m tests.faults.table --write`` rewrites it).

Each fault is a test decorated with :func:`fault`, naming what the family sees and what is
kept. Every row must hold: nothing lost, no traceback on screen or in the terminal, no clan
shown to the wrong person (R22).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


@dataclass(frozen=True)
class Fault:
    area: str  # "save", "device", "phone", "kiosk", "install", "display", "settings"
    fault: str  # what happens to the appliance
    sees: str  # what the family sees
    kept: str  # what is kept
    test: str  # module::function that injects it


FAULTS: list[Fault] = []


def fault(area: str, what: str, *, sees: str, kept: str) -> Callable[[F], F]:
    """Register the decorated test as the injection of one fault (a row of the table)."""

    def register(fn: F) -> F:
        FAULTS.append(Fault(area, what, sees, kept, f"{fn.__module__}::{fn.__name__}"))
        return fn

    return register
