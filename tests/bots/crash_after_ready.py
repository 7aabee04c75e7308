"""A bot that says it is ready, then exits before its first move."""

import json
import sys

for line in sys.stdin:
    if json.loads(line).get("type") == "start":
        print(json.dumps({"type": "ready", "name": "crasher"}), flush=True)
        sys.exit(3)
