"""A hostile bot that dies on ``start`` without a word: it exits with the status given as its
first argument, or with ``kill`` it kills itself with SIGKILL."""

import json
import os
import signal
import sys

for line in sys.stdin:
    if json.loads(line).get("type") == "start":
        if sys.argv[1] == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        sys.exit(int(sys.argv[1]))
