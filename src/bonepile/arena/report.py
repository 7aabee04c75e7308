"""Arena reports: a markdown page and an HTML page, with plots drawn by matplotlib.

``write_report(result, folder)`` writes ``report.md``, ``report.html``, ``win_shares.png`` (each
agent's win share with its 95% interval against its even share) and ``ratings.png`` (the
OpenSkill rating of each agent game after game).
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path

from bonepile.arena.runner import ArenaResult
from bonepile.arena.stats import rating_history


def table(result: ArenaResult) -> list[str]:
    """The results as markdown table lines."""
    rows = [
        "| agent | games | win share | 95% interval | even share | verdict | points/game | "
        "rating | ms/move | forfeits |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in result.stats:
        rating = "–" if s.rating_mu is None else f"{s.rating_mu:.1f} ± {s.rating_sigma or 0:.1f}"
        rows.append(
            f"| {s.name} | {s.games} | {s.share:.3f} | {s.low:.3f}–{s.high:.3f} | "
            f"{s.even:.3f} | {s.significant} | {s.points:.2f} | {rating} | "
            f"{1000 * s.seconds_per_move:.1f} | {s.forfeits} |"
        )
    return rows


def _plots(result: ArenaResult, folder: Path) -> list[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    paths = []
    fig, ax = plt.subplots(figsize=(6, 3.2))
    names = [s.name for s in result.stats]
    shares = [s.share for s in result.stats]
    err = [
        [s.share - s.low for s in result.stats],
        [s.high - s.share for s in result.stats],
    ]
    ax.bar(names, shares, yerr=err, capsize=6, color="#4a7ab5")
    for i, s in enumerate(result.stats):
        ax.hlines(s.even, i - 0.4, i + 0.4, colors="#c0392b", linestyles="dashed")
    ax.set_ylabel("win share (95% interval)")
    ax.set_title(
        f"{result.setup.game}, {result.setup.players} players, {len(result.outcomes)} games"
    )
    ax.set_ylim(0, 1)
    fig.tight_layout()
    path = folder / "win_shares.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    paths.append(path)
    history = rating_history(len(names), result.outcomes)
    if history is not None:
        fig, ax = plt.subplots(figsize=(6, 3.2))
        for name, mus in zip(names, history, strict=True):
            ax.plot(range(len(mus)), mus, label=name)
        ax.set_xlabel("games")
        ax.set_ylabel("OpenSkill rating (mu)")
        ax.legend()
        fig.tight_layout()
        path = folder / "ratings.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def write_report(result: ArenaResult, folder: str | Path) -> Path:
    """Write the report files into ``folder``; return the markdown page's path."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    plots = _plots(result, out)
    setup = result.setup
    data = result.to_json()
    head = [
        f"# Arena: {setup.game}, {setup.players} players",
        "",
        f"Agents: {', '.join(result.names)}. Seed {setup.seed}; {data['deals']} deals, each "
        f"played once per seating ({len(data['seatings'])} seatings: "
        + "; ".join("".join(result.names[a][0] for a in s) for s in data["seatings"])
        + f"), {data['games']} {'matches' if setup.matches else 'hands'} in all."
        + (f" Options: {json.dumps(dict(setup.options))}." if setup.options else ""),
        "",
        "Win share: the share of the wins an agent took (a shared win split between its "
        "winners); the even share is what its seats would win by luck alone. The 95% interval "
        "is over deals, so the luck of the deal is taken out.",
        "",
    ]
    lines = head + table(result)
    if data["forfeits"]:
        lines += ["", "Forfeits:", ""]
        lines += [
            f"- game {f['game']}: {f['agent']} (P{f['seat']}): {f['reason']}"
            for f in data["forfeits"]
        ]
    lines += [""] + [f"![{p.stem}]({p.name})" for p in plots]
    md = out / "report.md"
    md.write_text("\n".join(lines) + "\n", encoding="utf-8")
    images = "".join(
        f'<p><img alt="{p.stem}" src="data:image/png;base64,'
        f'{base64.b64encode(p.read_bytes()).decode()}"></p>'
        for p in plots
    )
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(c.strip())}</td>" for c in r.strip("|").split("|"))
        + "</tr>"
        for r in table(result)[2:]
    )
    header = "".join(
        f"<th>{html.escape(c.strip())}</th>" for c in table(result)[0].strip("|").split("|")
    )
    page = (
        "<!doctype html><meta charset='utf-8'><title>bonepile arena</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "td,th{padding:.2em .6em;border-bottom:1px solid #ccc}</style>"
        f"<h1>{html.escape(head[0][2:])}</h1><p>{html.escape(head[2])}</p>"
        f"<table><tr>{header}</tr>{rows}</table>{images}"
    )
    (out / "report.html").write_text(page, encoding="utf-8")
    return md
