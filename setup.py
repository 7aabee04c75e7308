"""Build hook: pure Python by default; ``BONEPILE_COMPILE=1`` compiles the rules' hot modules.

The compiled modules (mypyc, from the same typed sources) give identical results about 1.4
times faster. Editable installs stay pure Python, so no stale binary can shadow a source file.
"""

import os

from setuptools import setup

COMPILED_MODULES = [
    "src/bonepile/state.py",
    "src/bonepile/events.py",
    "src/bonepile/layout.py",
    "src/bonepile/rules.py",
    "src/bonepile/games/line.py",
    "src/bonepile/games/super_dominoes.py",
    "src/bonepile/games/doubles.py",
    "src/bonepile/games/double_double.py",
    "src/bonepile/games/double_double_spots.py",
    "src/bonepile/view.py",
    "src/bonepile/agents/base.py",
]

ext_modules = []
if os.environ.get("BONEPILE_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED_MODULES, opt_level="3")

setup(ext_modules=ext_modules)
