"""A deliberately plain reference implementation of the Clans rules (RULES.md R1-R22).

It exists to cross-check the fast engine in ``clans_pi`` (two independent readings of
RULES.md), so it is written from RULES.md alone, never from ``clans_pi``'s code, and it
favours obvious correctness over speed: a ``collections.Counter`` of huts per territory,
plain loops, and every rule computed straight from its definition.

Board and chart are plain dicts in the JSON formats (board: ``{"territories": [{"id",
"terrain", "neighbors", ...}]}``; chart: like ``clans_pi/rules/data/epochs.json``). A tiny
hand-made board with fewer than 60 territories is accepted: nothing here depends on R1's
sizes.
"""

from __future__ import annotations

from collections import Counter

CLANS = ("red", "blue", "green", "yellow", "black")  # R3

BIG_GROUP = 7  # R9: a territory holding 7 or more huts is a "big" group


class ReferenceIllegalMove(ValueError):
    """A move that RULES.md does not allow (or a move after the end of the game)."""


class ReferenceGame:
    def __init__(
        self,
        board: dict,
        chart: dict,
        num_players: int,
        clans: list[str],
        huts: dict[int, str],
    ):
        """board: {"territories": [{"id", "terrain", "neighbors", ...}, ...]} (extra keys ignored).
        chart: {"epochs": [{"number", "chips", "bonus", "favourable", "hostile"}, ...]}.
        num_players 2..4; clans[i] = clan of player i (player 0 moves first);
        huts: territory id -> clan of its single initial hut (every territory)."""
        # --- board (R1, R2) ---
        self.terrain: dict[int, str] = {}
        self.neighbours: dict[int, set[int]] = {}
        for t in board["territories"]:
            tid = int(t["id"])
            if tid in self.terrain:
                raise ValueError(f"territory {tid} listed twice")
            self.terrain[tid] = t["terrain"]
            self.neighbours[tid] = {int(n) for n in t["neighbors"]}
        for tid, ns in self.neighbours.items():
            for n in ns:
                if n == tid:
                    raise ValueError(f"territory {tid} is its own neighbour")
                if n not in self.neighbours:
                    raise ValueError(f"territory {tid} has unknown neighbour {n}")
                # R2: sharing a border is symmetric.
                if tid not in self.neighbours[n]:
                    raise ValueError(f"neighbours not symmetric: {tid} -> {n}")

        # --- epoch chart (R15, R16, R17): chip k (1-based) belongs to the epoch reached by
        # counting the chart's chips in sequence (4 in I, 3 in II, ...). ---
        self.chip_epoch: list[dict] = []  # index k-1 -> epoch dict of chip k
        for epoch in chart["epochs"]:
            for _ in range(int(epoch["chips"])):
                self.chip_epoch.append(epoch)
        self.total_chips = len(self.chip_epoch)  # 12 with the standard chart (R4)

        # --- players (R6, R7) ---
        if not 2 <= num_players <= 4:
            raise ValueError("R6: 2 to 4 players")
        if len(clans) != num_players:
            raise ValueError("one clan per player")
        if len(set(clans)) != len(clans) or any(c not in CLANS for c in clans):
            raise ValueError(f"player clans must be distinct clans among {CLANS}")
        self.num_players = num_players
        self.clans = list(clans)

        # --- initial huts (R5): one hut per territory ---
        huts = {int(k): v for k, v in huts.items()}
        if set(huts) != set(self.terrain):
            raise ValueError("huts must give exactly one clan for every territory")
        self.huts: dict[int, Counter] = {}
        for tid in self.terrain:
            if huts[tid] not in CLANS:
                raise ValueError(f"unknown clan {huts[tid]!r}")
            self.huts[tid] = Counter({huts[tid]: 1})

        # --- game state ---
        self.turn = 0  # number of moves played; current player = turn % num_players
        self.is_village: set[int] = set()  # territories founded as villages (R13)
        self.villages: list[dict] = []  # scored villages, in founding order
        self.clan_points: Counter = Counter({c: 0 for c in CLANS})
        self.chips = [0] * num_players

    # ------------------------------------------------------------------ queries

    def size(self, tid: int) -> int:
        return sum(self.huts[tid].values())

    def current_player(self) -> int:
        # Players alternate in seat order (R7), one move per turn (R8).
        return self.turn % self.num_players

    def chips_taken(self) -> int:
        return len(self.villages)

    def is_over(self) -> bool:
        # R18: over once the last chip has been taken and scored.
        if self.chips_taken() >= self.total_chips:
            return True
        # R19: over when no move is possible.
        return not self._all_moves()

    def end_reason(self) -> str:
        if self.chips_taken() >= self.total_chips:
            return "twelfth_village"
        if not self._all_moves():
            return "no_moves"
        return "in_progress"

    def _move_allowed(self, src: int, dst: int) -> bool:
        """R8 + R9 for one (src, dst) pair, ignoring whether the game is over."""
        if src not in self.huts or dst not in self.huts:
            return False
        # R8: move all huts of one territory (so it must have some) ...
        if self.size(src) == 0:
            return False
        # ... into one neighbouring territory that is not empty.
        if dst not in self.neighbours[src]:
            return False
        if self.size(dst) == 0:
            return False
        # R9: a group of 7+ may only go into a neighbouring group of 7+ at least as large
        # (a permission, not a forced move). A group of fewer than 7 may go anywhere R8 allows.
        if self.size(src) >= BIG_GROUP:
            return self.size(dst) >= BIG_GROUP and self.size(dst) >= self.size(src)
        return True

    def _all_moves(self) -> set[tuple[int, int]]:
        moves = set()
        for src in self.huts:
            for dst in self.neighbours[src]:
                if self._move_allowed(src, dst):
                    moves.add((src, dst))
        return moves

    def legal_moves(self) -> set[tuple[int, int]]:
        if self.chips_taken() >= self.total_chips:  # R18
            return set()
        return self._all_moves()  # empty when R19 applies

    def _villages_after(self, huts: dict[int, Counter]) -> set[int]:
        """R10, straight from the definition: every non-empty territory (not already a
        village) whose neighbours are all empty."""
        found = set()
        for tid in huts:
            if tid in self.is_village:
                continue
            if sum(huts[tid].values()) == 0:
                continue
            if all(sum(huts[n].values()) == 0 for n in self.neighbours[tid]):
                found.add(tid)
        return found

    def _after_move(self, src: int, dst: int) -> dict[int, Counter]:
        """A copy of the hut map with src's huts moved onto dst (R8)."""
        huts = {tid: Counter(c) for tid, c in self.huts.items()}
        huts[dst] += huts[src]
        huts[src] = Counter()
        return huts

    def villages_founded_by(self, src: int, dst: int) -> set[int]:
        """Territories that would become villages (R10) if this legal move were played."""
        self._check_legal(src, dst)
        return self._villages_after(self._after_move(src, dst))

    def _check_legal(self, src: int, dst: int) -> None:
        if self.is_over():
            raise ReferenceIllegalMove("the game is over")
        if not self._move_allowed(src, dst):
            raise ReferenceIllegalMove(f"illegal move {src} -> {dst} (R8/R9)")

    # ------------------------------------------------------------------ playing

    def play(self, src: int, dst: int, order: list[int] | None = None) -> None:
        self._check_legal(src, dst)
        new_huts = self._after_move(src, dst)
        founded = self._villages_after(new_huts)
        if order is None:
            order = sorted(founded)  # R11 default: ascending territory id
        else:
            order = [int(t) for t in order]
            if len(order) != len(founded) or set(order) != founded:
                raise ReferenceIllegalMove(
                    f"order {order} is not a permutation of the villages founded "
                    f"{sorted(founded)} (R11)"
                )

        # The move itself (R8). An emptied territory stays empty: nothing can move into it.
        self.huts = new_huts
        mover = self.current_player()
        self.turn += 1

        for tid in order:
            # R13: a founded territory is marked, whether or not a chip was left for it.
            self.is_village.add(tid)
            if self.chips_taken() >= self.total_chips:
                # R18: villages beyond the remaining chips are not scored at all.
                continue
            self._found(tid, mover)

    def _found(self, tid: int, founder: int) -> None:
        """R12, steps 1-3, for one village."""
        # R12.1: the founder takes the top chip (+1 point at the end, R20).
        chip = self.chips_taken() + 1
        epoch = self.chip_epoch[chip - 1]  # R16/R17: chart-driven
        self.chips[founder] += 1

        # R12.2 strife: with all 5 clans present, every clan with exactly 1 hut loses it.
        village = self.huts[tid]
        if all(village[c] >= 1 for c in CLANS):
            for c in CLANS:
                if village[c] == 1:
                    village[c] = 0
        village = +village  # drop zero counts
        self.huts[tid] = village
        huts_after_strife = {c: village[c] for c in CLANS if village[c] >= 1}

        # R14: value = huts after strife, adjusted by terrain in the chip's epoch.
        terrain = self.terrain[tid]
        value = sum(village.values())
        if terrain in epoch["hostile"]:
            # Hostile: value 0, nobody scores, huts removed (the founder keeps the chip).
            value = 0
            scoring_clans = []
            self.huts[tid] = Counter()
        else:
            if terrain in epoch["favourable"]:
                value += int(epoch["bonus"])
            # R12.3: every clan still present gains the full value.
            scoring_clans = list(huts_after_strife)
        for c in scoring_clans:
            self.clan_points[c] += value

        self.villages.append(
            {
                "territory": tid,
                "chip": chip,
                "epoch": int(epoch["number"]),
                "founder": founder,
                "huts": huts_after_strife,
                "value": value,
            }
        )

    # ------------------------------------------------------------------ result

    def result(self) -> dict:
        clan_points = {c: self.clan_points[c] for c in CLANS}
        chips = list(self.chips)
        # R20: score = own clan's points + own chips.
        scores = [clan_points[self.clans[i]] + chips[i] for i in range(self.num_players)]
        end = self.end_reason()
        winners: list[int] = []
        if end != "in_progress":
            # R21: the highest score wins; equal highest scores share the win.
            best = max(scores)
            winners = [i for i in range(self.num_players) if scores[i] == best]
        return {
            "clan_points": clan_points,
            "chips": chips,
            "scores": scores,
            "winners": winners,
            "villages": [{**v, "huts": dict(v["huts"])} for v in self.villages],
            "end": end,
        }
