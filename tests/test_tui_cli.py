"""``bonepile play`` and ``bonepile replay --step`` as commands: bad input gives one line, a
missing Textual says how to install it, and the real command in tmux plays, quits, saves and
resumes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bonepile.match import new_match
from cli_helpers import BONEPILE, bad, run

pytestmark = pytest.mark.system


def test_bad_input_is_one_line() -> None:
    bad(run("play", "nosuchgame"), "nosuchgame")
    bad(run("play", "block", "--seat", "5"), "--seat")
    bad(run("play", "block", "--pace", "-1"), "--pace")
    bad(run("play", "block", "-o", "nope=1"), "nope")
    bad(run("play", "block", "--agents", "wizard"), "wizard")
    bad(run("play"), "needs a GAME")
    bad(run("play", "block", "--join", "http://127.0.0.1:1/t/x"), "--join takes no GAME")
    bad(run("play", "--join", "nonsense"), "not a table's address")


def test_without_a_terminal_it_says_so(tmp_path: Path) -> None:
    bad(run("play", "block", "--save", str(tmp_path / "s.json")), "needs a terminal")
    assert not (tmp_path / "s.json").exists()


def test_resume_without_or_with_a_broken_save(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    bad(run("play", "--resume", "--save", str(missing)), "no saved game")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    bad(run("play", "--resume", "--save", str(broken)))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something else"}))
    bad(run("play", "--resume", "--save", str(other)), "not a saved game")


def test_replay_step_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    bad(run("replay", "-", "--step"), "standard input")
    bad(run("replay", str(tmp_path / "missing.json"), "--step"))


def test_without_textual_it_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['textual'] = None\n"
        "from bonepile.cli import main\n"
        "main(['play', 'block'])\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "pip install 'bonepile[tui]'" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


# ------------------------------------------------------------------------------- tmux
TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (make test installs it: apt-get install tmux)"
)


class Tmux:
    """A private tmux server running one command in an 80x24 pane."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=20
        )
        return out.stdout

    def start(self, command: str, env: dict[str, str]) -> None:
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} {command}; echo EXITED $?; sleep 60"
        self.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", line)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def wait_for(self, text: str, seconds: float = 30) -> str:
        deadline = time.time() + seconds
        while time.time() < deadline:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        for k in keys:
            self.tmux("send-keys", "-t", "play", k)
            time.sleep(0.15)

    def stop(self) -> None:
        self.tmux("kill-server")


@needs_tmux
def test_the_real_command_plays_quits_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "saved.json"
    env = {"BONEPILE_SAVE": str(save), "TERM": "xterm-256color"}
    t = Tmux(f"bonepile-test-{os.getpid()}")
    try:
        t.start(f"{BONEPILE} play block --seed 5 --pace 0 --agents greedy", env)
        t.wait_for("Hand:")
        for _ in range(3):
            t.keys("Right", "a")
            time.sleep(0.4)
            t.keys("p")
        time.sleep(0.5)
        shown = t.wait_for("P0 plays")
        assert "Block dominoes" in shown and "P1 greedy" in shown
        assert "P0 you: 7 tiles" not in shown
        t.keys("q")
        t.wait_for("EXITED 0")
        assert "bonepile play --resume" in t.screen()
        saved = json.loads(save.read_text())
        moves = saved["record"]["hands"][-1]["moves"]
        # the hand the seed deals, led as its rules say (the highest double)
        leads = {str(a) for a in new_match("block", 2, seed=5).current.legal_actions()}
        assert moves[0] in leads and len(moves) >= 2
        t.tmux("kill-session", "-t", "play")
        t.start(f"{BONEPILE} play --resume --pace 0", env)
        again = t.wait_for("Hand:")
        table = [line for line in shown.splitlines() if "[" in line and "Hand:" not in line]
        assert table and all(line in again for line in table[:1])
        t.keys("q")
        t.wait_for("EXITED 0")
    finally:
        t.stop()


@needs_tmux
def test_replay_step_in_tmux(tmp_path: Path) -> None:
    record = tmp_path / "hand.json"
    p = run("watch", "doubles", "-n", "2", "--seed", "3", "--record", str(record))
    assert p.returncode == 0, p.stderr
    t = Tmux(f"bonepile-replay-{os.getpid()}")
    try:
        t.start(f"{BONEPILE} replay {record} --step", {"TERM": "xterm-256color"})
        t.wait_for("position 1 of")
        t.keys("Right", "Right")
        t.wait_for("position 3 of")
        t.keys("Left")
        t.wait_for("position 2 of")
        t.keys("End")
        t.wait_for("Hand over")
        t.keys("q")
        t.wait_for("EXITED 0")
    finally:
        t.stop()
