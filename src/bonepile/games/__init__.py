"""The game registry: every game is a small named :class:`Game` object with its options class.

>>> from bonepile.games import get_game
>>> get_game("sd").name
'super_dominoes'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bonepile.errors import DealError, OptionError
from bonepile.options import OptionSpec, build_options, option_specs
from bonepile.state import State
from bonepile.tiles import Tile, mask_of, set_size, tile_set


class Game:
    """A game bonepile plays: its name, aliases, options and how a hand is dealt and started."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    title: str = ""
    summary: str = ""
    Options: type = object

    # ----------------------------------------------------------------- options and sizes
    def make_options(self, values: Mapping[str, Any] | Any = None) -> Any:
        """Validated options from a mapping (missing names take their defaults)."""
        if isinstance(values, self.Options):
            return values
        return build_options(self.Options, values, self.name)

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The documentation of every option."""
        return option_specs(self.Options)

    def player_range(self, opts: Any) -> tuple[int, int]:
        """The smallest and largest player counts allowed with ``opts``."""
        raise NotImplementedError

    def max_pip(self, opts: Any) -> int:
        """The set used: double-``max_pip``."""
        raise NotImplementedError

    def hand_size(self, players: int, opts: Any) -> int:
        """Tiles dealt to each player."""
        raise NotImplementedError

    def check_players(self, players: int, opts: Any) -> None:
        """Raise :class:`OptionError` unless ``players`` may play with ``opts``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"players must be an integer, got {players!r}")
        lo, hi = self.player_range(opts)
        if not lo <= players <= hi:
            raise OptionError(f"{self.name} is for {lo} to {hi} players, not {players}")
        need = players * self.hand_size(players, opts)
        have = set_size(self.max_pip(opts))
        if need > have:
            raise OptionError(
                f"{players} hands of {self.hand_size(players, opts)} need {need} tiles; "
                f"a double-{self.max_pip(opts)} set has {have}"
            )

    # ----------------------------------------------------------------- dealing
    def new(
        self,
        players: int,
        *,
        options: Mapping[str, Any] | Any = None,
        seed: int | None = None,
        deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]] | None = None,
        rng: random.Random | None = None,
        scores_before: Sequence[int] | None = None,
    ) -> State:
        """A new hand: from a ``seed``, an explicit ``deal`` (hands, boneyard) or an ``rng``."""
        opts = self.make_options(options)
        self.check_players(players, opts)
        if scores_before is not None and len(scores_before) != players:
            raise OptionError(f"scores_before needs {players} totals, got {len(scores_before)}")
        if sum(x is not None for x in (seed, deal, rng)) > 1:
            raise OptionError("give at most one of seed, deal and rng")
        if deal is not None:
            hands, bone = self._check_deal(players, opts, deal)
            return self._start(opts, hands, bone, None, None, scores_before)
        if rng is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**63)
            rng = random.Random(seed)
        hands, bone = self._seeded_deal(players, opts, rng)
        return self._start(opts, hands, bone, rng, seed, scores_before)

    def _seeded_deal(
        self, players: int, opts: Any, rng: random.Random
    ) -> tuple[list[int], list[int]]:
        """Shuffle, then deal one tile at a time round-robin from seat 0 (RULES.md 1)."""
        order = [t.index for t in tile_set(self.max_pip(opts))]
        rng.shuffle(order)
        k = players * self.hand_size(players, opts)
        hands = [0] * players
        for i in range(k):
            hands[i % players] |= 1 << order[i]
        return hands, order[k:]

    def _check_deal(
        self,
        players: int,
        opts: Any,
        deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]],
    ) -> tuple[list[int], list[int]]:
        hands_in, bone_in = deal
        if len(hands_in) != players:
            raise DealError(f"deal has {len(hands_in)} hands for {players} players")
        size = self.hand_size(players, opts)
        full = tile_set(self.max_pip(opts))
        known = set(full)
        seen: set[Tile] = set()
        for where, tiles in [*((f"hand {i}", h) for i, h in enumerate(hands_in)),
                             ("boneyard", bone_in)]:
            for t in tiles:
                if t not in known:
                    raise DealError(
                        f"deal {where}: {t} is not in a double-{self.max_pip(opts)} set"
                    )
                if t in seen:
                    raise DealError(f"deal {where}: {t} appears twice")
                seen.add(t)
        for i, h in enumerate(hands_in):
            if len(h) != size:
                raise DealError(f"deal hand {i} holds {len(h)} tiles, expected {size}")
        missing = [t for t in full if t not in seen]
        if missing:
            shown = ", ".join(str(t) for t in missing[:5]) + (", ..." if len(missing) > 5 else "")
            raise DealError(f"deal is missing {len(missing)} tile(s) of the set: {shown}")
        return [mask_of(h) for h in hands_in], [t.index for t in bone_in]

    def _start(
        self,
        opts: Any,
        hands: list[int],
        bone: list[int],
        rng: random.Random | None,
        seed: int | None,
        scores_before: Sequence[int] | None,
    ) -> State:
        """Build the first state of a hand (``rng`` is ``None`` for an explicit deal)."""
        raise NotImplementedError


_REGISTRY: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry (under its name and aliases)."""
    _REGISTRY[game.name] = game
    for alias in (game.name, *game.aliases):
        _ALIASES[alias.lower()] = game.name
    return game


def get_game(name: str, *, aliases: bool = True) -> Game:
    """The game called ``name`` (aliases such as ``sd`` accepted unless ``aliases=False``)."""
    if not isinstance(name, str):
        raise OptionError(f"a game name must be a string, got {name!r}")
    key = name.strip().lower().replace("-", "_")
    canonical = _ALIASES.get(key) if aliases else (key if key in _REGISTRY else None)
    if canonical is None:
        hint = ""
        if not aliases and key in _ALIASES:
            hint = f" (records use {_ALIASES[key]!r})"
        raise OptionError(f"unknown game {name!r}{hint}; games: {', '.join(_REGISTRY)}")
    return _REGISTRY[canonical]


def all_games() -> tuple[Game, ...]:
    """Every registered game, in registration order."""
    return tuple(_REGISTRY.values())


def new_game(
    game: str | Game,
    players: int,
    *,
    options: Mapping[str, Any] | Any = None,
    seed: int | None = None,
    deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]] | None = None,
    rng: random.Random | None = None,
    scores_before: Sequence[int] | None = None,
) -> State:
    """Start a hand of ``game``: see :meth:`Game.new`."""
    g = game if isinstance(game, Game) else get_game(game)
    return g.new(
        players, options=options, seed=seed, deal=deal, rng=rng, scores_before=scores_before
    )


from bonepile.games import line as _line  # noqa: E402
from bonepile.games import super_dominoes as _super  # noqa: E402

register(_super.SUPER_DOMINOES)
register(_line.BLOCK)
register(_line.DRAW_GAME)
