"""A grid of character cells with a style each: what every drawing function fills in.

``lines()`` gives the plain text (what the tests compare), ``text()`` a Rich ``Text`` with the
styles (what the app shows). Drawing outside the grid is clipped, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text


@dataclass
class Canvas:
    """``width`` x ``height`` cells, blank to start; ``put`` writes text at a cell."""

    width: int
    height: int
    chars: list[list[str]] = field(init=False)
    styles: list[list[str]] = field(init=False)

    def __post_init__(self) -> None:
        self.width = max(0, self.width)
        self.height = max(0, self.height)
        self.chars = [[" "] * self.width for _ in range(self.height)]
        self.styles = [[""] * self.width for _ in range(self.height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        """Write ``text`` from column ``x`` of row ``y`` (clipped to the grid)."""
        if not 0 <= y < self.height:
            return
        row, srow = self.chars[y], self.styles[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                row[x + i] = ch
                srow[x + i] = style

    def get(self, x: int, y: int) -> str:
        """The character at a cell (a space outside the grid)."""
        if 0 <= y < self.height and 0 <= x < self.width:
            return self.chars[y][x]
        return " "

    def restyle(self, x: int, y: int, width: int, style: str) -> None:
        """Give ``width`` cells from ``(x, y)`` a new style, keeping their characters."""
        if 0 <= y < self.height:
            for i in range(max(0, x), min(self.width, x + width)):
                self.styles[y][i] = style

    def blit(self, other: Canvas, x: int, y: int) -> None:
        """Copy ``other`` with its top-left corner at ``(x, y)`` (clipped)."""
        for j in range(other.height):
            if not 0 <= y + j < self.height:
                continue
            for i in range(other.width):
                if 0 <= x + i < self.width:
                    self.chars[y + j][x + i] = other.chars[j][i]
                    self.styles[y + j][x + i] = other.styles[j][i]

    def used_width(self) -> int:
        """The columns up to the last one with anything drawn in it."""
        used = 0
        for row in self.chars:
            for i in range(len(row) - 1, used - 1, -1):
                if row[i] != " ":
                    used = i + 1
                    break
        return used

    def lines(self) -> list[str]:
        """The rows as plain text, trailing spaces removed."""
        return ["".join(row).rstrip() for row in self.chars]

    def text(self) -> Text:
        """The grid as one Rich ``Text`` (rows joined by newlines) with every style."""
        out = Text(no_wrap=True, overflow="crop")
        for j in range(self.height):
            start = 0
            row, srow = self.chars[j], self.styles[j]
            for i in range(1, self.width + 1):
                if i == self.width or srow[i] != srow[start]:
                    out.append("".join(row[start:i]), style=srow[start] or None)
                    start = i
            if j < self.height - 1:
                out.append("\n")
        return out


__all__ = ["Canvas"]
