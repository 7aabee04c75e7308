"""What the strength benchmarks share: a mean with its 95% interval over deals, and the report
printed as JSON or as docs/strength.md's markdown."""

from __future__ import annotations

import json
import math
import platform
import sys
from collections.abc import Callable
from typing import Any


def interval(xs: list[float]) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95% interval (normal, over deals): ``(mean, low, high)``."""
    m = len(xs)
    mean = sum(xs) / m
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (m - 1)) if m > 1 else 0.0
    half = 1.96 * sd / math.sqrt(m) if m > 1 else math.inf
    return mean, mean - half, mean + half


def share_cell(mean: float, ci: list[float] | tuple[float, float]) -> str:
    """A share of the hands with its 95% interval, as docs/strength.md's tables give it."""
    return f"{mean:.3f} ({ci[0]:.3f}–{ci[1]:.3f})"


def points_cell(mean: float, ci: list[float] | tuple[float, float]) -> str:
    """A points margin a hand with its 95% interval, as docs/strength.md's tables give it."""
    return f"{mean:+.2f} ({ci[0]:+.2f} to {ci[1]:+.2f})"


def emit(report: dict[str, Any], markdown: Callable[[dict[str, Any]], str] | None) -> int:
    """Print ``report`` (the build and Python added) as JSON, or through ``markdown``."""
    import bonepile

    report["bonepile"] = f"{bonepile.__version__}, {bonepile.build()}"
    report["python"] = platform.python_version()
    if markdown is not None:
        print(markdown(report))
        return 0
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
