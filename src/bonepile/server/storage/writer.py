"""The one thread that writes the server's changes to its database, in group commits."""

from __future__ import annotations

import contextlib
import queue
import threading
from concurrent.futures import Future, InvalidStateError

from bonepile.server.storage.store import Store, Write


class Writer:
    """The one thread that writes to the store. SQLite takes one writer at a time (writers
    racing for its lock would wait in its busy handler, sleeping up to 100 ms, instead of in a
    queue), and a commit costs far more than a row: so the writes that wait together are
    stored in one transaction (group commit), up to :data:`BATCH` at a time."""

    BATCH = 256

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: queue.SimpleQueue[tuple[Write, Future[None]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="bonepile-store", daemon=True)
        self.thread.start()

    def submit(self, write: Write) -> Future[None]:
        """Queue ``write``; the future is done once it is stored (or failed)."""
        done: Future[None] = Future()
        self.queue.put((write, done))
        return done

    def close(self) -> None:
        """Store what is queued, then stop the thread."""
        self.queue.put(None)
        self.thread.join()

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            work, stop = [first], False
            while len(work) < self.BATCH:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                work.append(more)
            try:
                errors = self.store.batch([write for write, _ in work])
            except Exception as e:  # the database is gone: every write of the batch fails
                errors = [e] * len(work)
            for (_, done), error in zip(work, errors, strict=True):
                # a cancelled future: nobody waits for it any more (it is stored all the same)
                with contextlib.suppress(InvalidStateError):
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
            if stop:
                return


__all__ = ["Writer"]
