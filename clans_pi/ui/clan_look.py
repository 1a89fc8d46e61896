"""How the clans look on screen, from the settings: the fifth clan black or white (R3: some
editions have white huts; the engine's clan id stays "black"), marks on or off.

Everything that draws a clan asks the app's :class:`ClanLook` for its colour, ink, outline
and name, so the choice reaches every screen. A look is per clan, never per player, so it
reveals nothing (R22).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..i18n import _
from ..palette import CLAN_COLORS, CLAN_INK, CLAN_LABEL, CLAN_OUTLINE, Color, mark_color
from ..settings.options import FIFTH_CLANS, shown_clan

__all__ = ["DEFAULT_LOOK", "FIFTH_CLANS", "ClanLook"]


@dataclass(frozen=True)
class ClanLook:
    """The fifth clan's colour (``fifth``) and whether huts carry their clan's mark."""

    fifth: str = "black"
    marks: bool = True

    def __post_init__(self) -> None:
        assert self.fifth in FIFTH_CLANS, f"fifth clan {self.fifth!r}"

    def shown(self, clan: str) -> str:
        """The colour name ``clan`` is shown as: its id, except the fifth clan when white."""
        return shown_clan(clan, self.fifth)

    def color(self, clan: str) -> Color:
        return CLAN_COLORS[self.shown(clan)]

    def ink(self, clan: str) -> Color:
        """The colour of text and numbers on ``clan``'s colour."""
        return CLAN_INK[self.shown(clan)]

    def outline(self, clan: str) -> Color:
        """The outline of ``clan``'s hut, apart from the board and from the fill."""
        return CLAN_OUTLINE[self.shown(clan)]

    def mark_color(self, clan: str) -> Color:
        """The colour of ``clan``'s mark: halfway from its colour toward its ink, plain to
        see on the hut yet not so strong that the hut stops looking ``clan``'s colour."""
        return mark_color(self.shown(clan))

    def label(self, clan: str) -> str:
        """The clan's name as players see it ("White" for the fifth clan when white)."""
        return _(CLAN_LABEL[self.shown(clan)])


DEFAULT_LOOK: Final = ClanLook()
