"""A hostile bot whose answer to a move is JSON-looking bytes that are not valid UTF-8."""

import json
import sys

for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "bytes"}), flush=True)
    elif kind == "act":
        sys.stdout.buffer.write(b'{"action": "6-6\xff\xfe\xc3"}\n')
        sys.stdout.flush()
    elif kind == "quit":
        break
