"""How well each player hid their clan, move by move: read after the game from its record.

The game is over, so nothing is secret any more; but the reading never uses a clan that the
reader could not see during play. For every player and after every move, each *other seat*
reads them with the computers' own model (:class:`clans_pi.bots.belief.Belief`): it knows
its own clan and sees the moves, nothing else, so its blind guess is 1 in 4 (:data:`SEAT_BLIND`).
An *onlooker* (a fifth person watching, no clan of their own) reads them too, blind 1 in 5
(:data:`ONLOOKER_BLIND`).

**The table's reading** of a player (:attr:`PlayerHiding.table`, the chart's line and the
JSON's ``curve``) is the mean, over the other seats, of the probability that seat put on
the player's true clan; ``curve[0]`` is the deal (1 in 4), ``curve[k]`` after move ``k``.

**Give-aways** are the player's own moves after which the table's reading rose most: at most
:data:`MAX_GIVEAWAYS`, each by at least :data:`GIVEAWAY_RISE`, largest first.

**The verdict** (thresholds stated here and in docs/playing.md), from the table's reading:

* ``read`` ("Read from move k"): at the end at least :data:`READ`; ``k`` is the move from
  which it stayed at least READ to the end;
* ``suspected`` ("Suspected by the end"): at the end from :data:`HIDDEN` up to READ;
* ``hidden`` ("Hidden to the end"): at the end from MISLED up to HIDDEN;
* ``misled`` ("Led the table astray"): at the end below :data:`MISLED` (the table was
  fairly sure of a wrong clan).

**What the percentages are** (:data:`READING_NOTE`, said wherever a chart is shown large):
how the computers' reader, which expects players who play their clan openly, players who
hide it and random movers, would have read the moves. It is checked on games between
computer players; a person may play unlike any of them, so for people the percentages are
an estimate of how plainly the moves showed the clan, not what the table really thought.

One evaluation of each move serves every reader (:func:`move_evidence`); its time is
measured by scripts/bench/hiding.py (docs/figures.md#hiding-analysis). No pygame, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.belief import Belief
from ..i18n import N_, _
from ..palette import clan_name
from ..rules.board import Board
from ..rules.constants import CLANS
from ..rules.epochs import FAVOURABLE, HOSTILE, EpochChart
from ..rules.errors import ClansError, RecordError
from ..rules.moves import Move
from ..rules.observation import Observation
from ..rules.record import RECORD_FORMAT, replay
from ..rules.state import GameState

#: A seat's blind guess of another player's clan (it knows its own: 4 are left).
SEAT_BLIND = 0.25
#: An onlooker's blind guess (no clan of their own: 5 are possible).
ONLOOKER_BLIND = 0.2
#: The verdict's thresholds on the table's reading at the end (see the module's words).
READ = 0.6
HIDDEN = 0.4
MISLED = 0.1
#: A give-away: one of the player's moves after which the table's reading rose this much.
GIVEAWAY_RISE = 0.1
MAX_GIVEAWAYS = 3

#: What changes in how a game is read must change this (the cache of readings follows it).
MODEL_VERSION = "hiding/3"

__all__ = ["GIVEAWAY_RISE", "HIDDEN", "MAX_GIVEAWAYS", "MISLED", "MODEL_VERSION",
           "ONLOOKER_BLIND", "READ", "READING_NOTE", "SEAT_BLIND", "Giveaway", "Hiding",
           "PlayerHiding", "Verdict", "analyse", "analyse_record", "chart_words",
           "record_of_view", "verdict_of"]

_TERRAIN = {"forest": N_("forest"), "mountain": N_("mountain"), "steppe": N_("steppe"),
            "grassland": N_("grassland")}
_VERDICTS = {"hidden": N_("Hidden to the end"), "suspected": N_("Suspected by the end"),
             "misled": N_("Led the table astray")}
#: Over a large chart, on the table's screen and the phone's (see the module's words).
# TRANSLATORS: over the chart of how sure the others were of a clan: its
# percentages are how the computer players read moves, and people may play
# otherwise.
READING_NOTE = N_("As the computers read moves; people may play unlike any of them.")


@dataclass(frozen=True, slots=True)
class MoveFacts:
    """What a move did, in the words a player would use: the clans of the huts moved, the
    terrain they went to, and where a village was founded (its terrain and what the epoch
    made of it: ``favourable``, ``hostile`` or ``""``)."""

    clans: tuple[str, ...]
    terrain: str
    village: str  # "" none, "here": the huts' new territory, "elsewhere"
    village_terrain: str = ""
    effect: str = ""

    def words(self) -> str:
        """The move in a few words, in the language in use."""
        names = [clan_name(c) for c in self.clans]
        # TRANSLATORS: between the names of clans whose huts moved together ("Blue, Black").
        huts = _("{clans} huts").format(clans=_(", ").join(names))
        terrain = _(_TERRAIN[self.terrain])
        if not self.village:
            return _("{huts} onto {terrain}").format(huts=huts, terrain=terrain)
        where = _(_TERRAIN[self.village_terrain])
        if self.effect == "favourable":
            place = _("favourable {terrain}").format(terrain=where)
        elif self.effect == "hostile":
            place = _("hostile {terrain}").format(terrain=where)
        else:
            place = where
        if self.village == "here":
            return _("{huts} into a village on {place}").format(huts=huts, place=place)
        return _("{huts} onto {terrain}, founding a village on {place}").format(
            huts=huts, terrain=terrain, place=place)

    def to_json(self) -> list[Any]:
        return [list(self.clans), self.terrain, self.village, self.village_terrain,
                self.effect]

    @classmethod
    def from_json(cls, data: Any) -> MoveFacts:
        clans, terrain, village, village_terrain, effect = data
        facts = cls(tuple(clans), terrain, village, village_terrain, effect)
        if (not all(c in CLANS for c in facts.clans) or terrain not in _TERRAIN
                or village not in ("", "here", "elsewhere")
                or (village and village_terrain not in _TERRAIN)
                or effect not in ("", "favourable", "hostile")):
            raise ValueError("bad move facts")
        return facts


def facts_of(state: GameState, move: Move) -> MoveFacts:
    """What ``move`` does in ``state`` (before it is made)."""
    board = state.board
    clans = tuple(c for c in CLANS if state.huts(move.src).get(c))
    founded = state.founds(Move(move.src, move.dst))
    if not founded:
        return MoveFacts(clans, board.terrain(move.dst), "")
    order = tuple(move.order) if move.order is not None else founded
    at = move.dst if move.dst in founded else order[0]
    terrain = board.terrain(at)
    effect = state.chart.epoch(state.epoch).effect(terrain)
    word = "favourable" if effect == FAVOURABLE else "hostile" if effect == HOSTILE else ""
    return MoveFacts(clans, board.terrain(move.dst), "here" if at == move.dst else "elsewhere",
                     terrain, word)


@dataclass(frozen=True, slots=True)
class Giveaway:
    """One of a player's moves that told the table most: move ``move`` (numbered from 1),
    the table's reading of the player before and after it, and what the move did."""

    move: int
    before: float
    after: float
    facts: MoveFacts

    @property
    def words(self) -> str:
        return self.facts.words()

    def line(self) -> str:
        """E.g. "move 14: Red huts into a village on favourable forest: 31 % to 72 %"."""
        return _("move {n}: {words}: {before} % to {after} %").format(
            n=self.move, words=self.words, before=percent(self.before),
            after=percent(self.after))

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "before": round(self.before, 4),
                "after": round(self.after, 4), "words": self.words}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The one-line verdict: ``kind`` (read, suspected, hidden, misled) and, for ``read``,
    the move from which the table read the player."""

    kind: str
    move: int = 0

    def text(self) -> str:
        if self.kind == "read":
            return _("Read from move {n}").format(n=self.move)
        return _(_VERDICTS[self.kind])


def percent(p: float) -> int:
    """A probability as a whole percentage, as every screen and the JSON's words show it:
    1 to 99, never 0 or 100 (the moves alone never make a clan certain or impossible;
    only the reveal does, R20)."""
    return min(99, max(1, round(100 * p)))


@dataclass(frozen=True, slots=True)
class PlayerHiding:
    """One player's reading (turn order ``player``): per reader, a probability on their
    true clan after each move (index 0: the deal)."""

    player: int
    name: str
    clan: str
    by_seat: Mapping[int, tuple[float, ...]]  # the other seats' readings (turn order)
    onlooker: tuple[float, ...]
    moves: tuple[int, ...]  # the moves this player made (numbered from 1)
    facts: Mapping[int, MoveFacts]  # what each of them did

    @property
    def table(self) -> tuple[float, ...]:
        """The table's reading: the mean over the other seats (see the module's words)."""
        rows = list(self.by_seat.values())
        return tuple(sum(col) / len(rows) for col in zip(*rows, strict=True))

    @property
    def giveaways(self) -> list[Giveaway]:
        curve = self.table
        rises = sorted(((curve[k] - curve[k - 1], k) for k in self.moves),
                       key=lambda r: (-r[0], r[1]))
        return [Giveaway(k, curve[k - 1], curve[k], self.facts[k])
                for rise, k in rises[:MAX_GIVEAWAYS] if rise >= GIVEAWAY_RISE]

    @property
    def verdict(self) -> Verdict:
        return verdict_of(self.table)

    def for_phone(self) -> dict[str, Any]:
        """This player's own reading, as their phone shows it at the end (nobody else's:
        the phone gets only its own seat's numbers). ``labels``: the chart's words, as on
        the table's screen; ``note``: what the percentages are (:data:`READING_NOTE`)."""
        curve = self.table
        return {"curve": [round(p, 4) for p in curve], "blind": SEAT_BLIND,
                "verdict": self.verdict.text(),
                "title": _("How sure the others were of your clan"),
                "note": _(READING_NOTE),
                "labels": {"blind": _("blind guess"), "first": _("deal"),
                           "last": _("move {n}").format(n=len(curve) - 1)},
                "giveaways": [{"move": g.move, "before": round(g.before, 4),
                               "after": round(g.after, 4), "line": g.line()}
                              for g in self.giveaways]}

    def to_json(self) -> dict[str, Any]:
        """As ``clans-pi history --analysis FILE --json`` prints it."""
        return {"name": self.name, "clan": self.clan,
                "curve": [round(p, 4) for p in self.table],
                "onlooker": [round(p, 4) for p in self.onlooker],
                "giveaways": [g.to_json() for g in self.giveaways],
                "verdict": self.verdict.text()}


def verdict_of(curve: Sequence[float]) -> Verdict:
    """The verdict on a table's reading (see the module's thresholds)."""
    end = curve[-1]
    if end >= READ:
        k = len(curve) - 1
        while k > 0 and curve[k - 1] >= READ:
            k -= 1
        return Verdict("read", k)
    if end >= HIDDEN:
        return Verdict("suspected")
    return Verdict("misled" if end < MISLED else "hidden")


@dataclass(frozen=True, slots=True)
class Hiding:
    """A finished game's reading: every player (turn order), the number of moves, and the
    computers' own final guesses kept in the record (``{"by", "of", "clan", "weight"}``)."""

    players: tuple[PlayerHiding, ...]
    total: int
    guesses: tuple[tuple[int, int, str, float], ...] = ()

    def of(self, name: str) -> PlayerHiding | None:
        return next((p for p in self.players if p.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players], "moves": self.total,
                "guesses": [{"by": b, "of": o, "clan": c, "weight": w}
                            for b, o, c, w in self.guesses]}

    def to_cache(self) -> dict[str, Any]:
        """Everything, for the cache (:meth:`from_cache` reads it back)."""
        return {"total": self.total, "guesses": [list(g) for g in self.guesses],
                "players": [{"player": p.player, "name": p.name, "clan": p.clan,
                             "by_seat": {str(s): _six(c) for s, c in p.by_seat.items()},
                             "onlooker": _six(p.onlooker), "moves": list(p.moves),
                             "facts": {str(k): f.to_json() for k, f in p.facts.items()}}
                            for p in self.players]}

    @classmethod
    def from_cache(cls, data: Any) -> Hiding:
        """Raises KeyError, TypeError or ValueError for anything it cannot use."""
        total = int(data["total"])
        players = []
        for p in data["players"]:
            by_seat = {int(s): tuple(float(x) for x in c) for s, c in p["by_seat"].items()}
            onlooker = tuple(float(x) for x in p["onlooker"])
            if not by_seat or any(len(c) != total + 1 for c in (*by_seat.values(), onlooker)):
                raise ValueError("bad curve")
            moves = tuple(int(k) for k in p["moves"])
            facts = {int(k): MoveFacts.from_json(f) for k, f in p["facts"].items()}
            if set(facts) != set(moves) or not all(1 <= k <= total for k in moves):
                raise ValueError("bad moves")
            if not isinstance(p["name"], str) or p["clan"] not in CLANS:
                raise ValueError("bad player")
            players.append(PlayerHiding(int(p["player"]), p["name"], p["clan"], by_seat,
                                        onlooker, moves, facts))
        guesses = tuple((int(b), int(o), str(c), float(w)) for b, o, c, w in data["guesses"])
        return cls(tuple(players), total, guesses)


def chart_words() -> list[str]:
    """Every string a seat's chart on its phone can hold, in the language in use: those
    of :meth:`PlayerHiding.for_phone` (its title, labels, a verdict, give-aways' lines),
    every verdict, and the line of every kind of move (each clan alone). The phone's font
    is made to hold their letters (scripts/make/phone_font.py)."""
    every = []
    for clan in CLANS:
        for terrain in _TERRAIN:
            every.append(MoveFacts((clan,), terrain, ""))
            for village in ("here", "elsewhere"):
                every += [MoveFacts((clan,), terrain, village, where, effect)
                          for where in _TERRAIN for effect in ("", "favourable", "hostile")]
    moves = tuple(range(1, 3 * MAX_GIVEAWAYS + 1, 3))
    curve = [SEAT_BLIND]
    for k in range(1, moves[-1] + 1):
        curve.append(min(0.99, curve[-1] + (0.2 if k in moves else 0.0)))
    sample = PlayerHiding(0, "", CLANS[0], {1: tuple(curve)}, tuple(curve), moves,
                          dict(zip(moves, every, strict=False)))
    return [*_strings(sample.for_phone()),
            *(Verdict(kind, 99).text() for kind in ("read", *_VERDICTS)),
            *(Giveaway(99, 0.01, 0.99, facts).line() for facts in every)]


def _strings(value: Any) -> list[str]:
    """Every string in a message (its values, at any depth)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


def _six(curve: Sequence[float]) -> list[float]:
    return [round(p, 6) for p in curve]


def analyse(final: GameState, *, guesses: Any = None,
            progress: Callable[[float], None] | None = None) -> Hiding:
    """Read the finished (or not) game ``final`` move by move from its deal. ``progress``
    is told the share done (0..1) after each move."""
    n = final.num_players
    clans = final.clans
    huts = {t: CLANS[c] for t, c in enumerate(final.initial_huts)}
    state = GameState(final.board, final.chart, final.players, clans, huts)
    seats = [Belief(n, v, clans[v]) for v in range(n)]
    onlooker = Belief(n, None, None)

    def reading() -> list[list[float]]:  # [reader (n: the onlooker)][player]
        out = []
        for belief in (*seats, onlooker):
            marg = belief.marginals()
            out.append([marg[p][clans[p]] if p in marg else 0.0 for p in range(n)])
        return out

    rows = [reading()]
    facts: dict[int, dict[int, MoveFacts]] = {p: {} for p in range(n)}
    moves = final.moves
    for k, move in enumerate(moves, start=1):
        mover = state.current_player
        facts[mover][k] = facts_of(state, move)
        evidence = onlooker.read(state, move)  # the onlooker sees all
        for belief in (*seats, onlooker):
            belief.take(mover, evidence)
        state.push(move, undo=False)
        rows.append(reading())
        if progress is not None:
            progress(k / len(moves))
    players = []
    for p in range(n):
        # To a millionth: the figures a kept reading holds (hiding_cache) are the same.
        by_seat = {v: tuple(_six([r[v][p] for r in rows])) for v in range(n) if v != p}
        players.append(PlayerHiding(p, final.players[p], clans[p], by_seat,
                                    tuple(_six([r[n][p] for r in rows])), tuple(facts[p]),
                                    facts[p]))
    return Hiding(tuple(players), len(moves), _guesses(guesses, n))


def analyse_record(data: Any, board: Board, chart: EpochChart, *,
                   progress: Callable[[float], None] | None = None) -> Hiding:
    """:func:`analyse` the game of a record (parsed JSON). Raises :class:`RecordError`
    with one line saying what is wrong and where for a damaged record or an unfinished
    game."""
    try:
        final = replay(data, board, chart, undo=False)
    except RecordError:
        raise
    except ClansError as exc:
        raise RecordError(str(exc)) from None
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as exc:
        raise RecordError(f"record: bad value ({type(exc).__name__})") from None
    if not final.is_over:
        raise RecordError(f"the game is not over after {final.ply} moves")
    return analyse(final, guesses=data.get("guesses"), progress=progress)


def record_of_view(obs: Observation) -> dict[str, Any]:
    """The record of a finished game from its public view: the deal, the moves and, the
    game being over, every clan (R20). Raises RecordError before the end (R22: the clans
    are nobody's business until then)."""
    if obs.revealed_clans is None:
        raise RecordError("the game is not over: its clans are secret (R22)")
    moves = []
    for m in obs.moves:
        entry: dict[str, Any] = {"from": m.src, "to": m.dst}
        if m.order is not None:
            entry["order"] = list(m.order)
        moves.append(entry)
    return {"format": RECORD_FORMAT, "players": list(obs.players),
            "clans": list(obs.revealed_clans),
            "huts": {str(t): c for t, c in enumerate(obs.initial_huts)}, "moves": moves}


def _guesses(raw: Any, n: int) -> tuple[tuple[int, int, str, float], ...]:
    """The computers' kept final guesses that make sense (others are left out)."""
    if not isinstance(raw, list):
        return ()
    out = []
    for g in raw:
        if not isinstance(g, Mapping):
            continue
        by, of, clan, weight = g.get("by"), g.get("of"), g.get("clan"), g.get("weight")
        if (type(by) is int and type(of) is int and 0 <= by < n and 0 <= of < n and by != of
                and clan in CLANS and isinstance(weight, int | float)
                and not isinstance(weight, bool) and 0 <= weight <= 1):
            out.append((by, of, clan, float(weight)))
    return tuple(out)
