"""What the first-game guide says: a title and a few sentences per tip, built in the
language in use from the tip's public facts (R22) and the epoch chart."""

from __future__ import annotations

from ..i18n import N_, _, language, ngettext
from ..rules.board import Board
from ..rules.constants import BIG_GROUP, TERRAINS
from ..rules.epochs import EpochChart
from ..table.guide import Tip
from .theme import roman

#: Terrain names as they read inside a sentence.
TERRAIN_WORD = {
    "forest": N_("forest"),
    "mountain": N_("mountain"),
    "steppe": N_("steppe"),
    "grassland": N_("grassland"),
}
TITLES = {
    "secret": N_("Your secret clan"),
    "move": N_("How to move"),
    "big": N_("Seven or more"),
    "village": N_("A village"),
    "strife": N_("Strife"),
    "epoch": N_("A new epoch"),
    "end": N_("The end"),
}


def sentences(*parts: str) -> str:
    """Sentences one after another: a space between them, none in Japanese (。 ends a
    sentence there without one)."""
    return ("" if language() == "ja" else " ").join(parts)


def _terrains(names: frozenset[str]) -> str:
    return _(", ").join(_(TERRAIN_WORD[t]) for t in TERRAINS if t in names)


def tip_text(tip: Tip, board: Board, chart: EpochChart) -> tuple[str, str]:
    """(title, body) of ``tip``."""
    return _(TITLES[tip.topic]), _BODIES[tip.topic](tip, board, chart)


def _secret(tip: Tip, board: Board, chart: EpochChart) -> str:
    return _("Each player is dealt one of the five clans, in secret. Look at yours while the "
             "others look away; the eye next to your name shows it again later. Your clan's "
             "points will be yours, so help it without giving it away: the others will try "
             "to guess it from your moves.")


def _move(tip: Tip, board: Board, chart: EpochChart) -> str:
    first = (_("{name} moves first.") if tip.ply == 0 else _("{name} moves now.")).format(
        name=tip.name)
    return sentences(first, _(
        "A move takes all the huts of one territory, whatever their clans, into a "
        "neighbouring territory that is not empty: tap the huts, then where they go. The "
        "territory left behind stays empty for the rest of the game."))


def _big(tip: Tip, board: Board, chart: EpochChart) -> str:
    return sentences(ngettext(
        "{count} hut now stands here.", "{count} huts now stand here.", tip.count,
    ).format(count=tip.count), _(
        "A group of {big} or more can only move onto a neighbouring group at least as big; "
        "any smaller group may still join it.").format(big=BIG_GROUP))


def _village(tip: Tip, board: Board, chart: EpochChart) -> str:
    assert tip.territory is not None and tip.epoch is not None
    epoch = chart.epoch(tip.epoch)
    terrain = board.terrain(tip.territory)
    facts = {"name": tip.name, "chip": tip.chip, "epoch": roman(epoch.number),
             "bonus": epoch.bonus, "terrain": _(TERRAIN_WORD[terrain]), "value": tip.value}
    made = _("{name} made a village: these huts have no neighbours left, so they stay here "
             "for good. {name} took chip {chip} from the chart, one point at the end.")
    if terrain in epoch.hostile:
        score = _("But in epoch {epoch}, {terrain} is hostile: the village scores nothing and "
                  "its huts leave the board.")
    elif terrain in epoch.favourable:
        score = _("In epoch {epoch}, {terrain} is favourable: every clan with a hut here "
                  "scores {value}, the huts in the village plus {bonus}, however few are its "
                  "own.")
    else:
        score = _("Every clan with a hut here scores {value}, the number of huts in the "
                  "village, however few are its own.")
    return sentences(made.format(**facts), score.format(**facts))


def _strife(tip: Tip, board: Board, chart: EpochChart) -> str:
    met = _("All five clans met in this village: strife. Every clan with a single hut here "
            "loses it.")
    if tip.count:
        lost = ngettext("{count} hut left the game.", "{count} huts left the game.",
                        tip.count).format(count=tip.count)
    else:
        lost = _("This time every clan had two or more, so none was lost.")
    return sentences(met, lost, _("The clans still here score the village."))


def _epoch(tip: Tip, board: Board, chart: EpochChart) -> str:
    assert tip.epoch is not None
    new = chart.epoch(tip.epoch)
    done = _("Epoch {old} is over: its chips are all taken.").format(
        old=roman(tip.epoch - 1))
    if len(new.favourable) == len(TERRAINS):
        worth = _("Villages now belong to epoch {new}: +{bonus} on every terrain.")
    elif new.hostile:
        worth = _("Villages now belong to epoch {new}: +{bonus} on {good}, nothing on {bad}.")
    else:
        worth = _("Villages now belong to epoch {new}: +{bonus} on {good}.")
    worth = worth.format(new=roman(new.number), bonus=new.bonus,
                         good=_terrains(new.favourable), bad=_terrains(new.hostile))
    return sentences(done, worth, _("The chart shows every epoch."))


def _end(tip: Tip, board: Board, chart: EpochChart) -> str:
    why = (_("No move is left, so the game is over.") if tip.reason == "no_moves" else
           _("The twelfth village is scored, so the game is over."))
    return sentences(why, _("Now the clans are revealed. Each player scores their clan's "
                            "points plus their chips; the highest score wins, and equal "
                            "scores share the win. That was the guide: enjoy the next game!"))


_BODIES = {
    "secret": _secret,
    "move": _move,
    "big": _big,
    "village": _village,
    "strife": _strife,
    "epoch": _epoch,
    "end": _end,
}
