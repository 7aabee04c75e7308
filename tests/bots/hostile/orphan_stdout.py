"""A hostile bot that, asked to move, starts a child that keeps its standard output open (a
sleeping process that inherits it), appends the child's pid to the file named by its first
argument, and exits with status 5 without answering."""

import json
import subprocess
import sys

for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "start":
        print(json.dumps({"type": "ready", "name": "orphan maker"}), flush=True)
    elif kind == "act":
        child = subprocess.Popen(["sleep", "30"], stdin=subprocess.DEVNULL)  # stdout inherited
        with open(sys.argv[1], "a", encoding="utf-8") as f:
            f.write(f"{child.pid}\n")
        sys.exit(5)
