"""The compiled core: the rules' hot path and the search in C (``core.c``), identical to
the Python rules and search, which stay the reference and the fallback.

:func:`core` gives the loaded library or None, :func:`why_not` one line saying why not
(no compiler when it was set up, built from another ``core.c``, ``CLANS_PI_CORE=python``).
The computers' search uses it when it is there (:mod:`clans_pi.bots.compiled_search`);
:mod:`.build` builds it.
"""

from .library import core, describe, why_not

__all__ = ["core", "describe", "why_not"]
