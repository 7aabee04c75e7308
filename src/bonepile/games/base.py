"""The :class:`Game` base class: a game's name, options, deal and first state."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic

from mypy_extensions import mypyc_attr

from bonepile.errors import OptionError
from bonepile.facts import PublicFacts
from bonepile.heuristics import PlayHints
from bonepile.masks import deal_masks, shuffled
from bonepile.options import OptionSpec, build_options, option_specs
from bonepile.state import OptionsT, State
from bonepile.tiles import Tile, check_deal, mask_of, set_size, tile_multiset

_CHECKED: dict[tuple[int, int, int], tuple[Any, Any]] = {}
"""Player counts already checked, by game, count and options object (bounded)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Generic[OptionsT]):
    """A game bonepile plays: its name, aliases, options and how a hand is dealt and started.

    Everything a client needs to know about a game lives here, so adding a game is one module
    (a :class:`Game` subclass, its options class, its facts class and its :class:`State`
    subclass) plus :func:`~bonepile.games.register`. The facts below are class variables: a
    subclass sets them in its class body (the compiled build reads them from the class).
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    note: ClassVar[str] = ""
    """Anything a player should know about where the rules come from (shown by ``rules``)."""
    Options: ClassVar[type[Any]]
    """The frozen options dataclass (fields declared with :func:`~bonepile.options.option`)."""
    Facts: ClassVar[type[Any]]
    """The frozen public-facts dataclass (see :mod:`bonepile.facts`), with ``from_json``."""
    family: ClassVar[str] = "line"
    """The layout family: ``line``, ``fat_spinner``, ``spinner_tree`` or ``board``."""
    hints: ClassVar[PlayHints] = PlayHints()
    """What the bots should know of the game (see :mod:`bonepile.heuristics`)."""
    hidden_actions: ClassVar[bool] = False
    """True when another seat's action can hide a tile (a discard into the pit)."""
    rules_text: ClassVar[str] = ""
    """The game's rules page (Markdown, with a ``## How to play in brief`` section), for a
    game from outside the package; the shipped games' pages are ``docs/games/*.md``."""
    board_game: ClassVar[bool] = False
    """True for a game played on a board (it takes a ``board``)."""
    default_players: ClassVar[int] = 2
    """The player count the arena and the strength tables use unless told otherwise."""
    passes_show_lacks: ClassVar[bool] = False
    """True when a seat passes (or draws) only if none of its tiles fits an open end, so a pass
    proves it holds none of the suits showing (not so where a lock or a spell can explain a
    pass): what a learned bot's features may conclude from it."""

    def __reduce__(self) -> tuple[Any, ...]:
        from bonepile.games import get_game

        return (get_game, (self.name,))

    # ----------------------------------------------------------------- options and sizes
    def make_options(self, values: Mapping[str, Any] | OptionsT | None = None) -> OptionsT:
        """Validated options from a mapping (missing names take their defaults)."""
        options_class: type[OptionsT] = self.Options
        if isinstance(values, options_class):
            return values
        return build_options(options_class, values, self.name)  # type: ignore[arg-type]

    def facts_from_json(self, data: Any) -> PublicFacts:
        """The game's public facts from their JSON (checked; see :mod:`bonepile.facts`)."""
        facts: PublicFacts = self.Facts.from_json(data)
        return facts

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The documentation of every option."""
        return option_specs(self.Options)

    def player_range(self, opts: OptionsT) -> tuple[int, int]:
        """The smallest and largest player counts allowed with ``opts``."""
        raise NotImplementedError

    def max_pip(self, opts: OptionsT) -> int:
        """The set used: double-``max_pip``."""
        raise NotImplementedError

    def hand_size(self, players: int, opts: OptionsT) -> int:
        """Tiles dealt to each player."""
        raise NotImplementedError

    def check_players(self, players: int, opts: OptionsT) -> None:
        """Raise :class:`OptionError` unless ``players`` may play with ``opts``."""
        key = (id(self), players, id(opts))
        seen = _CHECKED.get(key)
        if seen is not None and seen[0] is self and seen[1] is opts:
            return
        self._check_players(players, opts)
        if len(_CHECKED) < 4096:
            _CHECKED[key] = (self, opts)  # keeps both alive, so their ids stay their own

    def _check_players(self, players: int, opts: OptionsT) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"players must be an integer, got {players!r}")
        lo, hi = self.player_range(opts)
        if not lo <= players <= hi:
            shown = players if abs(players) < 10**6 else "that many"
            raise OptionError(f"{self.name} is for {lo} to {hi} players, not {shown}")
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
        options: Mapping[str, Any] | OptionsT | None = None,
        seed: int | None = None,
        deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]] | None = None,
        rng: random.Random | None = None,
        scores_before: Sequence[int] | None = None,
        leader: int | None = None,
        board: Any = None,
        first_player: int | None = None,
    ) -> State[OptionsT]:
        """A new hand: from a ``seed``, an explicit ``deal`` (hands, boneyard) or an ``rng``.

        ``scores_before`` are the match totals before this hand; ``leader`` is the seat the
        match's next-hand rule names (:meth:`next_leader`) for a later hand of a match;
        ``board`` (a board game only) is a :class:`~bonepile.grid.Board`, a shipped board's name
        or a board file. ``first_player`` is the outcome of the lot when the options draw the
        first player by lot (:meth:`first_player_by_lot`), for an explicit deal.
        """
        if first_player is not None:
            if deal is None or leader is not None:
                raise OptionError("first_player goes with an explicit deal and no leader")
            opts = self.make_options(options)
            if not self.first_player_by_lot(opts):
                raise OptionError(f"the first player of this {self.name} hand is not drawn by lot")
            state = self.new(
                players,
                options=opts,
                deal=deal,
                scores_before=scores_before,
                leader=first_player,
                board=board,
            )
            state._leader = None  # the lot, not a match's next-hand rule, chose it
            return state
        if board is not None:
            if not self.board_game:
                raise OptionError(f"{self.name} is not played on a board")
            from bonepile.grid import load_board

            board = load_board(board)
        opts = self.make_options(options)
        self.check_players(players, opts)
        if scores_before is not None and len(scores_before) != players:
            raise OptionError(f"scores_before needs {players} totals, got {len(scores_before)}")
        if leader is not None and (
            isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < players
        ):
            raise OptionError(f"leader must be a seat from 0 to {players - 1}, got {leader!r}")
        if (seed is not None) + (deal is not None) + (rng is not None) > 1:
            raise OptionError("give at most one of seed, deal and rng")
        if deal is not None:
            hands, bone = self._check_deal(players, opts, deal)
            return self._start(opts, hands, bone, None, None, scores_before, leader, board)
        if rng is not None and self.first_player_by_lot(opts):
            # A record can only reproduce a first player chosen by lot through a seed.
            seed = rng.getrandbits(63)
            rng = None
        if rng is None:
            if seed is None:
                seed = random.SystemRandom().randrange(2**63)
            rng = random.Random(seed)
        hands, bone = self._seeded_deal(players, opts, rng)
        return self._start(opts, hands, bone, rng, seed, scores_before, leader, board)

    def first_player_by_lot(self, opts: OptionsT) -> bool:
        """True when the first player is drawn by lot (so only a seed can reproduce it)."""
        return False

    def first_player_key(self, opts: OptionsT) -> Callable[[Tile], Any] | None:
        """How the deal names the first player, when it does by a tile in hand: the first
        player holds the tile with the highest key (``None``: the deal does not decide it
        that way). The sampler uses it to deal worlds that agree with the real first player."""
        return None

    def lead_is_highest(self, opts: OptionsT) -> bool:
        """True when the first lead must be the highest double held by anyone (else, with no
        double, the heaviest tile), so the lead tells every seat what nobody holds."""
        return False

    def deck_size(self, players: int, opts: OptionsT) -> int:
        """How many tiles are shuffled for a deal (one set unless a game uses several)."""
        return set_size(self.max_pip(opts))

    def deck(self, players: int, opts: OptionsT) -> tuple[Tile, ...]:
        """Every tile of the game's set(s), in index order (a tile as often as it is in play)."""
        return tile_multiset(
            self.max_pip(opts), self.deck_size(players, opts) // set_size(self.max_pip(opts))
        )

    def _seeded_deal(
        self, players: int, opts: OptionsT, rng: random.Random
    ) -> tuple[list[int], list[int]]:
        """Shuffle, then deal one tile at a time round-robin from seat 0 (docs/rules.md, "Shuffle").

        Tiles are numbered ``0 .. deck_size - 1`` (a game with several sets numbers copies).
        """
        order = shuffled(self.deck_size(players, opts), rng)
        per_hand = self.hand_size(players, opts)
        return deal_masks(order, players, per_hand), order[players * per_hand :]

    def copies(self, opts: OptionsT) -> int:
        """How many copies of the double-``max_pip`` set the game uses (1 unless overridden)."""
        return 1

    def _check_deal(
        self,
        players: int,
        opts: OptionsT,
        deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]],
    ) -> tuple[list[int], list[int]]:
        hands_in, bone_in = deal
        size = self.hand_size(players, opts)
        max_pip = self.max_pip(opts)
        copies = self.copies(opts)
        if copies == 1:
            whole = _whole_set_deal(hands_in, bone_in, players, size, set_size(max_pip))
            if whole is not None:
                return whole
        check_deal(
            hands_in,
            bone_in,
            players=players,
            hand_size=size,
            max_pip=max_pip,
            copies=copies,
        )
        return [mask_of(h) for h in hands_in], [t.index for t in bone_in]

    def _start(
        self,
        opts: OptionsT,
        hands: list[int],
        bone: list[int],
        rng: random.Random | None,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
        board: Any = None,
    ) -> State[OptionsT]:
        """Build the first state of a hand (``rng`` is ``None`` for an explicit deal)."""
        raise NotImplementedError

    def why_unplayable(self, view: Any, tile: Tile) -> str | None:
        """Why ``tile`` of the hand cannot be played from ``view`` (a
        :class:`~bonepile.view.View`) now, in words, where the game can say more than which
        moves are legal; ``None`` by default (clients then name the tiles that can be
        played)."""
        return None

    # ----------------------------------------------------------------- matches
    def teams(self, players: int, opts: OptionsT) -> tuple[tuple[int, ...], ...]:
        """The sides that win and lose together, as tuples of seats (by default every seat
        plays for itself)."""
        return tuple((seat,) for seat in range(players))

    def target_score(self, opts: OptionsT) -> int | None:
        """The match total that ends a match (``None``: a match is a single hand)."""
        target: int | None = getattr(opts, "target_score", None)
        return target

    def next_leader(self, previous: State[OptionsT]) -> int | None:
        """The seat the next hand's lead rule names after the finished hand ``previous``.

        ``None`` means the next hand starts by the game's ordinary first-hand rule. The seat is
        passed to :meth:`new` as ``leader`` and written in the next hand's record.
        """
        return None


def _whole_set_deal(
    hands_in: Sequence[Sequence[Tile]],
    bone_in: Sequence[Tile],
    players: int,
    size: int,
    deck: int,
) -> tuple[list[int], list[int]] | None:
    """The hands' masks and the boneyard's indices if the deal is ``players`` hands of ``size``
    tiles and a boneyard that together hold each of the ``deck`` tiles of one set exactly once,
    else ``None`` (then :func:`~bonepile.tiles.check_deal` says what is wrong). The usual case,
    told from the masks at once: a search deals thousands of worlds a move."""
    if len(hands_in) != players:
        return None
    try:
        hands = [mask_of(h) for h in hands_in]
        bone = [t.index for t in bone_in]
        rest = mask_of(bone_in)
    except (AttributeError, TypeError):  # not tiles
        return None
    seen = 0
    for h, m in zip(hands_in, hands, strict=True):
        if len(h) != size or m.bit_count() != size or seen & m:
            return None
        seen |= m
    if rest.bit_count() != len(bone) or seen & rest or seen | rest != (1 << deck) - 1:
        return None
    return hands, bone
