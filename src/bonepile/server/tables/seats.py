"""The seats of a table and how it was set up: who sits where, seat tokens and claim codes,
names, and the table's configuration (the game, its options, the clock and the secret match
seed with the seeds of its hands)."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bonepile.errors import BonepileError
from bonepile.match import derive_seed
from bonepile.seeds import random_seed

MAX_NAME = 24
"""Characters a player's name keeps."""
CLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CLAIM_LENGTH = 10
"""A claim code is 10 characters of a 31-letter alphabet: about 49.5 bits. Guessing is held to
a few tries a minute per table and per client (the server's limits), so a code outlives any
table: at 10 tries a minute for a year, the odds of a hit are below one in 10**8."""


class RoomError(BonepileError):
    """A request the room refuses; ``code`` names why (``stale``, ``illegal``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def token_hash(token: str) -> str:
    """What the room keeps of a seat's secret (its SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_claim_code() -> str:
    """A fresh claim code (:data:`CLAIM_LENGTH` characters of :data:`CLAIM_ALPHABET`)."""
    return "".join(secrets.choice(CLAIM_ALPHABET) for _ in range(CLAIM_LENGTH))


def shown_claim(code: str | None) -> str | None:
    """A claim code as shown to its player: in groups of five (``ABCDE-FGHJK``)."""
    if code is None or len(code) <= 6:
        return code
    return "-".join(code[i : i + 5] for i in range(0, len(code), 5))


def typed_claim(text: str) -> str:
    """What a player typed as a claim code, reduced to its letters and digits, upper case."""
    return "".join(c for c in text.upper() if c.isascii() and c.isalnum())[:32]


def clean_text(text: str, limit: int) -> str:
    """``text`` with control characters dropped, spaces collapsed, cut to ``limit``."""
    kept = "".join(
        c if unicodedata.category(c)[0] != "C" else " " for c in unicodedata.normalize("NFC", text)
    )
    return " ".join(kept.split())[:limit]


@dataclass
class Seat:
    """One seat: ``open`` until someone sits, then ``human`` or ``bot`` (``bot`` names the
    agent spec). ``away_bot`` is true while a bot plays for a human, ``away_why`` says why:
    ``gone`` (the player left the page; the seat is theirs again when they come back) or
    ``time`` (their time ran out; they take the seat back when they ask). ``left`` names the
    person who sat here before leaving the table (a bot plays the seat since)."""

    kind: str
    name: str = ""
    bot: str | None = None
    owner: str | None = None
    token: str | None = None
    claim: str | None = None
    away_bot: bool = False
    away_why: str = ""
    left: str = ""
    account: bool = False
    """Whether the person here is signed in (their name is their account's)."""
    left_owner: str | None = None
    """The browser (or account) id of the person who left (never shown: a rated table's end
    counts the seat as theirs)."""
    bank: float | None = None
    connected: int = 0
    gone_since: float | None = None

    def public(self) -> dict[str, Any]:
        """What everyone may know of the seat."""
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "away_bot": self.away_bot,
            "away_why": self.away_why if self.away_bot else "",
            "left": self.left,
            "account": self.account,
            "present": self.kind != "human" or self.connected > 0,
            "bank": None if self.bank is None else round(self.bank, 1),
        }


@dataclass(frozen=True)
class TableConfig:
    """How a table was set up: the game, its options, seats (``"open"`` or an agent spec such
    as ``"ismcts:hard"``), a single hand or a match, the optional clock (seconds in the bank
    and added per move) and the match seed (kept on the server, never sent).

    ``seeds`` says how the hands' seeds come from the match seed: ``2``, one way
    (:func:`bonepile.match.derive_seed`); ``1``, the invertible mix of the tables made before
    (read from their journals, so that they restore as they were played)."""

    game: str
    players: int
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    match: bool
    seed: int
    clock: tuple[float, float] | None = None
    board: Mapping[str, Any] | None = None
    seeds: int = 2
    rated: bool = False
    """Every seat is a signed-in person's, and the end moves their ratings."""

    def hand_seed(self, index: int) -> int:
        """The seed hand ``index`` (from 0) is dealt from, as :attr:`seeds` says."""
        if self.seeds >= 2:
            return derive_seed(self.seed, index)
        return _splitmix(self.seed, index)

    def to_json(self) -> dict[str, Any]:
        """JSON form (stored with the table)."""
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seats": list(self.seats),
            "match": self.match,
            "seed": self.seed,
            "clock": None if self.clock is None else list(self.clock),
            "board": None if self.board is None else dict(self.board),
            "seeds": self.seeds,
            "rated": self.rated,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """Inverse of :meth:`to_json`."""
        clock = data.get("clock")
        return cls(
            game=data["game"],
            players=int(data["players"]),
            options=dict(data.get("options") or {}),
            seats=tuple(data["seats"]),
            match=bool(data["match"]),
            seed=int(data["seed"]),
            clock=None if clock is None else (float(clock[0]), float(clock[1])),
            board=data.get("board"),
            seeds=int(data.get("seeds", 1)),
            rated=bool(data.get("rated", False)),
        )


def _splitmix(seed: int, index: int) -> int:
    """The hand seeds of tables stored before they were derived one way (SplitMix64): kept
    only to restore those tables as they were dealt."""
    mask = (1 << 64) - 1
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return (z ^ (z >> 31)) >> 1


def new_config(
    game: str,
    players: int,
    options: Mapping[str, Any],
    seats: Sequence[str],
    match: bool,
    clock: tuple[float, float] | None = None,
    board: Mapping[str, Any] | None = None,
    rated: bool = False,
) -> TableConfig:
    """A table configuration with a fresh secret match seed."""
    return TableConfig(
        game, players, dict(options), tuple(seats), match, random_seed(), clock, board, rated=rated
    )


__all__ = [
    "CLAIM_ALPHABET",
    "CLAIM_LENGTH",
    "MAX_NAME",
    "RoomError",
    "Seat",
    "TableConfig",
    "clean_text",
    "new_claim_code",
    "new_config",
    "shown_claim",
    "token_hash",
    "typed_claim",
]
