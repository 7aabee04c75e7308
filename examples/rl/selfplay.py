"""Improve a policy file by self-play against a pool: its past snapshots, ``greedy``, the search.

1. **Play.** Each round the learner (the network being trained, from ``--start``) plays
   ``--hands`` hands, one seat each hand (the seats in turn) against opponents drawn from the
   pool: with chance ``--latest`` its newest frozen snapshot, else any member alike (the
   starting network, the ``--pool`` agents such as ``greedy`` and ``ismcts:medium``, and every
   snapshot so far). The learner draws its moves from its own distribution; the opponents play
   as they do in the arena (a snapshot its most likely move). ``--workers`` processes play,
   each a share of the hands against one opponent.
2. **Learn.** A clipped policy-gradient step (PPO: ``--epochs`` passes over the round's
   decisions in batches of ``--batch``) on the hand's outcome for the learner (``--reward``:
   ``win``, +1 a won hand and -1 a lost one, or ``points``, the points margin over
   ``--points-scale``) less the value head's estimate; the value head learns the outcome; a
   penalty of ``--anchor`` times the divergence from the starting network keeps what the
   distillation taught from being forgotten between evaluations.
3. **Keep.** Every ``--snapshot-every`` rounds a frozen copy joins the pool. Every
   ``--eval-every`` rounds the learner, playing its most likely moves, meets each
   ``--eval-against`` agent on the same ``--eval-deals`` duplicate deals (``--eval-seed``); the
   best so far (the mean share of hands won, then of the points margin) is written to
   ``--out``. The starting network is measured the same way first, so the lines say whether
   training helped. The shipped ``examples/rl/block2.npz`` is never written unless ``--force``.

Budgeted in rounds (``--rounds``), a line of progress each round:

    pip install -e '.[train]'          # torch==2.13.0 (CPU)
    python examples/rl/selfplay.py --start examples/rl/block2.npz --rounds 60 \\
        --out runs/block2-selfplay.npz
    bonepile arena block --agents policy:runs/block2-selfplay.npz,policy:examples/rl/block2.npz \\
        --games 1000 --seed 2

A figure from the kept file is only honest at another seed than ``--eval-seed``: the file was
chosen by its results there.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from bonepile.actions import Action
from bonepile.agents.base import play_hand
from bonepile.agents.ismcts import margins, rewards
from bonepile.agents.registry import make_agent
from bonepile.arena import run_arena
from bonepile.games import get_game
from bonepile.rl import Policy
from bonepile.rl.features import NAME as FEATURES
from bonepile.rl.features import LineFeatures
from bonepile.rl.observation import HISTORY, Observer
from bonepile.view import View

SHIPPED = (Path(__file__).resolve().parent / "block2.npz").resolve()

Weights = list[tuple[np.ndarray, np.ndarray]]


# ----------------------------------------------------------------------------- playing
class Learner:
    """The network being trained, as an agent: draws each move from its distribution and keeps
    every decision with a choice (the input, the legal moves, the move, its log-probability)."""

    def __init__(
        self, policy: Policy, observer: Observer, rng: random.Random, temperature: float = 1.0
    ) -> None:
        self.policy = policy
        self.temperature = temperature
        self.observer = observer
        self.features = LineFeatures(observer)
        self.rng = rng
        self.xs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.moves: list[int] = []
        self.logps: list[float] = []

    def start(self, view: View) -> None:
        """A new hand: forget the last one's history."""
        self.observer.reset()

    def act(self, view: View) -> Action:
        """A move drawn from the network's distribution over the legal moves."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        obs = self.observer.observe(view)
        x = self.features(obs)
        mask = obs["action_mask"]
        logits = np.where(mask > 0, self.policy.logits(x) / self.temperature, -np.inf).astype(
            np.float64
        )
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i = min(int(np.searchsorted(np.cumsum(p), self.rng.random())), len(p) - 1)
        while p[i] <= 0:  # past the float sum's last legal step: never an illegal move
            i -= 1
        self.xs.append(x)
        self.masks.append(mask.astype(np.int8))
        self.moves.append(i)
        self.logps.append(math.log(p[i]))
        return self.observer.codec.decode(i)


def play(job: dict[str, Any]) -> dict[str, Any]:
    """``job["hands"]`` hands of the learner (``job["weights"]``) against ``job["opponent"]``:
    the learner's decisions with the outcome of each for it, and the hands' tally."""
    game, players = job["game"], job["players"]
    policy = Policy(job["weights"], job["meta"])
    rng = random.Random(job["seed"])
    learner = Learner(policy, Observer(game, players), rng, job.get("temperature", 1.0))
    others = [make_agent(job["opponent"], job["seed"] * 10 + s) for s in range(players)]
    g = get_game(game)
    outcomes: list[float] = []
    won = points = 0.0
    for h in range(job["hands"]):
        seat = h % players
        agents = [learner if s == seat else others[s] for s in range(players)]
        first = len(learner.moves)
        final = play_hand(g.new(players, seed=rng.getrandbits(63)), agents)
        win = rewards(final)[seat]
        margin = margins(final, 1.0)[seat]
        won += win
        points += margin
        worth = 2.0 * win - 1.0 if job["reward"] == "win" else margin / job["points_scale"]
        outcomes += [worth] * (len(learner.moves) - first)
    n = len(learner.moves)
    size = learner.observer.codec.size
    return {
        "opponent": job["opponent"],
        "hands": job["hands"],
        "won": won,
        "points": points,
        "x": np.array(learner.xs, dtype=np.float32).reshape(n, -1),
        "mask": np.array(learner.masks, dtype=np.int8).reshape(n, size),
        "move": np.array(learner.moves, dtype=np.int64),
        "logp": np.array(learner.logps, dtype=np.float32),
        "worth": np.array(outcomes, dtype=np.float32),
    }


# ----------------------------------------------------------------------------- the network
class Net:
    """The learner in torch, made from a policy file (the value head too, if it has one), and
    exported back to one."""

    def __init__(self, start: Policy, temperature: float = 1.0) -> None:
        import torch
        from torch import nn

        if start.meta.get("activation") != "relu" or start.meta.get("features") != FEATURES:
            raise SystemExit(f"--start must be a ReLU network on the {FEATURES} features")
        self.meta = dict(start.meta)
        layers: list[nn.Module] = []
        for w, b in start.layers[:-1]:
            layers += [self._linear(w, b), nn.ReLU()]
        self.body = nn.Sequential(*layers)
        self.head = self._linear(*start.layers[-1])
        width = start.layers[-1][0].shape[0]
        if start.value_head is not None:
            self.value_head = self._linear(*start.value_head)
        else:
            self.value_head = nn.Linear(width, 1)
        self.torch = torch
        self.temperature = temperature

    @staticmethod
    def _linear(w: np.ndarray, b: np.ndarray) -> Any:
        import torch
        from torch import nn

        layer = nn.Linear(w.shape[0], w.shape[1])
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(w.T.copy()))
            layer.bias.copy_(torch.from_numpy(b.copy()))
        return layer

    def parameters(self) -> list[Any]:
        """Everything the optimiser changes: the trunk and both heads."""
        return [*self.body.parameters(), *self.head.parameters(), *self.value_head.parameters()]

    def forward(self, x: Any, mask: Any) -> tuple[Any, Any]:
        """Log-probabilities over the legal moves (illegal ones very negative) and the value."""
        h = self.body(x)
        logits = (self.head(h) / self.temperature).masked_fill(~mask, -1e9)
        return self.torch.log_softmax(logits, dim=1), self.torch.tanh(self.value_head(h)).squeeze(1)

    def weights(self) -> Weights:
        """The policy's layers as a policy file holds them."""
        linears = [m for m in self.body if hasattr(m, "weight")] + [self.head]
        return [
            (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears
        ]

    def policy(self, extra: dict[str, Any]) -> Policy:
        """The network as a policy file, with its value head and ``extra`` in its meta."""
        head = (self.value_head.weight.detach().numpy().T.copy(),
                self.value_head.bias.detach().numpy().copy())  # fmt: skip
        return Policy(self.weights(), {**self.meta, **extra}, value_head=head)


def learn(net: Net, anchor: Net, data: dict[str, np.ndarray], args: argparse.Namespace,
          opt: Any, rng: np.random.Generator) -> dict[str, float]:  # fmt: skip
    """One round's clipped policy-gradient passes (batches shuffled by ``rng``); the mean
    losses of the last pass."""
    torch = net.torch
    x = torch.from_numpy(data["x"])
    mask = torch.from_numpy(data["mask"].astype(bool))
    move = torch.from_numpy(data["move"])
    old = torch.from_numpy(data["logp"])
    worth = torch.from_numpy(data["worth"])
    with torch.no_grad():
        _, value = net.forward(x, mask)
        advantage = worth - value
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
        anchor_logp, _ = anchor.forward(x, mask)
    n = len(move)
    totals: dict[str, float] = {}
    for _ in range(args.epochs):
        sums = {"policy": 0.0, "value": 0.0, "kl": 0.0, "entropy": 0.0, "clipped": 0.0}
        batches = 0
        order = torch.from_numpy(rng.permutation(n))
        for start in range(0, n, args.batch):
            i = order[start : start + args.batch]
            logp, v = net.forward(x[i], mask[i])
            taken = logp.gather(1, move[i].unsqueeze(1)).squeeze(1)
            ratio = torch.exp(taken - old[i])
            a = advantage[i]
            surrogate = torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a)
            p = torch.exp(logp) * mask[i]
            entropy = -(p * logp.masked_fill(~mask[i], 0.0)).sum(1).mean()
            q = torch.exp(anchor_logp[i]) * mask[i]
            kl = (q * (anchor_logp[i] - logp).masked_fill(~mask[i], 0.0)).sum(1).mean()
            policy_loss = -surrogate.mean()
            value_loss = ((v - worth[i]) ** 2).mean()
            loss = (policy_loss + args.value_weight * value_loss - args.entropy * entropy
                    + args.anchor * kl)  # fmt: skip
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            batches += 1
            sums["policy"] += policy_loss.item()
            sums["value"] += value_loss.item()
            sums["kl"] += kl.item()
            sums["entropy"] += entropy.item()
            sums["clipped"] += ((ratio - 1).abs() > args.clip).float().mean().item()
        totals = {k: s / max(1, batches) for k, s in sums.items()}
    return totals


# ----------------------------------------------------------------------------- the loop
def evaluate(path: Path, args: argparse.Namespace) -> tuple[tuple[float, float], str]:
    """The policy file's mean share of hands and points margin against the ``--eval-against``
    agents on the fixed duplicate deals, and a line that says them."""
    shares, points, parts = [], [], []
    for against in args.eval_against:
        result = run_arena(args.game, [f"policy:{path}", against], args.eval_deals,
                           seed=args.eval_seed, players=args.players,
                           workers=args.workers)  # fmt: skip
        a = result.stats[0]
        shares.append(a.share)
        points.append(a.margin)
        parts.append(f"against {against} {a.share:.3f} ({a.low:.3f}-{a.high:.3f}), "
                     f"{a.margin:+.2f} points")  # fmt: skip
    score = (round(float(np.mean(shares)), 4), round(float(np.mean(points)), 4))
    return score, "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--start", default=str(SHIPPED), help="the policy file to improve")
    parser.add_argument("--rounds", type=int, default=60, help="rounds of play and learning")
    parser.add_argument("--hands", type=int, default=2000, help="hands a round")
    parser.add_argument("--pool", nargs="*", default=["greedy", "ismcts:medium"],
                        help="agents in the pool beside the snapshots")  # fmt: skip
    parser.add_argument("--latest", type=float, default=0.5,
                        help="chance of the newest snapshot as the opponent")  # fmt: skip
    parser.add_argument("--reward", choices=("win", "points"), default="win")
    parser.add_argument("--temperature", type=float, default=1.0,
                        help="the learner draws from its logits over this")  # fmt: skip
    parser.add_argument("--points-scale", type=float, default=20.0)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--value-weight", type=float, default=0.5)
    parser.add_argument("--entropy", type=float, default=0.003)
    parser.add_argument("--anchor", type=float, default=0.05,
                        help="weight of the divergence from the starting network")  # fmt: skip
    parser.add_argument("--snapshot-every", type=int, default=5)
    parser.add_argument("--snapshots", default="runs/selfplay", help="where snapshots go")
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-deals", type=int, default=400)
    parser.add_argument("--eval-seed", type=int, default=12345)
    parser.add_argument("--eval-against", nargs="+", default=["greedy", "start"],
                        help="agents to measure against (start: the starting network)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="processes (play, evals)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--out", default="runs/block2-selfplay.npz")
    parser.add_argument("--force", action="store_true", help="allow writing the shipped bot")
    args = parser.parse_args(argv)
    if Path(args.out).resolve() == SHIPPED and not args.force:
        parser.error(f"--out {args.out} is the shipped bot: pass --force to replace it")
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, args.threads))
    start = Policy.load(args.start)
    args.game = str(start.meta.get("game", "block"))
    args.players = int(start.meta.get("players", 2))
    if int(start.meta.get("history", HISTORY)) != HISTORY or start.meta.get("options"):
        parser.error("--start must use the default history and no options")
    args.eval_against = [f"policy:{args.start}" if a == "start" else a for a in args.eval_against]
    net, anchor = Net(start, args.temperature), Net(start, args.temperature)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    snapshots = Path(args.snapshots)
    snapshots.mkdir(parents=True, exist_ok=True)
    pool = [f"policy:{args.start}", *args.pool]
    latest = pool[0]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    shuffle = np.random.default_rng(args.seed)
    began = time.monotonic()
    kept = False
    best, line = evaluate(Path(args.start), args)
    print(f"the start: {line}", flush=True)
    trained = {"selfplay_start": str(args.start), "selfplay_reward": args.reward,
               "selfplay_pool": args.pool, "selfplay_seed": args.seed}  # fmt: skip
    jobs_a_round = 4 * args.workers
    with multiprocessing.get_context("spawn").Pool(args.workers) as workers:
        for rnd in range(1, args.rounds + 1):
            weights = net.weights()
            per = [args.hands // jobs_a_round + (k < args.hands % jobs_a_round)
                   for k in range(jobs_a_round)]  # fmt: skip
            jobs = [
                {"game": args.game, "players": args.players, "weights": weights,
                 "meta": net.meta, "hands": n, "reward": args.reward,
                 "points_scale": args.points_scale, "temperature": args.temperature,
                 "seed": rng.getrandbits(48),
                 "opponent": latest if rng.random() < args.latest else rng.choice(pool)}
                for n in per if n
            ]  # fmt: skip
            parts = workers.map(play, jobs)
            data = {
                k: np.concatenate([p[k] for p in parts])
                for k in ("x", "mask", "move", "logp", "worth")
            }
            losses = learn(net, anchor, data, args, opt, shuffle)
            tally: dict[str, list[float]] = {}
            for p in parts:
                t = tally.setdefault(p["opponent"].replace(f"policy:{args.start}", "start"),
                                     [0, 0, 0])  # fmt: skip
                t[0] += p["hands"]
                t[1] += p["won"]
                t[2] += p["points"]
            against = ", ".join(f"{name.rsplit('/', 1)[-1]} {w / h:.3f} ({pts / h:+.2f})"
                                for name, (h, w, pts) in sorted(tally.items()))  # fmt: skip
            print(f"round {rnd}/{args.rounds}: {len(data['move']):,} decisions; hands won "
                  f"{against}; policy loss {losses['policy']:+.4f}, value loss "
                  f"{losses['value']:.3f}, divergence from the start {losses['kl']:.4f}, "
                  f"entropy {losses['entropy']:.3f}, clipped {losses['clipped']:.3f}; "
                  f"{time.monotonic() - began:.0f} s", flush=True)  # fmt: skip
            if rnd % args.snapshot_every == 0:
                latest_path = snapshots / f"snapshot-{rnd}.npz"
                net.policy({**trained, "selfplay_rounds": rnd}).save(latest_path)
                latest = f"policy:{latest_path}"
                pool.append(latest)
            if rnd % args.eval_every == 0 or rnd == args.rounds:
                with tempfile.TemporaryDirectory() as tmp:
                    path = Path(tmp) / "candidate.npz"
                    net.policy({**trained, "selfplay_rounds": rnd}).save(path)
                    score, line = evaluate(path, args)
                    mark = ""
                    if score > best:
                        best, kept = score, True
                        out.write_bytes(path.read_bytes())
                        mark = f" (best so far: kept in {out})"
                print(f"eval at round {rnd}: {line}{mark}", flush=True)
    if not kept:  # an older file of that name is not this run's
        print(f"no round beat the start on the evaluation deals: {out} not written", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
