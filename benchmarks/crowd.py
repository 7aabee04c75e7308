"""A watched table's pace while a crowd of spectators joins it: 1,000 sockets on one table.

It starts ``bonepile serve`` (its defaults: ``--bot-pace 0.8``, the default limits, SQLite in a
fresh data folder) and makes one four-seat block match to 10,000 points: a person (this
script, from 127.0.0.2) and three ``greedy`` bots. The person plays the first legal move as
soon as it is its turn and deals the next hand when one ends, so the table's pace is the bots':
the server waits 0.8 s after a move before a bot plays the next.

Two phases of ``--seconds`` each (default 30):

- **idle**: the person alone at the table;
- **crowd**: a spectator process (its own event loop and process, so its work never delays
  the person's clock readings) opens ``--spectators`` sockets on the table (default 1,000) at
  ``--rate`` a second (default 50), from ``--addresses`` loopback addresses (127.0.1.x; the
  server allows 64 sockets an address), each saying hello as a browser does (patches on) and
  reading everything it is sent; the person's phase starts once the first spectators are in and
  lasts while the rest join and after, every spectator staying to the end.

It reports, for each phase, the **time between two bot moves** as the person's socket sees it
(from the state that shows one move to the state that shows the bot's next: p50, p95, max, in
seconds; an idle server shows about 0.8 s), the person's acknowledgement latency, and the CPU
seconds of the server and the spectator process; for the crowd, the spectators that got in,
how long they took to, and the **messages the first spectator received while the others
joined**: the table's moves, and the watcher count at most once a second (each arrival used to
send the count to every socket at the table: 1,000 joins, 1,000 messages to each). Then the
crowd/idle ratio of the bot move p95 and p50, and whether both are within 1.5x (``met``). One
JSON object on stdout.

Everything is on loopback and bounded: in time (each phase, every wait by a timeout) and in
sockets (at most 2,000 spectators). The script raises its own open-file limit, which the server
inherits, to its hard limit.

Run: ``.venv/bin/python benchmarks/crowd.py [--spectators 1000] [--rate 50]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_flood import (
    PERSON,
    Usage,
    client,
    free_port,
    last_json,
    pct,
    ratio,
    socket_to,
    start_server,
    stop,
)

TABLE = {
    "game": "block",
    "seats": ["me", "greedy", "greedy", "greedy"],
    "match": True,
    "options": {"target_score": 10000},
}
TARGET = "bot move time p50 and p95 within 1.5x of idle with the crowd at the table"


# ---------------------------------------------------------------------------- the person
async def person(base: str, table: dict[str, Any], seconds: float) -> dict[str, Any]:
    """Play at the table for ``seconds``; the times between bot moves and the acks."""
    end = time.monotonic() + seconds
    me = table["seat"]
    gaps: list[float] = []
    acks: list[float] = []
    sent: dict[str, float] = {}
    moves = hands = 0
    seen: int | None = None  # the history's length at the last state
    last: float | None = None  # when the last move was seen
    dealt: Any = None  # the hand whose end the person dealt on from
    async with socket_to(base, table["id"], PERSON) as ws:
        hello = {"type": "hello", "token": table["token"], "since": -1, "width": 40}
        await ws.send(json.dumps({**hello, "patches": False}))
        while (left := end - time.monotonic()) > 0:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=min(left, 5.0))
            except TimeoutError:
                continue
            now = time.perf_counter()
            msg = json.loads(raw)
            if msg["type"] == "ack":
                at = sent.pop(msg["id"], None)
                if at is not None:
                    acks.append(now - at)
                continue
            if msg["type"] != "state":
                continue
            view = msg["view"]
            history = view["history"]
            if seen is not None and len(history) > seen:
                if history[-1]["seat"] != me and last is not None:
                    gaps.append(now - last)
                last = now
            elif seen is None or len(history) < seen:  # the first state, or a new hand
                last = None
            seen = len(history)
            if view["result"] is not None:
                if msg.get("hand_number") != dealt:  # deal the next hand, once
                    dealt = msg.get("hand_number")
                    hands += 1
                    await ws.send(json.dumps({"type": "next_hand"}))
                continue
            if view["legal"] and view["actor"] == me:
                moves += 1
                move = {
                    "type": "move",
                    "id": f"m{moves}",
                    "v": msg["v"],
                    "action": view["legal"][0],
                }
                sent[move["id"]] = time.perf_counter()
                await ws.send(json.dumps(move))
    return {
        "moves": moves,
        "hands": hands,
        "bot_move_s": {
            "p50": pct(gaps, 0.50, 1, 3),
            "p95": pct(gaps, 0.95, 1, 3),
            "max": round(max(gaps), 3) if gaps else None,
            "samples": len(gaps),
        },
        "ack_ms": {"p50": pct(acks, 0.50, 1000), "p95": pct(acks, 0.95, 1000)},
    }


# ---------------------------------------------------------------------------- the crowd
async def crowd(cfg: dict[str, Any]) -> dict[str, Any]:
    """Open the spectators' sockets at the configured rate and keep them reading; counts."""
    base, table = cfg["base"], cfg["table"]
    addresses = [f"127.0.1.{k}" for k in range(1, cfg["addresses"] + 1)]
    end = time.monotonic() + cfg["seconds"]
    joined: list[float] = []
    received = [0] * cfg["spectators"]
    heard_while_joining = 0
    refused = 0
    all_in = asyncio.Event()
    first_in = asyncio.Event()

    async def spectator(k: int) -> None:
        nonlocal heard_while_joining, refused
        try:
            async with socket_to(base, table, addresses[k % len(addresses)]) as ws:
                hello = {"type": "hello", "token": None, "since": -1, "width": 40}
                await ws.send(json.dumps({**hello, "patches": True}))
                joined.append(time.monotonic())
                first_in.set()
                if len(joined) == cfg["spectators"]:
                    all_in.set()
                while (left := end - time.monotonic()) > 0:
                    try:
                        await asyncio.wait_for(ws.recv(), timeout=min(left, 5.0))
                    except TimeoutError:
                        continue
                    received[k] += 1
                    # the first spectator counts what it hears while the others arrive
                    if k == 0 and not all_in.is_set():
                        heard_while_joining += 1
        except (OSError, websockets.WebSocketException, TimeoutError):
            refused += 1

    tasks: list[asyncio.Task[None]] = []
    started = time.monotonic()
    for k in range(cfg["spectators"]):
        tasks.append(asyncio.create_task(spectator(k)))
        if k == 0:
            await asyncio.wait_for(first_in.wait(), 30)
            print(json.dumps({"crowd": "first in"}), flush=True)
        await asyncio.sleep(max(0.0, started + (k + 1) / cfg["rate"] - time.monotonic()))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_in.wait(), max(1.0, end - time.monotonic()))
    join_s = round((joined[-1] if joined else started) - started, 1)
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "spectators_in": len(joined),
        "refused_or_dropped": refused,
        "join_s": join_s,
        "messages_to_the_first_spectator_while_the_others_joined": heard_while_joining,
        "messages_per_spectator": {
            "p50": pct([float(r) for r in received], 0.5, 1, 0),
            "max": max(received) if received else 0,
        },
    }


def crowd_main(cfg: dict[str, Any]) -> int:
    print(json.dumps(asyncio.run(crowd(cfg))), flush=True)
    return 0


# ---------------------------------------------------------------------------- the phases
def raise_open_files(need: int) -> int:
    """Raise this process's (and so the server's) open-file limit toward ``need``; the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = need if hard == resource.RLIM_INFINITY else min(need, hard)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="the idle phase")
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=50.0, help="spectators joining a second")
    parser.add_argument("--addresses", type=int, default=20, help="the crowd's loopback addresses")
    parser.add_argument("--crowd-config", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.crowd_config:
        return crowd_main(json.loads(args.crowd_config))
    if not 5 <= args.seconds <= 600 or not 1 <= args.spectators <= 2000:
        parser.error("--seconds: 5..600; --spectators: 1..2000")
    if not 1 <= args.rate <= 1000 or not 1 <= args.addresses <= 250:
        parser.error("--rate: 1..1000; --addresses: 1..250")
    if args.spectators > 64 * args.addresses:
        parser.error("the server allows 64 sockets an address: give more --addresses")
    limit = raise_open_files(2 * args.spectators + 512)
    if limit < args.spectators + 256:
        parser.error(f"the open-file limit ({limit}) is too low for {args.spectators} sockets")
    joining = args.spectators / args.rate
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    out: dict[str, Any] = {
        "seconds_idle": args.seconds,
        "spectators": args.spectators,
        "rate_per_s": args.rate,
        "bot_pace_s": 0.8,
        "cpu_count": os.cpu_count(),
        "load_before": os.getloadavg()[0],
    }
    with tempfile.TemporaryDirectory() as data, open(Path(data) / "log", "wb") as log:
        server = start_server(data, port, log)
        spectators: subprocess.Popen[str] | None = None
        try:

            async def make() -> dict[str, Any]:
                async with client(base, PERSON) as http:
                    r = await http.post("/api/tables", json=TABLE)
                    r.raise_for_status()
                    return dict(r.json())

            table = asyncio.run(make())
            u0 = Usage.now(server.pid)
            idle = asyncio.run(person(base, table, args.seconds))
            out["idle"] = {"person": idle, "cpu": Usage.now(server.pid).since(u0)}
            print(json.dumps({"idle": out["idle"]}), file=sys.stderr, flush=True)

            crowd_seconds = joining + args.seconds
            cfg = {
                "base": base,
                "table": table["id"],
                "spectators": args.spectators,
                "rate": args.rate,
                "addresses": args.addresses,
                "seconds": crowd_seconds + 5.0,
            }
            spectators = subprocess.Popen(
                [sys.executable, __file__, "--crowd-config", json.dumps(cfg)],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert spectators.stdout is not None
            first = spectators.stdout.readline()  # the first spectator is in
            if "first in" not in first:
                raise RuntimeError(f"the spectators did not start: {first!r}")
            u0 = Usage.now(server.pid, spectators.pid)
            busy = asyncio.run(person(base, table, crowd_seconds))
            cpu = Usage.now(server.pid, spectators.pid).since(u0)
            got, _ = spectators.communicate(timeout=120)
            out["crowd"] = {"person": busy, "cpu": cpu, "spectators": last_json(got)}
        finally:
            out["server_tracebacks"] = stop(server, spectators, Path(data) / "log")
    a, b = out["idle"]["person"]["bot_move_s"], out["crowd"]["person"]["bot_move_s"]
    ratios = {"bot_move_p50": ratio(b["p50"], a["p50"]), "bot_move_p95": ratio(b["p95"], a["p95"])}
    out["ratios_crowd_over_idle"] = ratios
    out["target"] = TARGET
    out["met"] = all(r is not None and r <= 1.5 for r in ratios.values())
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
