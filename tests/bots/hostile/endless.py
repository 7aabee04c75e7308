"""A hostile bot that answers a move with one endless line: ``{"action": "aaaa...`` with no
newline (it stops at 256 MB, so that a host without a bound does not take the machine down)."""

import json
import sys
import time

CHUNK = b"a" * (1 << 16)
for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "endless"}), flush=True)
    elif kind == "act":
        out = sys.stdout.buffer
        try:
            out.write(b'{"action": "')
            for _ in range((256 << 20) // len(CHUNK)):
                out.write(CHUNK)
            out.flush()
        except BrokenPipeError:
            sys.exit(0)
        time.sleep(60)
    elif kind == "quit":
        break
