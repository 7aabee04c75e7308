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

import pytest

import sizes


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run the property, fuzz and exhaustive tests at their full sizes (make test-full)",
    )


def pytest_configure(config: pytest.Config) -> None:
    sizes.FULL = bool(config.getoption("full"))
