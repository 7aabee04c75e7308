"""External bots: a program in any language that plays through a JSON-lines protocol.

Like a chess engine speaking UCI, an external bot reads one JSON object per line on its
standard input and answers on its standard output (docs/bots.md has the whole protocol):

* ``{"type": "start", "protocol": "bonepile-bot/1", "game", "options", "players", "seat",
  "seed"}`` when a hand begins; the bot answers ``{"type": "ready", "name": "..."}``;
* ``{"type": "act", "view": {...}, "legal": ["6-4@6-6", ...]}`` when it must act; the bot
  answers ``{"action": "6-4@6-6"}`` with one of the legal actions;
* ``{"type": "hand_over", "view": {...}}`` when the hand ends (no answer);
* ``{"type": "quit"}`` when bonepile is done with it (no answer; the bot should exit).

The view is the seat's :class:`~bonepile.view.View` as JSON, so a bot never receives hidden
information. A bot that crashes, answers garbage, answers an illegal action or takes longer
than its time limit **forfeits**: :class:`AgentForfeit` says who and why, the process is
stopped, and the next hand starts it afresh.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import threading
from collections.abc import Sequence
from typing import Any, NoReturn

from bonepile.actions import Action, parse_action
from bonepile.errors import BonepileError
from bonepile.options import options_to_json
from bonepile.view import View

PROTOCOL = "bonepile-bot/1"
"""The protocol name sent in every ``start`` message."""


class AgentForfeit(Exception):
    """An agent lost its hand by crashing, hanging or answering wrongly."""

    def __init__(self, seat: int | None, reason: str) -> None:
        super().__init__(f"P{seat} forfeits: {reason}")
        self.seat = seat
        self.reason = reason


class ExternalAgent:
    """Plays through a child process speaking the bot protocol (see the module docstring).

    ``move_timeout`` and ``start_timeout`` are in seconds.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        seed: int = 0,
        move_timeout: float = 10.0,
        start_timeout: float = 10.0,
    ) -> None:
        self.command = list(command)
        self.seed = seed
        self.move_timeout = move_timeout
        self.start_timeout = start_timeout
        self.name = "external:" + (self.command[-1].rsplit("/", 1)[-1] if self.command else "?")
        self.bot_name: str | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._seat: int | None = None
        self._in_hand = False

    # ----------------------------------------------------------------- the process
    def _spawn(self) -> subprocess.Popen[str]:
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise AgentForfeit(self._seat, f"cannot start {' '.join(self.command)}: {e}") from None
        self._lines = queue.Queue()
        lines = self._lines
        stdout = proc.stdout
        assert stdout is not None

        def pump() -> None:
            for line in stdout:
                lines.put(line)
            lines.put(None)  # end of output: the bot exited

        threading.Thread(target=pump, daemon=True).start()
        self._proc = proc
        return proc

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc or self._spawn()
        try:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._fail("it stopped reading (crashed or exited)")

    def _receive(self, timeout: float) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self._fail(f"no answer within {timeout:g} s")
        if line is None:
            self._fail("it exited (crashed or closed its output)")
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, RecursionError, ValueError):
            self._fail(f"its answer is not JSON: {line.strip()[:60]!r}")
        if not isinstance(data, dict):
            self._fail(f"its answer is not a JSON object: {line.strip()[:60]!r}")
        return data

    def _fail(self, reason: str) -> NoReturn:
        self.close()
        raise AgentForfeit(self._seat, reason)

    def close(self) -> None:
        """Stop the bot process (politely first)."""
        proc = self._proc
        self._proc = None
        self._in_hand = False
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
                proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    # ----------------------------------------------------------------- the agent
    def start(self, view: View) -> None:
        """Tell the bot a hand begins (sent before its first decision of every hand)."""
        self._seat = view.seat
        self._send(
            {
                "type": "start",
                "protocol": PROTOCOL,
                "game": view.game,
                "options": options_to_json(view.options),
                "players": view.players,
                "seat": view.seat,
                "seed": self.seed,
                "scores_before": list(view.scores_before),
            }
        )
        reply = self._receive(self.start_timeout)
        if reply.get("type") != "ready":
            self._fail(f'it answered start with {json.dumps(reply)[:60]} instead of "ready"')
        name = reply.get("name")
        self.bot_name = name if isinstance(name, str) else None
        self._in_hand = True

    def act(self, view: View) -> Action:
        if self._proc is None or not self._in_hand:
            self.start(view)
        self._send({"type": "act", "view": view.to_json(), "legal": [str(a) for a in view.legal]})
        reply = self._receive(self.move_timeout)
        text = reply.get("action")
        if not isinstance(text, str):
            self._fail(f'its answer has no "action" string: {json.dumps(reply)[:60]}')
        try:
            action = parse_action(text)
        except BonepileError:
            self._fail(f"{text[:40]!r} is not an action")
        if action not in view.legal:
            self._fail(f"{text[:40]!r} is not legal here")
        return action

    def finish(self, view: View) -> None:
        """Tell the bot the hand is over (with every hand shown)."""
        if self._proc is not None and self._in_hand:
            self._send({"type": "hand_over", "view": view.to_json()})
        self._in_hand = False

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown
            self.close()
