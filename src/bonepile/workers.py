"""Running chunks of independent work on this machine's cores, streamed.

:func:`run_streamed` hands chunks to a pool of worker processes a few at a time, so a run of
millions of games never builds (or queues) them all, and yields each chunk's results as it
comes back. Workers start with :func:`end_on_sigterm`, and the pool is ended with SIGTERM when
the caller stops early, so games in progress stop their external bots.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import signal
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

WINDOW = 4
"""Chunks in flight per worker: enough to keep every worker busy, few enough to stream."""


_armed = False
"""Whether SIGTERM raises ``SystemExit`` now (else it ends the process at once)."""


def end_on_sigterm() -> None:
    """Make the first SIGTERM end this process like an exception (``SystemExit``), so that
    ``finally`` blocks, which stop external bots, run; a second one ends it at once, so that a
    process cannot hang in its own clean-up. The command line uses it."""
    global _armed
    _armed = True
    signal.signal(signal.SIGTERM, _exit_on_signal)


def _exit_on_signal(signum: int, frame: object) -> None:
    global _armed
    if not _armed:
        os._exit(128 + signum)
    _armed = False
    raise SystemExit(128 + signum)


def _start_worker() -> None:
    """A pool worker: SIGTERM raises ``SystemExit`` only while it works on a chunk (so the
    chunk's external bots are stopped) and ends it at once anywhere else (a ``SystemExit``
    inside the pool's own machinery or the interpreter's shutdown can leave a lock held and
    the worker hung); Ctrl-C is left to the parent, which ends the workers."""
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _work_armed(work: Callable[[T], list[R]], chunk: T) -> list[R]:
    global _armed
    _armed = True
    try:
        return work(chunk)
    except SystemExit as stop:
        # SIGTERM (the pool is being ended): the chunk's own clean-up (its finally blocks,
        # which stop external bots) has run. End now, without the interpreter's shutdown,
        # which can wait on the pool's queues for a parent that no longer reads them.
        os._exit(stop.code if isinstance(stop.code, int) else 1)
    finally:
        _armed = False


def run_streamed(
    work: Callable[[T], list[R]], chunks: Iterable[T], workers: int
) -> Generator[R, None, None]:
    """``work(chunk)`` for every chunk, on ``workers`` processes (``spawn``ed, so ``work``
    must be a module-level function), yielding the results in the order chunks finish.

    Close the iterator (``contextlib.closing``) when stopping early: that ends the workers.
    """
    pending = iter(chunks)
    done: queue.SimpleQueue[list[R] | BaseException] = queue.SimpleQueue()
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_start_worker)

    def submit(chunk: T) -> None:
        pool.apply_async(_work_armed, (work, chunk), callback=done.put, error_callback=done.put)

    try:
        running = 0
        for chunk in itertools.islice(pending, workers * WINDOW):
            submit(chunk)
            running += 1
        while running:
            batch = done.get()
            running -= 1
            if isinstance(batch, BaseException):
                raise batch
            yield from batch
            for chunk in itertools.islice(pending, 1):
                submit(chunk)
                running += 1
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one may be shorter), lazily."""
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


__all__ = ["WINDOW", "chunked", "end_on_sigterm", "run_streamed"]
