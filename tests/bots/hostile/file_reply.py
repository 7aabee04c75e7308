"""A bot that answers every move with the bytes of the file named by its first argument and a
newline (for answers too long for a command line)."""

import json
import sys
from pathlib import Path

answer = Path(sys.argv[1]).read_bytes() + b"\n"
for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "file"}), flush=True)
    elif kind == "act":
        sys.stdout.buffer.write(answer)
        sys.stdout.flush()
    elif kind == "quit":
        break
