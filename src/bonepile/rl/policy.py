"""A trained policy as an ordinary bonepile agent: a small network run in numpy (no torch).

A policy file is a numpy ``.npz`` archive: the layers ``w0, b0, w1, b1, ...`` of a multilayer
perceptron (``w`` of shape ``(inputs, outputs)``), applied to the flat observation of
:class:`~bonepile.rl.observation.Observer` with ``activation`` (``tanh`` or ``relu``) after
every layer but the last, whose outputs are the logits of the actions of
:class:`~bonepile.rl.encoding.ActionCodec`; optionally ``scale``, a divisor per input (see
:meth:`~bonepile.rl.observation.Observer.flat_scale`); and ``meta``, a JSON string with ``game``,
``players``, ``options``, ``history``, ``activation`` and anything else the trainer kept.
The agent masks the illegal actions and plays the most likely legal one (``sample=True``:
draws from the masked distribution, from its seed). ``bonepile arena block --agents
policy:examples/rl/block2.npz,random`` seats it.

A file may also hold a value head, ``vw`` ``(hidden, 1)`` and ``vb`` ``(1,)``, a linear layer on
the last hidden layer (after its activation) whose ``tanh`` is the seat's expected reward
scaled to -1..1 (``meta["value"]``: ``"win"``, 1 a win and -1 a loss, as the search's
``objective=win`` counts a hand): :meth:`PolicyAgent.value` reads it, and the search's
``value=FILE`` uses it at the leaves of its tree.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bonepile.actions import Action
from bonepile.errors import OptionError
from bonepile.games import get_game
from bonepile.rl.features import features_for
from bonepile.rl.observation import HISTORY, Observer
from bonepile.state import State
from bonepile.view import View
from bonepile.view import view as view_of

ACTIVATIONS = ("tanh", "relu")


class Policy:
    """The network of a policy file: ``logits(flat_obs)`` and its metadata."""

    def __init__(
        self,
        layers: list[tuple[np.ndarray, np.ndarray]],
        meta: dict[str, Any],
        scale: np.ndarray | None = None,
        value_head: tuple[np.ndarray, np.ndarray] | None = None,
    ):
        if meta.get("activation", "tanh") not in ACTIVATIONS:
            raise OptionError(f"policy: activation must be one of {', '.join(ACTIVATIONS)}")
        self.layers = layers
        self.meta = meta
        self.scale = scale
        self.value_head = value_head
        """The value head ``(vw, vb)`` on the last hidden layer (``None``: the file has none)."""
        self._last_t: np.ndarray | None = None  # the last layer, a row per action
        self.inputs = layers[0][0].shape[0]
        self.outputs = layers[-1][0].shape[1]

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a policy file; :class:`OptionError` (one line) if it is not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                layers = []
                k = 0
                while f"w{k}" in data:
                    layers.append(
                        (data[f"w{k}"].astype(np.float32), data[f"b{k}"].astype(np.float32))
                    )
                    k += 1
                scale = data["scale"].astype(np.float32) if "scale" in data else None
                head = None
                if "vw" in data:
                    head = (data["vw"].astype(np.float32), data["vb"].astype(np.float32))
        except (OSError, ValueError, KeyError) as e:
            raise OptionError(f"policy: cannot read {path}: {e}") from None
        if not layers or not isinstance(meta, dict):
            raise OptionError(f"policy: {path} holds no network")
        for (w, b), nxt in zip(layers, [*layers[1:], None], strict=True):
            if w.ndim != 2 or b.shape != (w.shape[1],) or (nxt and nxt[0].shape[0] != w.shape[1]):
                raise OptionError(f"policy: {path}: the layers do not fit together")
        if scale is not None and scale.shape != (layers[0][0].shape[0],):
            raise OptionError(f"policy: {path}: scale does not fit the first layer")
        if head is not None:
            width = layers[-1][0].shape[0]
            if len(layers) < 2 or head[0].shape != (width, 1) or head[1].shape != (1,):
                raise OptionError(f"policy: {path}: the value head does not fit the last layer")
        return cls(layers, meta, scale, head)

    def save(self, path: str | Path) -> None:
        """Write the policy file."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta))}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"] = w.astype(np.float32)
            arrays[f"b{k}"] = b.astype(np.float32)
        if self.scale is not None:
            arrays["scale"] = self.scale.astype(np.float32)
        if self.value_head is not None:
            arrays["vw"] = self.value_head[0].astype(np.float32)
            arrays["vb"] = self.value_head[1].astype(np.float32)
        np.savez_compressed(path, **arrays)

    def hidden(self, x: np.ndarray) -> np.ndarray:
        """The last hidden layer's activations of a flat observation (or a batch of them).

        For one observation the first layer reads only the weight rows of its non-zero
        entries (most of an observation is zero): the same sum, from a fraction of the
        memory, which is what a decision inside the search waits for."""
        relu = self.meta.get("activation", "tanh") == "relu"
        if self.scale is not None:
            x = x / self.scale
        x = x.astype(np.float32, copy=False)  # a float64 input would recast every weight
        for k, (w, b) in enumerate(self.layers[:-1]):
            if k == 0 and x.ndim == 1:
                nz = np.flatnonzero(x)
                x = x[nz] @ w[nz] + b
            else:
                x = x @ w + b
            x = np.maximum(x, 0) if relu else np.tanh(x)
        return x

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The action logits of a flat observation (or a batch of them)."""
        w, b = self.layers[-1]
        out: np.ndarray = self.hidden(x) @ w + b
        return out

    def some_logits(self, x: np.ndarray, indices: np.ndarray) -> np.ndarray:
        """The logits of the actions ``indices`` only, for one flat observation: the last
        layer's columns for the other actions are never read."""
        if self._last_t is None:
            self._last_t = np.ascontiguousarray(self.layers[-1][0].T)
        out: np.ndarray = self._last_t[indices] @ self.hidden(x) + self.layers[-1][1][indices]
        return out

    def value(self, x: np.ndarray) -> float:
        """The value head's estimate for one flat observation, -1 to 1 (:class:`OptionError`
        if the file has no value head)."""
        if self.value_head is None:
            raise OptionError("policy: this file has no value head")
        w, b = self.value_head
        return float(np.tanh(self.hidden(x) @ w + b)[0])

    def choose(self, x: np.ndarray, mask: np.ndarray, rng: random.Random | None = None) -> int:
        """The index of the best legal action (or one drawn from the masked softmax)."""
        logits = np.where(mask.astype(bool), self.logits(x), -np.inf)
        if rng is None:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(np.searchsorted(np.cumsum(p), rng.random() * p.sum()).clip(0, len(p) - 1))


_LOADED: dict[tuple[str, int, int], Policy] = {}


def load_policy(path: str | Path) -> Policy:
    """:meth:`Policy.load`, remembered while the file is unchanged (the apps make an agent
    for every move)."""
    try:
        st = Path(path).stat()
    except OSError as e:
        raise OptionError(f"policy: cannot read {path}: {e.strerror}") from None
    key = (str(Path(path).resolve()), st.st_mtime_ns, st.st_size)
    policy = _LOADED.get(key)
    if policy is None:
        if len(_LOADED) > 16:
            _LOADED.clear()
        policy = _LOADED[key] = Policy.load(path)
    return policy


class PolicyAgent:
    """Plays a policy file as a bonepile agent (``policy:FILE``): the network's most likely
    legal action, from the seat's view alone."""

    def __init__(self, path: str | Path, seed: int = 0, *, sample: bool = False) -> None:
        self.policy = load_policy(path)
        self.path = str(path)
        meta = self.policy.meta
        self.game = get_game(str(meta.get("game", "block"))).name
        self.rng = random.Random(seed) if sample else None
        self._observers: dict[tuple[str, int, Any], Observer] = {}
        self._inputs: dict[int, Callable[[dict[str, np.ndarray]], np.ndarray]] = {}

    def _observer(self, view: View) -> Observer:
        key = (view.game, view.players, view.options)  # options are frozen: equal by value
        obs = self._observers.get(key)
        if obs is None:
            board = getattr(view.layout, "board", None)
            obs = Observer(
                view.game,
                view.players,
                view.options,
                board=board,
                history=int(self.policy.meta.get("history", HISTORY)),
            )
            named = self.policy.meta.get("features")
            if named is None:
                size, make = obs.flat_size, obs.flat
            else:
                try:
                    make = features_for(obs, str(named))
                except ValueError as e:
                    raise OptionError(f"policy {self.path}: {e}") from None
                size = make.size
            if (size, obs.codec.size) != (self.policy.inputs, self.policy.outputs):
                raise OptionError(
                    f"policy {self.path} was trained for {self.game} with "
                    f"{self.policy.meta.get('players')} players: it cannot play {view.game} "
                    f"with {view.players} players and these options"
                )
            self._observers[key] = obs
            self._inputs[id(obs)] = make
        return obs

    def start(self, view: View) -> None:
        """A new hand: forget the last one's history."""
        for obs in self._observers.values():
            obs.reset()

    def _input(self, view: View) -> tuple[Observer, dict[str, np.ndarray], np.ndarray]:
        """The seat's observer, its observation of ``view`` and the network's input."""
        observer = self._observer(view)
        obs = observer.observe(view)
        return observer, obs, self._inputs[id(observer)](obs)

    def probabilities(self, view: View) -> dict[Action, float]:
        """The network's probability of each legal action of ``view`` (softmax over them)."""
        observer, _, x = self._input(view)
        index = observer.codec.index
        legal = view.legal
        rows = np.array([index[a] for a in legal], dtype=np.intp)
        z = self.policy.some_logits(x, rows).astype(np.float64)
        p = np.exp(z - z.max())
        p /= p.sum()
        return {a: float(q) for a, q in zip(legal, p, strict=True)}

    def loglik(self, state: State[Any], action: Action, mix: float = 0.1) -> float:
        """The log-probability that the mover of ``state`` (a full position, as the search's
        sampled worlds are) plays ``action``, by the network from the mover's view, mixed with
        ``mix`` of a uniform choice: a model of the players for the search's ``belief``."""
        actor = state.actor
        assert actor is not None
        v = view_of(state, actor)
        k = len(v.legal)
        if k <= 1:
            return 0.0
        p = self.probabilities(v).get(action, 0.0)
        return math.log((1.0 - mix) * p + mix / k)

    def value(self, view: View) -> float:
        """The value head's estimate of what the hand is worth to ``view``'s seat, 0 (a loss)
        to 1 (a win), from the view alone."""
        _, _, x = self._input(view)
        return (self.policy.value(x) + 1.0) / 2.0

    def act(self, view: View) -> Action:
        """The policy's choice among ``view.legal``."""
        observer, obs, x = self._input(view)
        i = self.policy.choose(x, obs["action_mask"], self.rng)
        return observer.codec.decode(i)
