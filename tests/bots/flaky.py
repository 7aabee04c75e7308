"""A bot that crashes in the middle of its first run and plays properly once restarted.

Its first argument names a file that counts its runs."""

import json
import sys
from pathlib import Path

counter = Path(sys.argv[1])
runs = int(counter.read_text()) if counter.exists() else 0
counter.write_text(str(runs + 1))
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": f"flaky run {runs + 1}"}), flush=True)
    elif kind == "act":
        if runs == 0:
            raise SystemExit("boom")
        print(json.dumps({"action": message["legal"][0]}), flush=True)
    elif kind == "quit":
        break
