#!/usr/bin/env python3
"""An external bonepile bot in one file, with no dependency: it plays the heaviest tile.

It speaks the bonepile-bot/1 protocol (docs/bots.md): one JSON object per line on standard
input, one answer per line on standard output. Run it in the arena with

    bonepile arena block --agents "external:python3 examples/bots/heaviest.py",random

Any language works the same way: read a line, parse the JSON, write a JSON line, flush.
"""

import json
import re
import sys

TILE = re.compile(r"(\d+)\s*[-|:]\s*(\d+)")


def weight(action: str) -> int:
    """The pips of the tile an action places (``6-4@6-6`` -> 10, ``3-6@8G8H`` -> 9)."""
    if action in ("draw", "pass", "stop") or action.startswith("discard"):
        return -1
    m = TILE.match(action)
    return int(m.group(1)) + int(m.group(2)) if m else -1


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            reply = {"type": "ready", "name": "heaviest tile first"}
        elif kind == "act":
            legal = message["legal"]
            reply = {"action": max(legal, key=weight)}
        elif kind == "quit":
            return
        else:  # "hand_over" and anything new: no answer
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
