"""Display options shared by the command line and the UI (no pygame import here, so the
command line starts fast for commands that draw nothing)."""

from __future__ import annotations

from typing import Final

#: Clockwise turns of the picture the ``rotate`` setting accepts.
ROTATIONS: Final = (0, 90, 180, 270)
#: Screens ``clans-pi render`` can draw.
RENDER_SCREENS: Final = ("play", "peek", "reveal", "board", "rules", "start", "replay",
                          "hiding")
DEFAULT_SIZE: Final = (800, 480)
#: The smallest picture (as drawn, after any rotation) every screen lays out: the 3.5"
#: 480x320 displays. Upright pictures need the same width (tests/test_ui_layout.py).
MIN_SIZE: Final = (480, 320)
MAX_SIDE: Final = 8192
#: Said after a size that is too small, in --help and the settings' problems.
NEEDS: Final = f"it needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]} ({MIN_SIZE[0]} wide, " \
    f"{MIN_SIZE[1]} high)"
#: How the fifth clan may be shown (R3: some editions have white huts, others black).
FIFTH_CLANS: Final = ("black", "white")


def shown_clan(clan: str, fifth_clan: str) -> str:
    """The colour ``clan`` (an engine id) is shown in: its own, except the fifth clan
    ("black"), shown as ``fifth_clan`` (one of :data:`FIFTH_CLANS`)."""
    return fifth_clan if clan == "black" else clan


def size_problem(size: tuple[int, int], rotate: int = 0, *, what: str = "",
                 turned_by: str = "") -> str | None:
    """Why a ``size`` picture (turned ``rotate`` degrees clockwise) cannot be drawn, or None.
    ``what`` names where the size came from ("--size 200x200"), ``turned_by`` what turned it
    ("display.rotate")."""
    w, h = size
    name = what or f"{w}x{h}"
    if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
        return f"{name}: each side must be 1 to {MAX_SIDE} pixels"
    shown = (h, w) if rotate in (90, 270) else (w, h)
    if shown[0] >= MIN_SIZE[0] and shown[1] >= MIN_SIZE[1]:
        return None
    if shown != (w, h):
        name = f"{name} turned by {turned_by + ' ' if turned_by else ''}{rotate}° is " \
            f"{shown[0]}x{shown[1]},"
    else:
        name += " is"
    return f"{name} smaller than the game can draw: {NEEDS}"
