"""Seeds for runs of many games, and for the players in them, that give nothing away.

A run (``arena``, ``watch``) has one seed; every deal and every player's own seed comes from
it. Two rules keep a player from learning the deal through its seed:

* :func:`secret_seed` derives seeds through a one-way hash (BLAKE2b), so a player's seed, or a
  deal's seed read from a finished record, tells nothing about the run seed or any other seed
  derived from it (short of guessing the run seed itself);
* :func:`random_seed` draws a full-width run seed from the operating system, the default of the
  commands: a small or published run seed lets anyone who knows a hand search for the run seed.

>>> secret_seed(7, "deal", 0) == secret_seed(7, "deal", 0)
True
>>> secret_seed(7, "deal", 0) != secret_seed(7, "deal", 1)
True
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 63
"""Seeds are non-negative integers below ``2**63`` (they fit a signed 64-bit integer)."""


def random_seed() -> int:
    """A fresh run seed from the operating system's random source (``SEED_BITS`` wide)."""
    return secrets.randbits(SEED_BITS)


def secret_seed(seed: int, *labels: int | str) -> int:
    """The seed named by ``labels`` within a run seeded with ``seed``, by a one-way hash.

    Seeds with different labels are independent for all practical purposes, and none of
    them reveals ``seed``: a bot given ``secret_seed(S, "agent", ...)`` cannot work out
    ``secret_seed(S, "deal", ...)``.
    """
    text = "\x1f".join(["bonepile-seed-v1", str(seed), *(str(x) for x in labels)])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


__all__ = ["SEED_BITS", "random_seed", "secret_seed"]
