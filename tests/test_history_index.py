"""The past games' index: derived from the records in the state directory, newest
first, following the card (new, changed, deleted records), a damaged record left out with a
log line and never a crash; the store's records keep when the game ended and who sat where,
and the computers' final guesses once they are worked out."""

from __future__ import annotations

import json
import logging
import os
import random
from datetime import timedelta

import pytest

from clans_pi.history import History, read_past_game
from clans_pi.history import past_game as past_game_module
from clans_pi.rules.errors import ClansError, RecordError
from clans_pi.saving.store import GameStore
from clans_pi.session import Seat, Session
from tests.history_helpers import BOARD, CHART, NOW, family_games, finished_record, write_record

SEATS = [("Anna", "fox", "human"), ("Hare (Hard)", "hare", "hard"), ("Ben", "bear", "human")]


def _history(tmp_path):
    return History(tmp_path / "records", BOARD, CHART)


def test_the_list_is_newest_first_with_each_games_figures_from_the_engine(tmp_path):
    paths = family_games(tmp_path / "records", 6)
    games = _history(tmp_path).refresh()
    assert [g.file for g in games] == [p.name for p in paths]  # made newest first
    assert [g.date for g in games] == sorted((g.date for g in games), reverse=True)
    for g, path in zip(games, paths, strict=True):
        record = json.loads(path.read_text())
        from clans_pi.rules.record import replay

        state = replay(record, BOARD, CHART)
        names = [s["name"] for s in record["table"]["seats"]]
        assert [p.name for p in g.players] == names  # table order, as they sat
        for p in g.players:
            i = state.players.index(p.name)
            assert p.score == state.scores()[i]
            assert p.clan == state.clan_of(i)  # R20: the game is over, its clans are public
            assert p.winner == (i in state.winners())  # R21
        assert g.end == state.end_reason and g.moves == state.ply


def test_a_shared_win_names_every_winner(tmp_path):
    for seed in range(200):
        record = finished_record(SEATS, seed)
        game = read_past_game(record, "x.json", BOARD, CHART)
        if len(game.winners) > 1:
            break
    else:
        pytest.skip("no shared win in 200 random games")
    best = max(p.score for p in game.players)
    assert set(game.winners) == {p.name for p in game.players if p.score == best}  # R21


def test_dates_come_from_the_record_else_its_file_name_else_the_file(tmp_path):
    records = tmp_path / "records"
    with_table = finished_record(SEATS, 1, ended=NOW - timedelta(days=3))
    bare = finished_record(SEATS, 2)
    del bare["table"]
    write_record(records, with_table, "a.json")
    write_record(records, bare, "20240102-030405-abcdef0123.json")
    odd = write_record(records, bare, "kept-by-hand.json")
    os.utime(odd, (1_700_000_000, 1_700_000_000))
    by_file = {g.file: g for g in _history(tmp_path).refresh()}
    assert by_file["a.json"].date == NOW - timedelta(days=3)
    stamped = by_file["20240102-030405-abcdef0123.json"].date
    assert (stamped.year, stamped.month, stamped.day, stamped.hour) == (2024, 1, 2, 3)
    assert by_file["kept-by-hand.json"].date.timestamp() == 1_700_000_000


def test_a_record_without_its_table_has_the_players_in_turn_order(tmp_path):
    record = finished_record(SEATS, 3)
    del record["table"]
    game = read_past_game(record, "x.json", BOARD, CHART)
    assert [p.name for p in game.players] == record["players"]
    kinds = {p.name: p.kind for p in game.players}
    assert kinds == {"Anna": "human", "Hare (Hard)": "hard", "Ben": "human"}  # "(Hard)"
    assert all(p.avatar == "" for p in game.players)


@pytest.mark.parametrize("damage, problem", [
    (lambda r: "{not json", "not readable"),
    (lambda r: {**r, "moves": r["moves"][:5]}, "not over"),
    (lambda r: {**r, "moves": [{"from": 0, "to": 0}, *r["moves"]]}, "move 1"),
    (lambda r: {**r, "format": "clans-record/9"}, "format"),
    (lambda r: [r], "JSON object"),
])
def test_a_damaged_record_drops_out_with_a_log_line(tmp_path, caplog, damage, problem):
    records = tmp_path / "records"
    family_games(records, 3)
    bad = damage(finished_record(SEATS, 4))
    (records / "bad.json").write_text(bad if isinstance(bad, str) else json.dumps(bad))
    history = _history(tmp_path)
    with caplog.at_level(logging.WARNING):
        games = history.refresh()
    assert len(games) == 3 and "bad.json" not in {g.file for g in games}
    assert [d.file for d in history.damaged] == ["bad.json"]
    assert problem in history.damaged[0].problem
    assert any("bad.json" in r.getMessage() for r in caplog.records)


def test_the_index_follows_the_card_and_reads_only_what_changed(tmp_path, monkeypatch):
    records = tmp_path / "records"
    paths = family_games(records, 4)
    history = _history(tmp_path)
    assert len(history.refresh()) == 4
    read = []
    real = past_game_module.replay
    monkeypatch.setattr(past_game_module, "replay",
                        lambda *a, **k: read.append(1) or real(*a, **k))
    assert len(history.refresh()) == 4 and read == []  # nothing changed: nothing re-read
    paths[0].unlink()
    write_record(records, finished_record(SEATS, 9, ended=NOW + timedelta(hours=1)), "new.json")
    games = history.refresh()
    assert read == [1]  # only the new record
    assert games[0].file == "new.json" and paths[0].name not in {g.file for g in games}
    paths[1].write_text("garbage")  # damaged after it was read
    assert paths[1].name not in {g.file for g in history.refresh()}


def test_no_records_directory_is_an_empty_history(tmp_path):
    history = _history(tmp_path)
    assert history.refresh() == [] and history.damaged == []


def test_deleting_a_game_deletes_its_record(tmp_path):
    paths = family_games(tmp_path / "records", 3)
    history = _history(tmp_path)
    history.refresh()
    history.delete(paths[1].name)
    assert not paths[1].exists()
    assert [g.file for g in history.games] == [paths[0].name, paths[2].name]
    history.delete(paths[1].name)  # gone already: not an error
    for bad in ("../game.json", "records/x.json", "x.txt"):
        with pytest.raises(ClansError):
            history.delete(bad)


def test_a_record_gone_since_the_list_was_read_says_so(tmp_path):
    paths = family_games(tmp_path / "records", 2)
    history = _history(tmp_path)
    history.refresh()
    paths[0].unlink()
    with pytest.raises(ClansError, match="gone"):
        history.record(paths[0].name)


def test_merging_a_renamed_person_rewrites_their_records_but_not_a_game_with_both(tmp_path):
    records = tmp_path / "records"
    write_record(records, finished_record([("Annie", "fox", "human"), ("Ben", "bear", "human")],
                                          1), "1.json")
    write_record(records, finished_record([("Anna", "fox", "human"), ("Ben", "bear", "human")],
                                          2), "2.json")
    write_record(records, finished_record([("Anna", "fox", "human"), ("Annie", "owl", "human")],
                                          3), "3.json")
    history = _history(tmp_path)
    history.refresh()
    merged = history.merge("Anna", "Annie")
    assert (merged.changed, merged.skipped) == (1, 1)
    assert history.names() == ["Anna", "Annie", "Ben"]  # "Anna" still plays in game 3
    two = json.loads((records / "2.json").read_text())
    assert "Anna" not in two["players"] and "Annie" in two["players"]
    assert [s["name"] for s in two["table"]["seats"]] == ["Annie", "Ben"]
    assert {g.file for g in history.games} == {"1.json", "2.json", "3.json"}  # still replay


# ------------------------------------------------------------------ the store's records


def _finished_session(seed=7):
    seats = [Seat(n, a, k) for n, a, k in SEATS]
    session = Session.new(seats, BOARD, CHART, random.Random(seed))
    rng = random.Random(seed)
    state = session._state
    while not state.is_over:
        state.play(state.random_legal_move(rng.random))
    return session


def test_a_finished_games_record_keeps_its_table_and_is_kept_once(tmp_path):
    store = GameStore(tmp_path)
    session = _finished_session()
    path = store.finish(session)
    assert store.finish(session) == path  # the same game again: the same record
    assert len(list((tmp_path / "records").iterdir())) == 1
    record = json.loads(path.read_text())
    assert record["table"]["seats"] == [{"name": n, "avatar": a, "kind": k} for n, a, k in SEATS]
    game = _history(tmp_path).refresh()[0]
    assert [(p.name, p.avatar, p.kind) for p in game.players] == SEATS
    assert abs(game.date.timestamp() - path.stat().st_mtime) < 5


def test_the_computers_guesses_join_the_record_and_count_as_read_right(tmp_path):
    store = GameStore(tmp_path)
    session = _finished_session()
    path = store.finish(session)
    state = session._state
    hard = state.players.index("Hare (Hard)")
    others = [p for p in range(3) if p != hard]
    right, wrong = others
    wrong_clan = next(c for c in state.clans if c != state.clan_of(wrong))
    store.add_guesses(path, [
        {"by": hard, "of": right, "clan": state.clan_of(right), "weight": 0.9},
        {"by": hard, "of": wrong, "clan": wrong_clan, "weight": 0.4},
        {"by": hard, "of": hard, "clan": state.clan_of(hard), "weight": 1},  # itself: ignored
        {"by": "x"},  # unreadable: ignored
    ])
    game = _history(tmp_path).refresh()[0]
    reads = {p.name: (p.read_right, p.guessed) for p in game.players}
    assert reads[state.players[right]] == (1, 1)
    assert reads[state.players[wrong]] == (0, 1)
    assert reads["Hare (Hard)"] == (0, 0)


def test_record_errors_are_one_line(tmp_path):
    with pytest.raises(RecordError) as info:
        read_past_game({"format": "clans-record/1"}, "x.json", BOARD, CHART)
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------ the index's cache


def _counting(monkeypatch):
    read = []
    real = past_game_module.replay
    monkeypatch.setattr(past_game_module, "replay",
                        lambda *a, **k: read.append(1) or real(*a, **k))
    return read


def test_the_next_start_replays_no_record_the_cache_still_matches(tmp_path, monkeypatch):
    records = tmp_path / "records"
    paths = family_games(records, 5)
    (records / "bad.json").write_text("{")
    first = _history(tmp_path)
    games = first.refresh()
    assert first.cache.exists()
    read = _counting(monkeypatch)
    again = _history(tmp_path)
    assert again.refresh() == games and read == []
    assert [d.file for d in again.damaged] == ["bad.json"]  # remembered too
    record = json.loads(paths[2].read_text())
    record["players"] = list(record["players"])  # rewritten: another size or time
    paths[2].write_text(json.dumps(record) + "\n")
    third = _history(tmp_path)
    assert third.refresh() == games and read == [1]  # only the changed record


@pytest.mark.parametrize("cache", ["{", "[]", '{"key": 1}', '{"records": {"x.json": 5}}'])
def test_a_damaged_cache_is_rebuilt_from_the_records(tmp_path, cache):
    family_games(tmp_path / "records", 3)
    games = _history(tmp_path).refresh()
    history = _history(tmp_path)
    history.cache.write_text(cache)
    assert history.refresh() == games


def test_a_cache_of_another_chart_is_not_used(tmp_path, monkeypatch):
    family_games(tmp_path / "records", 2)
    _history(tmp_path).refresh()
    doc = json.loads((tmp_path / "past-games-index.json").read_text())
    doc["key"]["chart"] = {"other": True}
    (tmp_path / "past-games-index.json").write_text(json.dumps(doc))
    read = _counting(monkeypatch)
    assert len(_history(tmp_path).refresh()) == 2 and read == [1, 1]


def test_a_card_that_refuses_the_cache_still_lists_the_games(tmp_path, monkeypatch, caplog):
    from clans_pi.history import index

    family_games(tmp_path / "records", 3)

    def refuse(*_a, **_k):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(index, "write_atomic", refuse)
    with caplog.at_level(logging.INFO):
        assert len(_history(tmp_path).refresh()) == 3
    assert any("cannot keep" in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------ odd records


def test_a_name_with_control_characters_is_a_damaged_record(tmp_path):
    record = finished_record([("An\x00na", "fox", "human"), ("Ben", "bear", "human")], 1)
    write_record(tmp_path / "records", record, "nul.json")
    history = _history(tmp_path)
    assert history.refresh() == []
    assert "control characters" in history.damaged[0].problem


def test_a_table_whose_turns_do_not_go_round_it_is_read_in_turn_order(tmp_path):
    """R7: turns go round the table. A kept table that breaks that is not believed: the
    players are shown in turn order, and the game still opens."""
    seats = [("Anna", "fox", "human"), ("Ben", "bear", "human"), ("Cleo", "cat", "human"),
             ("Dev", "pig", "human")]
    record = finished_record(seats, 2)
    turn = record["players"]
    record["table"]["seats"] = [{"name": n, "avatar": "", "kind": "human"}
                                for n in (turn[0], turn[2], turn[1], turn[3])]
    write_record(tmp_path / "records", record, "odd.json")
    history = _history(tmp_path)
    (game,) = history.refresh()
    assert [p.name for p in game.players] == turn
    assert history.open("odd.json").game == game


@pytest.mark.parametrize("value", ["1e400", "Infinity", "NaN", '"x"', "null", "[]"])
def test_a_cache_with_any_odd_value_is_rebuilt(tmp_path, value):
    family_games(tmp_path / "records", 2)
    games = _history(tmp_path).refresh()
    cache = tmp_path / "past-games-index.json"
    text = cache.read_text()
    first = next(iter(json.loads(text)["records"]))
    doc = json.loads(text)
    doc["records"][first]["game"]["moves"] = "@@"
    cache.write_text(json.dumps(doc).replace('"@@"', value))
    assert _history(tmp_path).refresh() == games


def test_a_cache_made_by_other_rules_is_not_used(tmp_path, monkeypatch):
    from clans_pi.history import index

    family_games(tmp_path / "records", 2)
    _history(tmp_path).refresh()
    monkeypatch.setattr(index, "rules_digest", lambda: "another engine")
    read = _counting(monkeypatch)
    assert len(_history(tmp_path).refresh()) == 2 and read == [1, 1]


def test_opening_a_game_says_what_is_wrong_in_one_line(tmp_path):
    from clans_pi.history import RecordGone

    paths = family_games(tmp_path / "records", 2)
    history = _history(tmp_path)
    history.refresh()
    assert history.open(paths[0].name).total == history.games[0].moves
    record = json.loads(paths[0].read_text())
    record["table"]["ended"] = "0001-01-01T00:00:00"  # astimezone() cannot place it
    paths[0].write_text(json.dumps(record))
    with pytest.raises(ClansError) as info:
        history.open(paths[0].name)
    assert "\n" not in str(info.value)
    record["moves"].insert(0, {"from": 0, "to": 0})
    paths[0].write_text(json.dumps(record))
    with pytest.raises(RecordError, match=r"^move 1: "):  # the engine's own words
        history.open(paths[0].name)
    paths[1].unlink()
    with pytest.raises(RecordGone):
        history.open(paths[1].name)


def test_a_merge_keeps_an_undated_records_date(tmp_path):
    """A record dated only by its file's time is rewritten by a merge: it says its date
    now, and stays where it was in the list instead of becoming today's game."""
    record = finished_record([("Anna", "fox", "human"), ("Ben", "bear", "human")], 5)
    del record["table"]
    path = write_record(tmp_path / "records", record, "by-hand.json")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    history = _history(tmp_path)
    (before,) = history.refresh()
    assert history.merge("Anna", "Annie").changed == 1
    (after,) = history.games
    assert after.date == before.date and "Annie" in [p.name for p in after.players]
