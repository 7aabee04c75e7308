"""Build hook: a normal install compiles the rules' hot modules with mypyc; else pure Python.

``pip install .`` (or of the sdist) compiles COMPILED_MODULES with mypyc from the same typed
sources, wherever a working C compiler and Python's headers are found: identical results, about
1.4 times faster. Where they are not (or mypyc fails), the wheel is pure Python and the build
says why (pip shows it with ``-v``; ``bonepile --version`` names the build that runs, and why).
``BONEPILE_COMPILE=0`` forces pure Python; ``BONEPILE_COMPILE=1`` forces the compiled build and
fails if it cannot be made. Editable installs (``pip install -e .``) stay pure Python, so no
stale binary can shadow a source file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.errors import BaseError, CCompilerError

COMPILED_MODULES = [
    "src/bonepile/state.py",
    "src/bonepile/events.py",
    "src/bonepile/layout.py",
    "src/bonepile/rules.py",
    "src/bonepile/masks.py",
    "src/bonepile/games/line.py",
    "src/bonepile/games/super_dominoes.py",
    "src/bonepile/games/super_dominoes_playout.py",
    "src/bonepile/games/doubles.py",
    "src/bonepile/games/double_double.py",
    "src/bonepile/games/double_double_spots.py",
    "src/bonepile/view.py",
    "src/bonepile/agents/base.py",
    "src/bonepile/agents/ismcts.py",
    "src/bonepile/agents/sampler.py",
    "src/bonepile/agents/solver.py",
    "src/bonepile/heuristics.py",
    "src/bonepile/games/base.py",
    "src/bonepile/result.py",
]

NOTE = "bonepile/_build_note.txt"
"""Written into a pure-Python wheel: why it is not compiled (bonepile.build_info reads it)."""
FALLBACK = "not compiled at install: "
"""How the note of a build that wanted to compile and could not begins."""
HOW_TO_COMPILE = (
    "For the compiled build (about 1.4 times faster), install a C compiler and Python's headers "
    "(Debian/Ubuntu: apt install gcc python3-dev) and reinstall: "
    "pip install --force-reinstall --no-cache-dir ..."
)
BUILDING = {"build", "build_ext", "build_py", "bdist_wheel", "bdist", "bdist_egg", "install"}
"""The setup.py commands that build the package: only they probe the compiler and run mypyc.
pip's other hooks run ``egg_info`` and ``dist_info`` (metadata; the same for an editable install
as for a wheel) or ``sdist``, which build nothing."""
EDITABLE = {"editable_wheel", "develop"}
"""The commands of an editable install. pip builds one through the PEP 660 hook
``build_editable``, which setuptools' backend runs as ``setup.py editable_wheel ...`` (and the
legacy path as ``setup.py develop``); ``build_wheel`` runs ``setup.py bdist_wheel ...``. So the
command line tells an editable build from a wheel even before setuptools parses it, when the
extension modules must already be decided."""


def mode(args: list[str]) -> tuple[bool, bool]:
    """Whether setup.py's command line ``args`` builds the package, and whether editable."""
    editable = bool(EDITABLE.intersection(args))
    return editable or bool(BUILDING.intersection(args)), editable


def decide(setting: str | None, editable: bool, problem: Callable[[], str | None]) -> str | None:
    """Why this build is pure Python, or ``None`` to compile it with mypyc.

    ``setting`` is ``BONEPILE_COMPILE``; ``problem()`` says why mypyc cannot build bonepile
    here (``None`` when it can), asked only when it matters. Raises SystemExit (the build fails
    with the message) when ``BONEPILE_COMPILE`` asks for what cannot be done.
    """
    if setting not in (None, "", "0", "1"):
        raise SystemExit(f"bonepile: BONEPILE_COMPILE={setting!r}: use 1 (compile) or 0 (pure)")
    if setting == "0":
        return "BONEPILE_COMPILE=0 at install"
    if editable:
        if setting == "1":
            raise SystemExit(
                "bonepile: BONEPILE_COMPILE=1 cannot compile an editable install (a compiled "
                "module would shadow its source): use pip install . for the compiled build"
            )
        return "editable install"
    why = problem()
    if why is None:
        return None
    if setting == "1":
        raise SystemExit(f"bonepile: BONEPILE_COMPILE=1 but bonepile cannot be compiled: {why}")
    return FALLBACK + why


def one_line(error: BaseException) -> str:
    """The error in one short line (a failed command named by its program)."""
    inner: object = error.args[0] if error.args else error  # setuptools may wrap the cause
    if isinstance(inner, subprocess.CalledProcessError):
        program = inner.cmd[0] if isinstance(inner.cmd, list | tuple) else inner.cmd
        inner = f"command {program!r} failed with exit code {inner.returncode}"
    text = " ".join(str(inner).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def compile_problem() -> str | None:
    """Why mypyc cannot build extension modules here (``None`` when it can): mypyc missing, or
    no C compiler that turns a file including Python.h into a shared library (the compiler and
    flags the extensions would get, ``CC`` and ``CFLAGS`` included)."""
    try:
        import mypyc.build  # noqa: F401
    except ImportError as e:
        return f"mypyc is not available ({one_line(e)})"
    from distutils.ccompiler import new_compiler  # setuptools' copy, as the build uses
    from distutils.sysconfig import customize_compiler, get_python_inc

    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryFile() as log:
        source = Path(tmp, "probe.c")
        source.write_text("#include <Python.h>\nint probe(void) { return PY_VERSION_HEX; }\n")
        compiler: Any = new_compiler()
        customize_compiler(compiler)
        headers = [get_python_inc(), get_python_inc(plat_specific=True)]  # as build_ext
        stderr = os.dup(2)
        os.dup2(log.fileno(), 2)  # keep the compiler's complaint (e.g. "Python.h: No such file")
        try:
            objects = compiler.compile([str(source)], output_dir=tmp, include_dirs=headers)
            compiler.link_shared_object(objects, str(Path(tmp, "probe.so")))
            return None
        except (CCompilerError, BaseError, OSError) as e:
            error = one_line(e)
        finally:
            os.dup2(stderr, 2)
            os.close(stderr)
        log.seek(0)
        said = log.read().decode(errors="replace").replace(tmp + os.sep, "").splitlines()
        said = [line for line in said if "error" in line.lower()][:1]
    return f"no working C compiler with Python's headers ({': '.join([error, *said])})"


def write_note(build_lib: str, note: str | None) -> None:
    path = Path(build_lib, NOTE)
    if note is None:
        path.unlink(missing_ok=True)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(note + "\n", encoding="utf-8")


def say(note: str | None) -> None:
    """One line on standard error (pip shows it with ``-v``, or when the build fails)."""
    if note is None:
        line = "compiling with mypyc (BONEPILE_COMPILE=0 builds pure Python)"
    else:
        line = f"building pure Python, {note}."
        line += f" {HOW_TO_COMPILE}" if note.startswith(FALLBACK) else ""
    print(f"bonepile: {line}", file=sys.stderr, flush=True)


class BuildPy(build_py):
    """Puts the build note into a pure-Python wheel (none in an editable install, which builds
    nothing, nor for a command that only reads metadata)."""

    note: str | None = None
    decided = False

    def run(self) -> None:
        super().run()
        if self.decided and not getattr(self, "editable_mode", False):
            write_note(self.build_lib, self.note)


class BuildExt(build_ext):
    """Falls back to pure Python when the C compiler fails on mypyc's output."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, BaseError, OSError) as e:
            if os.environ.get("BONEPILE_COMPILE") == "1":
                raise
            for path in self.get_outputs():  # a shim left without its library breaks imports
                Path(path).unlink(missing_ok=True)
            note = f"{FALLBACK}the C compiler failed on mypyc's output ({one_line(e)})"
            write_note(self.build_lib, note)
            say(note)


def main() -> None:
    building, editable = mode(sys.argv[1:])
    ext_modules: list[Any] = []
    if building:
        setting = os.environ.get("BONEPILE_COMPILE")
        note = decide(setting, editable, compile_problem)
        if note is None:
            try:
                from mypyc.build import mypycify

                ext_modules = mypycify(COMPILED_MODULES, opt_level="3")
            except (Exception, SystemExit) as e:  # mypyc exits on a type error
                if setting == "1":
                    raise
                note = f"{FALLBACK}mypyc failed ({one_line(e)})"
        say(note)
        BuildPy.note, BuildPy.decided = note, True
    setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPy, "build_ext": BuildExt})


if __name__ == "__main__":  # as pip's build backend (setuptools.build_meta) runs it
    main()
