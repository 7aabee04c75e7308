"""Distil the search bot into a small network: a policy file that plays without a search.

1. **Label.** The teacher (``--teacher``, a search level) plays ``--hands`` hands against
   itself. At each decision with a choice, the position's features (``bonepile.rl.features``,
   from the seat's view alone), its legal moves, the teacher's visit counts (what the search
   thought of each move) and, once the hand is over, its outcome for that seat are kept. With
   ``--explore`` the teacher sometimes plays a move drawn from its visits rather than its
   best, so the positions are varied. Labels are cached in ``--data`` (made once, reused).
2. **Train** ``--steps`` steps of a multilayer perceptron with a policy head (cross-entropy to
   the visit distribution, over the legal moves) and a value head (the outcome), printing the
   losses and the share of held-out positions where it picks the teacher's move.
3. **Evaluate** every ``--eval-every`` steps on the same duplicate deals (``--eval-deals`` at
   ``--eval-seed``) against ``--eval-against`` (``greedy``), and keep the best network so far
   in ``--out`` (the share of hands won, then the points margin), with the value head trained
   beside it (which learns the training hands by heart: step 4 makes a better one). The
   shipped ``examples/rl/block2.npz`` is never written unless ``--force`` is given.
4. **A value head** for a network already made (``--value-for FILE``): the network stays as it
   is, and a linear value head on its last hidden layer is fitted to the outcomes of other
   hands (another ``--seed`` and ``--data``); see :func:`fit_value`.

    pip install -e '.[train]'          # torch==2.13.0 (CPU)
    python examples/rl/distill.py --teacher ismcts:hard --hands 6000 --steps 30000 \\
        --out runs/block2-distilled.npz
    bonepile arena block --agents policy:runs/block2-distilled.npz,greedy --games 400 --seed 1

The policy file plays in numpy (``policy:FILE``), with no torch.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from bonepile.agents.ismcts import ISMCTSAgent, rewards
from bonepile.agents.registry import make_agent
from bonepile.arena import run_arena
from bonepile.games import get_game
from bonepile.rl import Policy
from bonepile.rl.features import NAME as FEATURES
from bonepile.rl.features import LineFeatures
from bonepile.rl.observation import HISTORY, Observer
from bonepile.view import view

SHIPPED = (Path(__file__).resolve().parent / "block2.npz").resolve()


# ----------------------------------------------------------------------------- labelling
def label(job: tuple[str, int, str, int, int, float]) -> dict[str, np.ndarray]:
    """``hands`` hands of the teacher against itself from ``seed``: the labelled positions."""
    game, players, teacher, seed, hands, explore = job
    g = get_game(game)
    observer = Observer(game, players)
    features = LineFeatures(observer)
    index = observer.codec.index
    size = observer.codec.size
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    pis: list[np.ndarray] = []
    seats: list[int] = []
    values: list[float] = []
    for h in range(hands):
        agents = [make_agent(teacher, seed * 1000 + h * players + s) for s in range(players)]
        state = g.new(players, seed=rng.getrandbits(63))
        observer.reset()
        first = len(xs)
        while state.actor is not None:
            seat = state.actor
            v = view(state, seat)
            legal = v.legal
            if len(legal) == 1:
                state = state.apply(legal[0])
                continue
            agent = agents[seat]
            assert isinstance(agent, ISMCTSAgent)
            found = agent.estimates(v)
            obs = observer.observe(v)
            pi = np.zeros(size, dtype=np.float32)
            for action, visits, _mean in found:
                pi[index[action]] = visits
            if pi.sum() <= 0:  # no world found: the legal moves alike
                pi[obs["action_mask"] > 0] = 1.0
            pi /= pi.sum()
            xs.append(features(obs))
            masks.append(obs["action_mask"])
            pis.append(pi)
            seats.append(seat)
            if found and rng.random() >= explore:
                action = found[0][0]
            else:
                choice = int(np.searchsorted(np.cumsum(pi), rng.random(), side="right"))
                action = observer.codec.decode(min(choice, size - 1))
            state = state.apply(action)
        worth = rewards(state)
        values += [worth[s] for s in seats[first:]]
    return {
        "x": np.array(xs, dtype=np.float32).reshape(len(xs), features.size),
        "mask": np.array(masks, dtype=np.int8).reshape(len(xs), size),
        "pi": np.array(pis, dtype=np.float16).reshape(len(xs), size),
        "value": np.array(values, dtype=np.float32),
    }


def labels(args: argparse.Namespace) -> dict[str, np.ndarray]:
    """The labelled positions: read from ``--data`` if it holds those asked for, else made by
    ``--workers`` processes and saved there."""
    data = Path(args.data)
    wanted = {"game": args.game, "players": args.players, "teacher": args.teacher,
              "hands": args.hands, "seed": args.seed, "explore": args.explore,
              "features": FEATURES}  # fmt: skip
    if data.exists():
        with np.load(data, allow_pickle=False) as f:
            if json.loads(str(f["meta"])) == wanted:
                print(f"labels: {len(f['x']):,} positions from {data}", flush=True)
                return {k: f[k] for k in ("x", "mask", "pi", "value")}
    chunks = max(1, min(args.hands, 4 * args.workers))
    per = [args.hands // chunks + (1 if k < args.hands % chunks else 0) for k in range(chunks)]
    jobs = [
        (args.game, args.players, args.teacher, args.seed * 7919 + k, n, args.explore)
        for k, n in enumerate(per)
    ]
    start = time.monotonic()
    parts = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for k, part in enumerate(pool.imap(label, jobs)):
            parts.append(part)
            done = sum(per[: k + 1])
            print(f"labels: {done:,}/{args.hands:,} hands, "
                  f"{sum(len(p['x']) for p in parts):,} positions, "
                  f"{time.monotonic() - start:.0f} s", flush=True)  # fmt: skip
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    data.parent.mkdir(parents=True, exist_ok=True)
    np.savez(data, meta=np.array(json.dumps(wanted)), **out)
    return out


# ----------------------------------------------------------------------------- training
def train(args: argparse.Namespace, data: dict[str, np.ndarray]) -> None:
    import torch
    from torch import nn

    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, args.threads))
    n = len(data["x"])
    order = np.random.default_rng(args.seed).permutation(n)
    held = order[: max(1, n // 20)]
    fit = order[len(held) :]
    x = torch.from_numpy(data["x"])
    mask = torch.from_numpy(data["mask"].astype(bool))
    pi = torch.from_numpy(data["pi"].astype(np.float32))
    value = torch.from_numpy(data["value"] * 2.0 - 1.0)
    inputs, actions = x.shape[1], mask.shape[1]
    trunk = [inputs, *args.hidden]
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(trunk):
        layers += [nn.Linear(a, b), nn.ReLU()]
    body = nn.Sequential(*layers)
    policy_head = nn.Linear(trunk[-1], actions)
    value_head = nn.Linear(trunk[-1], 1)
    params = [*body.parameters(), *policy_head.parameters(), *value_head.parameters()]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: 0.5 * (1 + math.cos(math.pi * min(s, args.steps) / args.steps))
    )

    def losses(idx: Any) -> tuple[Any, Any, Any]:
        h = body(x[idx])
        logits = policy_head(h).masked_fill(~mask[idx], -1e9)
        lp = -(pi[idx] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        lv = ((torch.tanh(value_head(h)).squeeze(1) - value[idx]) ** 2).mean()
        agree = (logits.argmax(dim=1) == pi[idx].argmax(dim=1)).float().mean()
        return lp, lv, agree

    def export(step: int) -> Policy:
        linears = [m for m in body if isinstance(m, nn.Linear)] + [policy_head]
        weights = [
            (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears
        ]
        meta = {"game": args.game, "players": args.players, "options": {}, "history": HISTORY,
                "activation": "relu", "features": FEATURES, "teacher": args.teacher,
                "hands": args.hands, "positions": n, "steps": step, "seed": args.seed,
                "value": "win"}  # fmt: skip
        head = (value_head.weight.detach().numpy().T.copy(),
                value_head.bias.detach().numpy().copy())  # fmt: skip
        return Policy(weights, meta, value_head=head)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    best: tuple[float, float] | None = None
    rng = np.random.default_rng(args.seed + 1)
    start = time.monotonic()
    print(f"train: {len(fit):,} positions, {len(held):,} held out, inputs {inputs}, "
          f"layers {[*trunk, actions]}", flush=True)  # fmt: skip
    for step in range(1, args.steps + 1):
        idx = torch.from_numpy(rng.choice(fit, size=min(args.batch, len(fit)), replace=False))
        lp, lv, _ = losses(idx)
        loss = lp + args.value_weight * lv
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % args.print_every == 0 or step == args.steps:
            with torch.no_grad():
                hp, hv, agree = losses(torch.from_numpy(held))
            print(f"step {step:,}/{args.steps:,}: policy loss {lp.item():.3f} "
                  f"(held out {hp.item():.3f}), value loss {lv.item():.3f} "
                  f"(held out {hv.item():.3f}), picks the teacher's move "
                  f"{agree.item():.3f} of held-out positions, "
                  f"{time.monotonic() - start:.0f} s", flush=True)  # fmt: skip
        if step % args.eval_every == 0 or step == args.steps:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "candidate.npz"
                export(step).save(path)
                result = run_arena(args.game, [f"policy:{path}", args.eval_against],
                                   args.eval_deals, seed=args.eval_seed,
                                   players=args.players, workers=args.workers)  # fmt: skip
                a = result.stats[0]
                score = (round(a.share, 4), round(a.margin, 4))
                mark = ""
                if best is None or score > best:
                    best = score
                    shutil.copyfile(path, out)
                    mark = f"  (best so far: kept in {out})"
            print(f"eval at step {step:,}: against {args.eval_against} on "
                  f"{args.eval_deals} deals (seed {args.eval_seed}): hands won {a.share:.3f} "
                  f"({a.low:.3f}-{a.high:.3f}), points margin {a.margin:+.2f} "
                  f"({a.margin_low:+.2f} to {a.margin_high:+.2f}){mark}", flush=True)  # fmt: skip


def fit_value(args: argparse.Namespace, data: dict[str, np.ndarray]) -> None:
    """Give the policy file ``--value-for`` a value head: a linear layer on its last hidden
    layer, which stays as it is, fitted to the outcomes of the labelled positions (made from
    other hands than those the policy learned from: ``--seed``). The last tenth of the
    positions (whole hands, in the order they were played) is held out; the head with the
    lowest held-out loss is written to ``--out``."""
    import torch

    source = Policy.load(args.value_for)
    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, args.threads))
    hidden = torch.from_numpy(source.hidden(data["x"]).astype(np.float32))
    target = torch.from_numpy(data["value"].astype(np.float32) * 2.0 - 1.0)
    cut = len(target) - len(target) // 10
    head = torch.nn.Linear(hidden.shape[1], 1)
    opt = torch.optim.Adam(head.parameters(), lr=3e-3, weight_decay=1e-3)

    def loss(part: slice) -> Any:
        return ((torch.tanh(head(hidden[part])).squeeze(1) - target[part]) ** 2).mean()

    with torch.no_grad():
        constant = float(((target[cut:] - target[:cut].mean()) ** 2).mean())
    print(f"value: {cut:,} positions, {len(target) - cut:,} held out; a constant's held-out "
          f"loss {constant:.3f}", flush=True)  # fmt: skip
    best = math.inf
    kept: tuple[np.ndarray, np.ndarray] | None = None
    for step in range(1, args.steps + 1):
        opt.zero_grad()
        fit = loss(slice(0, cut))
        fit.backward()
        opt.step()
        with torch.no_grad():
            held = float(loss(slice(cut, None)))
        if held < best:
            best = held
            kept = (head.weight.detach().numpy().T.copy(), head.bias.detach().numpy().copy())
        if step % args.print_every == 0 or step == args.steps:
            print(f"value step {step:,}/{args.steps:,}: loss {fit.item():.3f}, held out "
                  f"{held:.3f} (best {best:.3f})", flush=True)  # fmt: skip
    assert kept is not None
    meta = {**source.meta, "value": "win", "value_hands": args.hands, "value_seed": args.seed,
            "value_teacher": args.teacher, "value_held_out_loss": round(best, 4),
            "value_constant_loss": round(constant, 4)}  # fmt: skip
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    Policy(source.layers, meta, source.scale, kept).save(out)
    print(f"value: the head with held-out loss {best:.3f} written to {out}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="block")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teacher", default="ismcts:hard", help="the search level to copy")
    parser.add_argument("--hands", type=int, default=6000, help="self-play hands to label")
    parser.add_argument("--explore", type=float, default=0.25,
                        help="share of moves drawn from the visits")  # fmt: skip
    parser.add_argument("--data", default="runs/distill-labels.npz", help="label cache")
    parser.add_argument("--steps", type=int, default=30000, help="training steps")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--value-weight", type=float, default=0.5)
    parser.add_argument("--print-every", type=int, default=1000)
    parser.add_argument("--eval-every", type=int, default=5000)
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--eval-seed", type=int, default=12345)
    parser.add_argument("--eval-against", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="processes (labels, evals)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--out", default="runs/block2-distilled.npz")
    parser.add_argument("--force", action="store_true", help="allow writing the shipped bot")
    parser.add_argument("--value-for", metavar="FILE",
                        help="fit only a value head for this policy file's network")  # fmt: skip
    args = parser.parse_args(argv)
    if Path(args.out).resolve() == SHIPPED and not args.force:
        parser.error(f"--out {args.out} is the shipped bot: pass --force to replace it")
    if get_game(args.game).family == "board":
        parser.error("the features are for games played on lines, arms or trees")
    if args.value_for:
        fit_value(args, labels(args))
    else:
        train(args, labels(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
