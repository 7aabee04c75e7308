"""A hostile bot that starts children which would outlive it: one that ignores SIGTERM and one
forked copy of itself, both asleep. It appends ``{"pid", "pgid", "children"}`` as a JSON line
to the file named by its first argument, then plays the first legal action (or, with a second
argument ``hang``, never answers a move)."""

import json
import os
import signal
import subprocess
import sys
import time

info, hang = sys.argv[1], sys.argv[2:] == ["hang"]
stubborn = subprocess.Popen(
    [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
     "print('up', flush=True); time.sleep(60)"],
    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
)  # fmt: skip
assert stubborn.stdout is not None
stubborn.stdout.readline()  # its SIGTERM handler is in place
forked = os.fork()
if forked == 0:  # the copy sleeps, holding the pipes
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    time.sleep(60)
    os._exit(0)
with open(info, "a", encoding="utf-8") as f:
    f.write(json.dumps({"pid": os.getpid(), "pgid": os.getpgid(0),
                        "children": [stubborn.pid, forked]}) + "\n")  # fmt: skip
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "forker"}), flush=True)
    elif kind == "act":
        if hang:
            time.sleep(120)
        print(json.dumps({"action": message["legal"][0]}), flush=True)
    elif kind == "quit":
        break
