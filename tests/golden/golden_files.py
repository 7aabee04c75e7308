"""What the golden-file generators share: compare a file with its new text, write it if asked."""

from __future__ import annotations

from pathlib import Path


def sync(path: Path, text: str, write: bool) -> str:
    """Compare ``path`` with ``text`` (``same``, ``new`` or ``CHANGED``); write it if ``write``
    and it is not the same."""
    old = path.read_text(encoding="utf-8") if path.exists() else None
    status = "same" if old == text else ("new" if old is None else "CHANGED")
    if write and status != "same":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return status
