"""A hostile bot that answers ``start`` and then never reads its input again."""

import json
import sys
import time

sys.stdin.readline()
print(json.dumps({"type": "ready", "name": "deaf"}), flush=True)
time.sleep(120)
