"""The worker processes of arena and simulate runs: every chunk answered, errors carried back,
and a run that is stopped, or whose worker dies, ends promptly with no process left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Generator

import pytest

from bonepile import workers
from bonepile.workers import RemoteTraceback, WorkerError, chunked, run_streamed

pytestmark = pytest.mark.system


def _square_all(chunk: list[int]) -> list[int]:
    return [x * x for x in chunk]


def _fail_on_13(chunk: list[int]) -> list[int]:
    if 13 in chunk:
        raise ValueError("thirteen is unlucky")
    return chunk


def _die_on_13(chunk: list[int]) -> list[int]:
    if 13 in chunk:
        os._exit(3)
    return chunk


def _die(chunk: list[int]) -> list[int]:
    os._exit(3)


def _pids_then_hang(chunk: list[int]) -> list[int]:
    """Answer the first chunks with this worker's pid; hang on every later one (ignoring
    SIGTERM when the chunk says so)."""
    if chunk[0] >= 2:
        if chunk[0] % 2:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(600)
    return [os.getpid()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as f:
        return f.read().split()[2] != "Z"  # a zombie has ended
    return True


def test_every_chunk_is_answered() -> None:
    got = list(run_streamed(_square_all, chunked(range(100), 7), 2))
    assert sorted(got) == [x * x for x in range(100)]


def test_an_error_in_the_work_reaches_the_caller_with_where_it_came_from() -> None:
    with pytest.raises(ValueError, match="thirteen is unlucky") as caught:
        list(run_streamed(_fail_on_13, chunked(range(40), 3), 2))
    assert isinstance(caught.value.__cause__, RemoteTraceback)
    assert "_fail_on_13" in str(caught.value.__cause__)


def test_a_worker_that_dies_ends_the_run_with_an_error_instead_of_a_hang() -> None:
    started = time.monotonic()
    with pytest.raises(WorkerError, match="exit status 3"):
        list(run_streamed(_die_on_13, chunked(range(40), 3), 2))
    assert time.monotonic() - started < 60


def test_workers_that_die_at_once_are_reported_however_their_end_is_seen_first() -> None:
    """A dead worker's pipe and its process end are seen in either order; both say it died."""
    for _ in range(5):
        with pytest.raises(WorkerError, match="exit status 3"):
            list(run_streamed(_die, chunked(range(10), 2), 2))


def test_stopping_early_ends_every_worker_even_one_that_ignores_sigterm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "GRACE", 2.0)
    stream: Generator[int, None, None] = run_streamed(_pids_then_hang, ([i] for i in range(8)), 2)
    pids = {next(stream), next(stream)}
    time.sleep(1)  # the workers are now inside chunks that hang, one ignoring SIGTERM
    started = time.monotonic()
    stream.close()
    assert time.monotonic() - started < 30
    assert not any(_alive(pid) for pid in pids)
