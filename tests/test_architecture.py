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
    "bonepile.perft",
    "bonepile.render",
]
CLIENTS = ("bonepile.agents", "bonepile.simulate", "bonepile.cli", "click", "rich")


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_client(module: str) -> None:
    code = (
        f"import sys, json, {module}; "
        "print(json.dumps(sorted(m for m in sys.modules)))"
    )
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
