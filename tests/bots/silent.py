"""A bot that never answers a move (it sleeps); with the argument ``start`` it does not even
answer the start of a hand."""

import json
import sys
import time

hang_at = "start" if sys.argv[1:] == ["start"] else "act"
for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == hang_at:
        time.sleep(120)
    elif kind == "start":
        print(json.dumps({"type": "ready", "name": "sleeper"}), flush=True)
