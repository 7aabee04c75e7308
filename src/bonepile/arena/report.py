"""Arena reports: a markdown page and an HTML page, with plots drawn by matplotlib.

``write_report(result, folder)`` writes ``report.md``, ``report.html``, ``win_shares.png`` (each
agent's win share with its 95% interval against its even share) and ``ratings.png`` (each
agent's Elo rating as the games came in). Every file is written atomically
(:mod:`bonepile.files`): a failed write leaves no half-written page.

Agent names and forfeit reasons are text that users and bots choose, so the pages escape it:
in markdown every character that could start markup (``|``, backticks, ``[``, ``<``, ...) is
backslash-escaped and newlines and other control characters are shown as escapes, so a name or
a reason stays plain text on one line of the page and inside its table cell; in HTML it is
HTML-escaped; on the plots, ``$`` cannot start math.
"""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import Any

from bonepile.arena.runner import ArenaResult
from bonepile.arena.stats import history_of
from bonepile.files import write_bytes_atomic, write_text_atomic

_MARKDOWN_ACTIVE = frozenset("\\`*_[]<>#!|~&$")
"""The characters escaped in markdown: those that can start markup inside a line (emphasis,
code, links and images, raw HTML and entities, table cells, strikethrough, math). Text from
users never starts a line of the report, so line-start markup (``-``, ``+``, ``1.``) cannot
begin there."""

COLUMNS = (
    "agent",
    "games",
    "win share",
    "95% interval",
    "even share",
    "verdict",
    "points/game",
    "points margin (95%)",
    "Elo rating",
    "ms/move",
    "forfeits",
)
"""The columns of the results table."""


MAX_TEXT = 500
"""The most characters of one name or reason a report shows (the rest is cut, marked ``…``)."""


def plain(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` on one line with no control characters (each shown as its escape, ``\\n``),
    cut after ``limit`` characters."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)


def escape_markdown(text: str) -> str:
    """``text`` as literal markdown: markup characters backslash-escaped, control characters
    and newlines shown as escapes, so it renders as itself on one line (a table cell too)."""
    return "".join(
        "\\" + c if c in _MARKDOWN_ACTIVE else c if c.isprintable() else repr(c)[1:-1] for c in text
    )


def rows(result: ArenaResult) -> list[list[str]]:
    """The results table as plain text cells, one row per agent (in :data:`COLUMNS` order)."""
    out = []
    for s in result.stats:
        rating = "–" if s.rating is None else f"{s.rating:.0f} ± {s.rating_error or 0:.0f}"
        out.append(
            [
                plain(s.name),
                str(s.games),
                f"{s.share:.3f}",
                f"{s.low:.3f}–{s.high:.3f}",
                f"{s.even:.3f}",
                s.significant,
                f"{s.points:.2f}",
                f"{s.margin:+.2f} ({s.margin_low:+.2f} to {s.margin_high:+.2f})",
                rating,
                f"{1000 * s.seconds_per_move:.1f}",
                str(s.forfeits),
            ]
        )
    return out


def table(result: ArenaResult) -> list[str]:
    """The results as markdown table lines (every cell escaped)."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows(result):
        lines.append("| " + " | ".join(escape_markdown(c) for c in row) + " |")
    return lines


def _plot_text(text: str) -> str:
    """A label for matplotlib: one line, and ``$`` escaped so it cannot start math text."""
    return plain(text).replace("$", r"\$")


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()


def _plots(result: ArenaResult) -> dict[str, bytes]:
    """The plots as PNG bytes by file name (none without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}
    plots: dict[str, bytes] = {}
    fig, ax = plt.subplots(figsize=(6, 3.2))
    names = [_plot_text(s.name) for s in result.stats]
    shares = [s.share for s in result.stats]
    err = [
        [s.share - s.low for s in result.stats],
        [s.high - s.share for s in result.stats],
    ]
    ax.bar(range(len(names)), shares, yerr=err, capsize=6, color="#4a7ab5")
    ax.set_xticks(range(len(names)), names)
    for i, s in enumerate(result.stats):
        ax.hlines(s.even, i - 0.4, i + 0.4, colors="#c0392b", linestyles="dashed")
    ax.set_ylabel("win share (95% interval)")
    ax.set_title(f"{result.setup.game}, {result.setup.players} players, {result.games} games")
    ax.set_ylim(0, 1)
    fig.tight_layout()
    plots["win_shares.png"] = _png(fig)
    plt.close(fig)
    history = history_of(result.tally)
    if history is not None:
        steps, ratings = history
        fig, ax = plt.subplots(figsize=(6, 3.2))
        for name, elo in zip(names, ratings, strict=True):
            ax.plot(steps, elo, label=name)
        ax.set_xlabel("games")
        ax.set_ylabel("Elo rating")
        ax.legend()
        fig.tight_layout()
        plots["ratings.png"] = _png(fig)
        plt.close(fig)
    return plots


def write_report(result: ArenaResult, folder: str | Path) -> Path:
    """Write the report files into ``folder``; return the markdown page's path."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    plots = _plots(result)
    for file_name, png in plots.items():
        write_bytes_atomic(out / file_name, png)
    setup = result.setup
    data = result.to_json()
    names = [plain(n) for n in result.names]
    title = f"Arena: {setup.game}, {setup.players} players"

    def summary(escape: Any) -> str:
        codes = "; ".join("".join(escape(names[a][:1]) for a in s) for s in data["seatings"])
        return (
            f"Agents: {', '.join(escape(n) for n in names)}. Seed {setup.seed}; {data['deals']} "
            f"deals, each played once per seating ({len(data['seatings'])} seatings: {codes}), "
            f"{data['games']} {'matches' if setup.matches else 'hands'} in all."
            + (f" Options: {escape(json.dumps(dict(setup.options)))}." if setup.options else "")
        )

    explanation = (
        "Win share: the share of the wins an agent took (a shared win split between its "
        "winners); the even share is what its seats would win by luck alone. The 95% interval "
        "is over deals, so the luck of the deal is taken out. Elo ratings are fitted to all "
        "the games; only their differences count."
    )
    forfeits = [
        (f"game {f['game']}: ", f"{plain(f['agent'])} (P{f['seat']}): {plain(f['reason'])}")
        for f in data["forfeits"]
    ]
    lines = [
        f"# {escape_markdown(title)}",
        "",
        summary(escape_markdown),
        "",
        explanation,
        "",
        *table(result),
    ]
    unlisted = data["forfeits_total"] - len(forfeits)
    more = (
        f"and {unlisted} more forfeits (the first {len(forfeits)} are listed)" if unlisted else ""
    )
    if forfeits:
        lines += ["", "Forfeits:", ""]
        lines += [f"- {escape_markdown(a + b)}" for a, b in forfeits]
        lines += [f"- {more}"] if more else []
    lines += ["", *(f"![{Path(p).stem}]({p})" for p in plots)]
    md = out / "report.md"
    write_text_atomic(md, "\n".join(lines) + "\n")
    images = "".join(
        f'<p><img alt="{Path(p).stem}" src="data:image/png;base64,'
        f'{base64.b64encode(png).decode()}"></p>'
        for p, png in plots.items()
    )
    header = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in rows(result)
    )
    forfeit_list = (
        "<h2>Forfeits</h2><ul>"
        + "".join(f"<li>{html.escape(a + b)}</li>" for a, b in forfeits)
        + (f"<li>{html.escape(more)}</li>" if more else "")
        + "</ul>"
        if forfeits
        else ""
    )
    page = (
        "<!doctype html><meta charset='utf-8'><title>bonepile arena</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "td,th{padding:.2em .6em;border-bottom:1px solid #ccc}</style>"
        f"<h1>{html.escape(title)}</h1><p>{summary(html.escape)}</p>"
        f"<p>{html.escape(explanation)}</p>"
        f"<table><tr>{header}</tr>{body}</table>{forfeit_list}{images}"
    )
    write_text_atomic(out / "report.html", page)
    return md
