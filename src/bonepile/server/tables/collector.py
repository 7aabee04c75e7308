"""Keeps Python's full garbage collections short on a server holding many tables."""

from __future__ import annotations

import gc
import time


class Collector:
    """Keeps Python's full garbage collections short. Every table holds thousands of
    long-lived objects (its states and journal); a full collection walks all of them, which
    with hundreds of tables stalls every table for 100 ms or more. So the objects alive now
    are moved out of the collector's sight every ``freeze`` seconds (``gc.freeze``: they are
    still freed when their last reference goes), and every ``full`` seconds they are handed
    back for one complete collection, which frees any cycles among them."""

    def __init__(self, freeze: float = 5.0, full: float = 900.0) -> None:
        self.freeze_every = freeze
        self.full_every = full
        self.frozen_at = self.full_at = time.monotonic()

    def tick(self, now: float) -> None:
        """Freeze or collect when it is time."""
        if now - self.full_at >= self.full_every:
            gc.unfreeze()
            gc.collect()
            self.full_at = now
        if now - self.frozen_at >= self.freeze_every:
            gc.freeze()
            self.frozen_at = now


__all__ = ["Collector"]
