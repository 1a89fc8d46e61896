"""Finding and loading the compiled core (``core.c`` built into a shared library), or
saying in one line why it cannot be used.

The library is built by :mod:`.build` next to this file, named for the machine it runs on
(``libclanscore-x86_64.so``, ``libclanscore-aarch64.so``), and carries the hash of the
``core.c`` it was built from: a library built from another ``core.c`` (a checkout that
changed since) is not used, so the game never runs code that no longer answers to the
Python rules. It is loaded with :mod:`ctypes` (no Python headers needed to build it; the
calls release the interpreter lock, so the screen goes on while a search runs).

``CLANS_PI_CORE=python`` in the environment makes the game use the Python path even when
the library is there (for comparisons and tests).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
from collections.abc import Iterator
from contextlib import contextmanager
from ctypes import POINTER, c_char_p, c_double, c_int, c_size_t, c_uint32, c_uint64, c_void_p
from functools import cache
from pathlib import Path

__all__ = ["Core", "core", "describe", "library_path", "python_path", "source_hash",
           "stamp_of", "why_not"]

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "core.c"
#: The environment variable that chooses the path: "python" (the reference), or unset.
ENV = "CLANS_PI_CORE"

_int_p = POINTER(c_int)


def library_path(machine: str | None = None) -> Path:
    """Where the library for ``machine`` (default: this one's) is built and looked for."""
    return HERE / f"libclanscore-{machine or platform.machine()}.so"


def source_hash() -> str:
    """The hash a library built from today's ``core.c`` carries."""
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]


class Core:
    """The loaded library, its functions' signatures declared (see ``core.c``)."""

    def __init__(self, lib: ctypes.CDLL, path: Path) -> None:
        self.lib = lib
        self.path = path
        vp, ip, dp = c_void_p, _int_p, POINTER(c_double)
        u32p = POINTER(c_uint32)
        sigs: dict[str, tuple[object, list[object]]] = {
            "cc_source_hash": (c_char_p, []),
            "cc_rng_size": (c_size_t, []),
            "cc_rng_set": (None, [vp, u32p, c_int]),
            "cc_rng_get": (c_int, [vp, u32p]),
            "cc_rng_random": (c_double, [vp]),
            "cc_board_size": (c_size_t, []),
            "cc_board_set": (c_int, [vp, c_int, ip, ip, ip, c_int, ip, c_int, ip, ip]),
            "cc_state_size": (c_size_t, []),
            "cc_state_set": (None, [vp, vp, ip, ip, ip, ip, c_int, c_int, c_int, c_int, c_int,
                                    ip, ip]),
            "cc_state_get": (c_int, [vp, vp, ip]),
            "cc_legal_actions": (c_int, [vp, vp, ip]),
            "cc_push": (None, [vp, vp, c_int, ip, c_int]),
            "cc_random_legal_action": (c_int, [vp, vp, vp]),
            "cc_playout": (None, [vp, vp, vp]),
            "cc_playouts": (None, [vp, vp, vp, vp, c_int]),
            "cc_heuristic_order": (c_int, [vp, vp, ip, c_int, dp]),
            "cc_clan_values": (c_int, [vp, vp, ip, c_int, dp]),
            "cc_search_size": (c_size_t, []),
            "cc_search_start": (c_int, [vp, vp, vp, c_double, c_double, c_double, c_double,
                                        c_double, c_int, c_int, c_int, c_int, ip, c_int, dp,
                                        c_double, dp, u32p, c_int, vp]),
            "cc_search_root": (vp, [vp]),
            "cc_search_rng": (c_int, [vp, u32p]),
            "cc_search_end": (None, [vp]),
            "cc_search_run": (c_int, [vp, c_int, c_double, c_int]),
            "cc_node_info": (None, [vp, ip]),
            "cc_node_children": (None, [vp, c_int, ip, POINTER(c_uint64), ip, dp]),
            "cc_node_child": (vp, [vp, c_int]),
            "cc_tree_free": (None, [vp, vp]),
        }
        for name, (restype, argtypes) in sigs.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)
        self.rng_size = lib.cc_rng_size()
        self.board_size = lib.cc_board_size()
        self.state_size = lib.cc_state_size()
        self.search_size = lib.cc_search_size()

    def __repr__(self) -> str:
        return f"<compiled core {self.path.name}>"


_why: list[str] = []


def stamp_of(lib: ctypes.CDLL) -> str:
    """The hash of the ``core.c`` the loaded library ``lib`` was built from."""
    stamp = lib.cc_source_hash
    stamp.restype = c_char_p
    return stamp().decode()


@cache
def _load() -> Core | None:
    path = library_path()
    if not path.exists():
        _why.append(f"no compiled core ({path.name} not built: ./scripts/play builds it "
                    "in a checkout, the installer on a Pi)")
        return None
    try:
        lib = ctypes.CDLL(str(path))
        stamp = stamp_of(lib)
    except (OSError, AttributeError) as exc:
        _why.append(f"the compiled core {path.name} cannot be loaded ({exc})")
        return None
    if stamp != source_hash():
        _why.append(f"the compiled core {path.name} was built from another core.c "
                    "(build it again: ./scripts/play in a checkout, the installer on a Pi)")
        return None
    return Core(lib, path)


def core() -> Core | None:
    """The compiled core, or None (then :func:`why_not` says why). The environment is read
    at each call: ``CLANS_PI_CORE=python`` set later still chooses the Python path."""
    if os.environ.get(ENV) == "python":
        return None
    return _load()


def why_not() -> str | None:
    """One line saying why the compiled core is not used; None when it is."""
    if os.environ.get(ENV) == "python":
        return f"{ENV}=python chooses the Python path"
    if _load() is not None:
        return None
    return _why[-1] if _why else "no compiled core"


def describe() -> str:
    """Which path the computers think on, in one line (``clans-pi selftest`` says it)."""
    reason = why_not()
    if reason is None:
        return f"compiled core ({library_path().name})"
    return f"Python path: {reason}"


@contextmanager
def python_path() -> Iterator[None]:
    """Within it, everything runs on the Python path (``CLANS_PI_CORE=python``): the
    reference a check holds the core against. Not for threads that search meanwhile."""
    before = os.environ.get(ENV)
    os.environ[ENV] = "python"
    try:
        yield
    finally:
        if before is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = before
