"""The processes bots and analyses think in, off the server's event loop.

Two pools: one for the bots at tables where people play, and one, at a lower operating-system
priority, for the work nobody waits on at a table (analyses of replays, tables of bots only).
Every worker ends with the server: it ignores Ctrl-C (the server stops it), and it watches its
parent, so that a server killed outright (``kill -9``) does not leave its workers behind.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from bonepile.actions import Action
from bonepile.agents.registry import make_agent
from bonepile.view import View

PARENT_CHECK = 0.5
"""Seconds between a worker's looks at whether its server is still there."""


def think(spec: str, seed: int, v: View) -> Action:
    """An agent's move from a view (runs in a worker process)."""
    return make_agent(spec, seed).act(v)


PRIORITIES = ("idle", "low", "normal")
"""A pool's CPU priorities: ``idle`` (10 steps below the server, and in Linux's idle
scheduling class: only CPU time nothing else wants; a machine kept busy by other work may
starve it), ``low`` (10 steps below the server), ``normal`` (the server's)."""


def bot_pool(workers: int, priority: str = "normal") -> ProcessPoolExecutor:
    """``workers`` processes to think in, at ``priority`` (one of :data:`PRIORITIES`).

    They are spawned, never forked: a fork copies the server while its other threads (the
    database writer, the event loop's helpers) may hold locks, an import's among them, and a
    child that needs such a lock waits forever, and with it every table whose bot move it
    holds. The workers start at once, not on the first move."""
    _quiet_resource_tracker()
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), priority),
    )
    with _ctrl_c_ignored():  # the workers are spawned at the first submit
        for _ in range(workers):
            pool.submit(_warm)
    return pool


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (if it is not running) told not to warn of
    "leaked semaphore objects": after a ``kill -9`` of the server it frees the pool's
    semaphores, which is its job, and its warning would tell the operator something is wrong.
    The tracker takes the warning filters of the process that starts it."""
    from multiprocessing import resource_tracker

    option = "ignore:resource_tracker:UserWarning"
    added = option not in sys.warnoptions
    if added:
        sys.warnoptions.append(option)
    try:
        resource_tracker.ensure_running()
    finally:
        if added:
            sys.warnoptions.remove(option)


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore SIGINT while workers are spawned: a process inherits an ignored signal, so a
    Ctrl-C while a worker is still importing (before its initializer runs) does not print a
    traceback from it. Only the main thread can change it; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _start_worker(parent: int, priority: str) -> None:
    """Set a worker up: Ctrl-C is the server's to handle, its ``priority`` is set, and a
    thread ends the worker as soon as the server is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if priority in ("low", "idle"):
        # a system that refuses: run at the same priority
        with contextlib.suppress(OSError):
            os.nice(10)
    if priority == "idle":
        # on Linux, only on CPU time nothing else wants: a niced process still delays the
        # server's thread handoffs, an idle-class one does not
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_CHECK)
        if os.getppid() != parent:
            os._exit(0)


def _warm() -> None:
    """Import what a bot needs, so a worker's first move is as quick as its others."""
    make_agent("ismcts:1", 0)


__all__ = ["PRIORITIES", "bot_pool", "think"]
