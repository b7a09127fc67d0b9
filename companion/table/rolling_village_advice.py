"""The Rolling Village advisor at the table: on the table's worker thread, its advice for the
sheet in front worked out as soon as that sheet has something to build, so a tap on Advise
usually finds it ready; else the table says it is thinking until the advice comes back.

The advisor takes 0.1-0.4 s here (most at the Start Phase: two Projects anywhere in two
Streets), several times that on a loaded machine: run on the main thread it froze the window.
"""
from __future__ import annotations

from typing import Callable

from .draft import Outcome


class AdvisorAtTable:
    """Advice per (state, player, Avenue-choice dice), worked out once on the worker."""

    def __init__(self, advise: Callable, choosing: Callable):
        self.advise, self.choosing = advise, choosing
        self._of = None          # the state the advice below is for
        self._found: dict = {}
        self._pending: set = set()
        self._wanted = None      # the key a player asked for and waits on

    def _key(self, table, player: str) -> tuple:
        dice = table.draft.dice if self.choosing(table.state, table.draft) else ()
        return (id(table.state), player, dice)

    def _cache(self, table) -> dict:
        if self._of is not table.state:
            # The game moved on: earlier advice is for a sheet gone by, and nobody waits on it.
            self._of, self._found, self._pending, self._wanted = table.state, {}, set(), None
            table.thinking = ""
        return self._found

    def think(self, table, player: str) -> None:
        """Start working out `player`'s advice now, unless it is known or under way."""
        key, state, draft = self._key(table, player), table.state, table.draft
        if key in self._cache(table) or key in self._pending:
            return
        self._pending.add(key)
        advise = self.advise
        table.off_main(lambda: advise(state, player, draft), lambda found: self._thought(table, state, key, found))

    def _thought(self, table, state, key: tuple, found) -> Outcome | None:
        """The worker's advice (or its exception), on the main thread."""
        if table.state is not state:
            return None
        self._pending.discard(key)
        wanted = self._wanted == key
        if isinstance(found, Exception):
            if not wanted:
                return None
            self._wanted, table.thinking = None, ""
            return Outcome(info=f"The advisor could not answer: {found}")
        self._found[key] = found
        if not wanted:
            return None
        self._wanted, table.thinking = None, ""
        table.advice = found
        return Outcome(info=found.text)

    def ask(self, table, player: str) -> Outcome:
        """A tap on Advise: the advice if known, else Thinking until it comes."""
        key = self._key(table, player)
        found = self._cache(table).get(key)
        if found is None:
            self._wanted = key
            table.thinking = f"Thinking about {player}'s best move..."
            self.think(table, player)
            found = self._found.get(key)  # there at once when the table has no worker
            if found is None:
                return Outcome(info=table.thinking)
        self._wanted, table.thinking = None, ""
        table.advice = found
        return Outcome(info=found.text)
