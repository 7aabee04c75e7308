"""A table of the web server, played from the terminal (``bonepile play --join URL``)."""

from __future__ import annotations

from bonepile.errors import BonepileError


class RemoteTable:
    """A seat (or a spectator's chair) at a table of the web server."""

    @classmethod
    def connect(cls, url: str) -> RemoteTable:
        """Join the table at ``url``."""
        raise BonepileError("--join is not available yet")


__all__ = ["RemoteTable"]
