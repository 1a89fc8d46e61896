"""The family's scoreboard from the finished games' records, and merging a renamed person's
old games under their new name: on records written as the table writes them,
with figures worked out here from the games themselves."""

from __future__ import annotations

import errno
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clans_pi.history import History, Merged, recent_since, scoreboard
from clans_pi.history import index as index_module
from clans_pi.session import kind_label
from tests.history_helpers import (
    computer,
    family,
    finished_state,
    guess,
    history,
    person,
    seed_where,
    write_game,
)

ANNA, BEN, CLEO = person("Anna", "fox"), person("Ben", "bear"), person("Cleo", "hare")
OWL_HARD, WOLF_HARD, WOLF_EASY = computer("hard", "owl"), computer("hard", "wolf"), \
    computer("easy", "wolf")


def _row(standings, name):
    return next(s for s in standings if s.name == name)


def _score(state, name):
    return state.scores()[state.players.index(name)]


def _won(state, name):
    return state.players.index(name) in state.winners()


def test_games_wins_average_and_best_of_each_person(tmp_path):
    """R20: a score is clan points plus chips; R21: the highest score wins."""
    _, one = write_game(tmp_path, [ANNA, BEN, OWL_HARD], seed_where(3, False, 0), days_ago=2)
    _, two = write_game(tmp_path, [BEN, ANNA], seed_where(2, False, 1), days_ago=1)
    rows = scoreboard(history(tmp_path).games)
    anna = _row(rows, "Anna")
    assert anna.games == 2 and anna.is_human
    assert anna.wins == _won(one, "Anna") + _won(two, "Anna")
    assert anna.average == pytest.approx((_score(one, "Anna") + _score(two, "Anna")) / 2)
    assert anna.best == max(_score(one, "Anna"), _score(two, "Anna"))
    assert sum(s.wins for s in rows) == 2  # one whole win per game
    assert [s.wins for s in rows] == sorted((s.wins for s in rows), reverse=True)


def test_a_shared_win_counts_as_a_share(tmp_path):
    """R21: players with equal highest scores share the win: each gets a share of it."""
    _, game = write_game(tmp_path, [ANNA, BEN, CLEO], seed_where(3, True, 0))
    winners = [game.players[p] for p in game.winners()]
    assert len(winners) >= 2
    rows = scoreboard(history(tmp_path).games)
    for name in ("Anna", "Ben", "Cleo"):
        expected = 1 / len(winners) if name in winners else 0.0
        assert _row(rows, name).wins == pytest.approx(expected)
    assert sum(s.wins for s in rows) == pytest.approx(1)


def test_read_right_counts_the_computers_final_guesses(tmp_path):
    """R22 until the end; at R20 the computers' kept guesses are checked against the clans."""
    seats = [ANNA, BEN, OWL_HARD, WOLF_EASY]
    seed = seed_where(4, False, 0)
    state = finished_state([s.name for s in seats], seed)
    guesses = [guess(state, OWL_HARD.name, "Anna", right=True),
               guess(state, WOLF_EASY.name, "Anna", right=False),
               guess(state, OWL_HARD.name, "Ben", right=True),
               {"by": 9, "of": 0, "clan": "red", "weight": 1}]  # not a player: left out
    write_game(tmp_path, seats, seed, guesses=guesses)
    rows = scoreboard(history(tmp_path).games)
    assert (_row(rows, "Anna").read_right, _row(rows, "Anna").guessed) == (1, 2)
    assert (_row(rows, "Ben").read_right, _row(rows, "Ben").guessed) == (1, 1)
    hard = _row(rows, kind_label("hard"))
    assert (hard.read_right, hard.guessed) == (0, 0)


def test_the_last_30_days_leave_out_older_games(tmp_path):
    write_game(tmp_path, [ANNA, BEN], seed_where(2, False, 0), days_ago=3)
    write_game(tmp_path, [ANNA, CLEO], seed_where(2, False, 1), days_ago=45)
    games = history(tmp_path).games
    recent = scoreboard(games, since=recent_since())
    assert {s.name for s in recent} == {"Anna", "Ben"}
    assert _row(recent, "Anna").games == 1
    assert _row(scoreboard(games), "Anna").games == 2


def test_computers_are_grouped_by_level_not_by_name(tmp_path):
    write_game(tmp_path, [ANNA, OWL_HARD], seed_where(2, False, 0))
    write_game(tmp_path, [ANNA, WOLF_HARD, WOLF_EASY], seed_where(3, False, 0))
    rows = scoreboard(history(tmp_path).games)
    assert {s.name for s in rows} == {"Anna", kind_label("hard"), kind_label("easy")}
    assert _row(rows, kind_label("hard")).games == 2
    assert not _row(rows, kind_label("hard")).is_human
    assert _row(rows, kind_label("easy")).games == 1


def test_one_name_is_one_row_with_its_latest_picture(tmp_path):
    write_game(tmp_path, [person("Anna", "fox"), BEN], seed_where(2, False, 0), days_ago=5)
    write_game(tmp_path, [person("Anna", "cat"), CLEO], seed_where(2, False, 1), days_ago=1)
    rows = scoreboard(history(tmp_path).games)
    assert [s.name for s in rows].count("Anna") == 1
    assert _row(rows, "Anna").games == 2 and _row(rows, "Anna").avatar == "cat"


def test_damaged_and_deleted_records_drop_out_of_the_scoreboard(tmp_path):
    good, _ = write_game(tmp_path, [ANNA, BEN], seed_where(2, False, 0))
    cut, _ = write_game(tmp_path, [ANNA, CLEO], seed_where(2, False, 1))
    cheat, _ = write_game(tmp_path, [ANNA, BEN], seed_where(2, False, 2))
    gone, _ = write_game(tmp_path, [ANNA, BEN], seed_where(2, False, 3))
    h = history(tmp_path)
    assert _row(scoreboard(h.games), "Anna").games == 4
    cut.write_text(cut.read_text()[:200])
    record = json.loads(cheat.read_text())
    record["moves"] = record["moves"][:5]  # not over: not a finished game
    cheat.write_text(json.dumps(record))
    gone.unlink()
    h.refresh()
    rows = scoreboard(h.games)
    assert _row(rows, "Anna").games == 1 and _row(rows, "Ben").games == 1
    assert "Cleo" not in {s.name for s in rows}
    assert [d.file for d in h.damaged] == sorted([cut.name, cheat.name])
    h.delete(good.name)
    assert scoreboard(h.games) == []


def test_merge_counts_the_old_name_s_games_under_the_new_one(tmp_path):
    write_game(tmp_path, [ANNA, BEN], seed_where(2, False, 0), days_ago=9)
    write_game(tmp_path, [ANNA, CLEO, OWL_HARD], seed_where(3, False, 0), days_ago=8)
    write_game(tmp_path, [person("Annie"), BEN], seed_where(2, False, 1), days_ago=1)
    h = history(tmp_path)
    before = {g.file: [p.score for p in g.players] for g in h.games}
    assert h.merge("Anna", "Annie") == Merged(2, 0)
    assert "Anna" not in h.names() and "Annie" in h.names()
    assert _row(scoreboard(h.games), "Annie").games == 3
    assert {g.file: [p.score for p in g.players] for g in h.games} == before
    again = History(tmp_path, h.board, h.chart)  # the records themselves say so
    again.refresh()
    assert "Anna" not in again.names()


def test_merge_skips_the_games_both_names_played(tmp_path):
    """Two different people with the same family: a game with both keeps both."""
    write_game(tmp_path, [ANNA, BEN], seed_where(2, False, 0))
    write_game(tmp_path, [ANNA, person("Annie")], seed_where(2, False, 1))
    h = history(tmp_path)
    assert h.merge("Anna", "Annie") == Merged(1, 1)
    rows = scoreboard(h.games)
    assert _row(rows, "Anna").games == 1 and _row(rows, "Annie").games == 2
    assert h.names() == ["Anna", "Annie", "Ben"]


def test_merge_never_renames_a_computer(tmp_path):
    write_game(tmp_path, [ANNA, OWL_HARD], seed_where(2, False, 0))
    h = history(tmp_path)
    assert OWL_HARD.name not in h.names()
    assert h.merge(OWL_HARD.name, "Ben") == Merged(0, 0)
    assert {s.name for s in scoreboard(h.games)} == {"Anna", kind_label("hard")}


def _snapshot(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only directory")
def test_merge_on_a_read_only_records_directory_raises_and_loses_nothing(tmp_path):
    write_game(tmp_path, [ANNA, BEN], seed_where(2, False, 0))
    write_game(tmp_path, [ANNA, CLEO], seed_where(2, False, 1))
    h = history(tmp_path)
    before = _snapshot(tmp_path)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(OSError):
            h.merge("Anna", "Annie")
    finally:
        tmp_path.chmod(0o755)
    assert _snapshot(tmp_path) == before
    assert "Anna" in h.names() and len(h.games) == 2


def test_a_card_that_refuses_a_write_midway_loses_nothing_and_the_index_follows(
        tmp_path, monkeypatch):
    """The records written before the card refused keep the new name, the rest the old one;
    the index says so at once (it is refreshed even when the merge fails)."""
    for k in range(3):
        write_game(tmp_path, [ANNA, BEN], seed_where(2, False, k), days_ago=k + 1)
    h = history(tmp_path)
    real = index_module.write_atomic
    writes = []

    def refusing(path, text, **kw):
        if writes:
            raise OSError(errno.EROFS, "Read-only file system")
        writes.append(path)
        real(path, text, **kw)

    monkeypatch.setattr(index_module, "write_atomic", refusing)
    with pytest.raises(OSError):
        h.merge("Anna", "Annie")
    assert len(h.games) == 3 and not h.damaged
    assert h.names() == ["Anna", "Annie", "Ben"]
    rows = scoreboard(h.games)
    assert _row(rows, "Annie").games == 1 and _row(rows, "Anna").games == 2
    assert not [p for p in tmp_path.iterdir() if not p.name.endswith(".json")]


def test_the_family_s_scoreboard_matches_a_count_by_hand(tmp_path):
    """A cross-check over a dozen games: every figure from the games' own players."""
    h = family(tmp_path)
    assert len(h.games) == 12
    for since in (None, recent_since()):
        rows = {s.name: s for s in scoreboard(h.games, since=since)}
        games = [g for g in h.games if since is None or g.date >= since]
        for name, row in rows.items():
            mine = [(g, p) for g in games for p in g.players
                    if (p.name if p.is_human else kind_label(p.kind)) == name]
            assert row.games == len(mine)
            assert row.wins == pytest.approx(sum(1 / len(g.winners) for g, p in mine
                                                 if p.winner))
            assert row.best == max(p.score for _g, p in mine)
            assert row.average == pytest.approx(sum(p.score for _g, p in mine) / len(mine))
    assert any(s.wins % 1 for s in scoreboard(h.games))  # shared wins show as shares


POOL = [ANNA, BEN, CLEO, person("Annie", "cat"), OWL_HARD, WOLF_EASY]


@settings(max_examples=25, deadline=None)
@given(tables=st.lists(st.lists(st.sampled_from(range(len(POOL))), min_size=2, max_size=4,
                                unique=True), min_size=1, max_size=5),
       seed=st.integers(0, 10_000), pair=st.sampled_from([(0, 3), (0, 1), (3, 2)]))
def test_every_game_gives_out_one_win_and_a_merge_keeps_them_all(tables, seed, pair):
    """R21: each game's win is shared out whole; merging names moves games and wins from
    one name to the other and loses none of them."""
    with tempfile.TemporaryDirectory() as d:
        records = Path(d)
        for k, table in enumerate(tables):
            write_game(records, [POOL[i] for i in table], seed + k, days_ago=k)
        h = history(records)
        rows = scoreboard(h.games)
        assert sum(s.wins for s in rows) == pytest.approx(len(tables))
        assert sum(s.games for s in rows) == sum(len(t) for t in tables)
        for s in rows:
            assert s.best >= s.average and 0 <= s.read_right <= s.guessed
        old, new = POOL[pair[0]].name, POOL[pair[1]].name
        both = sum(1 for t in tables if {pair[0], pair[1]} <= set(t))
        alone = sum(1 for t in tables if pair[0] in t) - both
        assert h.merge(old, new) == Merged(alone, both)
        after = {s.name: s for s in scoreboard(h.games)}
        assert sum(s.wins for s in after.values()) == pytest.approx(len(tables))
        assert sum(s.games for s in after.values()) == sum(len(t) for t in tables)
        assert (after[old].games if old in after else 0) == both
        by_name = {s.name: s for s in rows}
        if old in by_name:
            assert after[new].games == by_name[old].games - both + (
                by_name[new].games if new in by_name else 0)


def test_three_way_shares_add_up_exactly_so_ties_stay_ties():
    """Six thirds of a win are two wins (R21), not 1.9999...: a player with six three-way
    shares ranks level with one who won twice, by average then name."""
    from datetime import datetime

    from clans_pi.history import PastGame, PastPlayer

    def game(k, winners, players):
        return PastGame(f"{k}.json", datetime(2026, 11, 1 + k).astimezone(), tuple(
            PastPlayer(n, "", "human", "red", 10, 0, 10, n in winners) for n in players),
            "no_moves", 40)

    games = [game(k, {"Ann", "Bo", "Cy"}, ("Ann", "Bo", "Cy")) for k in range(6)]
    games += [game(6 + k, {"Di"}, ("Di", "Ed")) for k in range(2)]
    rows = {s.name: s for s in scoreboard(games)}
    assert rows["Ann"].wins == rows["Di"].wins == 2
    assert [s.name for s in scoreboard(games)][:4] == ["Ann", "Bo", "Cy", "Di"]
