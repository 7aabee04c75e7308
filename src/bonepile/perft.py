"""Perft: count the action sequences of a given length (docs/records.md, "Perft").

``perft(p, 0) = 1``; ``perft(p, d) = 1`` when the hand is over at ``p``; otherwise the sum over
the legal actions ``a`` of ``perft(apply(p, a), d - 1)``. Draws are deterministic because the
deal fixes the boneyard order, so the counts pin the move generator exactly.

A count can take far too long at a large depth: ``max_nodes`` bounds the positions it may visit
(every position reached below the start counts, the leaves included), and past it the count
stops with a :class:`~bonepile.errors.PerftLimitError`. A ``progress`` callback hears how far
a count has got every :data:`REPORT_EVERY` positions (:class:`Progress`), and
:class:`ProgressLine` turns that into a line on standard error with the time left.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from bonepile.actions import Action
from bonepile.errors import BonepileError, PerftLimitError
from bonepile.state import State

_UNLIMITED = 1 << 62

REPORT_EVERY = 1 << 15
"""Positions visited between two calls of a count's ``progress`` callback."""


@dataclass(frozen=True)
class Progress:
    """How far a count has got: ``positions`` visited so far, and ``done``, the share of the
    count finished (from 0 to 1), estimated from where the walk stands in the tree as if every
    branch below a position were the same size."""

    positions: int
    done: float


OnProgress = Callable[[Progress], None]


def perft(
    state: State[Any],
    depth: int,
    max_nodes: int | None = None,
    progress: OnProgress | None = None,
) -> int:
    """The number of action sequences of length ``depth`` from ``state``.

    With ``max_nodes``, raise :class:`PerftLimitError` rather than visit more positions;
    ``progress`` is called every :data:`REPORT_EVERY` positions.
    """
    _check(depth, max_nodes)
    walk = _Walk(_budget(max_nodes), progress)
    return walk.counted(state, depth, max_nodes)


def divide(
    state: State[Any],
    depth: int,
    max_nodes: int | None = None,
    progress: OnProgress | None = None,
) -> list[tuple[Action, int]]:
    """Perft split by the first action: ``(action, count)`` pairs (empty when over or depth 0).

    ``max_nodes`` bounds the whole count (all first actions together), as for :func:`perft`,
    and ``progress`` hears about the whole count.
    """
    _check(depth, max_nodes)
    if depth < 1 or state.result is not None:
        return []
    legal = state.legal_actions()
    walk = _Walk(_budget(max_nodes) - len(legal), progress)
    if walk.budget < 0:
        raise _limit(max_nodes)
    counts = []
    walk.path.append([0, len(legal)])
    for i, a in enumerate(legal):
        walk.path[0][0] = i
        counts.append((a, walk.counted(state.apply(a), depth - 1, max_nodes)))
    return counts


def _check(depth: int, max_nodes: int | None) -> None:
    if depth < 0:
        raise BonepileError(f"perft depth must be >= 0, got {depth}")
    if max_nodes is not None and max_nodes < 1:
        raise BonepileError(f"perft max_nodes must be >= 1, got {max_nodes}")


def _budget(max_nodes: int | None) -> int:
    return _UNLIMITED if max_nodes is None else max_nodes


def _limit(max_nodes: int | None) -> PerftLimitError:
    return PerftLimitError(
        f"perft stopped after {max_nodes or _UNLIMITED:,} positions (the node limit): "
        "the count is too large; ask for a smaller depth or a larger limit"
    )


class _OverBudget(Exception):
    pass


class _Walk:
    """One count's walk: the positions it may still visit, and where it stands in the tree
    (``path``: ``[index, count]`` of the action being followed at each level) for progress."""

    def __init__(self, budget: int, progress: OnProgress | None) -> None:
        self.start = self.budget = budget
        self.progress = progress
        self.next_report = 0  # the budget below which perft stops to see (0: only the limit)
        self.path: list[list[int]] = []
        self._schedule()

    def counted(self, state: State[Any], depth: int, max_nodes: int | None) -> int:
        try:
            return self.perft(state, depth)
        except _OverBudget:
            raise _limit(max_nodes) from None

    def perft(self, state: State[Any], depth: int) -> int:
        if depth == 0 or state.result is not None:
            return 1
        legal = state.legal_actions()
        self.budget -= len(legal)  # every position one step on counts as visited
        if self.budget < self.next_report:
            if self.budget < 0:
                raise _OverBudget
            self.report()
        if depth == 1:
            return len(legal)
        step = [0, len(legal)]
        self.path.append(step)
        total = 0
        for i, a in enumerate(legal):
            step[0] = i
            total += self.perft(state.apply(a), depth - 1)
        self.path.pop()
        return total

    def _schedule(self) -> None:
        if self.progress is not None:
            self.next_report = max(0, self.budget - REPORT_EVERY)

    def report(self) -> None:
        """Tell ``progress`` how far the walk has got."""
        self._schedule()
        if self.progress is None:
            return
        done, width = 0.0, 1.0
        for index, count in self.path:
            width /= count
            done += index * width
        self.progress(Progress(self.start - self.budget, min(1.0, done)))


def _duration(seconds: float) -> str:
    """``45 s``, ``12 min``, ``3.5 h``, ``2.1 days``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


class ProgressLine:
    """A ``progress`` callback that writes how far a count has got and the time it may still
    take to ``stream`` every ``interval`` seconds (the first time after ``interval`` seconds,
    so a quick count writes nothing). On a terminal the line is rewritten in place and
    :meth:`clear` removes it; elsewhere each report is a line of its own."""

    def __init__(
        self,
        stream: TextIO,
        interval: float,
        max_nodes: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.interval = interval
        self.max_nodes = max_nodes
        self.clock = clock
        self.started = clock()
        self.last = self.started
        try:
            self.terminal = stream.isatty()
        except (AttributeError, ValueError, OSError):
            self.terminal = False
        self.shown = False

    def __call__(self, progress: Progress) -> None:
        now = self.clock()
        if self.interval <= 0 or now - self.last < self.interval:
            return
        self.last = now
        self._write(self.text(progress, now - self.started))

    def text(self, progress: Progress, elapsed: float) -> str:
        """The report of ``progress`` after ``elapsed`` seconds."""
        head = (
            f"bonepile: perft: about {progress.done:.0%} done, "
            f"{progress.positions:,} positions in {_duration(elapsed)}"
        )
        if progress.done <= 0 or progress.positions <= 0:
            return head + ", time left unknown yet"
        left = elapsed * (1 - progress.done) / progress.done
        tail = f", about {_duration(left)} left"
        if self.max_nodes is not None:
            expected = progress.positions / progress.done
            if expected > self.max_nodes:
                to_limit = elapsed * (self.max_nodes - progress.positions) / progress.positions
                tail = (
                    f", likely to stop at --max-nodes {self.max_nodes:,} in about "
                    f"{_duration(max(0.0, to_limit))}"
                )
        return head + tail

    def _write(self, text: str) -> None:
        try:
            if self.terminal:
                self.stream.write("\r" + text + "\x1b[K")
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
            self.shown = True
        except (OSError, ValueError):  # standard error gone: the count goes on
            self.interval = 0

    def clear(self) -> None:
        """Remove the line from a terminal (nothing to do elsewhere)."""
        if self.terminal and self.shown:
            try:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self.shown = False


__all__ = ["REPORT_EVERY", "Progress", "ProgressLine", "divide", "perft"]
