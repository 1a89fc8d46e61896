"""How sure a computer player was of a guess, in words (the reveal, the large chart of how
well a player hid): words, not a percentage (see :mod:`clans_pi.bots.calibration`)."""

from __future__ import annotations

from ..bots.calibration import LIKELY, SURE
from ..i18n import _


def how_sure(weight: float) -> str:
    """The words for a guess the computer gave ``weight`` (0..1)."""
    if weight >= SURE:
        # TRANSLATORS: how sure a computer player was of its guess of a player's clan.
        return _("sure")
    if weight >= LIKELY:
        # TRANSLATORS: how sure a computer player was of its guess of a player's clan.
        return _("likely")
    # TRANSLATORS: how sure a computer player was of its guess of a player's clan.
    return _("a guess")
