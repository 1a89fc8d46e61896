"""The documentation holds: README.md, every docs/*.md and the READMEs beside the code.

For each page:

- every relative link (``[text](target)``, ``![alt](target)``, ``[label]: target``, an
  HTML ``href`` or ``src``) reaches a file or folder of the checkout; http(s) and mailto
  links are not followed. An anchor (``page.md#heading``, ``#heading``) must be a heading
  of that page (GitHub's slug of it) or an ``<a id>`` / ``<a name>`` there.
- every path of this repository named in a code span (a word beginning with clans_pi/,
  scripts/, tests/, docs/, hardware/, firmware/, systemd/ or .ci/, with or without ./)
  exists; ``path::test`` and ``path#anchor`` name the path, ``*`` and placeholders
  (``<lang>``, ``CODE``) match any name.
- every ``clans-pi ...`` command line, in a code span or in a shell code block (no
  language, sh, bash, shell, or console's ``$`` lines), parses with the real parser
  (``clans_pi.cli._parser()``). Placeholders (FILE, DIR, WxH, N, ...) become sample values,
  ``[...]`` is optional and taken, ``a|b`` takes ``a``; lines showing ``--help`` are
  skipped, and so is the program's own output (``clans-pi replay: move 7: ...``).

The dated journal (docs/journal.md) is history: its entries name the paths and commands
of their day, so only its links are checked.

Each check is a function returning what is wrong, so the tests at the end show it finding
a broken sample.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

from clans_pi.cli import _parser
from tests.test_reference import subcommands

ROOT = Path(__file__).resolve().parents[1]
READMES = ("README.md", "hardware/README.md", "firmware/README.md", "systemd/README.md",
           "scripts/README.md", "scripts/build-image/README.md")
#: The dated journal: its entries name the files and commands of their day, kept as they
#: were; only its links must still lead somewhere.
HISTORY = {"docs/journal.md"}


def pages(root: Path = ROOT) -> list[str]:
    found = [name for name in READMES if (root / name).is_file()]
    return found + sorted(p.relative_to(root).as_posix() for p in (root / "docs").glob("*.md"))


# ------------------------------------------------------------------ reading a page

FENCE = re.compile(r"^ {0,3}(```+|~~~+)\s*([\w+-]*)")


def split_code(text: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """The page's text with its fenced code blocks blanked (lines kept, for line numbers),
    and the blocks: (language, lines)."""
    prose: list[str] = []
    blocks: list[tuple[str, list[str]]] = []
    fence = None
    for line in text.splitlines():
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            blocks.append((match.group(2).lower(), []))
            prose.append("")
        elif fence is not None and line.strip().startswith(fence[0] * len(fence)) \
                and not line.strip().strip(fence[0]):
            fence = None
            prose.append("")
        elif fence is not None:
            blocks[-1][1].append(line)
            prose.append("")
        else:
            prose.append(line)
    return "\n".join(prose), blocks


SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


def code_spans(prose: str) -> list[str]:
    """The inline code spans of the page's prose (fenced blocks already blanked)."""
    return [m.group(2).strip() for m in SPAN.finditer(prose)]


def without_spans(prose: str) -> str:
    return SPAN.sub(lambda m: " " * len(m.group(0)), prose)


# ------------------------------------------------------------------ anchors

def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, without punctuation but
    hyphens and underscores, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    kept = "".join(c for c in text.strip().lower()
                   if c in " -" or unicodedata.category(c)[0] in "LMN"
                   or unicodedata.category(c) == "Pc")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a page: its headings' slugs (a repeated one numbered, as GitHub
    does) and its ``<a id>`` / ``<a name>``."""
    prose, _ = split_code(text)
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose.splitlines():
        match = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    found.update(re.findall(r"<a\s[^>]*(?:id|name)=\"([^\"]+)\"", text))
    return found


# ------------------------------------------------------------------ links

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
HTML = re.compile(r"<(?:a|img)\s[^>]*(?:href|src)=\"([^\"]+)\"", re.I)


def link_targets(text: str) -> list[str]:
    prose, _ = split_code(text)
    prose = without_spans(prose)
    return ([m.group(1) for m in LINK.finditer(prose)]
            + REFERENCE.findall(prose) + HTML.findall(prose))


def link_problems(root: Path, page: str) -> list[str]:
    here = root / page
    text = here.read_text(encoding="utf-8")
    problems = []
    for target in link_targets(text):
        if re.match(r"(https?|mailto):", target, re.I):
            continue
        path, _, anchor = target.partition("#")
        path, anchor = unquote(path), unquote(anchor)
        where = (here.parent / path).resolve() if path else here
        if not where.exists():
            problems.append(f"{page}: link to {target}: no such file")
            continue
        if root.resolve() not in (where, *where.parents):
            problems.append(f"{page}: link to {target}: outside the repository")
            continue
        if anchor and where.suffix == ".md" and where.is_file() \
                and anchor not in anchors(where.read_text(encoding="utf-8")):
            problems.append(f"{page}: link to {target}: no heading or <a id> {anchor!r} there")
    return problems


# ------------------------------------------------------------------ paths in code spans

PREFIXES = ("clans_pi/", "scripts/", "tests/", "docs/", "hardware/", "firmware/", "systemd/",
            ".ci/")


def named_paths(text: str) -> list[str]:
    """Each repository path named in a code span, as written."""
    prose, _ = split_code(text)
    found = []
    for span in code_spans(prose):
        for word in span.split():
            word = word.strip("\"'(),;:").removeprefix("./")
            if word.startswith(PREFIXES):
                found.append(word)
    return found


def path_exists(root: Path, word: str) -> bool:
    path = re.split(r"::|#", word)[0].rstrip(".,:;)")
    parts = [("*" if re.fullmatch(r"[A-Z][A-Z0-9_]+", part) else re.sub(r"<[^>]+>", "*", part))
             for part in path.split("/")]
    pattern = "/".join(parts).rstrip("/")
    if any(c in pattern for c in "*?["):
        return any(root.glob(pattern))
    return (root / pattern).exists()


def path_problems(root: Path, page: str) -> list[str]:
    if page in HISTORY:
        return []
    text = (root / page).read_text(encoding="utf-8")
    return [f"{page}: `{word}` does not exist" for word in dict.fromkeys(named_paths(text))
            if not path_exists(root, word)]


# ------------------------------------------------------------------ command lines

SHELL_LANGUAGES = {"", "sh", "bash", "shell", "console", "shell-session"}
OPERATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;"}
REDIRECTS = {">", ">>", "<", ">&", "<&", "&>", "2>", "2>&1", ">|"}
#: Placeholders written in the docs, and a value each stands for.
SAMPLES = {"FILE": "game.json", "DIR": "state", "WxH": "800x480", "PATH": "board.json",
           "OUT.png": "out.png", "HOST:PORT": "127.0.0.1:8080", "KIND,KIND,...": "random,hard"}


def command_lines(text: str) -> list[str]:
    """Every text that may hold a ``clans-pi`` command line: each code span, and each line
    of a shell code block (continued lines joined; in a console block, ``$`` lines)."""
    prose, blocks = split_code(text)
    found = [span for span in code_spans(prose) if "clans-pi" in span]
    for language, lines in blocks:
        if language not in SHELL_LANGUAGES:
            continue
        joined = re.sub(r"\\\n\s*", " ", "\n".join(lines)).splitlines()
        for line in joined:
            if language in ("console", "shell-session"):
                if not line.lstrip().startswith("$ "):
                    continue
                line = line.lstrip()[2:]
            if "clans-pi" in line:
                found.append(line)
    return found


def _words(line: str) -> list[str]:
    # ``a|b`` (``a\\|b`` in a table), no spaces around: alternatives; the first is taken.
    line = re.sub(r"(?<=\S)\\?\|(?=\S)[^\s\]]*", "", line)
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|&;()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: read it as words
        return line.split()


def invocations(line: str) -> list[list[str]]:
    """The arguments of each ``clans-pi`` run in a shell line (``clans-pi``, a path ending in
    it, after ``sudo [-u USER]``, ``env``, ``exec``, ``time`` or ``NAME=value``)."""
    found = []
    segment: list[str] = []
    for word in [*_words(line), ";"]:
        if word not in OPERATORS:
            segment.append(word)
            continue
        words = segment
        segment = []
        while words and (words[0] in ("sudo", "env", "exec", "time", "command")
                         or re.match(r"^[A-Za-z_]\w*=", words[0])):
            if words[0] == "sudo":
                words = words[1:]
                while words and words[0].startswith("-"):
                    words = words[2:] if words[0] in ("-u", "-g", "-C") else words[1:]
            else:
                words = words[1:]
        if words and words[0].rsplit("/", 1)[-1] == "clans-pi":
            args: list[str] = []
            rest = iter(words[1:])
            for word in rest:
                if word in REDIRECTS or re.fullmatch(r"\d?[<>]+&?\d*", word):
                    next(rest, None)  # the file it redirects to
                    continue
                args.append(word)
            found.append(args)
    return found


def _action(parser: argparse.ArgumentParser, option: str) -> argparse.Action | None:
    return next((a for a in parser._actions if option in a.option_strings), None)


def sample_args(args: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """``args`` as written in the docs, made a command line: ``[...]`` taken, ``a|b`` as
    ``a``, ``...`` left out, each placeholder a value of its option's kind."""
    words = []
    for word in args:
        word = word.strip("[]")
        if not word or word in ("...", "…"):
            continue
        if "|" in word and not word.startswith("-"):
            word = word.split("|")[0]
        words.append(word)
    command = subcommands(parser).get(words[0]) if words else None
    out = []
    for i, word in enumerate(words):
        if word in SAMPLES:
            out.append(SAMPLES[word])
        elif re.fullmatch(r"[A-Z][A-Z0-9_]*", word):
            action = _action(command, words[i - 1]) if command and i else None
            if action is not None and action.choices:
                out.append(str(next(iter(action.choices))))
            elif action is not None and action.type in (int, float):
                out.append("3")
            else:
                out.append("x.json")
        else:
            out.append(word)
    return out


def parse_problem(args: list[str]) -> str | None:
    """Why ``clans-pi ARGS`` (as the docs write it) does not parse, or None."""
    parser = _parser()
    if any(a in ("-h", "--help", "--version") for a in args):
        return None
    if not args:
        return None  # the command's name alone
    if args[0].endswith(":") or not re.match(r"^[A-Za-z-]", args[0]):
        return None  # its output: "clans-pi replay: move 7: ...", "clans-pi 0.1.0"
    if len(args) == 1 and args[0] in subcommands(parser):
        return None  # a command's name: `clans-pi render`
    sample = sample_args(args, parser)
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            parser.parse_args(sample)
    except SystemExit:
        lines = [line for line in err.getvalue().splitlines() if "error:" in line]
        return (lines[-1] if lines else err.getvalue().strip()) + f" (as {' '.join(sample)})"
    return None


def command_problems(root: Path, page: str) -> list[str]:
    if page in HISTORY:
        return []
    text = (root / page).read_text(encoding="utf-8")
    problems = []
    for line in command_lines(text):
        for args in invocations(line):
            problem = parse_problem(args)
            if problem:
                problems.append(f"{page}: `{line.strip()}`: {problem}")
    return problems


# ------------------------------------------------------------------ the tests

@pytest.mark.parametrize("page", pages())
def test_every_relative_link_reaches_its_file_and_heading(page: str) -> None:
    problems = link_problems(ROOT, page)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", pages())
def test_every_repository_path_named_exists(page: str) -> None:
    problems = path_problems(ROOT, page)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", pages())
def test_every_clans_pi_command_line_parses(page: str) -> None:
    problems = command_problems(ROOT, page)
    assert not problems, "\n".join(problems)


def test_the_pages_are_found() -> None:
    found = pages()
    assert {"README.md", "docs/rules.md", "docs/reference.md", "scripts/README.md"} <= set(
        found)
    assert all((ROOT / page).is_file() for page in found)


# -------------------------------------------------- each check finds what it is for

def _sample(tmp_path: Path, text: str, name: str = "docs/page.md") -> str:
    for other, body in {"docs/other.md": "# Other page\n\n## The part\n\n<a id=\"fig\"></a>\n",
                        "scripts/tool.py": "", "tests/test_x.py": ""}.items():
        (tmp_path / other).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / other).write_text(body, encoding="utf-8")
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text, encoding="utf-8")
    return name


GOOD = """# A page

## Its part

See [the other](other.md), [its part](other.md#the-part), [a figure](other.md#fig),
[here](#its-part), [the tool](../scripts/tool.py), [a site](https://example.org/x.md#y),
[mail](mailto:a@b.c). The tool is `scripts/tool.py --check`, its test
`tests/test_x.py::test_y`, the pages `docs/*.md`, a catalogue `docs/<lang>.md`.

```sh
clans-pi play --size WxH --rotate 90|180|270   # a comment's 'quote
sudo -u clans-pi /opt/clans-pi/.venv/bin/clans-pi selftest --seconds N
clans-pi render FILE -o OUT.png [--screen play|peek] && systemctl restart clans-pi
clans-pi play --help
```

`clans-pi replay: move 7: territory 12 is empty` is what it says; `clans-pi render` draws;
`journalctl -u clans-pi` reads the log.

```text
clans-pi frobnicate
```
"""


def test_a_good_sample_passes_every_check(tmp_path: Path) -> None:
    page = _sample(tmp_path, GOOD)
    assert link_problems(tmp_path, page) == []
    assert path_problems(tmp_path, page) == []
    assert command_problems(tmp_path, page) == []


@pytest.mark.parametrize(("broken", "found"), [
    ("[gone](gone.md)", "link to gone.md: no such file"),
    ("![gone](pictures/gone.png)", "link to pictures/gone.png: no such file"),
    ("[part](other.md#no-such-part)", "link to other.md#no-such-part: no heading"),
    ("[here](#nowhere)", "link to #nowhere: no heading"),
    ("[out](../../elsewhere.md)", "no such file"),
    ('<img src="gone.png" width="10">', "link to gone.png: no such file"),
    ("[ref]: gone/", "link to gone/: no such file"),
])
def test_a_broken_link_is_found(tmp_path: Path, broken: str, found: str) -> None:
    page = _sample(tmp_path, GOOD + "\n" + broken + "\n")
    problems = link_problems(tmp_path, page)
    assert len(problems) == 1 and found in problems[0], problems


@pytest.mark.parametrize("broken", ["`scripts/gone.py`", "`./scripts/gone --check`",
                                    "`tests/test_gone.py::test_y`", "`docs/*.txt`",
                                    "(`clans_pi/nothing/`)"])
def test_a_missing_path_is_found(tmp_path: Path, broken: str) -> None:
    page = _sample(tmp_path, GOOD + "\n" + broken + "\n")
    assert len(path_problems(tmp_path, page)) == 1


@pytest.mark.parametrize(("broken", "found"), [
    ("`clans-pi play --frobnicate`", "unrecognized arguments: --frobnicate"),
    ("`clans-pi render FILE`", "the following arguments are required: -o/--output"),
    ("`clans-pi frob`", "invalid choice: 'frob'"),
    ("```\nclans-pi play --rotate 45\n```", "invalid choice: 45"),
    ("```bash\nsudo clans-pi selftest --board b.json\n```", "unrecognized arguments"),
    ("```console\n$ .venv/bin/clans-pi history --json --since 3\n```",
     "unrecognized arguments: --since"),
    ("```sh\nclans-pi board \\\n    --svg\n```", "unrecognized arguments: --svg"),
])
def test_a_command_line_that_does_not_parse_is_found(tmp_path: Path, broken: str,
                                                     found: str) -> None:
    page = _sample(tmp_path, GOOD + "\n" + broken + "\n")
    problems = command_problems(tmp_path, page)
    assert len(problems) == 1 and found in problems[0], problems


@pytest.mark.parametrize(("heading", "anchor"), [
    ("## `clans-pi play --headless`", "clans-pi-play---headless"),
    ("### A record (`clans-record/1`)", "a-record-clans-record1"),
    ("### The card's clans-pi.toml", "the-cards-clans-pitoml"),
    ("### `[display]`", "display"),
    ("## Put it on a Pi", "put-it-on-a-pi"),
    ("#### The table's own Wi-Fi", "the-tables-own-wi-fi"),
    ("## `state_dir`, **bold**", "state_dir-bold"),
])
def test_headings_get_github_s_anchors(heading: str, anchor: str) -> None:
    assert anchor in anchors(heading + "\n")
