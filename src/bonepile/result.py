"""How a hand ended: a typed :class:`Result` instead of sign tricks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Reason = Literal["domino", "blocked", "victory_total", "last_draw", "board_full"]
"""Why a hand ended (FORMATS.md section 4)."""

REASONS: tuple[Reason, ...] = ("domino", "blocked", "victory_total", "last_draw", "board_full")


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a hand: why it ended, who won (ascending seats), points scored per seat."""

    reason: Reason
    winners: tuple[int, ...]
    points: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of the position summary."""
        return {"reason": self.reason, "winners": list(self.winners), "points": list(self.points)}

    @classmethod
    def from_json(cls, data: Any) -> Result:
        """Inverse of :meth:`to_json` (no validation beyond types)."""
        return cls(data["reason"], tuple(data["winners"]), tuple(data["points"]))
