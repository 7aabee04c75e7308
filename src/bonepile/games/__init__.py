"""The game registry: every game is a small named :class:`Game` object with its options class.

>>> from bonepile.games import get_game
>>> get_game("sd").name
'super_dominoes'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bonepile.errors import OptionError
from bonepile.games.base import Game
from bonepile.games.double_double import DOUBLE_DOUBLE
from bonepile.games.doubles import DOUBLES
from bonepile.games.line import BLOCK, DRAW_GAME
from bonepile.games.super_dominoes import SUPER_DOMINOES
from bonepile.state import State
from bonepile.tiles import Tile

_REGISTRY: dict[str, Game[Any]] = {}
_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def register(game: Game[Any]) -> Game[Any]:
    """Add ``game`` to the registry (under its name and aliases)."""
    _REGISTRY[game.name] = game
    for alias in (game.name, *game.aliases):
        _ALIASES[_key(alias)] = game.name
    return game


def unregister(name: str) -> None:
    """Remove the game called ``name`` (and its aliases) from the registry."""
    game = _REGISTRY.pop(name)
    for alias in (game.name, *game.aliases):
        if _ALIASES.get(_key(alias)) == game.name:
            del _ALIASES[_key(alias)]


def get_game(name: str, *, aliases: bool = True) -> Game[Any]:
    """The game called ``name`` (aliases such as ``sd`` accepted unless ``aliases=False``)."""
    if not isinstance(name, str):
        raise OptionError(f"a game name must be a string, got {name!r}")
    key = _key(name)
    canonical = _ALIASES.get(key) if aliases else (name if name in _REGISTRY else None)
    if canonical is None:
        hint = ""
        if not aliases and key in _ALIASES:
            hint = f" (records use {_ALIASES[key]!r})"
        if len(name) > 40:
            name = name[:37] + "..."
        raise OptionError(f"unknown game {name!r}{hint}; games: {', '.join(_REGISTRY)}")
    return _REGISTRY[canonical]


def all_games() -> tuple[Game[Any], ...]:
    """Every registered game, in registration order."""
    return tuple(_REGISTRY.values())


def new_game(
    game: str | Game[Any],
    players: int,
    *,
    options: Mapping[str, Any] | Any = None,
    seed: int | None = None,
    deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]] | None = None,
    rng: random.Random | None = None,
    scores_before: Sequence[int] | None = None,
    leader: int | None = None,
    board: Any = None,
) -> State[Any]:
    """Start a hand of ``game``: see :meth:`Game.new`."""
    g = game if isinstance(game, Game) else get_game(game)
    return g.new(
        players,
        options=options,
        seed=seed,
        deal=deal,
        rng=rng,
        scores_before=scores_before,
        leader=leader,
        board=board,
    )


register(SUPER_DOMINOES)
register(BLOCK)
register(DRAW_GAME)
register(DOUBLES)
register(DOUBLE_DOUBLE)

__all__ = ["Game", "all_games", "get_game", "new_game", "register", "unregister"]
