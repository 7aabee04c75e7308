"""Running chunks of independent work on this machine's cores, streamed.

:func:`run_streamed` hands chunks to worker processes a few at a time, so a run of millions of
games never builds (or queues) them all, and yields each chunk's results as it comes back.
Workers start with :func:`end_on_sigterm`'s handler, and are ended with SIGTERM when the caller
stops early, so games in progress stop their external bots.

Why not :class:`multiprocessing.pool.Pool`: its ``terminate`` shares queue locks and a reader
thread with the workers it kills, so a worker killed at the wrong moment (holding a lock, or
half way through a message) can leave the caller waiting forever; a run ended by SIGTERM was
seen hanging so in CI (twice, never reproduced). Here every worker has its own pipe, nothing is
shared, the caller never reads from a worker it is stopping, and a worker that does not end
within :data:`GRACE` seconds is killed; a worker that dies mid-run is reported, not waited for.

Ctrl-C reaches every process of the terminal's foreground group, workers included. Workers
start with SIGINT blocked (it is blocked while each one is started, and a started process
inherits that) and then ignore it, so a Ctrl-C while they start up or work prints nothing in
them: the caller gets ``KeyboardInterrupt`` and ends them. A run starts no more workers than it
has chunks to give them, nor more than :func:`machine_workers`.
"""

from __future__ import annotations

import contextlib
import faulthandler
import itertools
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

WINDOW = 2
"""Chunks in flight per worker: one to work on and one waiting, so no worker sits idle between
chunks and the last chunks are not stuck behind a busy worker."""

GRACE = 10.0
"""Seconds the workers get to stop their bots and end after SIGTERM before they are killed."""

CORE_FACTOR = 2
"""Worker processes a run may start per core of the machine (:func:`machine_workers`)."""


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def machine_workers() -> int:
    """The most worker processes worth starting on this machine: :data:`CORE_FACTOR` per core
    (games are mostly computation; a few more than the cores covers bots that wait)."""
    return CORE_FACTOR * usable_cores()


def worker_count(requested: int, tasks: int) -> int:
    """The workers a run of ``tasks`` independent pieces of work starts when ``requested``
    are asked for: no more than the tasks, nor than :func:`machine_workers`, and at least 1."""
    return max(1, min(requested, tasks, machine_workers()))


class WorkerError(RuntimeError):
    """A worker process failed outside the work itself: it ended in the middle of a run
    (killed, or out of memory), or its answer could not be sent back."""


class RemoteTraceback(Exception):
    """Where in a worker an error raised by the work came from (the error's ``__cause__``)."""

    def __str__(self) -> str:
        return str(self.args[0])


_armed = False
"""Whether SIGTERM raises ``SystemExit`` now (else it ends the process at once)."""


def end_on_sigterm() -> None:
    """Make the first SIGTERM end this process like an exception (``SystemExit``), so that
    ``finally`` blocks, which stop external bots, run; a second one ends it at once, so that a
    process cannot hang in its own clean-up. The command line uses it."""
    global _armed
    _armed = True
    signal.signal(signal.SIGTERM, _exit_on_signal)
    stacks_on_sigusr1()


def stacks_on_sigusr1() -> None:
    """Make SIGUSR1 print every thread's stack to stderr (``kill -USR1 PID``), even while the
    process is stuck in native code: how to see where a command, or one of its workers, hangs."""
    stderr = sys.__stderr__
    if stderr is None:  # no standard error to print to
        return
    with contextlib.suppress(ValueError, OSError, AttributeError):  # no file descriptor
        faulthandler.register(signal.SIGUSR1, file=stderr, all_threads=True)


def _exit_on_signal(signum: int, frame: object) -> None:
    global _armed
    if not _armed:
        os._exit(128 + signum)
    _armed = False
    raise SystemExit(128 + signum)


def _serve(work: Callable[[Any], list[Any]], conn: Connection) -> None:
    """A worker's life: answer each chunk with ``(True, results)`` or ``(False, (error,
    traceback))`` until told to stop (``None``) or the caller is gone. SIGTERM raises
    ``SystemExit`` only while a chunk is worked on (so its external bots are stopped) and ends
    the worker at once anywhere else; Ctrl-C is left to the caller, which ends the workers."""
    global _armed
    signal.signal(signal.SIGTERM, _exit_on_signal)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a pending Ctrl-C is dropped with it
    if hasattr(signal, "pthread_sigmask"):  # started with SIGINT blocked (_start)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    stacks_on_sigusr1()
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):  # the caller is gone
            os._exit(1)
        if chunk is None:
            return
        _armed = True
        try:
            answer: tuple[bool, Any] = (True, work(chunk))
        except SystemExit as stop:
            # SIGTERM: the chunk's own clean-up (its finally blocks) has run; end now.
            os._exit(stop.code if isinstance(stop.code, int) else 1)
        except Exception as e:
            answer = (False, (e, traceback.format_exc()))
        finally:
            _armed = False
        try:
            conn.send(answer)
        except Exception as e:  # an error (or results) that cannot be pickled
            lost = WorkerError(f"a worker could not send its answer back: {e!r}")
            conn.send((False, (lost, traceback.format_exc())))


def run_streamed(
    work: Callable[[T], list[R]], chunks: Iterable[T], workers: int
) -> Generator[R, None, None]:
    """``work(chunk)`` for every chunk, on up to ``workers`` processes (``spawn``ed, so ``work``
    must be a module-level function), yielding the results in the order chunks finish. An
    error raised by ``work`` is raised here; a worker that dies raises :class:`WorkerError`.

    A worker is started only when there is a chunk for it, and never more than
    :func:`machine_workers`. Close the iterator (``contextlib.closing``) when stopping early:
    that ends the workers.
    """
    ctx = multiprocessing.get_context("spawn")
    procs: list[BaseProcess] = []
    conns: list[Connection] = []
    finished = False
    try:
        pending = iter(chunks)
        running: list[int] = []
        for _ in range(min(workers, machine_workers())):
            first = list(itertools.islice(pending, WINDOW))
            if not first:
                break
            _start(ctx, work, procs, conns)
            running.append(0)
            for chunk in first:
                _give(procs[-1], conns[-1], chunk)
                running[-1] += 1
        owner = {id(conn): i for i, conn in enumerate(conns)}
        while any(running):
            busy = [i for i in range(len(procs)) if running[i]]
            ready = wait([conns[i] for i in busy] + [procs[i].sentinel for i in busy])
            answered = {owner[id(r)] for r in ready if isinstance(r, Connection)}
            for i in busy:
                if i not in answered and procs[i].sentinel in ready:
                    raise _died(procs[i])
            for i in sorted(answered):
                try:
                    ok, value = conns[i].recv()
                except (EOFError, OSError):  # its end closed: the worker is gone
                    raise _died(procs[i]) from None
                running[i] -= 1
                if not ok:
                    error, where = value
                    raise error from RemoteTraceback(where)
                yield from value
                for chunk in itertools.islice(pending, 1):
                    _give(procs[i], conns[i], chunk)
                    running[i] += 1
        for conn in conns:
            with contextlib.suppress(OSError):  # one gone by now is ended by _stop all the same
                conn.send(None)
        finished = True
    finally:
        _stop(procs, conns, finished)


def _start(
    ctx: Any, work: Callable[[Any], list[Any]], procs: list[BaseProcess], conns: list[Connection]
) -> None:
    """Start one worker, adding it to ``procs`` and our end of its pipe to ``conns``. SIGINT
    is blocked meanwhile: the worker inherits that, so a Ctrl-C while it starts up cannot
    interrupt it (it ignores SIGINT once running), and one that reaches us now is raised once
    the worker is started and listed (so it is ended with the others)."""
    mine, theirs = ctx.Pipe()
    proc = ctx.Process(target=_serve, args=(work, theirs), daemon=True)
    with _sigint_blocked():
        try:
            proc.start()
        finally:
            theirs.close()
        procs.append(proc)
        conns.append(mine)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread for the block (where the system can; not on Windows)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # The resource tracker that spawned processes use starts on first use and unblocks SIGINT
    # after starting: start it before blocking.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _give(proc: BaseProcess, conn: Connection, chunk: object) -> None:
    """Send ``chunk`` to a worker; one that is gone is reported as :func:`_died`."""
    try:
        conn.send(chunk)
    except OSError:
        raise _died(proc) from None


def _died(proc: BaseProcess) -> WorkerError:
    """The error for a worker that ended mid-run (its end may take a moment to be seen)."""
    proc.join(timeout=5.0)
    code = proc.exitcode
    how = (
        "still running"
        if code is None
        else f"killed by signal {-code}"
        if code < 0
        else f"exit status {code}"
    )
    return WorkerError(f"a worker process ended in the middle of the run ({how})")


def _stop(procs: list[BaseProcess], conns: list[Connection], finished: bool) -> None:
    """End the workers: when the run ``finished`` they were told to stop and end by themselves;
    otherwise they get SIGTERM (a chunk in progress stops its bots). Whatever is left after
    :data:`GRACE` seconds is killed. Nothing is read from them any more, so a worker ended
    mid-message cannot hold us up."""
    deadline = time.monotonic() + GRACE
    for proc in procs:
        if finished:
            proc.join(timeout=1.0)
        if proc.exitcode is None:
            proc.terminate()
    for proc in procs:
        proc.join(timeout=max(0.0, deadline - time.monotonic()))
        if proc.exitcode is None:
            proc.kill()
            proc.join()
    for conn in conns:
        conn.close()


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one may be shorter), lazily."""
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


__all__ = [
    "CORE_FACTOR",
    "GRACE",
    "WINDOW",
    "RemoteTraceback",
    "WorkerError",
    "chunked",
    "end_on_sigterm",
    "machine_workers",
    "run_streamed",
    "stacks_on_sigusr1",
    "usable_cores",
    "worker_count",
]
