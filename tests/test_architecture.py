"""The dependency rule: the rules core imports no client and no third-party package."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CORE = [
    "bonepile",
    "bonepile.tiles",
    "bonepile.actions",
    "bonepile.events",
    "bonepile.options",
    "bonepile.result",
    "bonepile.state",
    "bonepile.layout",
    "bonepile.games",
    "bonepile.view",
    "bonepile.record",
    "bonepile.match",
    "bonepile.match_record",
    "bonepile.perft",
    "bonepile.render",
]
CLIENTS = (
    "bonepile.agents",
    "bonepile.simulate",
    "bonepile.cli",
    "bonepile.tui",
    "click",
    "rich",
    "textual",
    # bonepile.rl is a client too (the rl extra): the core never needs numpy or the RL packages
    "bonepile.rl",
    "numpy",
    "gymnasium",
    "pettingzoo",
)


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_client(module: str) -> None:
    code = f"import sys, json, {module}; print(json.dumps(sorted(m for m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    offenders = [m for m in loaded if m.startswith(CLIENTS)]
    assert offenders == [], f"{module} pulls in {offenders}"


def test_every_public_name_is_documented() -> None:
    import bonepile

    def interpreted(obj: object) -> bool:
        # mypyc drops the docstrings of what it compiles; the pure build is checked in full.
        module = sys.modules.get(getattr(obj, "__module__", "") or "")
        return module is None or str(getattr(module, "__file__", "")).endswith(".py")

    missing = [
        name
        for name in bonepile.__all__
        if callable(getattr(bonepile, name))
        and interpreted(getattr(bonepile, name))
        and not getattr(bonepile, name).__doc__
    ]
    assert missing == []


def test_compiled_flag_tells_the_build() -> None:
    import bonepile
    import bonepile.state

    assert (not str(bonepile.state.__file__).endswith(".py")) == bonepile.COMPILED


def _compiled_modules() -> set[str]:
    """The module names setup.py hands to mypyc."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).parent.parent / "setup.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED_MODULES" for t in node.targets
        ):
            paths = ast.literal_eval(node.value)
            return {p.removeprefix("src/").removesuffix(".py").replace("/", ".") for p in paths}
    raise AssertionError("setup.py has no COMPILED_MODULES")


def test_every_state_class_is_compiled_with_its_base() -> None:
    # The shipped games' State subclasses are compiled with bonepile.state, for speed (a game
    # from outside the package may subclass the compiled State: tests/test_toy_game.py).
    import bonepile.games  # noqa: F401  (registers every game)
    from bonepile.state import State

    compiled = _compiled_modules()
    assert "bonepile.state" in compiled
    pending = list(State.__subclasses__())
    seen = set()
    while pending:
        cls = pending.pop()
        seen.add(cls.__module__)
        pending.extend(cls.__subclasses__())
    assert seen, "no game state classes found"
    assert sorted(m for m in seen if m.startswith("bonepile") and m not in compiled) == []
