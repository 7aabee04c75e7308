"""How a hand ended: a typed :class:`Result` instead of sign tricks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from bonepile.errors import WireError, shown

Reason = Literal["domino", "blocked", "victory_total", "last_draw", "board_full"]
"""Why a hand ended (docs/records.md, "The position summary")."""

REASONS: tuple[Reason, ...] = ("domino", "blocked", "victory_total", "last_draw", "board_full")

_KEYS = ("reason", "winners", "points")


class Result:
    """The end of a hand: why it ended, who won (ascending seats), points scored per seat.

    An immutable value (its fields are read-only). JSON: ``{"reason": "domino", "winners": [0],
    "points": [12, 0, 0]}``.
    """

    __slots__ = ("_points", "_reason", "_winners")

    def __init__(self, reason: Reason, winners: tuple[int, ...], points: tuple[int, ...]) -> None:
        self._reason = reason
        self._winners = winners
        self._points = points

    @property
    def reason(self) -> Reason:
        """Why the hand ended (one of :data:`REASONS`)."""
        return self._reason

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won, ascending (empty when nobody did)."""
        return self._winners

    @property
    def points(self) -> tuple[int, ...]:
        """The points each seat scored in the hand."""
        return self._points

    def _values(self) -> tuple[Reason, tuple[int, ...], tuple[int, ...]]:
        return (self._reason, self._winners, self._points)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "Result(reason={!r}, winners={!r}, points={!r})".format(*self._values())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Result, self._values())

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of the position summary."""
        return {"reason": self.reason, "winners": list(self.winners), "points": list(self.points)}

    @classmethod
    def from_json(cls, data: Any) -> Result:
        """Inverse of :meth:`to_json`, checked: ``reason`` one of :data:`REASONS`, ``points``
        a list of integers (one per seat), ``winners`` a list of distinct seats in ascending
        order. Anything else raises :class:`~bonepile.errors.WireError` with one line."""
        if not isinstance(data, Mapping):
            raise WireError(f"result: expected a JSON object, got {shown(data)}")
        for key in data:
            if key not in _KEYS:
                raise WireError(f"result: unknown key {shown(key)} (allowed: {', '.join(_KEYS)})")
        for key in _KEYS:
            if key not in data:
                raise WireError(f"result: missing key {shown(key)}")
        reason = data["reason"]
        if not isinstance(reason, str) or reason not in REASONS:
            raise WireError(
                f"result: reason must be one of {', '.join(REASONS)}, got {shown(reason)}"
            )
        points = _ints(data["points"], "points")
        winners = _ints(data["winners"], "winners")
        if any(not 0 <= w < len(points) for w in winners) or list(winners) != sorted(set(winners)):
            raise WireError(
                f"result: winners must be distinct seats (0 to {len(points) - 1}) in ascending "
                f"order, got {shown(data['winners'])}"
            )
        return cls(reason, winners, points)


def _ints(value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or any(
        isinstance(x, bool) or not isinstance(x, int) for x in value
    ):
        raise WireError(f"result: {key} must be a list of integers, got {shown(value)}")
    return tuple(value)
