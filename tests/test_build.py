"""Which build runs: ``bonepile --version`` and ``bonepile.build()`` tell the truth about the
loaded modules (on the pure and on the compiled build alike), and setup.py's choice between
the compiled and the pure-Python build, tested on its decision function with fake inputs."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import platform
import shutil
import subprocess
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import bonepile
from bonepile import build_info
from cli_helpers import ok, run

pytestmark = pytest.mark.engine

SETUP_PY = Path(__file__).resolve().parents[1] / "setup.py"


@pytest.fixture(scope="module")
def setup_py() -> ModuleType:
    """setup.py loaded as a module (not as ``__main__``: nothing is built)."""
    spec = importlib.util.spec_from_file_location("bonepile_setup", SETUP_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _extension(module: str) -> bool:
    return str(importlib.import_module(module).__file__).endswith(tuple(EXTENSION_SUFFIXES))


# ------------------------------------------------------------------------- what runs
def test_version_names_the_build_the_loaded_modules_are(setup_py: ModuleType) -> None:
    modules = [
        p.removeprefix("src/").removesuffix(".py").replace("/", ".")
        for p in setup_py.COMPILED_MODULES
    ]
    compiled = {_extension(m) for m in modules}
    assert len(compiled) == 1, "some hot modules compiled, some not"
    line = ok(run("--version")).strip()
    assert "\n" not in line
    version = importlib.metadata.version("bonepile")
    python = f"Python {platform.python_version()}"
    if compiled == {True}:
        assert line == f"bonepile {version}, compiled with mypyc ({python})"
        assert bonepile.build() == "compiled (mypyc)" and bonepile.COMPILED
    else:
        assert line.startswith(f"bonepile {version}, pure Python ({python}")
        assert bonepile.build() == "pure Python" and not bonepile.COMPILED


def test_python_m_bonepile_says_the_same() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bonepile", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout == ok(run("--version"))


def test_a_pure_build_says_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    note = tmp_path / "_build_note.txt"
    note.write_text("not compiled at install: no working C compiler (gcc: not found)\n")
    monkeypatch.setattr(build_info, "COMPILED", False)
    monkeypatch.setattr(build_info, "NOTE", note)
    assert build_info.build() == "pure Python"
    assert build_info.version_line().endswith(
        f"pure Python (Python {platform.python_version()}; "
        "not compiled at install: no working C compiler (gcc: not found))"
    )
    note.unlink()  # no note: an editable install says so, another one gives no reason
    line = build_info.version_line()
    assert line.endswith("; editable install)") or line.endswith(f"{platform.python_version()})")
    monkeypatch.setattr(build_info, "COMPILED", True)
    assert build_info.build() == "compiled (mypyc)" and build_info.why_pure() is None


def test_the_editable_venv_says_editable() -> None:
    direct = importlib.metadata.distribution("bonepile").read_text("direct_url.json")
    if not json.loads(direct or "{}").get("dir_info", {}).get("editable"):
        pytest.skip("not an editable install")
    assert not bonepile.COMPILED
    assert ok(run("--version")).strip().endswith("; editable install)")


# ------------------------------------------------------------------ what setup.py builds
def _never() -> str | None:
    raise AssertionError("the compiler need not be probed")


@pytest.mark.parametrize("setting", [None, ""])
def test_a_normal_install_compiles_where_it_can(setup_py: ModuleType, setting: str | None) -> None:
    assert setup_py.decide(setting, False, lambda: None) is None


def test_it_falls_back_to_pure_python_and_says_why(
    setup_py: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    note = setup_py.decide(None, False, lambda: "no working C compiler (gcc: not found)")
    assert note == "not compiled at install: no working C compiler (gcc: not found)"
    setup_py.say(note)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("bonepile: building pure Python, not compiled at install: no working C")
    assert "install a C compiler and Python's headers" in err and "reinstall" in err


def test_zero_forces_pure_python(setup_py: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    for editable in (False, True):
        assert setup_py.decide("0", editable, _never) == "BONEPILE_COMPILE=0 at install"
    setup_py.say("BONEPILE_COMPILE=0 at install")
    assert "C compiler" not in capsys.readouterr().err  # a choice, not a problem


def test_one_forces_the_compiled_build_or_fails(setup_py: ModuleType) -> None:
    assert setup_py.decide("1", False, lambda: None) is None
    with pytest.raises(SystemExit, match=r"BONEPILE_COMPILE=1 but .* no working C compiler"):
        setup_py.decide("1", False, lambda: "no working C compiler (gcc: not found)")


def test_an_editable_install_stays_pure(setup_py: ModuleType) -> None:
    assert setup_py.decide(None, True, _never) == "editable install"
    with pytest.raises(SystemExit, match="cannot compile an editable install"):
        setup_py.decide("1", True, _never)


def test_another_setting_is_refused(setup_py: ModuleType) -> None:
    with pytest.raises(SystemExit, match="BONEPILE_COMPILE='yes'"):
        setup_py.decide("yes", False, _never)


class _Ran(Exception):
    pass


@pytest.mark.parametrize(
    ("hook", "builds", "editable"),
    [
        ("get_requires_for_build_wheel", False, False),
        ("get_requires_for_build_editable", False, False),
        ("prepare_metadata_for_build_wheel", False, False),
        ("prepare_metadata_for_build_editable", False, False),
        ("build_sdist", False, False),
        ("build_wheel", True, False),
        ("build_editable", True, True),
    ],
)
def test_the_command_line_of_each_build_hook(
    setup_py: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    hook: str,
    builds: bool,
    editable: bool,
) -> None:
    # setuptools' PEP 517/660 backend runs setup.py once per hook, with a command line of its
    # own: catch each and ask setup.py what it would build
    from setuptools import build_meta

    seen: list[list[str]] = []

    def run_setup(setup_script: str = "setup.py") -> None:
        seen.append(sys.argv[1:])
        raise _Ran

    monkeypatch.setattr(sys, "argv", list(sys.argv))
    monkeypatch.setattr(build_meta._BACKEND, "run_setup", run_setup)
    arguments: list[Any] = [] if hook.startswith("get_requires") else [str(tmp_path)]
    with pytest.raises(_Ran):
        getattr(build_meta, hook)(*arguments)
    assert setup_py.mode(seen[0]) == (builds, editable), seen[0]


def _compiler_present() -> bool:
    cc = str(sysconfig.get_config_var("CC") or "").split()
    return bool(cc) and shutil.which(cc[0]) is not None


@pytest.mark.skipif(not _compiler_present(), reason="no C compiler here")
def test_the_probe_finds_this_machines_compiler(setup_py: ModuleType) -> None:
    assert setup_py.compile_problem() is None


@pytest.mark.parametrize(
    ("cc", "says"),
    [("/bin/false", "'/bin/false' failed"), ("/no/such/cc", "No such file or directory")],
)
def test_the_probe_reports_a_broken_compiler(
    setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch, cc: str, says: str
) -> None:
    monkeypatch.setenv("CC", cc)
    problem = setup_py.compile_problem()
    assert problem is not None and problem.startswith("no working C compiler")
    assert says in problem and "\n" not in problem


@pytest.mark.skipif(not _compiler_present(), reason="no C compiler here")
def test_the_probe_reports_missing_python_headers(
    setup_py: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import distutils.sysconfig

    monkeypatch.setattr(distutils.sysconfig, "get_python_inc", lambda **_: str(tmp_path))
    problem = setup_py.compile_problem()
    assert problem is not None and "Python.h: No such file or directory" in problem
