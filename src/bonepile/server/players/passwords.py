"""Passwords: kept only as Argon2id hashes (argon2-cffi), never stored or logged as given.

The parameters are RFC 9106's second recommendation (3 passes over 64 MiB, 4 lanes), about a
tenth of a second on one core: a guess costs an attacker as much. A hash made with older
parameters is replaced at the next sign-in (:func:`needs_rehash`).
"""

from __future__ import annotations

import functools

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from bonepile.errors import BonepileError

PASSWORD_MIN = 8
"""Characters a password has at least."""
PASSWORD_MAX = 256
"""Characters a password has at most (a longer one only costs the server time)."""

HASHER = PasswordHasher(
    time_cost=3, memory_cost=64 * 1024, parallelism=4, hash_len=32, salt_len=16, type=Type.ID
)


class BadPassword(BonepileError):
    """A password too short or too long."""

    code = "bad_password"


def check_password(password: str) -> str:
    """``password`` if it may be chosen, else :class:`BadPassword` saying why."""
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise BadPassword(f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise BadPassword(f"a password has at most {PASSWORD_MAX} characters")
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (with its own random salt), to store."""
    return HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the hash ``stored``. With ``stored`` ``None`` (no such
    account) the same work is done against a hash of nothing anyone chose, and the answer is
    no: an unknown name and a wrong password take the same time."""
    if not isinstance(password, str) or len(password) > PASSWORD_MAX:
        password = ""
    try:
        matched = HASHER.verify(stored if stored is not None else _nobody(), password)
    except (VerificationError, InvalidHashError):
        return False
    return matched and stored is not None


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with other parameters than today's."""
    return HASHER.check_needs_rehash(stored)


@functools.cache
def _nobody() -> str:
    import secrets

    return HASHER.hash(secrets.token_urlsafe(32))


__all__ = [
    "HASHER",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "BadPassword",
    "check_password",
    "hash_password",
    "needs_rehash",
    "verify_password",
]
