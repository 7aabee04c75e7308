"""Write the terminal app's golden screens: ``python tests/golden/make_tui.py``.

Only when the drawing is meant to change; read the new files as a player would first.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from bonepile.tui.screen import render_screen  # noqa: E402
from tui_positions import POSITIONS, frame  # noqa: E402

SIZES = [(80, 24), (160, 50)]

if __name__ == "__main__":
    for name in POSITIONS:
        for w, h in SIZES:
            lines = render_screen(frame(name), w, h).canvas.lines()
            (HERE / "tui" / f"{name}-{w}x{h}.txt").write_text("\n".join(lines) + "\n")
