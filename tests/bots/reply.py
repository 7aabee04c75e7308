"""A bot that answers every move with the JSON text given as its first argument
(and "start" with the second argument, if given, instead of a proper "ready")."""

import json
import sys

act_reply = sys.argv[1]
start_reply = sys.argv[2] if len(sys.argv) > 2 else json.dumps({"type": "ready"})
for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "start":
        print(start_reply, flush=True)
    elif kind == "act":
        print(act_reply, flush=True)
    elif kind == "quit":
        break
