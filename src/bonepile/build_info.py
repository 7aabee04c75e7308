"""Which build of bonepile runs: the rules' hot modules compiled with mypyc, or pure Python.

A normal install (``pip install .``) compiles them where a C compiler works; setup.py leaves a
note in a pure-Python wheel saying why it is not compiled. What runs is read from the modules
actually loaded, not from the note.
"""

from __future__ import annotations

import platform
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import bonepile.state

COMPILED: bool = str(bonepile.state.__file__).endswith(tuple(EXTENSION_SUFFIXES))
"""True when the rules core runs compiled with mypyc (an extension module, not a .py file)."""

NOTE = Path(__file__).with_name("_build_note.txt")
"""Written by setup.py into a pure-Python wheel: why it was not compiled."""


def build() -> str:
    """The build that runs: ``"compiled (mypyc)"`` or ``"pure Python"``."""
    return "compiled (mypyc)" if COMPILED else "pure Python"


def why_pure() -> str | None:
    """Why this build is pure Python, as far as is known (``None`` when compiled or unknown)."""
    if COMPILED:
        return None
    try:
        return " ".join(NOTE.read_text(encoding="utf-8").split()) or None
    except OSError:
        pass
    import json
    from importlib import metadata

    try:  # pip records an editable install in direct_url.json (PEP 610)
        direct = json.loads(metadata.distribution("bonepile").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        return None
    if isinstance(direct, dict) and (direct.get("dir_info") or {}).get("editable"):
        return "editable install"
    return None


def version_line() -> str:
    """``bonepile --version``: the version, the build and the Python, e.g. ``bonepile 0.1.0,
    compiled with mypyc (Python 3.11.7)`` or ``bonepile 0.1.0, pure Python (Python 3.11.7;
    editable install)``."""
    from importlib import metadata

    try:
        version = metadata.version("bonepile")
    except metadata.PackageNotFoundError:
        version = bonepile.__version__
    python = f"Python {platform.python_version()}"
    if COMPILED:
        return f"bonepile {version}, compiled with mypyc ({python})"
    why = why_pure()
    return f"bonepile {version}, pure Python ({python}{f'; {why}' if why else ''})"
