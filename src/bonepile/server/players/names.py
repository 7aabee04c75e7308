"""Account names: what is allowed, and when two names are the same.

A name is 3 to 20 characters: the letters a to z in either case, the digits, and ``-`` or
``_`` between them, starting with a letter (``Zoe``, ``ann-b``, ``bob_2``). The rule keeps to
one script on purpose: names from several scripts can look identical while differing (a Latin
``a`` and a Cyrillic ``а``), and a player must be able to tell who they play.

Two names are the same name when they look alike: :func:`name_key` folds the case, the digits
and letters that pass for each other (``0`` and ``o``; ``1``, ``i`` and ``l``; ``rn`` and ``m``;
``vv`` and ``w``) and drops the separators, so ``Bob_1``, ``bob-l`` and ``BOBI`` cannot all be
taken by different people.
"""

from __future__ import annotations

import re

from bonepile.errors import BonepileError

NAME_RULE = (
    "a name is 3 to 20 characters: letters a-z, digits, and - or _ between them, starting with "
    "a letter"
)
"""The rule, as a person is told it."""

_NAME = re.compile(r"[A-Za-z](?:[A-Za-z0-9]|[-_](?=[A-Za-z0-9])){2,19}")
_LOOK_ALIKE = (("rn", "m"), ("vv", "w"), ("0", "o"), ("1", "l"), ("i", "l"))


class BadName(BonepileError):
    """A name the rule does not allow."""

    code = "bad_name"


def parse_name(text: str) -> str:
    """``text`` as an account name (surrounding spaces dropped), or :class:`BadName` with the
    rule."""
    name = text.strip() if isinstance(text, str) else ""
    if not _NAME.fullmatch(name):
        raise BadName(NAME_RULE)
    return name


def name_key(name: str) -> str:
    """What makes ``name`` the same as another: two names with one key cannot both be taken."""
    key = name.lower().replace("-", "").replace("_", "")
    for alike, same in _LOOK_ALIKE:
        key = key.replace(alike, same)
    return key


__all__ = ["NAME_RULE", "BadName", "name_key", "parse_name"]
