"""A bot that answers a move with something that is not JSON."""

import json
import sys

for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "garbage"}), flush=True)
    elif kind == "act":
        print("I play the double six!", flush=True)
    elif kind == "quit":
        break
