"""Build the compiled core: ``core.c`` into ``libclanscore-MACHINE.so`` next to it.

    python -m clans_pi.compiled.build                  for this machine, with cc
    python -m clans_pi.compiled.build --if-needed      only when missing or built from
                                                       another core.c (set-up runs this)
    python -m clans_pi.compiled.build --check          say whether the game uses it
    CC=aarch64-linux-gnu-gcc python -m clans_pi.compiled.build --machine aarch64
                                                       for a Pi, on another machine

Needs only a C compiler and libm (no Python headers): ``$CC``, else ``cc``, else ``gcc``.
Without one it says so in one line and exits 1: the game then plays on the Python path.
Set-up runs this (``scripts/_venv.sh``, ``scripts/install-pi.sh``; the image builder cross
compiles for aarch64), so nothing is compiled when the game starts.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .library import SOURCE, library_path, source_hash, stamp_of

__all__ = ["FLAGS", "build", "compiler", "main"]

#: -O3 and the C99 the core is written in. -ffp-contract=off: no fused multiply-adds
#: (aarch64 has them), and -fno-fast-math after whatever $CC carries, so that every
#: floating-point result is the one Python computes.
FLAGS = ("-O3", "-std=c99", "-D_POSIX_C_SOURCE=199309L", "-fPIC", "-shared",
         "-ffp-contract=off", "-fno-fast-math", "-fno-strict-aliasing", "-Wall")


class BuildError(RuntimeError):
    """The core could not be built; the message is one line saying why."""


def compiler() -> list[str] | None:
    """The C compiler to use as a command (``$CC`` may carry flags), or None."""
    cc = os.environ.get("CC")
    if cc:
        words = shlex.split(cc)
        return words if words and shutil.which(words[0]) else None
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return [name]
    return None


def build(machine: str | None = None, out: Path | None = None) -> Path:
    """Compile ``core.c`` for ``machine`` (default: this one) into ``out`` (default: where
    :func:`.library.library_path` looks); return the library's path. The library is
    written whole or not at all (built aside, then renamed)."""
    cc = compiler()
    if cc is None:
        if os.environ.get("CC"):
            raise BuildError(f"the C compiler $CC names is not here: {os.environ['CC']}")
        raise BuildError("no C compiler (cc, gcc or $CC) here" + (
            "; on Debian or Raspberry Pi OS: sudo apt install gcc" if sys.platform == "linux"
            else ""))
    target = out or library_path(machine)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as tmp:
        built = Path(tmp) / target.name
        command = [*cc, *FLAGS, f'-DCORE_HASH="{source_hash()}"', str(SOURCE), "-o",
                   str(built), "-lm"]
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise BuildError(f"{cc[0]} could not be run: {exc}") from None
        if proc.returncode != 0:
            first = next((line for line in proc.stderr.splitlines() if line.strip()),
                         f"exit status {proc.returncode}")
            raise BuildError(f"{cc[0]} failed to build core.c: {first}")
        os.replace(built, target)
    return target


def built_from(path: Path) -> str | None:
    """The hash of the ``core.c`` the library at ``path`` was built from; None when there
    is no library there, or it cannot be loaded here (another machine's)."""
    import ctypes

    if not path.exists():
        return None
    try:
        return stamp_of(ctypes.CDLL(str(path)))
    except (OSError, AttributeError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clans_pi.compiled.build",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--machine", help="the machine to build for (default: this one), "
                        "e.g. aarch64 with CC=aarch64-linux-gnu-gcc")
    parser.add_argument("--out", type=Path, help="the library's path (default: next to "
                        "core.c, named for the machine)")
    parser.add_argument("--check", action="store_true",
                        help="build nothing: say whether the game uses the compiled core")
    parser.add_argument("--if-needed", action="store_true", help="build only when there is "
                        "no library for this machine built from today's core.c")
    parser.add_argument("--quiet", action="store_true", help="say nothing when it works")
    args = parser.parse_args(argv)
    if args.check:
        from .library import why_not

        reason = why_not()
        print(f"compiled core: {'in use' if reason is None else reason}")
        return 0 if reason is None else 1
    if args.if_needed and args.machine is None and args.out is None \
            and built_from(library_path()) == source_hash():
        return 0
    try:
        path = build(args.machine, args.out)
    except BuildError as exc:
        print(f"clans-pi: {exc}; the computers think on the Python path (slower)",
              file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"built {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
