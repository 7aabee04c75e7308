"""The small error family. Every error is a :class:`ValueError` with a one-line message."""

from __future__ import annotations

import json
from typing import Any


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as JSON for an error message, cut to ``limit`` characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class BonepileError(ValueError):
    """Base class of every error bonepile raises on bad input."""


class InvalidActionError(BonepileError):
    """Text that is not an action (or tile) in bonepile's notation."""


class IllegalActionError(BonepileError):
    """A well-formed action that is not legal in the current position."""


class OptionError(BonepileError):
    """An unknown game, an unknown option, a value of the wrong type or out of range."""


class RecordError(BonepileError):
    """A game record that cannot be read: malformed, inconsistent, or with an illegal move."""


class DealError(BonepileError):
    """An explicit deal that does not hold the game's set exactly, in hands of the rule's size."""


class WireError(BonepileError):
    """A JSON value that is not the wire form of an event or a result (``from_json``)."""
