"""A bot that answers a move with a well-formed action that is not among the legal ones."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "cheater"}), flush=True)
    elif kind == "act":
        legal = message["legal"]
        wrong = next(a for a in ("draw", "pass", "stop", "0-0", "6-6", "1-0") if a not in legal)
        print(json.dumps({"action": wrong}), flush=True)
    elif kind == "quit":
        break
