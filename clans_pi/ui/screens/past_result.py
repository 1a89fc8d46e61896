"""A past game's result, opened from its replay at the end: the same table as the live
game's reveal (every player's clan, clan points, chips, total, the winners with the crown,
how the game ended), drawn from the replay's final position and its :class:`PastGame`;
under a player whom the computers guessed, how many of their kept guesses named that
player's clan right. Its one button goes back to the replay."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ...i18n import _, ngettext
from ..canvas import Canvas
from ..theme import GOOD, TEXT_DIM
from ..widgets import Button
from .reveal import ResultsScreen

if TYPE_CHECKING:
    from ...history.replay import GameReplay
    from .base import Host


class PastResultScreen(ResultsScreen):
    name = "past_result"

    def __init__(self, app: Host, replay: GameReplay, back: Callable[[], None]) -> None:
        super().__init__(app, replay.final, replay.record)
        self.replay = replay
        self.game = replay.game
        self._back = back

    def _buttons(self, bottom: pygame.Rect) -> list[Button]:
        return [Button("back", bottom, _("Back to the replay"), self._back, style="primary",
                       px=self.px(22))]

    def back(self) -> None:
        self._back()

    def replay_at(self, move: int) -> None:
        """Back to the replay, at ``move`` (a give-away tapped on the large chart)."""
        self.replay.go(move)
        self._back()

    def _has_note(self, seat: int) -> bool:
        return self.game.players[seat].guessed > 0

    def _draw_note(self, canvas: Canvas, seat: int, line: pygame.Rect) -> None:
        p = self.game.players[seat]
        text = ngettext("{right} of {n} computer player guessed this clan right",
                        "{right} of {n} computer players guessed this clan right",
                        p.guessed).format(right=p.read_right, n=p.guessed)
        canvas.text(text, line, self.px(16), GOOD if p.read_right else TEXT_DIM,
                    align="left")
