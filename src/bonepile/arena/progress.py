"""How far a run of games has got, told on standard error (``bonepile arena`` and ``simulate``).

Standard output carries the results (or the JSON), so progress never goes there. On a terminal
it is a live bar, rewritten in place and gone when the run ends; anywhere else (a log file, a
pipe, CI) it is a line every so many seconds, the first after that long (a quick run writes
nothing): the games played and their total, the time so far and an estimate of the time left.
A clock thread writes the lines, so they come even while a long game is being played.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


def duration(seconds: float) -> str:
    """``45 s``, ``3 min 07 s``, ``2 h 05 min``, ``3.2 days``."""
    s = round(max(0.0, seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    if s < 48 * 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    return f"{s / 86400:.1f} days"


class RunProgress:
    """Progress of ``total`` games on ``stream`` (standard error by default), as a context
    manager: :meth:`advance` counts games as they finish. ``command`` names the command in
    the lines (``bonepile: arena: ...``), ``unit`` the games (``hands``, ``matches``) and
    ``detail`` is added after the total (``(50 deals x 2 seatings)``). ``every`` is the
    seconds between two lines off a terminal; 0 shows nothing anywhere."""

    def __init__(
        self,
        command: str,
        total: int,
        unit: str,
        *,
        every: float,
        detail: str = "",
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command = command
        self.total = total
        self.unit = unit
        self.every = every
        self.detail = detail
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        self.done = 0
        self.started = clock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def line(self) -> str:
        """The progress line for now: ``bonepile: arena: 40 of 100 hands (50 deals x 2
        seatings), 40%, 1 min 20 s so far, about 2 min 00 s left``."""
        elapsed = self.clock() - self.started
        done, total = self.done, self.total
        detail = f" {self.detail}" if self.detail else ""
        head = (
            f"bonepile: {self.command}: {done:,} of {total:,} {self.unit}{detail}, "
            f"{100 * done / max(total, 1):.0f}%, {duration(elapsed)} so far"
        )
        if done <= 0:
            return head + ", time left not known yet"
        return head + f", about {duration(elapsed * (total - done) / done)} left"

    def advance(self, k: int = 1) -> None:
        """Count ``k`` more games played."""
        self.done += k
        if self._bar is not None and self._task is not None:
            self._bar.advance(self._task, k)

    def __enter__(self) -> RunProgress:
        self.started = self.clock()
        if self.every <= 0:
            return self
        if _is_terminal(self.stream):
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            bar = self._bar = Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(f"{self.unit},"),
                TimeElapsedColumn(),
                TextColumn("so far,"),
                TimeRemainingColumn(),
                TextColumn("left"),
                transient=True,
                console=Console(file=self.stream),
                redirect_stdout=False,  # standard output stays the results' own
            )
            bar.start()
            self._task = bar.add_task(self.command, total=self.total)
            return self
        self._thread = threading.Thread(target=self._tell, name="bonepile-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._bar is not None:
            bar, self._bar = self._bar, None
            with contextlib.suppress(OSError, ValueError):
                bar.stop()

    def _tell(self) -> None:
        """The clock thread: a line every ``every`` seconds until the run ends."""
        while not self._stop.wait(self.every):
            try:
                self.stream.write(self.line() + "\n")
                self.stream.flush()
            except (OSError, ValueError):  # standard error gone: the run goes on
                return


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


__all__ = ["RunProgress", "duration"]
