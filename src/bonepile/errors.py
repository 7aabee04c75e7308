"""The small error family. Every error is a :class:`ValueError` with a one-line message.

Messages that quote user input quote it through :func:`shown` (as JSON) or :func:`quoted` (as a
Python-like string), both of which cut long input, so a huge input never gives a huge message.
"""

from __future__ import annotations

import json
from typing import Any


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as JSON for an error message, cut to ``limit`` characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # an int too long to print, a nest too deep
            text = f"<a {type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message: repr-like, on one line, cut after ``limit``
    characters (``'aaaa…' (1,000,000 characters)``), whatever it holds or however long it is.

    >>> quoted("6-6\\n")
    "'6-6\\\\n'"
    >>> quoted("x" * 1000, 4)
    "'xxxx…' (1,000 characters)"
    """
    if not isinstance(text, str):
        return shown(text, limit)
    body: list[str] = []
    used = 0
    for c in text:
        if used >= limit:
            break
        part = "\\'" if c == "'" else repr(c)[1:-1]
        body.append(part)
        used += len(part)
    if len(body) == len(text):
        return "'" + "".join(body) + "'"
    return "'" + "".join(body) + f"\u2026' ({len(text):,} characters)"


EXTRAS: dict[str, str] = {
    **dict.fromkeys(
        (
            "fastapi",
            "starlette",
            "uvicorn",
            "pydantic",
            "pydantic_core",
            "sqlalchemy",
            "alembic",
            "psycopg",
            "itsdangerous",
            "orjson",
            "redis",
            "argon2",
            "openskill",
        ),
        "server",
    ),
    **dict.fromkeys(("textual", "websockets"), "tui"),
    **dict.fromkeys(("numpy", "gymnasium", "pettingzoo"), "rl"),
    **dict.fromkeys(("torch", "stable_baselines3", "sb3_contrib"), "train"),
    "matplotlib": "report",
    "ray": "ray",
}
"""The extra (``pip install 'bonepile[EXTRA]'``) that installs each package only some commands
need, by the name it is imported as."""


def missing_extra(error: ImportError) -> str | None:
    """The extra that installs the package whose import failed with ``error``, or ``None``
    (not a package of an extra: a bug, or a broken install)."""
    name = getattr(error, "name", None)
    if not isinstance(name, str):
        return None
    return EXTRAS.get(name.partition(".")[0])


def needs_extra(what: str, extra: str, error: ImportError | None = None) -> str:
    """The one-line message for ``what`` (a command, an option) missing ``extra``:
    ``serve needs the server extra (orjson is missing): pip install 'bonepile[server]'``."""
    name = getattr(error, "name", None)
    missing = f" ({name.partition('.')[0]} is missing)" if isinstance(name, str) else ""
    return f"{what} needs the {extra} extra{missing}: pip install 'bonepile[{extra}]'"


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


class InputFileError(BonepileError):
    """A file (or standard input) that cannot be read: missing, not a regular file, too large,
    or not UTF-8 text (:mod:`bonepile.files`)."""


class MissingFileError(InputFileError):
    """A file that does not exist (so a name may be meant instead, as with boards)."""


class PerftLimitError(BonepileError):
    """A perft count that would visit more positions than its node limit allows."""


class SamplingError(RuntimeError):
    """No deal consistent with a view was found within the allowed attempts (a search agent's
    :class:`~bonepile.agents.sampler.Sampler`; not bad input, so not a :class:`BonepileError`)."""
