"""docs/reference.md against the code it describes.

The command: every command and every option string of the real parser
(``clans_pi.cli._parser()``, its subparsers and their ``_actions``) is on the page, each
command's option tables list exactly that command's options, and every option the page
names is one the parser has. The settings: the keys the page's tables list, by table, are
exactly the keys ``clans_pi/settings/config.py`` reads (which are the fields of ``Config``
and the keys of ``config.example.toml``, as tests/test_config.py derives them), and a
settings file written from the page's defaults loads without a problem, to the defaults.

The installer: the options its usage names (the lines of ``scripts/install-pi.sh`` that
its ``--help`` prints) are exactly the options of the page's installer table.

Each check is a function returning what is wrong, so the tests at the end can show it
finding a removed, an unknown or a misplaced option or key.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import tempfile
import tomllib
from pathlib import Path

import pytest

from clans_pi.cli import _parser
from clans_pi.rules.constants import MAX_PLAYERS
from clans_pi.settings import config as settings
from clans_pi.settings.config import Config, load_config

# Every move and playout here is checked against the compiled core too.
pytestmark = pytest.mark.usefixtures("compiled_twin")

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reference.md"
EXAMPLE = ROOT / "clans_pi" / "settings" / "config.example.toml"
INSTALLER = ROOT / "scripts" / "install-pi.sh"

#: The installer's section: ``## `scripts/install-pi.sh`...``; its options are not the
#: ``clans-pi`` command's.
INSTALLER_HEADING = re.compile(r"^#{2,4} `scripts/install-pi\.sh`")
#: A command's section: ``### `clans-pi play` `` or ``### `clans-pi play --headless` ``.
COMMAND_HEADING = re.compile(r"^#{2,4} `clans-pi (\w+)[^`]*`\s*$")
#: An option as the page names it: the first word of a code span.
OPTION = re.compile(r"^--?[A-Za-z][\w-]*$")
SPAN = re.compile(r"`([^`\n]+)`")


# ------------------------------------------------------------------ the page

def sections(text: str) -> list[tuple[str, list[str]]]:
    """(heading, its lines up to the next heading), in order; "" before the first."""
    found: list[tuple[str, list[str]]] = [("", [])]
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and re.match(r"^#{1,6} ", line):
            found.append((line, []))
        else:
            found[-1][1].append(line)
    return found


def tables(lines: list[str]) -> list[list[list[str]]]:
    """Each Markdown table in ``lines``: its rows (header first, no rule), each a list of
    cells (``\\|`` inside a cell stays in it)."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*lines, ""]:
        if line.startswith("|"):
            cells = [c.strip().replace("\\|", "|")
                     for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            found.append(rows)
            rows = []
    return found


def first_words(cell: str) -> list[str]:
    """The first word of each code span in a table cell: `--size WxH`, `-o OUT.png`."""
    return [span.split()[0] for span in SPAN.findall(cell)]


def documented_commands(text: str) -> dict[str, set[str]]:
    """Each command with a section, and the options (and positionals) its tables list."""
    found: dict[str, set[str]] = {}
    for heading, lines in sections(text):
        match = COMMAND_HEADING.match(heading)
        if match is None:
            continue
        listed = found.setdefault(match.group(1), set())
        for table in tables(lines):
            for row in table[1:]:
                listed.update(first_words(row[0]))
    return found


def named_options(text: str) -> set[str]:
    """Every option the page names: a code span that begins with one (`--size`,
    `--size WxH`, `-o OUT.png`), and the words of each command's option tables."""
    found = {span.split()[0] for span in SPAN.findall(text) if OPTION.match(span.split()[0])}
    for listed in documented_commands(text).values():
        found.update(w for w in listed if w.startswith("-"))
    return found


# ------------------------------------------------------------------ the parser

def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def command_options(parser: argparse.ArgumentParser) -> set[str]:
    """A command's option strings and its positionals' metavars, -h/--help left out (every
    command has them; the page says so once)."""
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if action.option_strings:
            found.update(action.option_strings)
        else:
            found.add(str(action.metavar or action.dest.upper()))
    return found


def every_option_string(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string of the parser and of its commands, -h/--help included."""
    found = {s for action in parser._actions for s in action.option_strings}
    for sub in subcommands(parser).values():
        found |= every_option_string(sub)
    return found


def without_installer(text: str) -> str:
    """The page without the installer's section (its options are the script's)."""
    return "\n".join(line for heading, lines in sections(text)
                     if not INSTALLER_HEADING.match(heading)
                     for line in ([heading] if heading else []) + lines)


def command_problems(text: str, parser: argparse.ArgumentParser) -> list[str]:
    """What the page says of the command that the parser does not, and the other way."""
    problems = []
    text = without_installer(text)
    documented = documented_commands(text)
    real = subcommands(parser)
    for name in sorted(set(real) - set(documented)):
        problems.append(f"the command {name!r} has no section")
    for name in sorted(set(documented) - set(real)):
        problems.append(f"a section for {name!r}, which is no command")
    for name in sorted(set(real) & set(documented)):
        want, listed = command_options(real[name]), documented[name]
        for option in sorted(want - listed):
            problems.append(f"clans-pi {name}: {option} is not in its tables")
        for option in sorted(listed - want):
            problems.append(f"clans-pi {name}: its tables list {option}, which it does not take")
    options = every_option_string(parser)
    named = named_options(text)
    for option in sorted(options - named):
        problems.append(f"the option {option} is not named on the page")
    for option in sorted(named - options):
        problems.append(f"the page names {option}, which no command takes")
    return problems


# ------------------------------------------------------------------ the settings

def code_keys() -> set[tuple[str, str]]:
    """(table, key) of every setting config.py reads; table "" is the top level."""
    tables_ = {"display": settings.DISPLAY_KEYS, "computer": settings.COMPUTER_KEYS,
               "phones": ("listen", *settings.WIFI_KEYS),
               "seats": tuple(str(n) for n in range(1, MAX_PLAYERS + 1))}
    assert set(tables_) <= set(settings.TOP_LEVEL), "a table config.py does not read?"
    keys = {("", k) for k in settings.TOP_LEVEL if k not in tables_}
    keys |= {(t, k) for t, names in tables_.items() for k in names}
    return keys


def example_keys() -> set[tuple[str, str]]:
    """(table, key) of config.example.toml with every documented default uncommented (as
    tests/test_config.py reads it)."""
    text = re.sub(r"^#     (\w+ = .*)$", r"\1", EXAMPLE.read_text(encoding="utf-8"), flags=re.M)
    data = tomllib.loads(text)
    return {("", k) if not isinstance(v, dict) else (k, sub)
            for k, v in data.items() for sub in (v if isinstance(v, dict) else [None])}


def documented_keys(text: str) -> dict[tuple[str, str], str]:
    """(table, key) -> the default cell of each row of the page's settings tables (a table
    whose header begins with "key"; its heading names the TOML table, `[display]`, or none:
    the top level)."""
    found: dict[tuple[str, str], str] = {}
    for heading, lines in sections(text):
        named = re.search(r"`\[(\w+)\]`", heading)
        table = named.group(1) if named else ""
        for rows in tables(lines):
            if rows[0][0].lower() != "key":
                continue
            default = rows[0].index("default")
            for row in rows[1:]:
                for key in first_words(row[0]):
                    found[(table, key)] = row[default]
    return found


def _shown(keys: set[tuple[str, str]]) -> list[str]:
    return sorted(f"{t}.{k}" if t else k for t, k in keys)


def settings_problems(text: str) -> list[str]:
    """The settings the page lists against those the code reads, and the page's defaults
    against the code's."""
    problems = []
    documented = documented_keys(text)
    real = code_keys()
    problems += [f"the setting {k} is not on the page" for k in _shown(real - set(documented))]
    problems += [f"the page lists {k}, which is no setting"
                 for k in _shown(set(documented) - real)]
    # The page's defaults, written as a settings file, load without a problem, to Config's
    # defaults. "automatic" (no code span): the path the machine decides, left out.
    lines: dict[str, list[str]] = {}
    for (table, key), cell in sorted(documented.items()):
        spans = SPAN.findall(cell)
        if (table, key) in real and spans:
            lines.setdefault(table, []).append(f'"{key}" = {spans[0]}')
    toml = "\n".join("\n".join([f"[{t}]" if t else "", *keys]) for t, keys in
                     sorted(lines.items()))
    try:
        data = tomllib.loads(toml)
    except tomllib.TOMLDecodeError as exc:
        return [*problems, f"a default on the page is not TOML: {exc}"]
    config, loaded = _load(toml)
    problems += [f"a default on the page is refused: {p}" for p in loaded]
    defaults = Config()
    for table, key in sorted(real):
        if table == "seats" or (table, key) not in documented:
            continue
        given = key in (data.get(table, {}) if table else data)
        if given and getattr(config, key) != getattr(defaults, key):
            problems.append(f"{table or 'top level'}.{key}: the page's default "
                            f"{getattr(config, key)!r} is not {getattr(defaults, key)!r}")
    if config.seats != defaults.seats:
        problems.append(f"seats: the page's defaults {config.seats} are not {defaults.seats}")
    return problems


def _load(toml: str) -> tuple[Config, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.toml"
        path.write_text(toml, encoding="utf-8")
        return load_config(path)


# ------------------------------------------------------------------ the installer

def installer_usage(script: str) -> str:
    """What ``install-pi.sh --help`` prints: the comment lines its ``usage()`` names
    (``sed -n 'A,Bs/^# \\{0,1\\}//p'``), without their ``#``."""
    match = re.search(r"sed -n '(\d+),(\d+)s", script)
    assert match, "install-pi.sh's usage() no longer names its lines with sed -n 'A,B...'"
    first, last = int(match.group(1)), int(match.group(2))
    lines = script.splitlines()[first - 1:last]
    return "\n".join(re.sub(r"^# ?", "", line) for line in lines if line.startswith("#"))


def usage_options(usage: str) -> set[str]:
    """The options the usage lists: each line that begins, indented, with an option."""
    return set(re.findall(r"^\s+(--?[A-Za-z][\w-]*)", usage, flags=re.M))


def documented_installer_options(text: str) -> set[str] | None:
    """The options in the first column of the installer section's table; None without the
    section."""
    for heading, lines in sections(text):
        if INSTALLER_HEADING.match(heading):
            return {w for table in tables(lines) for row in table[1:]
                    for w in first_words(row[0]) if w.startswith("-")}
    return None


def installer_problems(text: str, usage: str) -> list[str]:
    """The installer's options on the page against those its usage names."""
    documented = documented_installer_options(text)
    if documented is None:
        return ["no section for scripts/install-pi.sh"]
    want = usage_options(usage)
    return ([f"install-pi.sh: {o} is not in the page's table" for o in sorted(want - documented)]
            + [f"install-pi.sh: the page's table lists {o}, which its usage does not name"
               for o in sorted(documented - want)])


# ------------------------------------------------------------------ the tests

def test_the_settings_code_the_config_and_the_example_agree_on_the_keys() -> None:
    """The keys this file derives from config.py are the settings' (Config's fields, as
    tests/test_config.py has them) and the example's, by table."""
    keys = code_keys()
    fields = {f.name for f in dataclasses.fields(Config)} - {"seats", "source"}
    assert {k for t, k in keys if t != "seats"} == fields
    assert keys == example_keys()


def test_every_command_and_option_is_on_the_page_and_nothing_else() -> None:
    problems = command_problems(PAGE.read_text(encoding="utf-8"), _parser())
    assert not problems, "\n".join(problems)


def test_every_setting_is_on_the_page_with_its_default_and_nothing_else() -> None:
    problems = settings_problems(PAGE.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


def test_every_installer_option_is_in_the_page_s_table_and_nothing_else() -> None:
    usage = installer_usage(INSTALLER.read_text(encoding="utf-8"))
    assert {"--dry-run", "--uninstall", "--hotspot", "--no-hotspot"} <= usage_options(usage)
    problems = installer_problems(PAGE.read_text(encoding="utf-8"), usage)
    assert not problems, "\n".join(problems)


def test_the_page_has_every_command_s_section_and_every_table() -> None:
    """The checks above read something: sections for the six commands, both play tables."""
    text = PAGE.read_text(encoding="utf-8")
    assert set(documented_commands(text)) == set(subcommands(_parser()))
    assert {"--headless", "--seats", "--kiosk"} <= documented_commands(text)["play"]
    assert len(documented_keys(text)) == len(code_keys())


# -------------------------------------------------- each check finds what it is for

def _without_row(text: str, start: str) -> str:
    lines = text.splitlines()
    kept = [line for line in lines if not line.startswith(start)]
    assert len(kept) == len(lines) - 1, start
    return "\n".join(kept) + "\n"


def test_a_removed_option_row_is_found() -> None:
    text = _without_row(PAGE.read_text(encoding="utf-8"), "| `--kiosk` | off | run as")
    problems = command_problems(text, _parser())
    assert "clans-pi play: --kiosk is not in its tables" in problems


def test_an_option_the_parser_gained_is_found() -> None:
    parser = _parser()
    subcommands(parser)["board"].add_argument("--svg", action="store_true")
    problems = command_problems(PAGE.read_text(encoding="utf-8"), parser)
    assert "clans-pi board: --svg is not in its tables" in problems
    assert "the option --svg is not named on the page" in problems


def test_an_option_the_parser_lost_is_found() -> None:
    text = PAGE.read_text(encoding="utf-8") + "\nThe `--frobnicate` option.\n"
    assert "the page names --frobnicate, which no command takes" in command_problems(
        text, _parser())
    text = PAGE.read_text(encoding="utf-8").replace(
        "| `--json` | off | print the board as JSON",
        "| `--json`, `--yaml` | off | print the board as JSON")
    problems = command_problems(text, _parser())
    assert "clans-pi board: its tables list --yaml, which it does not take" in problems


def test_an_option_on_the_wrong_command_is_found() -> None:
    text = PAGE.read_text(encoding="utf-8").replace(
        "| `--config FILE` | the usual files | the settings whose",
        "| `--config FILE`, `--board PATH` | the usual files | the settings whose")
    problems = command_problems(text, _parser())
    assert problems == ["clans-pi selftest: its tables list --board, which it does not take"]


def test_a_missing_or_unknown_command_is_found() -> None:
    text = PAGE.read_text(encoding="utf-8").replace("### `clans-pi board`", "### Boards")
    text = text.replace("### `clans-pi replay`", "### `clans-pi check`")
    problems = command_problems(text, _parser())
    assert "the command 'board' has no section" in problems
    assert "a section for 'check', which is no command" in problems


def test_a_missing_an_unknown_or_a_misplaced_setting_is_found() -> None:
    page = PAGE.read_text(encoding="utf-8")
    text = _without_row(page, "| `dim_percent` |")
    assert settings_problems(text) == ["the setting display.dim_percent is not on the page"]
    text = page.replace("| `hints` | true or false |", "| `hint` | true or false |")
    assert settings_problems(text)[:2] == ["the setting computer.hints is not on the page",
                                           "the page lists computer.hint, which is no setting"]
    text = page.replace("### `[computer]`", "### The computers")
    problems = settings_problems(text)
    assert "the setting computer.workers is not on the page" in problems
    assert "the page lists workers, which is no setting" in problems


def test_a_wrong_default_is_found() -> None:
    page = PAGE.read_text(encoding="utf-8")
    text = page.replace("| whole number, 0 to 100 | `60` |", "| whole number, 0 to 100 | `70` |")
    assert settings_problems(text) == ["top level.volume: the page's default 70 is not 60"]
    text = page.replace('| `"screen"` | seat 2 |', '| `"gpio"` | seat 2 |')
    assert [p.split(":")[0] for p in settings_problems(text)] == ["seats"]
    text = page.replace('| `"800x480"` |', '| `"800 by 480"` |')
    assert settings_problems(text)[0].startswith("a default on the page is refused: ")


def test_an_installer_option_missing_or_gone_is_found() -> None:
    page = PAGE.read_text(encoding="utf-8")
    usage = installer_usage(INSTALLER.read_text(encoding="utf-8"))
    text = _without_row(page, "| `--purge` |")
    assert installer_problems(text, usage) == ["install-pi.sh: --purge is not in the page's table"]
    gained = usage + "\n  --wipe-card     everything\n"
    assert installer_problems(page, gained) == [
        "install-pi.sh: --wipe-card is not in the page's table"]
    lost = "\n".join(line for line in usage.splitlines() if "--no-apt" not in line)
    assert installer_problems(page, lost) == [
        "install-pi.sh: the page's table lists --no-apt, which its usage does not name"]


def test_the_installer_s_options_are_not_taken_for_the_command_s() -> None:
    """--dry-run on the page is the installer's: no problem for clans-pi's parser; the same
    word outside the installer's section is one."""
    page = PAGE.read_text(encoding="utf-8")
    assert "`--dry-run`" in page and command_problems(page, _parser()) == []
    text = page + "\n## Elsewhere\n\nThe `--dry-run` option.\n"
    assert command_problems(text, _parser()) == [
        "the page names --dry-run, which no command takes"]


@pytest.mark.parametrize("cell", ["`--size WxH`", "`-o OUT.png`, `--output OUT.png`",
                                  "`FILE`", "`--board PATH`, `--chart PATH`"])
def test_the_option_cells_are_read(cell: str) -> None:
    words = first_words(cell)
    assert words and all(w.startswith("-") or w.isupper() for w in words)
