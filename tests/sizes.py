"""How big the property, fuzz and exhaustive tests are: a quick size by default (``make test``),
the full size with ``pytest --full`` (``make test-full``, the nightly run).

Both sizes run the same assertions on the same kind of input; the full size only looks at more
of it. ``FULL`` is set by ``conftest.py`` before any test module is imported, so a size can be
used where a module is defined (in ``@settings`` and ``@pytest.mark.parametrize``).
"""

from __future__ import annotations

FULL = False
"""Whether this run asked for the full sizes (``pytest --full``)."""


def size(quick: int, full: int) -> int:
    """``full`` in a ``--full`` run, else ``quick``."""
    return full if FULL else quick
