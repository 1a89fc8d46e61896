"""Building and loading the compiled core: a library is used only when it was built from
today's core.c; without a C compiler the set-up says so in one line and goes on (the
Python path); ``clans-pi selftest`` says which path the computers think on, and fails for a
core that plays other games than the Python path."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.compiled import build, library
from tests.compiled_helpers import the_core

REPO = Path(__file__).resolve().parent.parent
BASH = shutil.which("bash")


@pytest.fixture
def scratch_core(tmp_path, monkeypatch):
    """The loader looking at a copy of core.c in ``tmp_path`` (its library built there)."""
    the_core()  # a compiler is here
    source = tmp_path / "core.c"
    shutil.copy(library.SOURCE, source)
    monkeypatch.setattr(library, "SOURCE", source)
    monkeypatch.setattr(library, "HERE", tmp_path)
    monkeypatch.delenv(library.ENV, raising=False)
    library._load.cache_clear()
    yield source
    library._load.cache_clear()


def test_a_library_built_from_todays_source_is_used(scratch_core):
    path = build.build()
    assert path == library.library_path() and path.parent == scratch_core.parent
    assert build.built_from(path) == library.source_hash()
    assert library.why_not() is None
    assert library.describe() == f"compiled core ({path.name})"


def test_a_library_built_from_another_source_is_not_used(scratch_core):
    build.build()
    scratch_core.write_text(scratch_core.read_text() + "\n/* changed since */\n")
    assert library.core() is None
    assert "built from another core.c" in library.why_not()
    assert library.describe().startswith("Python path: ")


def test_no_library_and_the_python_choice_are_said(scratch_core, monkeypatch):
    assert library.core() is None
    assert "not built" in library.why_not()
    build.build()
    library._load.cache_clear()
    monkeypatch.setenv(library.ENV, "python")
    assert library.core() is None and library.why_not() == "CLANS_PI_CORE=python chooses " \
        "the Python path"


def test_without_a_compiler_the_build_says_so_in_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no cc, gcc or clang
    assert build.compiler() is None
    assert build.main(["--out", str(tmp_path / "lib.so")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["clans-pi: no C compiler (cc, gcc or $CC) here; on Debian or Raspberry Pi "
                   "OS: sudo apt install gcc; the computers think on the Python path (slower)"]
    monkeypatch.setenv("CC", "no-such-cc")  # one named that is not there
    assert build.main(["--out", str(tmp_path / "lib.so")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "clans-pi: the C compiler $CC names is not here: no-such-cc; the computers think on "
        "the Python path (slower)"]
    assert not (tmp_path / "lib.so").exists()


def test_a_failing_compiler_is_one_line_and_leaves_no_library(monkeypatch, capsys, tmp_path):
    fake = tmp_path / "cc"
    fake.write_text("#!/bin/sh\necho 'core.c:1: error: the compiler broke' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CC", str(fake))
    assert build.main(["--out", str(tmp_path / "lib.so")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"clans-pi: {fake} failed to build core.c: core.c:1: error: the compiler "
                   "broke; the computers think on the Python path (slower)"]
    assert list(tmp_path.iterdir()) == [fake]  # nothing half-written


@pytest.mark.skipif(BASH is None, reason="needs bash")
def test_set_up_without_a_compiler_says_one_line_and_goes_on(tmp_path):
    """scripts/_venv.sh's build_core, as ./scripts/play runs it, on a PATH with no cc."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    venv = tmp_path / "checkout" / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    shutil.copytree(REPO / "clans_pi", tmp_path / "checkout" / "clans_pi",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "locale", "page"))
    done = subprocess.run(
        [BASH, "-c", '. "$1"; build_core "$2"; echo "went on"', "_",
         str(REPO / "scripts" / "_venv.sh"), str(tmp_path / "checkout")],
        env={"PATH": str(bin_dir)}, cwd=tmp_path / "checkout",
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout == "went on\n", done
    said = done.stderr.splitlines()
    assert len(said) == 1 and "no C compiler" in said[0], said


def test_the_verdict_names_the_path_and_says_the_core_plays_the_python_paths_games(
        monkeypatch):
    """What clans-pi selftest and the image builder say (compiled_check.verdict)."""
    from clans_pi.bots.compiled_check import verdict

    lib = the_core()
    assert verdict() == (True, f"compiled core ({lib.path.name}), the same games as the "
                               "Python path")
    monkeypatch.setenv(library.ENV, "python")
    assert verdict() == (True, "Python path: CLANS_PI_CORE=python chooses the Python path")


def test_selftest_fails_for_a_core_that_plays_other_games(monkeypatch, capsys):
    from clans_pi import cli
    from clans_pi.bots import compiled_check

    the_core()
    monkeypatch.setattr(compiled_check, "agrees", lambda lib: False)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert cli.main(["selftest", "--seconds", "0", "--step", "0"]) == 1
    said = capsys.readouterr().out.splitlines()[1]
    assert said.startswith("computer players: compiled core (") and \
        "plays other games than the Python path" in said


def test_the_check_where_the_game_runs_finds_a_core_that_differs(monkeypatch):
    """compiled_check.agrees: true for the core as built, false for one whose moves or
    searches differ from the Python path's."""
    from clans_pi.bots import compiled_check
    from clans_pi.compiled.state import CoreState

    lib = the_core()
    assert compiled_check.agrees(lib, games=4, searches=2, iterations=50)
    with monkeypatch.context() as patch:
        legal = CoreState.legal_actions
        patch.setattr(CoreState, "legal_actions", lambda self: legal(self)[1:])
        assert not compiled_check.agrees(lib, games=4, searches=2, iterations=50)
    real = compiled_check.compiled_search.search

    def other_move(*args, **kwargs):  # another count, all else alike
        result = real(*args, **kwargs)
        return result.__class__(result.move, result.iterations + 1, result.visits,
                                values=result.values)

    monkeypatch.setattr(compiled_check.compiled_search, "search", other_move)
    assert not compiled_check.agrees(lib, games=4, searches=2, iterations=50)
