"""The arena: agents against each other over duplicate deals, with statistics and reports.

>>> from bonepile.arena import run_arena
>>> result = run_arena("block", ["greedy", "random"], games=4, seed=1)
>>> [s.games for s in result.stats]
[8, 8]
"""

from __future__ import annotations

from bonepile.arena.play import GameOutcome, Job, Setup, play_job, schedule, seatings
from bonepile.arena.runner import ArenaResult, check_bots_start, check_setup, run_arena
from bonepile.arena.stats import AgentStats, summarize
from bonepile.arena.tally import Tally

__all__ = [
    "AgentStats",
    "ArenaResult",
    "GameOutcome",
    "Job",
    "Setup",
    "Tally",
    "check_bots_start",
    "check_setup",
    "play_job",
    "run_arena",
    "schedule",
    "seatings",
    "summarize",
]
