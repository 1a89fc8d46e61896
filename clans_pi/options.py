"""Display options shared by the command line and the UI (no pygame import here, so the
command line starts fast for commands that draw nothing)."""

from __future__ import annotations

from typing import Final

#: Clockwise turns of the picture the ``rotate`` setting accepts.
ROTATIONS: Final = (0, 90, 180, 270)
#: Screens ``clans-pi render`` can draw.
RENDER_SCREENS: Final = ("play", "peek", "reveal", "board", "rules", "start")
DEFAULT_SIZE: Final = (800, 480)
#: How the fifth clan may be shown (R3: some editions have white huts, others black).
FIFTH_CLANS: Final = ("black", "white")


def shown_clan(clan: str, fifth_clan: str) -> str:
    """The colour ``clan`` (an engine id) is shown in: its own, except the fifth clan
    ("black"), shown as ``fifth_clan`` (one of :data:`FIFTH_CLANS`)."""
    return fifth_clan if clan == "black" else clan
