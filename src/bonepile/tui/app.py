"""The Textual app: one full-screen widget drawn by :func:`~bonepile.tui.screen.render_screen`
and a line for typing notation. It plays a :class:`~bonepile.tui.session.LocalGame` (bots
off the UI thread, paced), steps a :class:`~bonepile.tui.session.Replay`, or sits at a table of
the web server (:class:`~bonepile.tui.remote.RemoteTable`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Input

from bonepile.actions import DRAW, PASS, STOP, Action, Discard, parse_action
from bonepile.errors import BonepileError
from bonepile.tui.explain import Ending, cannot_play
from bonepile.tui.screen import (
    AGAIN,
    COMMANDS,
    HAND_KEYS,
    LETTERS,
    WATCH_KEYS,
    Drawn,
    Frame,
    choices_for,
    help_text,
    letters,
    log_lines,
    play_keys,
    render_screen,
    tile_of,
)
from bonepile.tui.session import LocalGame, Replay
from bonepile.view import View

REPLAY_HELP = (
    "Keys: →, n or space next position · ← or b back · Home/End first/last · "
    "PgUp/PgDn a hand back/on · shift+arrows pan · Esc centre · q quit"
)
WATCH_HELP = "Keys: shift+arrows pan the table · Esc centre · q quit (you are watching)"
PAN_KEYS = {
    "shift+left": (8, 0),
    "shift+right": (-8, 0),
    "shift+up": (0, 4),
    "shift+down": (0, -4),
}
"""The keys that pan the table, and by how many cells."""


def key_name(key: str, char: str | None) -> str:
    """A key as the player knows it: its character if it has a printable one, else its name."""
    shown = char is not None and len(char) == 1 and char.isprintable() and not char.isspace()
    return char if shown and char is not None else key


class Surface(Widget):
    """The whole screen, drawn from the app's current frame; clicks go back to the app."""

    can_focus = True

    def render(self) -> Text:
        """The app's screen at this widget's size."""
        app = self.app
        assert isinstance(app, BonepileApp)
        return app.draw(self.size.width, self.size.height).canvas.text()

    def on_click(self, event: events.Click) -> None:
        """Hand the click to the app."""
        app = self.app
        assert isinstance(app, BonepileApp)
        app.clicked(event.x, event.y)


class BonepileApp(App[None]):
    """Play a local game, step a replay or sit at a table of the web server.

    ``pace`` is the least time in seconds between two bot moves (so a person can follow
    them); ``save_path`` is where a game against bots is saved on quit.
    """

    CSS = """
    Screen { overflow: hidden; }
    Surface { width: 100%; height: 100%; }
    Input { dock: bottom; height: 1; border: none; padding: 0 1; display: none; }
    Input.shown { display: block; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[Any]] = []

    def __init__(
        self,
        session: LocalGame | Replay | Any,
        *,
        pace: float = 0.8,
        save_path: Path | None = None,
        hint_level: str = "hard",
    ) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        self.save_path = save_path
        self.hint_level = hint_level
        self.selected: int | None = None
        self.choices: tuple[Action, ...] = ()
        self.focus = 0
        self.message = ""
        self.error = False
        self.hint: tuple[tuple[str, int, float], ...] = ()
        self.pan = (0, 0)
        self.shown_seat: int | None = None
        self.curtain = False
        self.step = 0
        self.version = 0
        self.thinking = False
        self.last: Drawn | None = None
        if isinstance(session, LocalGame):
            humans = session.humans
            self.shown_seat = humans[0] if humans else None
            self.curtain = session.hot_seat

    # ------------------------------------------------------------------ drawing
    def compose(self) -> ComposeResult:
        """The screen and the (hidden) notation line."""
        yield Surface()
        yield Input(placeholder="notation, e.g. 6-4@6-6 or draw; Enter plays, Esc cancels")

    def on_mount(self) -> None:
        """Focus the screen, hear from a remote table, and start the game."""
        self.query_one(Surface).focus()
        remote = getattr(self.session, "attach", None)
        if remote is not None:
            remote(self)
        self.advance()

    def current_view(self) -> View:
        """The view the screen shows: the seat playing here, else a spectator's."""
        s = self.session
        if isinstance(s, Replay):
            return s.steps[self.step].view
        if isinstance(s, LocalGame):
            if s.hot_seat and (self.curtain or self.shown_seat != s.actor) and not s.hand_over:
                return s.view(None)
            return s.view(self.shown_seat)
        view: View = s.view()
        return view

    def frame(self) -> Frame:
        """What to draw now."""
        s = self.session
        v = self.current_view()
        if isinstance(s, Replay):
            return s.frame(self.step, pan=self.pan, message=self.message)
        names = s.names()
        end: Ending = s.ending()
        keys = play_keys(v, end.again, len(self.choices), end.leave)
        curtain = None
        if isinstance(s, LocalGame) and s.hot_seat and v.seat is None and not s.hand_over:
            actor = s.actor
            if actor is not None and s.agents[actor] is None:
                curtain = f"P{actor}'s turn: pass the keyboard to P{actor}, who presses Enter."
            else:
                curtain = "Hands hidden (hot-seat)."
        return Frame(
            v,
            names,
            title=s.title(),
            selected=self.selected,
            choices=self.choices,
            focus=self.focus,
            log=tuple(log_lines(v, names)),
            message=self.message or ("thinking…" if self.thinking else ""),
            error=self.error,
            hint=self.hint,
            curtain=curtain,
            keys=WATCH_KEYS if self.watching() else keys,
            pan=self.pan,
            totals=s.totals(),
            ending=end if v.result is not None else None,
        )

    def watching(self) -> bool:
        """Whether this terminal only watches (a table of the web server with no seat here)."""
        if isinstance(self.session, LocalGame | Replay):
            return False
        return self.current_view().seat is None

    def draw(self, width: int, height: int) -> Drawn:
        """Render the screen (and keep it, for clicks)."""
        self.last = render_screen(self.frame(), width, height)
        return self.last

    def redraw(self) -> None:
        """Draw again."""
        self.query_one(Surface).refresh()

    def say(self, message: str, error: bool = False) -> None:
        """Show one line on the prompt row."""
        self.message, self.error = message, error
        self.redraw()

    # ------------------------------------------------------------------ the game
    def my_turn(self) -> bool:
        """Whether the seat shown here is to act and may."""
        v = self.current_view()
        return v.seat is not None and v.actor == v.seat and bool(v.legal)

    def advance(self) -> None:
        """After any change: deal on, start a bot, raise the curtain, or wait for a person."""
        s = self.session
        self.redraw()
        if not isinstance(s, LocalGame) or s.hand_over:
            return  # the screen says how the hand ended, and what Enter and q do now
        if s.bot_to_act():
            self.start_bot()
            return
        if s.hot_seat and s.actor != self.shown_seat:
            self.curtain = True
            self.shown_seat = None
            self.redraw()

    def start_bot(self) -> None:
        """Ask the bot to act off the UI thread; its move is played after ``pace`` seconds."""
        s = self.session
        assert isinstance(s, LocalGame)
        if self.thinking:
            return
        self.thinking = True
        version = self.version

        def think() -> None:
            began = time.monotonic()
            try:
                seat, action = s.bot_action()
            except Exception as e:  # a bot that fails: say so, never crash the app
                self.call_from_thread(self._bot_failed, str(e))
                return
            wait = self.pace - (time.monotonic() - began)
            if wait > 0:
                time.sleep(wait)
            self.call_from_thread(self._bot_played, version, seat, action)

        self.run_worker(think, thread=True, group="bot")

    def _bot_played(self, version: int, seat: int, action: Action) -> None:
        self.thinking = False
        if version != self.version:
            return
        s = self.session
        assert isinstance(s, LocalGame)
        try:
            s.play_bot(seat, action)
        except BonepileError as e:
            self.say(f"the bot's move was refused: {e}", error=True)
            return
        self.version += 1
        self.advance()

    def _bot_failed(self, why: str) -> None:
        self.thinking = False
        self.say(f"the bot failed: {why}", error=True)

    def play(self, action: Action | str) -> None:
        """Play an action for the seat shown here; a bad one gives one line on the prompt."""
        s = self.session
        v = self.current_view()
        if isinstance(s, Replay):
            return
        if v.seat is None:
            self.say("you are watching", error=True)
            return
        try:
            act = parse_action(action) if isinstance(action, str) else action
            s.play(act, v.seat)
        except BonepileError as e:
            self.say(str(e), error=True)
            return
        self.clear_choice()
        self.message = ""
        self.version += 1
        self.advance()

    def clear_choice(self) -> None:
        """Forget the chosen tile, the hint and the message."""
        self.selected, self.choices, self.focus = None, (), 0
        self.hint = ()
        self.message, self.error = "", False

    def select(self, index: int) -> None:
        """Choose the hand tile at ``index``."""
        v = self.current_view()
        if not 0 <= index < len(v.hand):
            return
        choices = choices_for(v, v.hand[index])
        self.clear_choice()
        if not v.legal or v.actor != v.seat:
            self.say("not your turn")
            return
        if not choices:
            self.say(cannot_play(v, v.hand[index]), error=True)
            return
        self.selected, self.choices = index, choices
        self.redraw()

    def choose(self, k: int) -> None:
        """Play the chosen tile's choice ``k``."""
        if 0 <= k < len(self.choices):
            self.play(self.choices[k])

    def command(self, word: str) -> None:
        """Draw, pass, discard (the chosen tile) or stop."""
        v = self.current_view()
        if word == "discard":
            discards = [a for a in v.legal if isinstance(a, Discard)]
            if self.selected is not None:
                discards = [a for a in discards if a.tile is v.hand[self.selected]]
            if len(discards) == 1:
                self.play(discards[0])
            elif discards:
                self.say("pick the tile to discard first (1-9), then x")
            else:
                self.say("you cannot discard now", error=True)
            return
        action = {"draw": DRAW, "pass": PASS, "stop": STOP}[word]
        if action in v.legal:
            self.play(action)
        else:
            self.say(f"you cannot {word} now", error=True)

    def ask_hint(self) -> None:
        """The search bot's estimate for each legal move, from this seat's view alone."""
        v = self.current_view()
        if not self.my_turn():
            self.say("a hint is for your turn")
            return
        if len(v.legal) == 1:
            self.hint = ((str(v.legal[0]), 1, 1.0),)
            self.redraw()
            return
        self.say("the bot is thinking about your position…")
        level = self.hint_level
        version = self.version

        def think() -> None:
            from bonepile.agents.ismcts import ISMCTSAgent

            # a chance to win, as the hint shows it, whatever the game's bots play for
            found = ISMCTSAgent(level=level, seed=0, objective="win").estimates(v)
            rows = tuple((str(a), n, w) for a, n, w in found)
            self.call_from_thread(self._hinted, version, rows)

        self.run_worker(think, thread=True, exclusive=True, group="hint")

    def _hinted(self, version: int, rows: tuple[tuple[str, int, float], ...]) -> None:
        if version != self.version:
            return
        self.message = ""
        self.hint = rows or (("no estimate (no deal fits the view)", 0, 0.0),)
        self.redraw()

    # ------------------------------------------------------------------ input
    def clicked(self, x: int, y: int) -> None:
        """A mouse click at cell ``(x, y)``: a hand tile, a lettered place or a button."""
        if self.last is None:
            return
        hit = self.last.hit(x, y)
        if hit is None:
            return
        kind, value = hit
        if kind == "tile":
            self.select(value)
        elif kind == "choice":
            self.choose(value)
        elif kind == "command":
            self.command(COMMANDS[value])
        elif kind == "ending":
            if value == AGAIN:
                self.deal_on()
            else:
                self.quit_game()

    def on_key(self, event: events.Key) -> None:
        """Every key of the game (the notation line takes its own)."""
        inp = self.query_one(Input)
        if inp.has_class("shown"):
            if event.key == "escape":
                inp.remove_class("shown")
                inp.value = ""
                self.query_one(Surface).focus()
                event.stop()
            return
        key = event.key
        event.stop()
        char = event.character
        place = self.place_of(char)
        if place is not None:  # the chosen tile's letters come first (q, d, s… included)
            self.choose(place)
            return
        if key in ("q", "ctrl+c", "ctrl+q"):
            self.quit_game()
            return
        if key in PAN_KEYS:
            dx, dy = PAN_KEYS[key]
            self.pan = (self.pan[0] + dx, self.pan[1] + dy)
            self.redraw()
            return
        if key == "escape":
            self.clear_choice()
            self.pan = (0, 0)
            self.redraw()
            return
        if char == "?" or key == "question_mark":
            self.show_help()
            return
        if self.watching():
            self.say(f"you are watching ({key_name(key, char)} does nothing): ? shows the keys")
            return
        if isinstance(self.session, Replay):
            known = self.replay_key(key)
        else:
            known = self.play_key(key, char)
        if not known:
            self.say(f"unknown key {key_name(key, char)}: press ? for the keys")

    def place_of(self, char: str | None) -> int | None:
        """The chosen tile's place that the letter ``char`` names, if any."""
        if char and len(char) == 1 and char in LETTERS[: len(self.choices)]:
            return LETTERS.index(char)
        return None

    def show_help(self) -> None:
        """Every key of what is on the screen now, on the prompt line."""
        if isinstance(self.session, Replay):
            text = REPLAY_HELP
        elif self.watching():
            text = WATCH_HELP
        else:
            text = help_text(self.current_view(), self.session.ending().leave)
        self.hint = ()
        self.say(text)

    def remote_changed(self) -> None:
        """A new state (or a note) came from the server."""
        v = self.current_view()
        if self.selected is not None and (
            v.actor != v.seat
            or self.selected >= len(v.hand)
            or not self.choices
            or any(a not in v.legal for a in self.choices)
        ):
            self.clear_choice()
        self.message = getattr(self.session, "note", "")
        self.error = bool(self.message)
        self.redraw()

    def play_key(self, key: str, char: str | None) -> bool:
        """A key while playing; False if it is not one of the game's keys."""
        s = self.session
        if not isinstance(s, Replay) and s.hand_over:
            end = s.ending()
            if key == "enter" and end.again:
                self.deal_on()
            elif end.again:
                self.say(f"The hand is over: Enter {end.again}, q {end.leave}.")
            else:
                over = "match" if end.match_over else "hand"
                self.say(f"The {over} is over: q {end.leave}s, shift+arrows pan the table.")
            return True
        if isinstance(s, LocalGame) and s.hot_seat and self.curtain:
            actor = s.actor
            if key == "enter" and actor is not None and s.agents[actor] is None:
                self.shown_seat, self.curtain = actor, False
                self.redraw()
            elif actor is not None and s.agents[actor] is None:
                self.say(f"P{actor} presses Enter to see their hand (q quits)")
            return True
        v = self.current_view()
        if key in (":", "slash", "colon") or char in (":", "/"):
            inp = self.query_one(Input)
            inp.add_class("shown")
            inp.focus()
            return True
        if char is not None and char in HAND_KEYS:
            self.select(HAND_KEYS.index(char))
            return True
        if key in ("left", "right"):
            step = 1 if key == "right" else -1
            start = self.selected if self.selected is not None else (-1 if step > 0 else 0)
            playable = {tile_of(a) for a in v.legal}
            for k in range(1, len(v.hand) + 1):
                i = (start + step * k) % len(v.hand)
                if v.hand[i] in playable:
                    self.select(i)
                    return True
            self.say("no tile of yours can be played now" if v.legal else "not your turn")
            return True
        steps = {"tab": 1, "right_square_bracket": 1, "down": 1}
        steps |= {"shift+tab": -1, "left_square_bracket": -1, "up": -1}
        if key in steps:
            if self.choices:
                self.focus = (self.focus + steps[key]) % len(self.choices)
                self.redraw()
            else:
                self.say("pick a tile first (1-9): then Tab steps through where it can go")
            return True
        if key == "enter":
            if self.choices:
                self.choose(self.focus)
            elif len(v.legal) == 1 and v.actor == v.seat:
                self.play(v.legal[0])
            return True
        words = {"d": "draw", "p": "pass", "x": "discard", "s": "stop"}
        if char in words:
            self.command(words[char])
            return True
        if char == "h":
            self.ask_hint()
            return True
        if char is not None and char in LETTERS:
            if self.choices:
                n = len(self.choices)
                self.say(f"({char}) is not one of the places: {letters(n)}, or Tab")
            else:
                self.say(f"pick a tile first (1-9): then {char} plays it where ({char}) shows")
            return True
        return False

    def replay_key(self, key: str) -> bool:
        """A key while stepping through a replay; False if it is not one of its keys."""
        s = self.session
        assert isinstance(s, Replay)
        last = len(s.steps) - 1
        moves = {"right": 1, "n": 1, "space": 1, "left": -1, "b": -1}
        if key in moves:
            self.step = min(last, max(0, self.step + moves[key]))
        elif key == "home":
            self.step = 0
        elif key == "end":
            self.step = last
        elif key in ("pagedown", "pageup"):
            hand = s.steps[self.step].hand + (1 if key == "pagedown" else -1)
            starts = [i for i, st in enumerate(s.steps) if st.hand == hand]
            if starts:
                self.step = starts[0]
        else:
            return False
        self.message = ""
        self.redraw()
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Typed notation: play it (one clear line if it is not a legal move)."""
        inp = self.query_one(Input)
        text = event.value.strip()
        inp.value = ""
        inp.remove_class("shown")
        self.query_one(Surface).focus()
        if text:
            self.play(text)

    def deal_on(self) -> None:
        """Once a hand is over: the next hand of the match, or a new deal (a new match when
        it is over) here; at a web table, ask it for the next hand."""
        s = self.session
        if isinstance(s, Replay) or not s.hand_over or not s.ending().again:
            return
        s.deal_on()
        self.clear_choice()
        self.pan = (0, 0)
        self.version += 1
        if not isinstance(s, LocalGame):
            self.say("asking the table for the next hand…")
        self.advance()

    def quit_game(self) -> None:
        """Quit; a game against bots that is not over is saved for ``--resume``."""
        s = self.session
        if isinstance(s, LocalGame) and self.save_path is not None:
            try:
                if s.over:
                    self.save_path.unlink(missing_ok=True)
                else:
                    s.save(self.save_path)
            except OSError as e:
                self.say(f"cannot save the game to {self.save_path}: {e.strerror}", error=True)
                return
        closer = getattr(s, "close", None)
        if closer is not None:
            closer()
        self.exit()


__all__ = ["BonepileApp"]
