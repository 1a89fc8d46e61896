"""How honest the computer players' guesses are: the calibration of probability forecasts.

A *guess* is one bot's probabilities for one other player's clan, over the clans that
player may hold (every clan but the bot's own: 4 of them), with the clan that player really
had. Its guesses are *calibrated* when, among all the probabilities it gave, those near p
were right about a fraction p of the time; the reliability table shows it bin by bin.

The Brier score of a guess is the squared distance between its probabilities and the truth
(1 on the true clan, 0 elsewhere), summed over the possible clans: 0 for a certain right
guess, 2 for a certain wrong one, and ``(k - 1) / k`` for the uniform guess over k clans
(0.75 for 4). The Brier skill score ``1 - brier / uniform brier`` is 0 for a guess no better
than chance and 1 for a perfect one; it is negative for a confidently wrong guesser.

Pure maths: no game, no bot. Used by scripts/research/tournament.py.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ..rules.constants import CLANS

#: How sure a computer was of a guess, in words (the reveal screen's how_sure; the tournament
#: reports the guesses by them): at least SURE of its weight on the clan it
#: named, "sure"; at least LIKELY, "likely"; less, "a guess". Words, not a percentage: a
#: rounded "100 %" on a wrong guess said more than the computer knew. Checked against the
#: belief's calibration (docs/journal.md, 2026-11-25): of 314 end-of-game guesses by Hard
#: and Normal, the "sure" ones were right 99 % of the time, "likely" 73 %, "a guess" 42 %;
#: 88 % in a held-out set of 4-player games with a random mover, read by exclusion.
SURE = 0.9
LIKELY = 0.5

__all__ = [
    "LIKELY",
    "SURE",
    "Bin",
    "Guess",
    "Summary",
    "brier",
    "expected_calibration_error",
    "likeliest",
    "outcomes",
    "reliability",
    "summarise",
    "top_bands",
    "uniform_brier",
    "wilson",
]


@dataclass(frozen=True)
class Guess:
    """One bot's probabilities for one other player's clan (``probs``: over the clans that
    player may hold), and the clan they really had (``truth``, one of them)."""

    probs: Mapping[str, float]
    truth: str

    def __post_init__(self) -> None:
        if self.truth not in self.probs:
            raise ValueError(f"true clan {self.truth!r} is not one of {sorted(self.probs)}")

    @classmethod
    def of(cls, probs: Mapping[str, float], truth: str, ruled_out: Iterable[str] = ()
           ) -> Guess:
        """From a bot's distribution over every clan, the clans in ``ruled_out`` (the
        bot's own) left out: the rules, not the bot, exclude them."""
        skip = set(ruled_out)
        return cls({c: p for c, p in probs.items() if c not in skip}, truth)


@dataclass(frozen=True)
class Bin:
    """Probabilities in ``[lo, hi)`` (the last bin includes 1): how many (``count``), their
    mean, and the fraction of them given to the true clan (``observed``); NaN when empty.
    ``series``: how many independent series of readings they came from (one reader's
    readings of one player through one game move after move are one series, not
    independent draws); ``count`` when not told."""

    lo: float
    hi: float
    count: int
    mean: float
    observed: float
    series: int = -1

    def overconfident(self, blind: float) -> bool:
        """More confident than it came true: further from the blind guess ``blind`` (1 in
        the number of clans possible) than the 95 % Wilson interval of how often it came
        true allows, over the bin's independent series. Above the blind guess a bin said
        a clan more surely than it came true; below it, ruled a clan out more surely than
        it was wrong (readings of 0.9 that came true 80 % of the time over 400 series
        are; over 20 series they may be chance)."""
        if not self.count:
            return False
        n = self.series if self.series >= 0 else self.count
        low, high = wilson(self.observed * n, n)
        return self.mean > high if self.mean >= blind else self.mean < low


@dataclass(frozen=True)
class Summary:
    """A set of guesses in figures: mean Brier score, the uniform guess's, the skill score,
    how often the top guess was right (ties shared), and how many probabilities of exactly 1
    there were (none unless the rules made the clan certain)."""

    guesses: int
    brier: float
    uniform: float
    skill: float
    top_right: float
    certain: int


def outcomes(guesses: Iterable[Guess]) -> list[tuple[float, bool]]:
    """Every (probability, was it the true clan) pair: one per possible clan per guess."""
    return [(p, clan == g.truth) for g in guesses for clan, p in g.probs.items()]


def reliability(pairs: Sequence[tuple[float, bool]], bins: int = 10,
                series: Sequence[Hashable] | None = None) -> list[Bin]:
    """The reliability table of ``pairs`` (see :func:`outcomes`) in ``bins`` equal bins
    of [0, 1]; ``series``, if given, names the series each pair belongs to (see
    :class:`Bin`)."""
    assert bins > 0
    groups: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
    names: list[set] = [set() for _ in range(bins)]
    for k, (p, right) in enumerate(pairs):
        assert 0.0 <= p <= 1.0, p
        b = min(bins - 1, int(p * bins))
        groups[b].append((p, right))
        if series is not None:
            names[b].add(series[k])
    out = []
    for i, group in enumerate(groups):
        n = len(group)
        mean = sum(p for p, _ in group) / n if n else float("nan")
        seen = sum(r for _, r in group) / n if n else float("nan")
        out.append(Bin(i / bins, (i + 1) / bins, n, mean, seen,
                       len(names[i]) if series is not None else n))
    return out


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (``z`` 1.96) of ``n`` draws."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def expected_calibration_error(pairs: Sequence[tuple[float, bool]], bins: int = 10) -> float:
    """The count-weighted mean of ``|mean probability - observed frequency|`` over the bins
    of :func:`reliability`: 0 for a perfectly calibrated forecaster."""
    total = sum(b.count for b in reliability(pairs, bins))
    if not total:
        return float("nan")
    return sum(b.count * abs(b.mean - b.observed) for b in reliability(pairs, bins)
               if b.count) / total


def brier(guess: Guess) -> float:
    """The multi-class Brier score of one guess (0 best, 2 worst)."""
    return sum((p - (clan == guess.truth)) ** 2 for clan, p in guess.probs.items())


def uniform_brier(k: int) -> float:
    """The Brier score of the uniform guess over ``k`` clans, whichever is true:
    ``(1 - 1/k)**2 + (k - 1) / k**2 = (k - 1) / k``."""
    assert k > 0
    return (k - 1) / k


def summarise(guesses: Sequence[Guess]) -> Summary:
    """The figures of :class:`Summary` for ``guesses`` (NaN when there are none)."""
    n = len(guesses)
    if not n:
        nan = float("nan")
        return Summary(0, nan, nan, nan, nan, 0)
    score = sum(brier(g) for g in guesses) / n
    uniform = sum(uniform_brier(len(g.probs)) for g in guesses) / n
    right = 0.0
    for g in guesses:
        top = max(g.probs.values())
        tops = [c for c, p in g.probs.items() if p == top]
        right += (g.truth in tops) / len(tops)
    certain = sum(p >= 1.0 for g in guesses for p in g.probs.values())
    return Summary(n, score, uniform, 1.0 - score / uniform, right / n, certain)


def top_bands(guesses: Sequence[Guess], edges: Sequence[float]) -> list[Bin]:
    """The guesses' top probabilities (the clan a bot would name) binned at ``edges``
    (e.g. the reveal screen's words: 0.5 "likely", 0.9 "sure"): per band, how many, their
    mean, and how often the named clan was right (ties shared)."""
    bounds = [0.0, *edges, 1.0]
    pairs = []
    for g in guesses:
        top = max(g.probs.values())
        tops = [c for c, p in g.probs.items() if p == top]
        pairs.append((top, (g.truth in tops) / len(tops)))
    out = []
    for i, (lo, hi) in enumerate(pairwise(bounds)):
        last = i == len(bounds) - 2
        group = [(p, r) for p, r in pairs if lo <= p and (p < hi or (last and p <= hi))]
        n = len(group)
        mean = sum(p for p, _ in group) / n if n else float("nan")
        seen = sum(r for _, r in group) / n if n else float("nan")
        out.append(Bin(lo, hi, n, mean, seen))
    return out


def likeliest(dist: object) -> tuple[str | None, float]:
    """The clan a guess gives most weight to, and that weight; None when unreadable or when
    two clans share the most weight (the bot could not tell: shown as "?")."""
    if not isinstance(dist, dict):
        return None, 0.0
    weights = sorted(((float(w), c) for c, w in dist.items()
                      if c in CLANS and isinstance(w, int | float) and w > 0), reverse=True)
    if not weights or (len(weights) > 1 and weights[0][0] - weights[1][0] < 0.005):
        return None, 0.0
    return weights[0][1], min(1.0, weights[0][0])
