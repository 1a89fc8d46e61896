"""The phone seats' links: one unguessable token per seat and game.

A token is 130 random bits written as 26 characters of Crockford's base32 in lower case
(:data:`ALPHABET`: digits and letters, but no i, l, o or u), so that a person who cannot
scan the QR code can read the link off the screen and type it without telling l from 1 or O
from 0, nor minding case (:func:`as_typed` reads it as Crockford's decoding does). It is
compared in constant time with every seat's so that the time taken says nothing about how
close a guess was. A new game makes new tokens; the old ones are remembered as over, so an
old code says "this game is over" rather than "wrong link": the newest :data:`KEEP_OVER` of
them, in the order their games ended (:mod:`.over` keeps them in the state directory between
games). Tokens are kept with the save (``to_json``/``from_json``) so the same QR code works
again after the Pi restarts.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from typing import Any

#: Crockford's base32: no letter that reads as a digit or as another letter.
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
TOKEN_LENGTH = 26  # 26 x 5 = 130 bits
#: How many old links are remembered as over: 256 games of four phones, months of evenings,
#: so a tab a family leaves open says "over" for as long as it could stay open.
KEEP_OVER = 1024
#: How many of them a game's save carries (it is written after every move): the last games'.
SAVED_OVER = 64


def new_token() -> str:
    """A new seat's token: :data:`TOKEN_LENGTH` random characters of :data:`ALPHABET`."""
    return "".join(secrets.choice(ALPHABET) for _ in range(TOKEN_LENGTH))


#: How a person may type a letter of a token off the screen: capitals, and the letters
#: Crockford's base32 leaves out for looking like a digit (i and l for 1, o for 0).
TYPED = str.maketrans("ILOilo", "110110")


def as_typed(token: str) -> str:
    """``token`` as :func:`new_token` made it, from what a person typed: a token of its
    length in lower case, i and l read as 1, o as 0 (Crockford's decoding). An older link
    (22 characters of base64url, where case matters) stays as it is."""
    if len(token) != TOKEN_LENGTH:
        return token
    return token.lower().translate(TYPED)


def newest(links: Iterable[str], keep: int = KEEP_OVER) -> tuple[str, ...]:
    """``links`` (oldest first) without repeats, each where it last came, the newest
    ``keep``."""
    order = dict.fromkeys(reversed(list(links)))  # a repeat counts where it came last
    return tuple(reversed(list(order)[:keep]))


class SeatTokens:
    """Each phone seat's token for one game, and the tokens of games that are over."""

    def __init__(self, tokens: dict[int, str], retired: Iterable[str] = ()) -> None:
        self.tokens = dict(tokens)
        self.retired = newest(retired)  # oldest first

    @classmethod
    def new(cls, seats: Iterable[int], retired: Iterable[str] = ()) -> SeatTokens:
        """Fresh tokens for ``seats`` (a new game or a rematch)."""
        return cls({seat: new_token() for seat in seats}, retired)

    def renew(self, seats: Iterable[int]) -> SeatTokens:
        """The next game's tokens; this game's become "over"."""
        return SeatTokens.new(seats, (*self.retired, *self.tokens.values()))

    def seat_of(self, token: str) -> int | None:
        """The seat whose token ``token`` is (as typed: :func:`as_typed`), or None. Every
        seat's token is compared, each in constant time, whatever matches."""
        found = None
        given = as_typed(token).encode("utf-8", "replace")
        for seat, mine in self.tokens.items():
            if hmac.compare_digest(given, mine.encode("ascii")):
                found = seat
        return found

    def is_over(self, token: str) -> bool:
        """Whether ``token`` belonged to a game that is over."""
        given = as_typed(token).encode("utf-8", "replace")
        return any(hmac.compare_digest(given, old.encode("ascii")) for old in self.retired)

    def to_json(self) -> dict[str, Any]:
        return {"tokens": {str(k): v for k, v in self.tokens.items()},
                "retired": list(self.retired[-SAVED_OVER:])}

    @classmethod
    def from_json(cls, data: Any) -> SeatTokens:
        """Tokens kept with a save; nothing usable gives none (a new game makes new ones)."""
        if not isinstance(data, dict):
            return cls({})
        raw = data.get("tokens", {})
        tokens = {int(k): v for k, v in raw.items()
                  if isinstance(raw, dict) and str(k).isdigit() and isinstance(v, str)
                  and len(v) >= 22} if isinstance(raw, dict) else {}
        retired = [t for t in data.get("retired", []) if isinstance(t, str)]
        return cls(tokens, retired)
