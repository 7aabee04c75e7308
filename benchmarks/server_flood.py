"""A person's table while others flood the server: table creation, analyses, bots-only matches.

It starts ``bonepile serve`` (its defaults: ``--bot-pace 0.8``, the default limits, SQLite in a
fresh data folder, ``--host 127.0.0.1``) and runs two phases of ``--seconds`` each (default 40):

- **idle**: only the person. From 127.0.0.2 (all of 127/8 is loopback on Linux), it makes a
  block table against the hard search bot (``["me", "ismcts:hard"]``), says hello on its socket
  and plays a random legal move whenever it is its turn, after a think of 0.3 to 0.6 s; when
  a hand ends it asks for a rematch and carries on at the new table.
- **flood**: the same person, while an attacker process (its own event loop, so that its work
  never delays the person's clock readings) floods the server from other loopback addresses
  (127.0.0.1, 127.0.0.3, ...; ``--addresses``), with a fresh cookie on every request:
  ``--creators`` loops POST ``/api/tables`` as fast as they are answered, alternately a table
  with an open seat and a bots-only match (``target_score`` 500); every bots-only table made is
  watched by a spectator socket (bots-only tables play only while watched) up to ``--watch``
  sockets; ``--analysts`` loops ask for ``/api/replays/{id}/analysis?ply=N&level=hard`` of
  finished hands (those of the idle phase; if there are none, one bots-only hand is watched to
  its end first). A 429 or 503 is retried at once, Retry-After or not: that is the flood. The
  flood starts ``--ramp`` seconds before the person's clock does.

For each phase it reports the person's moves, the **acknowledgement latency** (from sending a
move to receiving its ``ack``: p50, p95, p99 in ms) and the **bot's move time** (from the first
sign that the person's move was taken, its state or its ack, to the first state in which the
bot's seat has moved: p50, p95 in s; the server paces a bot at a table with a person to at
least 0.8 s after the move before it, so an idle server shows about 0.8 s), and the CPU
seconds used by the server's event-loop thread, its other threads (the database writer, the
threads reads run in), its bot workers (the people's pool, nice 0) and its background worker
(analyses and bots-only tables, nice 10), by the clients, and by the rest of the machine
(``machine_others_s``: more than a second or two means something else ran meanwhile, and the
figures are not the server's alone). For the flood it adds the attackers' counts (tables made,
refused with 429 or 503, analyses answered and refused, bots-only tables watched and the states
their sockets got). Then the flood/idle ratios of the ack p95 and the bot move time p50 and p95,
and whether all three are within 2x (``met``). One JSON object on stdout.

The attacker shares the machine's CPUs with the server. By default it runs at normal priority
(the harsher test: its client work competes with the server's threads);
``--attacker-priority idle`` runs it under Linux's SCHED_IDLE, on CPU time nothing else wants,
closer to an attacker on another machine. A phase gives about 30 acknowledgements, so the p95 is
the second slowest of them: expect ratios to move by a third or more between runs, and use a
longer ``--seconds`` to compare two servers.

Everything is on loopback, bounded in time (each phase, every request by a timeout) and in
sockets (at most ``--watch`` spectators, below 200 in all).

Run: ``.venv/bin/python benchmarks/server_flood.py [--seconds 40] [--attacker-priority idle]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

BONEPILE = Path(sys.executable).with_name("bonepile")
PERSON = "127.0.0.2"
"""The person's source address: its own, so that no limit of an attacker's address is its."""
OPEN_TABLE = {"game": "block", "seats": ["me", "open"]}
BOTS_MATCH = {
    "game": "block",
    "seats": ["ismcts:hard", "ismcts:hard"],
    "match": True,
    "options": {"target_score": 500},
}
TARGET = "ack p95 and bot move time within 2x of idle"
CLK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------- processes
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _stat(path: str) -> list[str]:
    """The fields of a /proc stat file after the command name (field 3 is index 0)."""
    return Path(path).read_text().rsplit(")", 1)[1].split()


def cpu_s(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` and its threads have used."""
    fields = _stat(f"/proc/{pid}/stat")
    return (int(fields[11]) + int(fields[12])) / CLK


def threads_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of ``pid``."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            fields = _stat(f"{task}/stat")
            out[int(task.name)] = (int(fields[11]) + int(fields[12])) / CLK
    return out


def children(pid: int) -> dict[int, tuple[str, float]]:
    """The processes ``pid`` started, each as (kind, CPU seconds): ``bots`` (a worker at the
    server's priority: the people's bots), ``background`` (a worker at a lower one: analyses and
    bots-only tables) or ``other`` (multiprocessing's helpers)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(f"{entry}/stat")
            if int(fields[1]) != pid:
                continue
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        cpu = (int(fields[11]) + int(fields[12])) / CLK
        if b"spawn_main" not in cmd:
            kind = "other"
        else:
            kind = "background" if int(fields[16]) > 0 else "bots"
        out[int(entry.name)] = (kind, cpu)
    return out


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) jiffies of every CPU of the machine."""
    values = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    return total - idle, total


@dataclass
class Usage:
    """CPU use at one moment, of the server (by thread and worker) and of the clients."""

    server: int
    attacker: int | None = None
    threads: dict[int, float] = field(default_factory=dict)
    workers: dict[int, tuple[str, float]] = field(default_factory=dict)
    me: float = 0.0
    attacker_cpu: float = 0.0
    machine: tuple[int, int] = (0, 0)
    at: float = 0.0

    @classmethod
    def now(cls, server: int, attacker: int | None = None) -> Usage:
        u = cls(server, attacker)
        u.threads = threads_cpu(server)
        u.workers = children(server)
        u.me = time.process_time()
        if attacker is not None:
            with contextlib.suppress(OSError):
                u.attacker_cpu = cpu_s(attacker)
        u.machine = machine_jiffies()
        u.at = time.monotonic()
        return u

    def since(self, start: Usage) -> dict[str, Any]:
        """CPU seconds used from ``start`` to this moment."""
        wall = self.at - start.at
        threads = {t: c - start.threads.get(t, 0.0) for t, c in self.threads.items()}
        loop = threads.pop(self.server, 0.0)
        kinds: dict[str, float] = {"bots": 0.0, "background": 0.0, "other": 0.0}
        for pid, (kind, c) in self.workers.items():
            kinds[kind] += c - start.workers.get(pid, (kind, 0.0))[1]
        busy = self.machine[0] - start.machine[0]
        total = max(1, self.machine[1] - start.machine[1])
        out: dict[str, Any] = {
            "wall_s": round(wall, 1),
            "server_event_loop_s": round(loop, 2),
            "server_other_threads_s": round(sum(threads.values()), 2),
            "server_busiest_other_thread_s": round(max(threads.values(), default=0.0), 2),
            "bot_workers_s": round(kinds["bots"], 2),
            "background_worker_s": round(kinds["background"], 2),
            "person_client_s": round(self.me - start.me, 2),
            "machine_busy": round(busy / total, 3),
        }
        attacker = self.attacker_cpu - start.attacker_cpu
        if self.attacker is not None:
            out["attacker_client_s"] = round(attacker, 2)
        ours = loop + sum(threads.values()) + sum(kinds.values()) + self.me - start.me + attacker
        # CPU used by the machine's other processes meanwhile: more than a little means the
        # run was disturbed (a shared machine) and its figures are not the server's
        out["machine_others_s"] = round(max(0.0, busy / CLK - ours), 2)
        return out


def start_server(data: str, port: int, log: Any) -> subprocess.Popen[bytes]:
    # the server's log goes to a file: a pipe nobody reads would fill and stall it
    server = subprocess.Popen(
        [str(BONEPILE), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", data],
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    for _ in range(200):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/games", trust_env=False).status_code == 200:
                return server
        time.sleep(0.1)
    server.terminate()
    raise RuntimeError("the server did not start")


def stop(server: subprocess.Popen[bytes], child: subprocess.Popen[str] | None, log: Path) -> int:
    """End the client process ``child`` (if it still runs) and the server; how many
    tracebacks the server's ``log`` holds."""
    if child is not None and child.poll() is None:
        child.kill()
        child.wait(10)
    server.terminate()
    server.wait(15)
    return log.read_text(errors="replace").count("Traceback")


def last_json(output: str) -> Any:
    """The last line of a client process's ``output``, as JSON (``None`` if it said nothing)."""
    return json.loads(output.strip().splitlines()[-1]) if output.strip() else None


def client(base: str, address: str, timeout: float = 30.0) -> httpx.AsyncClient:
    """An HTTP client whose connections leave from ``address``."""
    return httpx.AsyncClient(
        base_url=base,
        transport=httpx.AsyncHTTPTransport(local_address=address),
        trust_env=False,
        timeout=timeout,
        limits=httpx.Limits(max_connections=4),
    )


def socket_to(base: str, table: str, address: str) -> Any:
    """A table socket whose connection leaves from ``address`` (websockets hands ``local_addr``
    to ``loop.create_connection``)."""
    return websockets.connect(
        f"{base.replace('http://', 'ws://')}/ws/table/{table}",
        local_addr=(address, 0),
        proxy=None,
        compression=None,
        max_size=2**22,
        open_timeout=30,
    )


def hello(token: str | None) -> str:
    return json.dumps({"type": "hello", "token": token, "since": -1, "width": 40, "patches": False})


def pct(values: list[float], p: float, scale: float = 1.0, digits: int = 1) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(p * len(s)))] * scale, digits)


# ---------------------------------------------------------------------------- the person
@dataclass
class Person:
    moves: int = 0
    hands: int = 0
    tables: int = 0
    acks: list[float] = field(default_factory=list)
    bot_moves: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def report(self) -> dict[str, Any]:
        return {
            "moves": self.moves,
            "hands": self.hands,
            "tables": self.tables,
            "ack_ms": {
                "p50": pct(self.acks, 0.50, 1000),
                "p95": pct(self.acks, 0.95, 1000),
                "p99": pct(self.acks, 0.99, 1000),
                "mean": round(1000 * sum(self.acks) / len(self.acks), 1) if self.acks else None,
                "max": round(max(self.acks) * 1000, 1) if self.acks else None,
                "samples": len(self.acks),
            },
            "bot_move_s": {
                "p50": pct(self.bot_moves, 0.50, 1, 3),
                "p95": pct(self.bot_moves, 0.95, 1, 3),
                "max": round(max(self.bot_moves), 3) if self.bot_moves else None,
                "samples": len(self.bot_moves),
            },
            "errors": dict(self.errors),
        }


async def person(base: str, seconds: float) -> Person:
    """Play against the hard bot for ``seconds``, table after table."""
    stats = Person()
    end = time.monotonic() + seconds
    async with client(base, PERSON) as http:
        r = await http.post("/api/tables", json={"game": "block", "seats": ["me", "ismcts:hard"]})
        r.raise_for_status()
        t = r.json()
        table, seat, token = t["id"], t["seat"], t["token"]
        while time.monotonic() < end:
            stats.tables += 1
            following = await play_table(base, table, token, seat, stats, end)
            if following is None:
                break
            r = await http.get(f"/api/tables/{following}")  # the same browser: its seat there
            r.raise_for_status()
            info = r.json()
            table, seat, token = following, info["seat"], info["token"]
    return stats


async def play_table(
    base: str, table: str, token: str, me: int, stats: Person, end: float
) -> str | None:
    """Play the table's hand; the rematch's table id, or ``None`` at the end of the time."""
    rng = random.Random()
    sent: dict[str, float] = {}  # moves waiting for their ack
    waiting: str | None = None  # a move not yet seen in a state
    mark: int | None = None  # the history's length once the move is in
    bot_from: float | None = None
    asked = False
    async with socket_to(base, table, PERSON) as ws:
        await ws.send(hello(token))
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=min(left, 5.0))
            except TimeoutError:
                continue
            now = time.perf_counter()
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ack":
                at = sent.pop(msg["id"], None)
                if at is not None:
                    stats.acks.append(now - at)
                if mark is not None and bot_from is None:
                    bot_from = now
                continue
            if kind == "rematch":
                return str(msg["table"])
            if kind == "error":
                stats.errors[msg["code"]] += 1
                if msg.get("id") is not None and msg["id"] == waiting:
                    sent.pop(msg["id"], None)
                    waiting, mark, bot_from = None, None, None  # refused: a state follows
                continue
            if kind != "state":
                continue
            v = msg["view"]
            history = v["history"]
            if mark is not None and len(history) >= mark:
                waiting = None
                if bot_from is None:
                    bot_from = now
                if any(h["seat"] != me for h in history[mark:]):
                    stats.bot_moves.append(now - bot_from)
                    mark, bot_from = None, None
            if msg["status"] == "over" or v["result"] is not None:
                mark, bot_from, waiting = None, None, None
                if not asked:
                    asked = True
                    stats.hands += 1
                    await ws.send(json.dumps({"type": "rematch"}))
                continue
            if v["legal"] and v["actor"] == me and waiting is None:
                await asyncio.sleep(rng.uniform(0.3, 0.6))
                if time.monotonic() >= end:
                    return None
                stats.moves += 1
                waiting = f"m{stats.moves}"
                mark, bot_from = len(history) + 1, None
                move = {
                    "type": "move",
                    "id": waiting,
                    "v": msg["v"],
                    "action": rng.choice(v["legal"]),
                }
                sent[waiting] = time.perf_counter()
                await ws.send(json.dumps(move))


# ---------------------------------------------------------------------------- finished hands
async def watch_to_end(base: str, limit: float = 120.0) -> None:
    """Make a bots-only hand and watch it until it is over (a finished hand to analyse)."""
    async with client(base, "127.0.0.1") as http:
        r = await http.post(
            "/api/tables", json={"game": "block", "seats": ["ismcts:hard", "ismcts:hard"]}
        )
        r.raise_for_status()
        table = r.json()["id"]
    end = time.monotonic() + limit
    async with socket_to(base, table, "127.0.0.1") as ws:
        await ws.send(hello(None))
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                msg = json.loads(await asyncio.wait_for(ws.recv(), 5.0))
                if msg["type"] == "state" and msg["status"] == "over":
                    return


async def finished_hands(base: str, most: int = 5) -> list[tuple[str, list[int]]]:
    """Up to ``most`` finished hands, each with the plies where someone is to move."""
    async with client(base, "127.0.0.1") as http:
        r = await http.get("/api/replays")
        r.raise_for_status()
        if not r.json():
            await watch_to_end(base)
            r = await http.get("/api/replays")
            r.raise_for_status()
        out = []
        for g in r.json()[:most]:
            frames = (await http.get(f"/api/replays/{g['id']}")).json()["frames"]
            plies = [k for k, f in enumerate(frames) if f["actor"] is not None]
            if plies:
                out.append((str(g["id"]), plies))
        return out


# ---------------------------------------------------------------------------- the attackers
async def attack(cfg: dict[str, Any]) -> dict[str, Any]:
    """The flood, for ``cfg["seconds"]``; its counts."""
    base: str = cfg["base"]
    addresses: list[str] = cfg["addresses"]
    hands: list[tuple[str, list[int]]] = cfg["hands"]
    end = time.monotonic() + cfg["seconds"]
    n: Counter[str] = Counter()
    answered: list[float] = []  # seconds an answered analysis took
    watchers: list[asyncio.Task[None]] = []

    async def spectator(address: str, table: str) -> None:
        try:
            async with socket_to(base, table, address) as ws:
                await ws.send(hello(None))
                n["watched"] += 1
                while time.monotonic() < end:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.recv(), max(0.05, end - time.monotonic()))
                        n["spectator_messages"] += 1
        except (OSError, websockets.WebSocketException, TimeoutError):
            n["spectator_failed"] += 1

    async def creator(k: int) -> None:
        address = addresses[k % len(addresses)]
        made = 0
        async with client(base, address, 10.0) as http:
            while time.monotonic() < end:
                bots = (k + made) % 2 == 1
                http.cookies.clear()  # a fresh browser every time
                try:
                    r = await http.post("/api/tables", json=BOTS_MATCH if bots else OPEN_TABLE)
                except httpx.HTTPError:
                    n["tables_failed"] += 1
                    await asyncio.sleep(0.01)
                    continue
                n[f"tables_{r.status_code}"] += 1
                if r.status_code != 200:
                    continue  # 429 or 503: at once again, that is the flood
                made += 1
                if bots and len(watchers) < cfg["watch"]:
                    where = addresses[len(watchers) % len(addresses)]
                    watchers.append(asyncio.create_task(spectator(where, r.json()["id"])))

    async def analyst(k: int) -> None:
        rng = random.Random(k)
        address = addresses[(k + 1) % len(addresses)]
        async with client(base, address, 60.0) as http:
            while time.monotonic() < end:
                game, plies = rng.choice(hands)
                http.cookies.clear()
                t0 = time.perf_counter()
                try:
                    r = await http.get(
                        f"/api/replays/{game}/analysis",
                        params={"ply": rng.choice(plies), "level": "hard"},
                    )
                except httpx.HTTPError:
                    n["analyses_failed"] += 1
                    await asyncio.sleep(0.01)
                    continue
                n[f"analyses_{r.status_code}"] += 1
                if r.status_code == 200:
                    answered.append(time.perf_counter() - t0)

    loops = [asyncio.create_task(creator(k)) for k in range(cfg["creators"])]
    loops += [asyncio.create_task(analyst(k)) for k in range(cfg["analysts"] if hands else 0)]
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    for task in loops + watchers:
        task.cancel()
    await asyncio.gather(*loops, *watchers, return_exceptions=True)
    tables = {k[7:]: v for k, v in n.items() if k.startswith("tables_")}
    analyses = {k[9:]: v for k, v in n.items() if k.startswith("analyses_")}
    return {
        "addresses": len(addresses),
        "tables": {
            "made": tables.get("200", 0),
            "refused_429": tables.get("429", 0),
            "refused_503": tables.get("503", 0),
            "answers": tables,
            "per_s": round(sum(tables.values()) / cfg["seconds"], 1),
        },
        "analyses": {
            "answered": analyses.get("200", 0),
            "refused_429": analyses.get("429", 0),
            "refused_503": analyses.get("503", 0),
            "answers": analyses,
            "per_s": round(sum(analyses.values()) / cfg["seconds"], 1),
            "answered_s_p50": pct(answered, 0.5, 1, 2),
        },
        "bots_only_watched": n["watched"],
        "spectator_failed": n["spectator_failed"],
        "spectator_messages": n["spectator_messages"],
    }


def attacker_main(cfg: dict[str, Any]) -> int:
    if cfg["priority"] == "idle":
        # run only on CPU time nobody else wants, as an attacker on another machine would
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    print(json.dumps(asyncio.run(attack(cfg))), flush=True)
    return 0


# ---------------------------------------------------------------------------- the phases
def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="each phase")
    parser.add_argument("--ramp", type=float, default=3.0, help="flood before the person plays")
    parser.add_argument("--addresses", type=int, default=8, help="attackers' loopback addresses")
    parser.add_argument("--creators", type=int, default=8, help="table-creation loops")
    parser.add_argument("--analysts", type=int, default=10, help="analysis loops")
    parser.add_argument("--watch", type=int, default=40, help="bots-only tables watched, at most")
    parser.add_argument(
        "--attacker-priority",
        choices=["normal", "idle"],
        default="normal",
        help="the attacker process's CPU priority: normal, or idle (Linux SCHED_IDLE: only CPU "
        "time the server and everything else leave, as if the attacker were another machine)",
    )
    # the attacker process is this script again, with its settings as JSON
    parser.add_argument("--attack-config", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.attack_config:
        return attacker_main(json.loads(args.attack_config))
    if not 5 <= args.seconds <= 600 or not 0 <= args.ramp <= 60:
        parser.error("--seconds: 5..600; --ramp: 0..60")
    if not 1 <= args.addresses <= 100 or not 0 <= args.watch <= 150:
        parser.error("--addresses: 1..100; --watch: 0..150 (sockets stay below 200)")
    if not 0 <= args.creators <= 32 or not 0 <= args.analysts <= 32:
        parser.error("--creators, --analysts: 0..32")
    addresses = ["127.0.0.1"] + [f"127.0.0.{k}" for k in range(3, args.addresses + 2)]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    out: dict[str, Any] = {
        "seconds": args.seconds,
        "bot_pace_s": 0.8,
        "cpu_count": os.cpu_count(),
        "attacker_priority": args.attacker_priority,
    }
    with tempfile.TemporaryDirectory() as data, open(Path(data) / "log", "wb") as log:
        server = start_server(data, port, log)
        attacker: subprocess.Popen[str] | None = None
        try:
            # idle: only the person
            u0 = Usage.now(server.pid)
            idle = asyncio.run(person(base, args.seconds))
            out["idle"] = {"person": idle.report(), "cpu": Usage.now(server.pid).since(u0)}
            print(json.dumps({"idle": out["idle"]}), file=sys.stderr, flush=True)

            # flood: the person again, with the attackers
            hands = asyncio.run(finished_hands(base))
            cfg = {
                "base": base,
                "addresses": addresses,
                "hands": hands,
                "seconds": args.ramp + args.seconds + 1.0,
                "creators": args.creators,
                "analysts": args.analysts,
                "watch": args.watch,
                "priority": args.attacker_priority,
            }
            attacker = subprocess.Popen(
                [sys.executable, __file__, "--attack-config", json.dumps(cfg)],
                stdout=subprocess.PIPE,
                text=True,
            )
            time.sleep(args.ramp)
            u0 = Usage.now(server.pid, attacker.pid)
            flood = asyncio.run(person(base, args.seconds))
            cpu = Usage.now(server.pid, attacker.pid).since(u0)
            got, _ = attacker.communicate(timeout=120)
            out["flood"] = {"person": flood.report(), "cpu": cpu, "attackers": last_json(got)}
        finally:
            out["server_tracebacks"] = stop(server, attacker, Path(data) / "log")
    a, b = out["idle"]["person"], out["flood"]["person"]
    ratios = {
        "ack_p95": ratio(b["ack_ms"]["p95"], a["ack_ms"]["p95"]),
        "bot_move_p50": ratio(b["bot_move_s"]["p50"], a["bot_move_s"]["p50"]),
        "bot_move_p95": ratio(b["bot_move_s"]["p95"], a["bot_move_s"]["p95"]),
    }
    out["ratios_flood_over_idle"] = ratios
    out["target"] = TARGET
    out["met"] = all(r is not None and r <= 2.0 for r in ratios.values())
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
