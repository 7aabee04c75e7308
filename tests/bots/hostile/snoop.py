"""A hostile bot that reads the arena's ``--records`` folder at its first move, looking for the
record of a game dealt the hand it holds (another seating of its own deal would tell it every
other hand); see ``_learn.py`` for what it reports.

Its arguments: the records folder, then the report file."""

import json
import sys
from pathlib import Path
from typing import Any

from _learn import Deal, Guess, hand_of, play

from bonepile.record import start_of


def guess_in(folder: Path) -> Guess:
    def guess(start: dict[str, Any], view: dict[str, Any]) -> tuple[int, list[Deal]]:
        seat, players = start["seat"], start["players"]
        mine = hand_of(view["hand"])
        tried, deals = 0, []
        for path in sorted(folder.glob("*.json")):
            tried += 1
            try:
                state = start_of(json.loads(path.read_text(encoding="utf-8")))[0]
            except (OSError, ValueError):
                continue
            if state.players == players and hand_of(state.hand(seat)) == mine:
                deals.append([hand_of(state.hand(s)) for s in range(players)])
        return tried, deals

    return guess


if __name__ == "__main__":
    play(sys.argv[2], guess_in(Path(sys.argv[1])))
