"""External bots: a program in any language that plays through a JSON-lines protocol.

Like a chess engine speaking UCI, an external bot reads one JSON object per line on its
standard input and answers on its standard output (docs/bots.md has the whole protocol):

* ``{"type": "start", "protocol": "bonepile-bot/1", "game", "options", "players", "seat",
  "seed", "scores_before", "move_time"}`` when a hand begins (``move_time``: the seconds the
  bot has for each decision); the bot answers ``{"type": "ready", "name": "..."}``;
* ``{"type": "act", "view": {...}, "legal": ["6-4@6-6", ...]}`` when it must act; the bot
  answers ``{"action": "6-4@6-6"}`` with one of the legal actions;
* ``{"type": "hand_over", "view": {...}}`` when the hand ends (no answer);
* ``{"type": "quit"}`` when bonepile is done with it (no answer; the bot should exit).

The view is the seat's :class:`~bonepile.view.View` as JSON, so a bot never receives hidden
information. A bot that crashes, exits, answers garbage (not UTF-8, not JSON, a line over
:data:`MAX_LINE` bytes), answers an illegal action, stops reading its input or takes longer
than its time limit **forfeits**: :class:`AgentForfeit` says who and why (on one short line),
the process is stopped, and the next hand starts it afresh. What a bot writes on its standard
error is read as it comes and only its last lines are kept (:data:`STDERR_KEPT` bytes): a bot
that exits has its last words quoted in the reason, and one that exits before it ever answered
``start`` raises :class:`BotStartError`, which quotes them at more length
(:meth:`ExternalAgent.check_start` makes sure of that before a run).

A hostile bot cannot hurt the host: each bot runs in a session (process group) of its own,
and stopping it ends the whole group, first with SIGTERM and then, after
:data:`KILL_GRACE` seconds, with SIGKILL, so nothing it started outlives it; reads and writes
never block past the time limit, and an answer is read at most :data:`MAX_LINE` bytes at a
time. :func:`close_all_bots` ends every bot still running; it runs at exit (``atexit``), and a
SIGTERM handler may call it too. Process groups need a POSIX system.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import os
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, NoReturn

from bonepile.actions import Action, parse_action
from bonepile.errors import BonepileError, OptionError, quoted, shown
from bonepile.options import options_to_json
from bonepile.view import View

PROTOCOL = "bonepile-bot/1"
"""The protocol name sent in every ``start`` message."""

MAX_LINE = 1 << 20
"""The longest answer line a bot may write, in bytes (not counting the newline)."""

MOVE_TIMEOUT = 10.0
"""The default time limit of a decision, in seconds."""

START_TIMEOUT = 10.0
"""The default time limit for answering ``start`` (which includes the program's start-up)."""

QUIT_GRACE = 3.0
"""Seconds a bot has to exit by itself after ``quit`` before it is ended (a busy machine can
keep a well-behaved bot from reading its last messages for a while)."""

KILL_GRACE = 0.5
"""Seconds between SIGTERM and SIGKILL when a bot's process group is ended."""

STDERR_KEPT = 4096
"""The most bytes of a bot's standard error kept (its last ones): a bot that writes endlessly
there uses no more memory than that."""

STDERR_LINES = 3
"""The lines of a bot's standard error a :class:`BotStartError` quotes (its last ones)."""

STDERR_WIDTH = 100
"""The most characters quoted of each line of a bot's standard error (its start)."""

_CHUNK = 1 << 16  # bytes read from a bot at a time
_TICK = 0.05  # seconds between checks that the bot is still running, while waiting on it

_LIVE: dict[int, subprocess.Popen[bytes]] = {}
"""Every bot process started and not yet ended, by process id (= its process group id)."""


class AgentForfeit(Exception):
    """An agent lost its hand by crashing, hanging or answering wrongly."""

    def __init__(self, seat: int | None, reason: str) -> None:
        super().__init__(f"P{seat} forfeits: {reason}")
        self.seat = seat
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:  # it crosses from worker processes
        return (type(self), (self.seat, self.reason))


class BotStartError(AgentForfeit):
    """A bot that failed before it ever answered ``start``: it cannot play at all (its
    program exits at once, or answers its first ``start`` wrongly or not in time).

    ``stderr`` holds the last :data:`STDERR_LINES` lines the bot wrote on its standard error
    (each made printable and cut to :data:`STDERR_WIDTH` characters, joined by `` | ``; empty
    if it wrote nothing there, ``None`` if its program never ran)."""

    def __init__(self, seat: int | None, reason: str, stderr: str | None = None) -> None:
        super().__init__(seat, reason)
        self.stderr = stderr

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.seat, self.reason, self.stderr))

    def message(self, name: str) -> str:
        """One line saying that the bot ``name`` cannot start, why, and what it last wrote
        on its standard error."""
        if self.stderr is None:  # the program never ran: the reason says why
            return f"{name}: {self.reason}"
        said = (
            f"its standard error ended: {self.stderr}"
            if self.stderr
            else "it wrote nothing on its standard error"
        )
        return f"{name} cannot start: {self.reason}; {said}"


def check_command(command: Sequence[str]) -> None:
    """Raise :class:`~bonepile.errors.OptionError` (one line) unless ``command``'s program
    exists and is executable: a path is checked as it is, a bare name is looked up on
    ``PATH``. The bot is not started."""
    if not command or not command[0]:
        raise OptionError("external needs a command: external:python3 my_bot.py")
    program = command[0]
    if os.sep in program or (os.altsep is not None and os.altsep in program):
        if not os.path.exists(program):
            raise OptionError(f"external: cannot start {quoted(program)}: no such file")
        if os.path.isdir(program):
            raise OptionError(f"external: cannot start {quoted(program)}: it is a directory")
        if not os.access(program, os.X_OK):
            raise OptionError(f"external: cannot start {quoted(program)}: it is not executable")
    elif shutil.which(program) is None:
        raise OptionError(f"external: cannot start {quoted(program)}: no such program on the PATH")


def close_all_bots() -> None:
    """End every external bot still running, with all the processes each one started
    (SIGTERM to each bot's process group, SIGKILL after :data:`KILL_GRACE` seconds).

    It runs at interpreter exit (``atexit``); a SIGTERM handler should raise ``SystemExit``
    (so that ``finally`` blocks and this run) or may call it directly. Agents whose bot it
    ended forfeit if they are asked to act again."""
    procs = list(_LIVE.values())
    for proc in procs:
        _signal_group(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + KILL_GRACE
    for proc in procs:
        _end_group(proc, deadline)


atexit.register(close_all_bots)
if hasattr(os, "register_at_fork"):  # a forked child must not end its parent's bots
    os.register_at_fork(after_in_child=_LIVE.clear)


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to a process group; whether the group existed."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member we may not signal: the group exists
        return True
    return True


def _group_alive(pgid: int) -> bool:
    """Whether any process of group ``pgid`` still runs (zombies, exited but not yet
    reaped, do not count when ``/proc`` can tell)."""
    if not _signal_group(pgid, 0):
        return False
    try:
        names = os.listdir("/proc")
    except OSError:
        return True
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()  # after "pid (comm) "
        if len(fields) > 2 and fields[2] == str(pgid).encode() and fields[0] != b"Z":
            return True
    return False


def _end_group(proc: subprocess.Popen[bytes], deadline: float) -> None:
    """End a bot's process group (already sent SIGTERM): wait until ``deadline`` for it to
    go, SIGKILL what is left, reap the bot and close its pipes. Safe to repeat, and safe in a
    signal handler (it never waits on a lock)."""
    pgid = proc.pid
    while time.monotonic() < deadline:
        if proc.poll() is not None and not _group_alive(pgid):
            break
        time.sleep(0.01)
    else:
        _signal_group(pgid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=KILL_GRACE)
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()
    _LIVE.pop(pgid, None)


def _ready(fd: int, write: bool, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for ``fd`` to be readable (or ``write``-able); whether
    it is (end of file and a closed reader count as ready)."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLOUT if write else select.POLLIN)
        return bool(poller.poll(max(0, math.ceil(timeout * 1000))))
    lists: tuple[list[int], list[int]] = ([], [fd]) if write else ([fd], [])
    readable, writable, _ = select.select(*lists, [], timeout)
    return bool(readable or writable)


def _exit_reason(returncode: int) -> str:
    """Why the bot is gone, from its exit status."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"it exited, killed by {name}"
    return f"it exited with status {returncode}"


class _Tail:
    """The last :data:`STDERR_KEPT` bytes a bot writes on its standard error, read by a thread
    of its own as they come (so a bot that writes a lot there never blocks). The thread owns
    the pipe and closes it at its end of file, once every process of the bot is gone."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self._data = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(
            target=self._drain, args=(pipe,), name="bonepile-bot-stderr", daemon=True
        )
        self._thread.start()

    def _drain(self, pipe: IO[bytes]) -> None:
        fd = pipe.fileno()
        try:
            while chunk := os.read(fd, _CHUNK):
                with self._lock:
                    self._data += chunk
                    del self._data[:-STDERR_KEPT]
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                pipe.close()

    def lines(self, count: int, wait: float = 0.0) -> list[str]:
        """Its last ``count`` non-blank lines (spaces squeezed; not yet made printable),
        waiting up to ``wait`` seconds for the end of what it wrote (the bot may have just
        exited)."""
        self._thread.join(wait)
        with self._lock:
            text = self._data.decode("utf-8", "replace")
        found = [" ".join(line.split()) for line in text.splitlines()]
        return [line for line in found if line][-count:]


def _printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (no escape sequences)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _cut(text: str, limit: int) -> str:
    """``text``, cut to at most ``limit`` characters (the start of a line says most)."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class ExternalAgent:
    """Plays through a child process speaking the bot protocol (see the module docstring).

    ``move_timeout`` and ``start_timeout`` are in seconds. The process starts when the bot
    first plays, and :meth:`close` ends it (with everything it started). Until the bot has
    once answered ``start`` with ``ready``, a failure raises :class:`BotStartError`.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        seed: int = 0,
        move_timeout: float = MOVE_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        self.command = list(command)
        self.seed = seed
        self.move_timeout = move_timeout
        self.start_timeout = start_timeout
        self.name = "external:" + (self.command[-1].rsplit("/", 1)[-1] if self.command else "?")
        self.bot_name: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._seat: int | None = None
        self._in_hand = False
        self._tail: _Tail | None = None
        self._starting = False
        self._ever_ready = False

    # ----------------------------------------------------------------- the process
    def _spawn(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own process group, ended as a whole
            )
        except (OSError, ValueError) as e:
            what = getattr(e, "strerror", None) or str(e)
            self._fail(f"cannot start {quoted(' '.join(self.command))}: {what}")
        _LIVE[proc.pid] = proc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._buffer = bytearray()
        self._proc = proc
        self._tail = _Tail(proc.stderr)
        return proc

    def _gone(self, proc: subprocess.Popen[bytes]) -> str | None:
        """Why the bot can no longer play, if its process has exited."""
        code = proc.poll()
        return None if code is None else _exit_reason(code)

    def _send(self, message: dict[str, Any], timeout: float) -> None:
        """Write one message, or forfeit if the bot does not take it within ``timeout``."""
        proc = self._proc or self._spawn()
        if proc.pid not in _LIVE:  # ended by close_all_bots
            self._fail(self._gone(proc) or "it was stopped")
        assert proc.stdin is not None
        data = memoryview((json.dumps(message) + "\n").encode())
        fd = proc.stdin.fileno()
        deadline = time.monotonic() + timeout
        while data:
            try:
                written = os.write(fd, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError, ValueError):
                self._fail(self._gone_soon(proc) or "it stopped reading its input")
            data = data[written:]
            if not data:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(f"it did not read its input within {timeout:g} s")
            if not _ready(fd, True, min(left, _TICK)) and (why := self._gone(proc)):
                self._fail(why)

    def _gone_soon(self, proc: subprocess.Popen[bytes]) -> str | None:
        """Why the bot is gone, waiting a moment for its exit status (after its pipe broke)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.5)
        return self._gone(proc)

    def _receive(self, timeout: float) -> dict[str, Any]:
        """Read one answer (a JSON object on one line), or forfeit."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        buffer = self._buffer
        deadline = time.monotonic() + timeout
        exited: str | None = None  # once set, only what it wrote before exiting is read
        while True:
            end = buffer.find(b"\n", 0, MAX_LINE + 1)
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                break
            if len(buffer) > MAX_LINE:
                self._fail(f"answer too long (over {MAX_LINE} bytes)")
            wait = 0.0
            if exited is None:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    self._fail(f"no answer within {timeout:g} s")
            if not _ready(fd, False, min(wait, _TICK)):
                if exited is not None:
                    self._fail(exited)
                exited = self._gone(proc)
                continue
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                chunk = None
            except OSError as e:
                self._fail(f"its output cannot be read: {e.strerror or e}")
            if chunk == b"":  # end of output: it exited (or closed its output)
                self._fail(exited or self._gone_soon(proc) or "it closed its output")
            if chunk:
                buffer += chunk
            elif exited is not None:
                self._fail(exited)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            self._fail("its answer is not valid UTF-8")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            self._fail(f"its answer is not JSON: {quoted(text.strip())}")
        if not isinstance(data, dict):
            self._fail(f"its answer is not a JSON object: {quoted(text.strip())}")
        return data

    def _fail(self, reason: str) -> NoReturn:
        """Stop the bot and forfeit: a :class:`BotStartError` if it never answered ``start``;
        otherwise, when it had exited by itself, the reason quotes its last line of standard
        error."""
        proc, tail = self._proc, self._tail
        exited = proc is not None and proc.poll() is not None
        self._stop(polite=False)  # its whole group ended: its standard error comes to an end
        if self._starting and not self._ever_ready:
            said = None
            if tail is not None:
                lines = tail.lines(STDERR_LINES, wait=KILL_GRACE)
                said = " | ".join(_cut(_printable(line), STDERR_WIDTH) for line in lines)
            raise BotStartError(self._seat, reason, said)
        if exited and tail is not None and (last := tail.lines(1, wait=KILL_GRACE)):
            reason = f"{reason}; its standard error ended: {quoted(last[0], STDERR_WIDTH)}"
        raise AgentForfeit(self._seat, reason)

    def _stop(self, polite: bool) -> None:
        """End the bot's process group: with ``polite``, ``quit`` first and a moment to exit."""
        proc = self._proc
        self._proc = None
        self._tail = None
        self._in_hand = False
        self._buffer = bytearray()
        if proc is None or proc.pid not in _LIVE:  # never started, or ended already
            return
        if polite and proc.poll() is None:
            assert proc.stdin is not None
            with contextlib.suppress(OSError, ValueError):
                os.write(proc.stdin.fileno(), json.dumps({"type": "quit"}).encode() + b"\n")
            with contextlib.suppress(OSError):
                proc.stdin.close()  # end of input tells it to stop as well
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=QUIT_GRACE)
        _signal_group(proc.pid, signal.SIGTERM)
        _end_group(proc, time.monotonic() + KILL_GRACE)

    def close(self) -> None:
        """Stop the bot (``quit`` first, then its whole process group)."""
        self._stop(polite=True)

    # ----------------------------------------------------------------- the agent
    def check_start(self, view: View) -> None:
        """Start the bot as for the hand of ``view`` and stop it again (``start``, then
        ``quit``): a check, before a run, that it can play at all. :class:`BotStartError`
        (for a bot that never started before) says why not."""
        try:
            self.start(view)
        finally:
            self.close()

    def start(self, view: View) -> None:
        """Tell the bot a hand begins (sent before its first decision of every hand)."""
        self._starting = True
        try:
            self._start(view)
        finally:
            self._starting = False

    def _start(self, view: View) -> None:
        self._seat = view.seat
        message = {
            "type": "start",
            "protocol": PROTOCOL,
            "game": view.game,
            "options": options_to_json(view.options),
            "players": view.players,
            "seat": view.seat,
            "seed": self.seed,
            "scores_before": list(view.scores_before),
            "move_time": self.move_timeout,
        }
        self._send(message, self.start_timeout)
        reply = self._receive(self.start_timeout)
        if reply.get("type") != "ready":
            self._fail(f'it answered start with {shown(reply)} instead of "ready"')
        name = reply.get("name")
        if isinstance(name, str):  # shown nowhere raw: one short printable line
            self.bot_name = "".join(c if c.isprintable() else "?" for c in name[:100])
        else:
            self.bot_name = None
        self._in_hand = True
        self._ever_ready = True

    def act(self, view: View) -> Action:
        """The bot's answer to ``view`` (one of ``view.legal``), or :class:`AgentForfeit`."""
        if self._proc is None or not self._in_hand:
            self.start(view)
        message = {"type": "act", "view": view.to_json(), "legal": [str(a) for a in view.legal]}
        self._send(message, self.move_timeout)
        reply = self._receive(self.move_timeout)
        text = reply.get("action")
        if not isinstance(text, str):
            self._fail(f'its answer has no "action" string: {shown(reply)}')
        try:
            action = parse_action(text)
        except BonepileError:
            self._fail(f"{quoted(text, 40)} is not an action")
        if action not in view.legal:
            self._fail(f"{quoted(text, 40)} is not legal here")
        return action

    def finish(self, view: View) -> None:
        """Tell the bot the hand is over (with every hand shown)."""
        if self._proc is not None and self._in_hand:
            self._send({"type": "hand_over", "view": view.to_json()}, self.move_timeout)
        self._in_hand = False

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown
            self._stop(polite=False)


__all__ = [
    "KILL_GRACE",
    "MAX_LINE",
    "MOVE_TIMEOUT",
    "PROTOCOL",
    "START_TIMEOUT",
    "STDERR_KEPT",
    "STDERR_LINES",
    "STDERR_WIDTH",
    "AgentForfeit",
    "BotStartError",
    "ExternalAgent",
    "check_command",
    "close_all_bots",
]
