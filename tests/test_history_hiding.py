"""How well each player hid their clan, read after the game from its record: a
player who plainly plays for their clan is read, with the move that gave it away; random
movers stay near the blind guess (1 in 4 for a seat, 1 in 5 for an onlooker); a damaged
record is one clear line. R20 (the clans are public after the end), R22 (each reader sees
only what its seat saw during play)."""

from __future__ import annotations

import json
import statistics

import pytest

from clans_pi.bots.belief import Belief
from clans_pi.cli import main
from clans_pi.history.hiding import (
    GIVEAWAY_RISE,
    HIDDEN,
    MISLED,
    READ,
    READING_NOTE,
    Hiding,
    MoveFacts,
    Verdict,
    analyse,
    analyse_record,
    chart_words,
    facts_of,
    percent,
    verdict_of,
)
from clans_pi.i18n import _ as tr
from clans_pi.palette import clan_name
from clans_pi.rules.errors import RecordError
from clans_pi.rules.record import to_record
from clans_pi.rules.state import GameState
from tests.hiding_helpers import BOARD, CHART, plain_game, plain_record
from tests.history_helpers import finished_state, write_record
from tests.i18n_helpers import language


def test_a_player_plainly_playing_for_their_clan_is_read_and_their_giveaway_is_found():
    for seed in (0, 1, 2):
        hiding = analyse(plain_game(seed))
        plain = hiding.players[0]
        curve = plain.table
        assert curve[0] == pytest.approx(0.25)  # the blind guess of a seat
        assert curve[-1] >= READ and max(curve[:5]) < READ  # rising: read by the end
        assert plain.verdict.kind == "read" and plain.verdict.move > 0
        assert all(p >= READ for p in curve[plain.verdict.move:])
        assert curve[plain.verdict.move - 1] < READ
        gives = plain.giveaways
        assert gives, "the move that gave the clan away"
        rises = {k: curve[k] - curve[k - 1] for k in plain.moves}
        assert gives[0].move == max(rises, key=rises.__getitem__)  # the largest rise
        for g in gives:
            assert g.move in plain.moves  # the player's own move
            assert (g.before, g.after) == (curve[g.move - 1], curve[g.move])
            assert g.after - g.before >= GIVEAWAY_RISE
            assert g.line().startswith(f"move {g.move}: ")
            assert f"{percent(g.before)} % to {percent(g.after)} %" in g.line()


def test_random_movers_stay_near_the_blind_guess():
    ends, onlooker = [], []
    for seed in range(6):
        hiding = analyse(finished_state(["A", "B", "C"], seed))
        for p in hiding.players:
            assert p.table[0] == pytest.approx(0.25) and p.onlooker[0] == pytest.approx(0.2)
            assert p.verdict.kind != "read"
            ends.append(p.table[-1])
            onlooker.append(p.onlooker[-1])
    assert 0.18 <= statistics.mean(ends) <= 0.32
    assert 0.14 <= statistics.mean(onlooker) <= 0.26


def test_each_seat_reads_as_the_computers_belief_does_from_its_own_seat():
    state = plain_game(1, 3, (0, 1))
    hiding = analyse(state)
    start = GameState(BOARD, CHART, state.players, state.clans,
                      {t: to_record(state)["huts"][str(t)] for t in range(len(BOARD))})
    for viewer in range(3):
        belief = Belief(3, viewer, state.clan_of(viewer))
        s = start.copy()
        for k, move in enumerate(state.moves, start=1):
            belief.update(s, move)
            s.push(move)
            if k % 7 == 0 or k == state.ply:
                for p in range(3):
                    if p != viewer:
                        assert hiding.players[p].by_seat[viewer][k] == pytest.approx(
                            belief.marginals()[p][state.clan_of(p)], abs=1e-6)


def test_an_onlooker_reads_from_the_moves_alone():
    hiding = analyse(plain_game(0))
    plain = hiding.players[0]
    assert plain.onlooker[-1] > 0.5 and plain.onlooker[0] == pytest.approx(0.2)
    assert set(plain.by_seat) == {1, 2}  # never the player's own seat


def test_the_verdicts_thresholds():
    assert verdict_of([0.25, 0.7, 0.5, READ, 0.9]) == Verdict("read", 3)
    assert verdict_of([0.25, 0.3, READ - 0.01]) == Verdict("suspected")
    assert verdict_of([0.25, 0.5, HIDDEN]) == Verdict("suspected")
    assert verdict_of([0.25, 0.5, HIDDEN - 0.01]) == Verdict("hidden")
    assert verdict_of([0.25, MISLED - 0.01]) == Verdict("misled")
    assert Verdict("read", 14).text() == "Read from move 14"
    assert Verdict("hidden").text() == "Hidden to the end"


def test_the_words_of_a_move_say_what_it_did():
    state = plain_game(0)
    replayed = GameState(BOARD, CHART, state.players, state.clans,
                         {t: to_record(state)["huts"][str(t)] for t in range(len(BOARD))})
    kinds = set()
    for move in state.moves:
        facts = facts_of(replayed, move)
        clans = [c for c, n in replayed.huts(move.src).items() if n]
        assert sorted(facts.clans) == sorted(clans)
        assert facts.terrain == BOARD.terrain(move.dst)
        founded = replayed.founds(move)
        assert bool(facts.village) == bool(founded)
        kinds.add(facts.village)
        words = facts.words()
        assert all(clan_name(c) in words for c in clans) and BOARD.terrain(move.dst) in words
        assert ("into a village" in words) == (facts.village == "here")
        replayed.push(move)
    assert kinds >= {"", "here"}
    with language("de"):
        german = facts_of(GameState(BOARD, CHART, state.players, state.clans,
                                    {t: to_record(state)["huts"][str(t)]
                                     for t in range(len(BOARD))}), state.moves[0]).words()
        assert "huts" not in german


def test_the_clans_of_a_move_are_listed_as_the_language_lists():
    facts = MoveFacts(("blue", "black"), "mountain", "")
    assert facts.words().startswith("Blue, Black huts")
    with language("ja"):
        assert "、" in facts.words() and ", " not in facts.words()


@pytest.mark.parametrize("code", ["en", "de", "fr", "it", "ja"])
def test_the_phone_s_chart_says_its_percentages_are_the_computers_reading(code):
    """The phone's end chart carries the line that says whose reading it is, in the
    player's language, and its font is made to hold it (chart_words)."""
    reading = analyse_record(plain_record(2), BOARD, CHART).players[0]
    with language(code):
        note = tr(READING_NOTE)
        assert reading.for_phone()["note"] == note and note in chart_words()
        assert code == "en" or note != READING_NOTE


def test_percentages_never_say_certain():
    assert percent(0.99999) == 99 and percent(0.0) == 1 and percent(0.314) == 31


def test_the_cache_form_reads_back_the_same():
    record = plain_record(2)
    record["guesses"] = [{"by": 1, "of": 0, "clan": plain_game(2).clan_of(0), "weight": 0.9},
                         {"by": 7, "of": 0, "clan": "red", "weight": 0.5}]
    hiding = analyse_record(record, BOARD, CHART)
    assert len(hiding.guesses) == 1  # the one that makes no sense is left out
    again = Hiding.from_cache(json.loads(json.dumps(hiding.to_cache())))
    assert again.to_json() == hiding.to_json()


@pytest.mark.parametrize(("change", "said"), [
    (lambda r: r["moves"].__setitem__(4, {"from": 999, "to": 1}), "move 5:"),
    (lambda r: r.pop("clans"), "'clans' is missing"),
    (lambda r: r.__setitem__("moves", r["moves"][:10]), "not over after 10 moves"),
    (lambda r: r.__setitem__("players", 7), "'players' must be a list"),
])
def test_a_damaged_record_is_one_clear_line(change, said):
    record = plain_record(0)
    change(record)
    with pytest.raises(RecordError, match=said):
        analyse_record(record, BOARD, CHART)


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_prints_the_same_figures(tmp_path, capsys):
    write_record(tmp_path / "records", plain_record(1), "g.json")
    code, out, err = _run(capsys, "history", "--state-dir", str(tmp_path),
                          "--analysis", "g.json", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    hiding = analyse(plain_game(1))
    assert [p["name"] for p in data["players"]] == ["P0", "P1", "P2"]
    first = data["players"][0]
    assert set(first) >= {"name", "clan", "curve", "giveaways", "verdict"}
    assert first["clan"] == plain_game(1).clan_of(0)
    assert first["curve"] == [round(p, 4) for p in hiding.players[0].table]
    assert first["giveaways"] == [g.to_json() for g in hiding.players[0].giveaways]
    assert first["verdict"] == hiding.players[0].verdict.text()
    assert set(first["giveaways"][0]) == {"move", "before", "after", "words"}
    code, out, _ = _run(capsys, "history", "--state-dir", str(tmp_path),
                        "--analysis", str(tmp_path / "records" / "g.json"))
    assert code == 0 and "P0" in out and hiding.players[0].verdict.text() in out


def test_the_command_line_says_what_is_wrong_with_a_damaged_record(tmp_path, capsys):
    record = plain_record(0)
    record["moves"][2] = {"from": "x", "to": 3}
    write_record(tmp_path / "records", record, "bad.json")
    code, out, err = _run(capsys, "history", "--state-dir", str(tmp_path),
                          "--analysis", "bad.json", "--json")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "bad.json" in err and "move 3" in err and "Traceback" not in err
    code, _, err = _run(capsys, "history", "--state-dir", str(tmp_path),
                        "--analysis", "nope.json")
    assert code == 1 and "no such file" in err
