"""The terminal app: ``bonepile play`` and ``bonepile replay --step``.

A client of the public API. Drawing is pure functions from a :class:`~bonepile.view.View` to
character cells (:mod:`.canvas`, :mod:`.table`, :mod:`.board`, :mod:`.screen`), testable as exact
text; :mod:`.session` runs a game (local bots, hot-seat, a replay or a table of the web server)
and hands out only the views a seat may see; :mod:`.app` is the one Textual ``App`` that does
the I/O. Nothing here is imported by the rules core, and only :mod:`.app` imports Textual.
"""
