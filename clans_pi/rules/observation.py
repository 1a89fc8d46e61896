"""Per-player views (R22): everything one player may know, and nothing else.

Anything a person sees — the shared screen, a seat's LED or handheld, a log line — is built
from an :class:`Observation`, never from the full :class:`GameState`. The public view
(``viewer=None``) is what the shared screen shows; a player's view adds their own clan.
Before the end nobody's view holds another player's clan; after it (R20) all are revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .constants import CLANS
from .moves import Move

if TYPE_CHECKING:
    from .state import GameState
    from .village import Village


@dataclass(frozen=True, slots=True)
class Observation:
    """What ``viewer`` may know now. ``viewer`` None is the public view (shared screen)."""

    viewer: int | None
    own_clan: str | None
    players: tuple[str, ...]
    current_player: int
    ply: int
    huts: tuple[tuple[int, ...], ...]  # per territory, per clan in CLANS order (public)
    villages: tuple[Village, ...]
    chips: tuple[int, ...]  # per player (public, R22)
    clan_points: dict[str, int]  # per clan (public, R22)
    chips_taken: int
    epoch: int
    legal_moves: tuple[Move, ...]
    moves: tuple[Move, ...]  # every move so far, with its village order (public)
    initial_huts: tuple[str, ...]  # the clan of each territory's hut at the deal (public)
    end: str | None
    revealed_clans: tuple[str, ...] | None  # every player's clan, only once the game is over
    scores: tuple[int, ...] | None  # only once the game is over (they would reveal clans)
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict of this view (for a seat device or a log)."""
        return {
            "viewer": self.viewer,
            "own_clan": self.own_clan,
            "players": list(self.players),
            "current_player": self.current_player,
            "ply": self.ply,
            "huts": {
                str(t): {CLANS[c]: n for c, n in enumerate(h) if n}
                for t, h in enumerate(self.huts)
                if any(h)
            },
            "villages": [v.to_dict() for v in self.villages],
            "chips": list(self.chips),
            "clan_points": dict(self.clan_points),
            "chips_taken": self.chips_taken,
            "epoch": self.epoch,
            "legal_moves": [[m.src, m.dst] for m in self.legal_moves],
            "moves": [
                {"from": m.src, "to": m.dst, **({"order": list(m.order)} if m.order else {})}
                for m in self.moves
            ],
            "initial_huts": list(self.initial_huts),
            "end": self.end,
            "revealed_clans": None if self.revealed_clans is None else list(self.revealed_clans),
            "scores": None if self.scores is None else list(self.scores),
            "winners": list(self.winners),
        }


def observe(state: GameState, viewer: int | None) -> Observation:
    """Return ``viewer``'s view of ``state`` (None: the public view)."""
    assert viewer is None or 0 <= viewer < state.num_players, viewer
    over = state.is_over
    return Observation(
        viewer=viewer,
        own_clan=None if viewer is None else state.clan_of(viewer),
        players=state.players,
        current_player=state.current_player,
        ply=state.ply,
        huts=tuple(state.hut_counts(t) for t in range(len(state.board.territories))),
        villages=state.villages,
        chips=state.chips,
        clan_points=state.clan_points,
        chips_taken=state.chips_taken,
        epoch=state.epoch,
        legal_moves=tuple(state.legal_moves()),
        moves=state.moves,
        initial_huts=tuple(CLANS[c] for c in state.initial_huts),
        end=state.end_reason,
        revealed_clans=state.clans if over else None,
        scores=state.scores() if over else None,
        winners=state.winners(),
    )
