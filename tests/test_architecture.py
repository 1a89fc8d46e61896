"""The package layout is the architecture: the rules depend on nothing that does I/O, and
nothing below the UI reaches up into it."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "clans_pi" / "rules"
FORBIDDEN_MODULES = {
    "pygame", "gpiozero", "serial", "os", "io", "pathlib", "shutil", "socket", "subprocess",
    "sys", "tempfile", "time", "threading",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}
#: The package's rooms above the rules (a relative import from rules/ into one is a way up).
OUTER_LAYERS = ("ui", "hardware", "bots", "cli", "saving", "service", "settings", "table",
                "phones", "history", "session", "palette")


def _rules_files() -> list[Path]:
    files = sorted(RULES.rglob("*.py"))
    assert len(files) >= 10, "the rules package moved?"
    return files


@pytest.mark.parametrize("path", _rules_files(), ids=lambda p: p.name)
def test_rules_import_no_io_or_hardware(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            names = []
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
            assert not name.startswith("clans_pi."), f"{path.name}: import relatively: {name}"
        if isinstance(node, ast.ImportFrom) and node.level:
            assert not (node.module or "").startswith(OUTER_LAYERS), (
                f"{path.name} depends on an outer layer: {node.module}"
            )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"


def test_the_only_data_the_rules_read_is_their_own() -> None:
    """R15/R1 data ships in the package and is read through importlib.resources only."""
    readers = [p.name for p in _rules_files() if "resources" in p.read_text(encoding="utf-8")]
    assert readers == ["board.py"]
    assert {p.name for p in (RULES / "data").iterdir()} >= {"board.json", "epochs.json"}


UI = RULES.parent / "ui"
SECRET_NAMES = {"_state", "clan_of", "GameState", "to_record", "to_json"}  # all hold every clan


@pytest.mark.parametrize("path", sorted(UI.rglob("*.py")), ids=lambda p: p.name)
def test_ui_sees_the_game_only_through_views(path: Path) -> None:
    """R22: the screen is drawn from Session.public() / Session.private(seat) only. No UI
    module imports the engine's state or touches anything that holds every clan."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            assert not module.endswith(("rules.state", "rules.record", "rules.setup")), (
                f"{path.name} imports {module}: go through clans_pi.session"
            )
            for alias in node.names:
                assert alias.name not in SECRET_NAMES, f"{path.name} imports {alias.name}"
        if isinstance(node, ast.Attribute):
            assert node.attr not in SECRET_NAMES, f"{path.name} uses .{node.attr}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in ("gpiozero", "serial"), path.name


def test_session_is_the_only_holder_of_the_state() -> None:
    text = (RULES.parent / "session.py").read_text(encoding="utf-8")
    assert "self._state" in text
    ui_text = "".join(p.read_text(encoding="utf-8") for p in UI.rglob("*.py"))
    assert "._state" not in ui_text


# ------------------------------------------------------------------ nothing below the UI

PACKAGE = RULES.parent
#: The command line sits above the UI: ``clans-pi play`` starts it.
ABOVE_THE_UI = {PACKAGE / "cli.py"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def imported_modules(source: str, module: str, *, is_package: bool = False,
                     type_checking: bool = True) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, anywhere in it (function-
    local imports too; those under ``if TYPE_CHECKING:`` only when ``type_checking``), as
    absolute names; ``from X import y`` counts as X and X.y (y may be a module)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if not type_checking and _type_checking(child):
                for other in child.orelse:  # type: ignore[attr-defined]
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        visit(node)

    visit(ast.parse(source))
    return found


def _imports(path: Path, *, type_checking: bool = False) -> set[str]:
    return imported_modules(path.read_text(encoding="utf-8"), _module_name(path),
                            is_package=path.name == "__init__.py", type_checking=type_checking)


def _below_the_ui() -> list[Path]:
    files = [p for p in sorted(PACKAGE.rglob("*.py"))
             if (PACKAGE / "ui") not in p.parents and p not in ABOVE_THE_UI]
    assert len(files) >= 30, "the package moved?"
    return files


@pytest.mark.parametrize("path", _below_the_ui(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_below_the_ui_imports_it(path: Path) -> None:
    """The engine, the devices, the settings, the files and the table serve the UI; none
    of them reaches up into it (not even in a function)."""
    found = imported_modules(path.read_text(encoding="utf-8"), _module_name(path),
                             is_package=path.name == "__init__.py")
    up = sorted(m for m in found if m == "clans_pi.ui" or m.startswith("clans_pi.ui."))
    assert not up, f"{path.relative_to(PACKAGE)} imports {', '.join(up)}"


@pytest.mark.parametrize(("source", "module"), [
    ("from ..ui.options import shown_clan", "clans_pi.hardware.handhelds"),
    ("def f():\n    from ..ui import run", "clans_pi.settings.config"),
    ("from .. import ui", "clans_pi.saving.files"),
    ("import clans_pi.ui.app", "clans_pi.table.headless"),
])
def test_the_guard_sees_every_way_up(source: str, module: str) -> None:
    found = imported_modules(source, module)
    assert any(m == "clans_pi.ui" or m.startswith("clans_pi.ui.") for m in found), found


@pytest.mark.parametrize("module", ["clans_pi.settings.options", "clans_pi.saving.files"])
def test_options_and_files_import_no_pygame(module: str) -> None:
    """The command line reads them to start fast; the devices and the table use them
    without a screen."""
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if 'pygame' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]"
    path = PACKAGE.parent / f"{module.replace('.', '/')}.py"
    found = imported_modules(path.read_text(encoding="utf-8"), module)
    assert not any(m.split(".")[0] == "pygame" for m in found)


def test_the_past_games_import_no_pygame() -> None:
    """clans_pi.history serves the screen, ``clans-pi history`` and the tests alike: reading
    the past games needs no display."""
    code = ("import sys, clans_pi.history, clans_pi.cli; "
            "print(sorted(m for m in sys.modules if 'pygame' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]"
    for path in sorted((PACKAGE / "history").glob("*.py")):
        for name in _imports(path, type_checking=True):
            assert name.split(".")[0] != "pygame", f"{path.name} imports {name}"


# ------------------------------------------------------------------ the table and the UI

TABLE = PACKAGE / "table"


def test_the_table_imports_no_pygame_and_no_ui() -> None:
    """The game's flow runs without a display (the headless game, later phones)."""
    files = sorted(TABLE.rglob("*.py"))
    assert len(files) >= 4, "the table package moved?"
    for path in files:
        for name in _imports(path, type_checking=True):
            assert name.split(".")[0] != "pygame", f"{path.name} imports {name}"
            assert not name.startswith("clans_pi.ui"), f"{path.name} imports {name}"


def test_nothing_in_the_ui_imports_the_app_but_run() -> None:
    """Screens know the app as screens.base.Host; only run.py makes an App."""
    for path in sorted(UI.rglob("*.py")):
        if path.name in ("app.py", "run.py") and path.parent == UI:
            continue
        for name in _imports(path):
            assert name != "clans_pi.ui.app", f"{path.relative_to(PACKAGE)} imports the app"


def _cycles(*, type_checking: bool) -> list[set[str]]:
    """The import graph's strongly connected components of more than one module."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    # A module's own packages are not its imports: Python runs them before it, and
    # ``from . import events`` names the package only to reach a sibling module.
    graph = {m: {n for n in _imports(p, type_checking=type_checking)
                 if n in modules and n != m and not m.startswith(f"{n}.")}
             for m, p in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_no_import_circle_through_the_app() -> None:
    """Not even one closed by a function-local or a type-checking import."""
    for component in _cycles(type_checking=True):
        assert "clans_pi.ui.app" not in component, sorted(component)


def test_no_import_circle_in_the_ui_or_the_table() -> None:
    """At run time (function-local imports included) the UI and the table form no circle."""
    for component in _cycles(type_checking=False):
        assert not any(m.startswith(("clans_pi.ui", "clans_pi.table")) for m in component), (
            sorted(component))


def test_no_import_circle_at_run_time() -> None:
    """The imports that run (function-local ones included) form no circle anywhere in the
    package: every module can be imported on its own, in any order."""
    assert _cycles(type_checking=False) == []


#: The circles closed only by an import under ``if TYPE_CHECKING:``, for an annotation:
#: observation.py names GameState in ``observe(state: GameState, ...)`` (state.py imports
#: observation.py to build its views), and computers.py names Table in
#: ``Computers(table: Table)`` (table.py imports computers.py to make its Computers). Such
#: an import never runs. A new circle, even one like these, is a decision: say why here.
ANNOTATION_CIRCLES = [{"clans_pi.rules.observation", "clans_pi.rules.state"},
                      {"clans_pi.table.computers", "clans_pi.table.table"}]


def test_the_only_circles_are_the_two_annotations() -> None:
    found = _cycles(type_checking=True)
    assert sorted(map(sorted, found)) == sorted(map(sorted, ANNOTATION_CIRCLES))


# ------------------------------------------------------------------ the floors

#: The package's rooms, floor by floor from the bottom. A module imports from its own room
#: or from a room on a lower floor, never from one on its own floor or above; the package's
#: root (``clans_pi``: its ``__version__``) is below them all.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("rules", "i18n", "service"),  # the engine; the words; sd_notify, log lines, exit codes
    ("compiled",),  # the rules' hot path and the search in C, loaded with ctypes
    ("session", "bots"),  # the referee, the only holder of the secret; computer players
    ("saving",),  # the save after every move, records, the lock, files
    ("settings",),  # the settings file, display options, the language, the Wi-Fi
    ("palette",),  # how each clan looks on every device
    ("phones", "history"),  # phone seats; past games, the scoreboard, the hiding reading
    ("hardware",),  # seat devices: GPIO, handhelds (and phones, through seats.py)
    ("table",),  # the game's flow without pygame; the headless game
    ("ui",),  # the touchscreen game (pygame)
    ("cli",),  # the clans-pi command
)
FLOOR = {room: n for n, rooms in enumerate(FLOORS) for room in rooms}


def room_of(module: str) -> str | None:
    """The room of ``clans_pi.X...`` (X: a sub-package or a top-level module), None for the
    package's root and for anything outside the package."""
    parts = module.split(".")
    if parts[0] != "clans_pi" or len(parts) == 1:
        return None
    return parts[1] if parts[1] in FLOOR else None


def upward_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """Each import in ``source`` (the text of ``module``) of another room that is not on a
    lower floor. Imports under ``if TYPE_CHECKING:`` count: they never run, but a room
    that names a type of a room above it knows that room (a lower room that needs an upper
    one's shape declares a Protocol, as the screens do with ``screens.base.Host``)."""
    here = room_of(module)
    assert here is not None, module
    found = []
    for name in sorted(imported_modules(source, module, is_package=is_package)):
        there = room_of(name)
        if there is not None and there != here and FLOOR[there] >= FLOOR[here]:
            found.append(f"{module} ({here}, floor {FLOOR[here]}) imports {name} "
                         f"({there}, floor {FLOOR[there]})")
    return found


def test_every_room_is_on_a_floor() -> None:
    rooms = {p.name if p.is_dir() else p.stem for p in PACKAGE.iterdir()
             if (p.is_dir() and (p / "__init__.py").exists())
             or (p.suffix == ".py" and p.name != "__init__.py")}
    assert rooms == set(FLOOR)
    assert imported_modules((PACKAGE / "__init__.py").read_text(encoding="utf-8"), "clans_pi",
                            is_package=True) == set(), "the package's root imports nothing"


def test_every_import_goes_to_a_lower_floor() -> None:
    found = [line for path in sorted(PACKAGE.rglob("*.py")) if path.parent != PACKAGE
             or path.name != "__init__.py"
             for line in upward_imports(path.read_text(encoding="utf-8"), _module_name(path),
                                        is_package=path.name == "__init__.py")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("source", "module"), [
    ("from ..table import Table", "clans_pi.hardware.seats"),  # up
    ("from ..history.index import History", "clans_pi.phones.server"),  # sideways
    ("def f():\n    from .saving.store import GameStore", "clans_pi.session"),  # in a function
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..bots import Bot",
     "clans_pi.rules.state"),  # for an annotation
    ("from .. import palette", "clans_pi.settings.options"),
    ("import clans_pi.cli", "clans_pi.ui.app"),
])
def test_the_floors_see_every_way_up(source: str, module: str) -> None:
    assert upward_imports(source, module), source


@pytest.mark.parametrize(("source", "module"), [
    ("from ..rules.moves import Move", "clans_pi.bots.base"),
    ("from . import __version__, i18n", "clans_pi.cli"),
    ("from .state import GameState", "clans_pi.rules.setup"),
])
def test_the_floors_let_every_way_down_through(source: str, module: str) -> None:
    assert upward_imports(source, module) == []


def test_tests_reach_the_app_and_screens_through_public_names() -> None:
    """No ``app._timers``, ``screen._toggle(k)()``, ``screen._move``: a test that needs a
    behaviour uses a public method or a button (tests.ui_helpers.act/press)."""
    tests = Path(__file__).resolve().parent
    private = re.compile(r"\b(?:app|screen|names|overlay|table|computers)\._[a-z]\w*")
    found = [f"{path.relative_to(tests)}:{n}: {line.strip()}"
             for path in sorted(tests.rglob("*.py")) if path.name != "test_architecture.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if private.search(line)]
    assert not found, "\n".join(found)


def _edits_sys_path(source: str) -> bool:
    """Whether the code calls a method of ``sys.path`` (insert, append, remove, ...)."""
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "path"
                and isinstance(node.func.value.value, ast.Name)
                and node.func.value.value.id == "sys"):
            return True
    return False


def test_no_test_edits_sys_path_by_hand():
    """Tests import the scripts as the package they are (``from scripts.research import
    tournament``) and the firmware through pytest's ``monkeypatch.syspath_prepend``, which
    is put back: a hand-made edit of sys.path would leak into every later test."""
    tests = Path(__file__).resolve().parent
    found = [str(p.relative_to(tests.parent)) for p in sorted(tests.rglob("*.py"))
             if _edits_sys_path(p.read_text(encoding="utf-8"))]
    assert found == []
    assert _edits_sys_path("import sys\nsys.path.insert(0, 'scripts')")  # the check sees it
    assert not _edits_sys_path("monkeypatch.syspath_prepend('firmware')")
