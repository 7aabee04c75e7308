"""A well-behaved bot (first legal action) that appends every message it receives, one JSON
line each, to the file named by its first argument."""

import json
import sys

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115
for line in sys.stdin:
    log.write(line if line.endswith("\n") else line + "\n")
    log.flush()
    message = json.loads(line)
    kind = message.get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "recorder"}), flush=True)
    elif kind == "act":
        print(json.dumps({"action": message["legal"][0]}), flush=True)
    elif kind == "quit":
        break
