"""Games the terminal app runs, with no Textual in sight: a game against bots or friends at
this keyboard (:class:`LocalGame`, saved on quit and resumed) and a record stepped through
(:class:`Replay`).

A session holds the true position, because someone has to deal and run the bots; what leaves
it for the screen is only ever ``view(state, seat)`` for the seat being shown (or a spectator's
view), so the app never holds a hand it may not show.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bonepile.actions import Action, parse_action
from bonepile.agents.base import Agent
from bonepile.agents.registry import agent_name, make_agent
from bonepile.errors import BonepileError, IllegalActionError, OptionError
from bonepile.events import Event
from bonepile.files import load_json_text, read_text_limited, write_text_atomic
from bonepile.games import get_game
from bonepile.match import Match, new_match
from bonepile.match_record import match_record_of, read_any, read_match
from bonepile.seeds import random_seed, secret_seed
from bonepile.state import State
from bonepile.tiles import Tile
from bonepile.tui.explain import Ending
from bonepile.tui.screen import REPLAY_KEYS, Frame, log_lines
from bonepile.view import View, view

HUMAN = "human"
"""The agent name of a seat a person plays."""
SAVE_FORMAT = "bonepile-tui-save/1"
"""The format of a saved game."""
DEFAULT_BOT = "ismcts"
"""Who plays the seats nobody names: the search bot at its default level."""


class SaveError(BonepileError):
    """A saved game that cannot be read back."""


def default_save_path() -> Path:
    """Where a game against bots is saved on quit: ``$BONEPILE_SAVE``, else under
    ``$XDG_DATA_HOME`` (``~/.local/share``) as ``bonepile/saved-game.json``."""
    explicit = os.environ.get("BONEPILE_SAVE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bonepile" / "saved-game.json"


def seat_specs(players: int, seat: int, agents: Sequence[str] | None, hot_seat: bool) -> list[str]:
    """Who sits where. Against bots: ``human`` at ``seat``, the ``agents`` (repeated round the
    table) or the search bot in the others. Hot-seat: people everywhere, or ``agents`` seat by
    seat, where ``human`` marks a person (``human,human,greedy``)."""
    if hot_seat:
        if not agents:
            return [HUMAN] * players
        specs = [agents[s % len(agents)] for s in range(players)]
        if HUMAN not in specs:
            raise OptionError("--hot-seat --agents: name the people's seats 'human'")
        return specs
    if agents:
        others = iter([agents[k % len(agents)] for k in range(players)])
        return [HUMAN if s == seat else next(others) for s in range(players)]
    return [HUMAN if s == seat else DEFAULT_BOT for s in range(players)]


class LocalGame:
    """A hand (or a match) played here: people at the seats whose spec is ``human``, bots
    in the others. ``seed`` makes the deal and the bots repeatable."""

    def __init__(self, match: Match, specs: Sequence[str], whole_match: bool, seed: int) -> None:
        if len(specs) != match.players:
            raise SaveError(f"{len(specs)} seats named for {match.players} players")
        self.match = match
        self.specs = list(specs)
        self.whole_match = whole_match
        self.seed = seed
        self.agents: list[Agent | None] = [
            None if spec == HUMAN else make_agent(spec, seed=secret_seed(seed, "agent", s))
            for s, spec in enumerate(self.specs)
        ]

    @classmethod
    def new(
        cls,
        game: str,
        players: int,
        *,
        options: Mapping[str, Any] | None = None,
        specs: Sequence[str],
        whole_match: bool = False,
        seed: int | None = None,
        board: Any = None,
    ) -> LocalGame:
        """A fresh game (a fresh random seed unless one is given)."""
        seed = random_seed() if seed is None else seed
        g = get_game(game)
        match = new_match(g, players, options=options, seed=seed, board=board)
        return cls(match, specs, whole_match, seed)

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State[Any]:
        """The hand being played (for the session only: the screen gets views)."""
        return self.match.current

    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [s for s, spec in enumerate(self.specs) if spec == HUMAN]

    @property
    def hot_seat(self) -> bool:
        """Whether more than one person plays at this keyboard."""
        return len(self.humans) > 1

    def names(self) -> tuple[str, ...]:
        """Who sits where, for the screen."""
        if self.hot_seat:
            return tuple("" if s == HUMAN else agent_name(s) for s in self.specs)
        return tuple("you" if s == HUMAN else agent_name(s) for s in self.specs)

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now (``None``: a spectator)."""
        return view(self.state, seat)

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` once the hand is over."""
        return self.state.actor

    def bot_to_act(self) -> bool:
        """Whether a bot has the move."""
        a = self.state.actor
        return a is not None and self.agents[a] is not None

    @property
    def hand_over(self) -> bool:
        """Whether the current hand is over."""
        return self.state.is_over

    @property
    def over(self) -> bool:
        """Whether there is nothing more to play (the hand, or the whole match)."""
        return self.match.is_over if self.whole_match else self.state.is_over

    def totals(self) -> tuple[int, ...] | None:
        """The match totals, in a match (before this hand, or after it once it is over)."""
        if not self.whole_match:
            return None
        return self.match.totals

    def ending(self) -> Ending:
        """What the screen says once the hand is over: the match, its totals and winners,
        and what Enter does (the next hand, a new deal, a new match)."""
        m = self.match
        again = "next hand" if not self.over else "new match" if self.whole_match else "play again"
        return Ending(
            match=self.whole_match,
            match_over=self.whole_match and m.is_over,
            winners=m.winners if self.whole_match else (),
            totals=self.totals(),
            target=m.target,
            again=again,
        )

    def title(self) -> str:
        """The game's title and, in a match, the hand number and the target."""
        title = self.match.game.title
        if self.whole_match:
            target = self.match.target
            title += f" · hand {len(self.match.hands)}" + (f" · to {target}" if target else "")
        return title

    # ------------------------------------------------------------------ acting
    def play(self, action: Action | str, seat: int) -> tuple[Event, ...]:
        """``seat`` plays ``action`` (notation or an action): the events, or one clear
        error (:class:`~bonepile.errors.BonepileError`) when it is not legal here."""
        if self.state.actor != seat:
            raise IllegalActionError("it is not your turn")
        act = parse_action(action) if isinstance(action, str) else action
        if act not in self.state.legal_actions():
            legal = ", ".join(str(a) for a in self.state.legal_actions()[:8])
            raise IllegalActionError(f"{act} is not legal here (legal: {legal})")
        self.match, events = self.match.step(act)
        return events

    def bot_action(self) -> tuple[int, Action]:
        """The move of the bot to act, from its seat's view (slow: call it off the UI)."""
        seat = self.state.actor
        if seat is None or self.agents[seat] is None:
            raise IllegalActionError("no bot is to act")
        agent = self.agents[seat]
        assert agent is not None
        return seat, agent.act(view(self.state, seat))

    def play_bot(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Play a bot's move (as found by :meth:`bot_action`) if the position has not moved."""
        return self.play(action, seat)

    def next_hand(self) -> None:
        """Deal the next hand of a match."""
        self.match = self.match.next_hand()

    def play_again(self) -> None:
        """A new game (a new match, in a match) at the same seats, with the same options and
        board, dealt from a seed that follows from this game's."""
        m = self.match
        seed = secret_seed(self.seed, "again")
        board = getattr(m.current, "board", None)
        self.match = new_match(m.game, m.players, options=m.options, seed=seed, board=board)
        self.seed = seed

    def deal_on(self) -> None:
        """Once the hand is over: the next hand of the match, or a new game when there is
        nothing more to play."""
        if self.over:
            self.play_again()
        else:
            self.next_hand()

    def close(self) -> None:
        """Stop any bot that runs a process."""
        for agent in self.agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close()

    # ------------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        """The saved game: who sits where, the match record so far, the seed."""
        return {
            "format": SAVE_FORMAT,
            "specs": self.specs,
            "match": self.whole_match,
            "seed": self.seed,
            "record": match_record_of(self.match),
        }

    def save(self, path: Path) -> None:
        """Write the game to ``path`` (atomically)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        # the saved game holds the deal: readable by its owner only
        write_text_atomic(path, json.dumps(self.to_json()), private=True)

    @classmethod
    def from_json(cls, data: Any) -> LocalGame:
        """A saved game read back (:class:`SaveError` with one line when it is not one)."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a saved game (expected format {SAVE_FORMAT})")
        specs = data.get("specs")
        seed = data.get("seed")
        if not isinstance(specs, list) or not all(isinstance(s, str) for s in specs):
            raise SaveError("saved game: specs must be a list of agent names")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SaveError("saved game: seed must be a non-negative integer")
        record = data.get("record")
        if not isinstance(record, dict):
            raise SaveError("saved game: record must be a match record")
        match = read_match(record)
        return cls(match, specs, bool(data.get("match")), seed)

    @classmethod
    def load(cls, path: Path) -> LocalGame:
        """The game saved at ``path``."""
        if not path.exists():
            raise SaveError(f"no saved game at {path} (one is saved when you quit a game)")
        return cls.from_json(load_json_text(read_text_limited(path)))


@dataclass(frozen=True)
class Step:
    """One position of a replay: the state's spectator view, every hand, the hand's number
    in a match and, in a match, the totals (counting the hand once it is over)."""

    view: View
    hands: tuple[tuple[Tile, ...], ...]
    hand: int
    totals: tuple[int, ...] | None = None


class Replay:
    """A hand or match record, every position of every hand, stepped through."""

    def __init__(self, loaded: State[Any] | Match) -> None:
        hands = loaded.hands if isinstance(loaded, Match) else (loaded,)
        self.steps: list[Step] = []
        self.match = isinstance(loaded, Match)
        self.winners: tuple[int, ...] = ()
        """The match's winners once it is over (empty otherwise, and for a single hand)."""
        if isinstance(loaded, Match) and loaded.is_over:
            self.winners = loaded.winners
        for number, final in enumerate(hands, 1):
            state = final.initial
            self._add(state, number)
            for move in final.moves:
                state = state.apply(move)
                self._add(state, number)
        self.title = hands[0].game.title
        self.players = hands[0].players

    def frame(self, index: int, *, pan: tuple[int, int] = (0, 0), message: str = "") -> Frame:
        """What the screen shows at position ``index``: every hand, the log, the totals of a
        match (and who won it, at its last position)."""
        st = self.steps[index]
        title = f"{self.title} · replay" + (f" · hand {st.hand}" if self.match else "")
        title += f" · position {index + 1} of {len(self.steps)}"
        names = tuple("" for _ in range(self.players))
        extra: tuple[str, ...] = ()
        if index == len(self.steps) - 1 and self.match and self.winners:
            extra = ("match over: " + " and ".join(f"P{w}" for w in self.winners) + " wins",)
        return Frame(
            st.view,
            names,
            title=title,
            hands=st.hands,
            log=tuple(log_lines(st.view, names)),
            keys=REPLAY_KEYS,
            pan=pan,
            message=message,
            totals=st.totals,
            extra=extra,
        )

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """The replay of the record in ``path``."""
        return cls(read_any(read_text_limited(path)))

    def _add(self, state: State[Any], number: int) -> None:
        hands = tuple(state.hand(s) for s in range(state.players))
        totals = state.scores if self.match else None
        self.steps.append(Step(view(state, None), hands, number, totals))


__all__ = [
    "DEFAULT_BOT",
    "HUMAN",
    "LocalGame",
    "Replay",
    "SaveError",
    "Step",
    "default_save_path",
    "seat_specs",
]
