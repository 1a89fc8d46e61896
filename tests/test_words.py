"""The repository's words say what a thing is, never which ticket brought it: no tracked text
file names an issue by number ("issue" and a number; a bare ``#12`` is fine) or carries a
status note of work under way (a parenthesis ending in "in progress"). A game being played
is still "a game in progress".

Left out: binary files and the translations (.po/.pot: msgids quote the code's own strings,
and translators' files are theirs). The dated journal is held to it too: its entries are
headed by their question, not by a ticket."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The words this file looks for, kept apart here so that it does not find itself.
ISSUE, PROGRESS = "issue", "in progress"

#: A ticket by number: the word issue (or issues) and a number, as in 16, 31 or 13.3.
TICKET = re.compile(r"\bissues?\s+\d+", re.IGNORECASE)
#: A status note: a parenthesis ending in ``PROGRESS``, alone or after a comma; not a game
#: being played.
STATUS = re.compile(r"(?<!\bgame )(?<!\bgames )\bin\s+progress\s*\)", re.IGNORECASE)

#: Dated history, where the ticket is part of the record.
TRANSLATIONS = (".po", ".pot")


def _tracked() -> list[str]:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                              check=True, timeout=60)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"not a git checkout, so no tracked files to read: {exc}")
    return [name for name in done.stdout.decode("utf-8").split("\0") if name]


def _text(path: Path) -> str | None:
    """The file's text, or None for a binary file (a NUL byte, as git decides, or not
    UTF-8) or one listed but absent (deleted in the work tree, not yet committed)."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    if b"\0" in data[:8000]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _checked() -> list[str]:
    return [name for name in _tracked()
            if not name.endswith(TRANSLATIONS)]


def _offences(root: Path, names: list[str]) -> list[str]:
    found = []
    for name in names:
        text = _text(root / name)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if TICKET.search(line) or STATUS.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_tracked_text_names_a_ticket_or_a_status() -> None:
    names = _checked()
    assert len(names) > 100, "git ls-files listed too little: the repository moved?"
    found = _offences(ROOT, names)
    assert not found, (
        "say what the thing is or what was wrong, not which ticket made it:\n"
        + "\n".join(found))


@pytest.mark.parametrize(("line", "bad"), [
    (f'"""Past games ({ISSUE} 18): the list."""', True),
    (f"# Hiding ({ISSUE.title()}s 33) reads", True),
    (f"{ISSUE.title()} 13.3: Quit on the kiosk left a black screen.", True),
    (f"Phones as private seat devices (the server's part, {PROGRESS})", True),
    (f"({PROGRESS.replace(' ', '  ')})", True),
    (f'"""A game {PROGRESS} between ``seats``."""', False),
    (f"(the game {PROGRESS})", False),
    ("fixed in #12 upstream", False),
    ("the issues with a 7-inch screen", False),
])
def test_the_patterns_find_tickets_and_status_notes_only(line: str, bad: bool) -> None:
    assert bool(TICKET.search(line) or STATUS.search(line)) is bad


def test_the_message_names_file_and_line_and_skips_binary_files(tmp_path: Path) -> None:
    line = f'"""Past games ({ISSUE} 18)."""'
    (tmp_path / "a.py").write_text(f"x = 1\n{line}\n", encoding="utf-8")
    (tmp_path / "b.png").write_bytes(b"\x89PNG\0 " + line.encode())
    found = _offences(tmp_path, ["a.py", "b.png", "gone.py"])
    assert found == [f"a.py:2: {line}"]
