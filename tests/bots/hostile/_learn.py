"""Shared by the hostile bots that try to learn the deal. They play the first legal action; at
their first decision of a hand they guess, from what they found, every deal that would give
them the hand they hold; when the hand is over they check their guesses against the true deal
(rebuilt from the hands shown at the end and the tiles played) and append a report, one JSON
line, to a file the test reads:

``{"found": bool, "tried": int, "acted": bool, "guesses": int, "seat": int, "hand": [...]}``:
``found`` says that one of the guesses made at the first decision was the whole deal (every
hand), which a bot must never be able to learn; ``acted`` is false for a hand that ended
before the bot's first turn (a block hand blocked by its lead), where it guessed nothing. (A
guess from the bot's own hand alone would match by chance about once in a million deals;
checking the whole deal makes such a false alarm impossible.)
Games without draws only, such as block.
"""

import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

Deal = list[list[str]]
Guess = Callable[[dict[str, Any], dict[str, Any]], tuple[int, list[Deal]]]
"""``guess(start, view)``: how many deals it tried, and those that give it its own hand."""


def tile(text: str) -> str:
    """A tile's text, high end first."""
    return "-".join(sorted(text.split("-"), key=int, reverse=True))


def hand_of(tiles: Iterable[Any]) -> list[str]:
    """A hand (tiles or their text) as sorted text, comparable with any other."""
    return sorted(tile(str(t)) for t in tiles)


def true_deal(view: dict[str, Any]) -> Deal:
    """Every seat's hand as dealt, from the view of a finished hand."""
    hands = [list(h) for h in view["revealed"]]
    for turn in view["history"]:
        for event in turn["events"]:
            if event.get("type") in ("led", "placed") and "tile" in event:
                hands[event["seat"]].append(event["tile"])
    return [hand_of(h) for h in hands]


def play(report_path: str, guess: Guess) -> None:
    """Speak the bot protocol on stdin/stdout, guessing at the first decision of each hand
    and reporting at its end."""
    start: dict[str, Any] = {}
    tried, guesses, hand = 0, None, []
    with open(report_path, "a", encoding="utf-8") as report:
        for line in sys.stdin:
            message = json.loads(line)
            kind = message.get("type")
            if kind == "start":
                start, guesses = message, None
                print(json.dumps({"type": "ready", "name": "spy"}), flush=True)
            elif kind == "act":
                if guesses is None:
                    hand = message["view"]["hand"]
                    tried, found = guess(start, message["view"])
                    guesses = [[hand_of(h) for h in deal] for deal in found]
                print(json.dumps({"action": message["legal"][0]}), flush=True)
            elif kind == "hand_over":  # a hand can end before a seat's first turn (blocked)
                acted = guesses is not None
                found = acted and true_deal(message["view"]) in (guesses or [])
                entry = {"found": found, "tried": tried if acted else 0, "acted": acted,
                         "guesses": len(guesses or []), "seat": start.get("seat"),
                         "hand": hand if acted else message["view"]["hand"]}  # fmt: skip
                report.write(json.dumps(entry) + "\n")
                report.flush()
            elif kind == "quit":
                return
