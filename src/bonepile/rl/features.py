"""An input a small network can use, worked out from an observation (never from more).

The observation (:mod:`bonepile.rl.observation`) says what a seat may know in the rules' own
terms: its history is a list of action indices, which a multilayer perceptron would read as
magnitudes. :class:`LineFeatures` turns it into what a strong player counts, each entry about
0 to 1, for the games played on lines, arms and trees:

* ``hand``, every seat's ``played`` tiles, the tiles ``on_table``, the ``unseen`` ones (neither
  in the hand nor on the table: in the others' hands or the boneyard);
* ``possible`` for each other seat: the unseen tiles it may still hold (none of a suit it
  showed it lacks, in the games where a pass proves that: ``Game.passes_show_lacks``);
* counts per suit: in the hand, among the unseen tiles, of each other seat's possible tiles,
  and the open ends showing each pip; pip totals of the hand and the unseen tiles;
* ``open_ends``, ``lacks``, hand sizes, the boneyard, the scores and the public facts, scaled;
* the last :data:`TURNS` turns one-hot: who moved (relative seat) and what (the tile placed,
  a draw, a pass), oldest first.

A policy file made on these features says so in its ``meta`` (``"features": "line/1"``), and
:class:`~bonepile.rl.policy.PolicyAgent` builds the same input from the seat's view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bonepile.actions import Draw, Pass
from bonepile.rl.observation import Observer
from bonepile.tiles import tile_set

TURNS = 8
"""Turns of history the features show one-hot."""

NAME = "line/1"
"""The name a policy file's ``meta["features"]`` gives these features."""


class LineFeatures:
    """The features of one observer's observations (a game on lines, arms or trees)."""

    def __init__(self, observer: Observer, turns: int = TURNS) -> None:
        if observer.board is not None:
            raise ValueError("the line features are for games played on lines, arms or trees")
        self.observer = observer
        self.turns = turns
        self.certain = observer.game.passes_show_lacks
        n, t, p = observer.players, observer.tiles, observer.pips
        tiles = tile_set(p - 1)
        # suit[i, v]: 1 when tile i shows pip v (a double counts once)
        self.suit = np.zeros((t, p), dtype=np.float32)
        self.pips = np.zeros(t, dtype=np.float32)
        for tile in tiles:
            self.suit[tile.index, tile.hi] = 1.0
            self.suit[tile.index, tile.lo] = 1.0
            self.pips[tile.index] = tile.hi + tile.lo
        # what each action index shows in the one-hot history: a tile, a draw or a pass
        self.kinds = t + 3  # tiles, draw, pass, anything else
        shown = np.full(observer.codec.size + 1, t + 2, dtype=np.int64)  # +1: a hidden discard
        for i, action in enumerate(observer.codec.actions):
            placed = getattr(action, "tile", None)
            if placed is not None:
                shown[i] = placed.index
            elif isinstance(action, Draw):
                shown[i] = t
            elif isinstance(action, Pass):
                shown[i] = t + 1
        self.shown = shown
        self.deck = float(max(observer.deck, 1))
        self.most_pips = float(self.pips.sum())
        self.size = (
            t * (4 + n)  # hand, played (n rows), on_table, unseen, the pips of the unseen
            + (n - 1) * t  # possible
            + p * (3 + (n - 1))  # suit counts: hand, unseen, open ends; possible per seat
            + 2  # pip totals
            + t * p  # open_ends
            + n * p  # lacks
            + n + 1 + n  # hand sizes, boneyard, scores
            + len(observer.fields)
            + turns * (n + self.kinds)
        )  # fmt: skip

    def __call__(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The features of one observation, as a ``float32`` vector of :attr:`size`."""
        n, t, p = self.observer.players, self.observer.tiles, self.observer.pips
        hand = obs["hand"].astype(np.float32)
        played = obs["played"].astype(np.float32)
        on_table = np.minimum(played.sum(axis=0), 1.0)
        unseen = np.clip(1.0 - hand - on_table, 0.0, 1.0)
        lacks = obs["lacks"].astype(np.float32)
        # a tile is impossible for a seat that showed it lacks either of its suits (where a
        # pass proves that: Game.passes_show_lacks)
        if self.certain:
            blocked = np.minimum(lacks[1:] @ self.suit.T, 1.0)  # (n - 1, t)
            possible = unseen[None, :] * (1.0 - blocked)
        else:
            possible = np.repeat(unseen[None, :], n - 1, axis=0)
        end_pips = obs["end_pips"].astype(np.float32)
        suits = self.suit
        parts = [
            hand,
            played.ravel(),
            on_table,
            unseen,
            unseen * self.pips / (2.0 * (p - 1)),
            possible.ravel(),
            hand @ suits / p,
            unseen @ suits / p,
            np.minimum(end_pips, 4.0) / 4.0,
            (possible @ suits / p).ravel(),
            np.array(
                [hand @ self.pips / self.most_pips, unseen @ self.pips / self.most_pips],
                dtype=np.float32,
            ),
            np.minimum(obs["open_ends"].astype(np.float32), 4.0).ravel() / 4.0,
            lacks.ravel(),
            obs["hand_sizes"].astype(np.float32) / self.deck,
            obs["boneyard"].astype(np.float32) / self.deck,
            np.tanh(obs["scores"].astype(np.float32) / 100.0),
            np.clip(obs["public"].astype(np.float32), -1.0, 127.0) / 32.0,
            self._history(obs["history"], n, t),
        ]
        return np.concatenate(parts).astype(np.float32, copy=False)

    def _history(self, hist: np.ndarray, n: int, t: int) -> np.ndarray:
        rows = hist[-self.turns :]
        out = np.zeros((self.turns, n + self.kinds), dtype=np.float32)
        for k, (who, action, _drawn) in enumerate(rows):
            if who < 0:
                continue
            out[k, who] = 1.0
            out[k, n + self.shown[min(int(action), len(self.shown) - 1)]] = 1.0
        return out.ravel()


def features_for(observer: Observer, name: str) -> Any:
    """The feature function named ``name`` for ``observer``'s games (``line/1``)."""
    if name != NAME:
        raise ValueError(f"unknown features {name!r} (known: {NAME})")
    return LineFeatures(observer)


__all__ = ["NAME", "TURNS", "LineFeatures", "features_for"]
