"""``peeking`` (scripts/research/peeking.py): Hard told every player's true clan, for measuring how
much reading the table costs. It breaks R22 by design, so the game must never offer it or
be able to make it; and it must really search with the true clans."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import clans_pi.bots.parallel as parallel
import clans_pi.bots.search_bot as search_bot
from clans_pi import session
from clans_pi.bots import LEVELS, Budget, make_bot
from clans_pi.bots.random_mover import RandomMover
from clans_pi.cli import main
from clans_pi.rules.constants import CLAN_INDEX, CLANS
from clans_pi.rules.errors import ClansError
from clans_pi.settings.config import load_config
from clans_pi.table import headless
from scripts.research.peeking import LEVEL, PeekingBot
from tests.rules_helpers import BOARD, CHART, new_game
from tests.test_architecture import _module_name, imported_modules

PACKAGE = Path(__file__).resolve().parent.parent / "clans_pi"


def test_the_level_is_called_peeking():
    assert LEVEL == "peeking"


# ------------------------------------------------------------ the game cannot make it


def test_make_bot_refuses_peeking():
    with pytest.raises(ValueError, match="unknown computer level 'peeking'"):
        make_bot("peeking", BOARD, CHART)


def test_peeking_is_no_level_and_no_seat_kind():
    assert "peeking" not in LEVELS
    assert "peeking" not in session.COMPUTER_KINDS
    assert "peeking" not in session.SEAT_KINDS
    assert "peeking" not in headless.SEAT_KINDS


def test_the_settings_file_refuses_a_peeking_seat(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[seats]\n1 = "peeking"\n', encoding="utf-8")
    config, problems = load_config(path)
    assert problems == [f"{path}: seats.1: 'peeking' is not one of screen, gpio, handheld, "
                        "phone; this seat uses the screen"]
    assert config.seat_kind(0) == "screen"


def test_a_headless_game_refuses_a_peeking_seat(tmp_path, capsys):
    with pytest.raises(ClansError, match="'peeking' is not a computer player"):
        headless.parse_seats("hard,peeking")
    code = main(["play", "--headless", "--seats", "hard,peeking",
                 "--state-dir", str(tmp_path / "state")])
    _, err = capsys.readouterr()
    assert code != 0
    assert "'peeking' is not a computer player" in err
    assert not (tmp_path / "state" / "records").exists()


@pytest.mark.slow
def test_no_module_of_the_game_names_or_imports_it():
    """No module of the package says "peeking" (a level name, a class, a string) or imports
    anything from scripts/ (where the peeking player lives)."""
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 50, "the package moved?"
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not NAMES.search(text), f"{path.relative_to(PACKAGE)} names the peeking level"
        module = _module_name(path)
        found = imported_modules(text, module, is_package=path.name == "__init__.py",
                                 type_checking=True)
        assert not [m for m in found if m.split(".")[0] == "scripts"], path


#: How a module could name the peeking player.
NAMES = re.compile(r"peeking", re.IGNORECASE)


def test_the_scan_would_see_it():
    """Control: the scans above see each way of naming or importing it."""
    for text in ('make_bot("peeking")', "LEVELS = ('Peeking',)", "class PeekingBot"):
        assert NAMES.search(text)
    for text in ("from scripts.research.peeking import PeekingBot",
                 "import scripts.research.peeking",
                 "def f():\n    from scripts import peeking"):
        assert "scripts" in {m.split(".")[0] for m in imported_modules(text, "clans_pi.x")}


# ------------------------------------------------------------ it searches the truth


def _mid_game(seed: int, players: int, plies: int):
    state = new_game(seed, players)
    mover = RandomMover(seed)
    while state.ply < plies:
        state.play(mover.choose(state))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_peeking_searches_with_the_true_clans_only(monkeypatch, players):
    state = _mid_game(7 + players, players, 6)
    viewer = state.current_player
    seen = {}

    def spy(state_, sample, rng, settings, **kwargs):
        seen["draws"] = {sample(random.Random(k)) for k in range(200)}
        seen["weights"] = kwargs["clan_weights"]
        seen["settings"] = settings
        return real(state_, sample, rng, settings, **kwargs)

    real = parallel.search  # where the bots' searches are run (run_job)
    monkeypatch.setattr(parallel, "search", spy)
    monkeypatch.setenv("CLANS_PI_CORE", "python")  # the spy is on the Python search
    bot = PeekingBot(BOARD, CHART, state.clans, seed=1, budget=Budget(iterations=60))
    move = bot.choose(state.observation(viewer))
    assert move in state.legal_moves() or move.with_order(None) in state.legal_moves()
    truth = tuple(CLAN_INDEX[c] for c in state.clans)
    assert seen["draws"] == {truth}
    assert [list(w) for w in seen["weights"]] == [[float(c == clan) for c in CLANS]
                                                  for clan in state.clans]
    assert seen["settings"] == search_bot.LEVEL_SETTINGS["hard"].search
    assert bot.last is not None and bot.last.iterations == 60
    # The yardstick does not hide its own clan: its move is the search's own.
    assert bot.settings.hiding == 0.0 and move == bot.last.result.move
    # Hard itself, from the same view, imagines every assignment it cannot rule out.
    hard = make_bot("hard", BOARD, CHART, seed=1, budget=Budget(iterations=60))
    bot_hyps, _ = hard.determinisations(state.observation(viewer))
    assert len(bot_hyps) == {2: 4, 3: 12, 4: 24}[players]


def test_peeking_guesses_the_truth():
    state = _mid_game(3, 3, 10)
    bot = PeekingBot(BOARD, CHART, state.clans)
    guess = bot.guess(state.observation(1))
    assert set(guess) == {0, 2}
    for p, dist in guess.items():
        assert dist[state.clans[p]] == 1.0 and sum(dist.values()) == 1.0


def test_peeking_refuses_the_clans_of_another_game():
    state = _mid_game(4, 2, 2)
    wrong = tuple(c for c in CLANS if c != state.clans[0])[:2]
    bot = PeekingBot(BOARD, CHART, wrong, budget=Budget(iterations=10))
    with pytest.raises(AssertionError, match="another game"):
        bot.determinisations(state.observation(0))


def test_peeking_normal_is_normals_search_told_the_truth(monkeypatch):
    from scripts.research.peeking import LEVEL_NORMAL

    state = _mid_game(11, 2, 6)
    viewer = state.current_player
    seen = {}

    def spy(state_, sample, rng, settings, **kwargs):
        seen["draws"] = {sample(random.Random(k)) for k in range(100)}
        seen["settings"] = settings
        return real(state_, sample, rng, settings, **kwargs)

    real = parallel.search
    monkeypatch.setattr(parallel, "search", spy)
    monkeypatch.setenv("CLANS_PI_CORE", "python")  # the spy is on the Python search
    bot = PeekingBot(BOARD, CHART, state.clans, seed=1, budget=Budget(iterations=40),
                     level=LEVEL_NORMAL)
    assert bot.level == LEVEL_NORMAL
    bot.choose(state.observation(viewer))
    assert seen["draws"] == {tuple(CLAN_INDEX[c] for c in state.clans)}
    assert seen["settings"] == search_bot.LEVEL_SETTINGS["normal"].search
    assert bot.guess(state.observation(viewer))[1 - viewer][state.clans[1 - viewer]] == 1.0
