"""The suite's options and markers.

- ``--full``: the property, fuzz and exhaustive tests at their full sizes (see ``sizes.py``);
  ``make test-full`` runs it, ``make test`` runs the quick sizes.
- ``engine``: a module that tests the modules mypyc compiles (rules, views, search, playouts).
  ``make test`` runs these on both builds; every other test runs once, on the pure build, since
  the server, terminal and browser code is the same Python on either.
- ``strength``: replays saved strength measurements; ``make test`` runs them on the compiled
  build, where they were measured (the games of a seeded run are the same on every build).
- ``browser``: drives chromium through Playwright.
"""

from __future__ import annotations

import os

import pytest

import sizes

# Every `bonepile serve` the tests start runs its analyses and bots-only tables at normal
# priority: the suite may run beside other work that keeps every core busy, and in the idle
# scheduling class (the default) they would wait for as long as that work runs.
os.environ["BONEPILE_BACKGROUND_PRIORITY"] = "normal"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run the property, fuzz and exhaustive tests at their full sizes (make test-full)",
    )


def pytest_configure(config: pytest.Config) -> None:
    sizes.FULL = bool(config.getoption("full"))
