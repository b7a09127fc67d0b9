"""A menu of the engine's legal actions, one level at a time: each action has a path of words
("Build", "red zone, level 2 ..."), and a level shows the next word of every path that continues
the words chosen so far. Shared by the games whose turns are a choice among many actions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from companion.engine.core import Action

from .draft import Outcome
from .game_input import GameInput


@dataclass(frozen=True)
class Item:
    """One menu button: a final action, or a word that opens the next level (`action` None)."""

    label: str
    action: Action | None = None
    player: str = ""  # whose choice it is, for the button's colour


def level(entries: Iterable[tuple[tuple[str, ...], Action, str]], path: tuple[str, ...],
          first: Callable[[Action], bool] = lambda _a: False) -> list[Item]:
    """The buttons after `path`, from (path, action, player) entries, in the entries' order;
    groups whose first action `first` picks come before the others."""
    depth = len(path)
    groups: dict[str, list[tuple[tuple[str, ...], Action, str]]] = {}
    for entry in entries:
        words = entry[0]
        if len(words) > depth and words[:depth] == path:
            groups.setdefault(words[depth], []).append(entry)
    ordered = sorted(groups.items(), key=lambda g: not first(g[1][0][1]))
    items = []
    for label, members in ordered:
        leaf = len(members) == 1 and len(members[0][0]) == depth + 1
        players = {player for _, _, player in members}
        items.append(Item(label, members[0][1] if leaf else None, players.pop() if len(players) == 1 else ""))
    return items


class MenuInput(GameInput):
    """The intents every menu-driven game shares: a menu button (a word opens the next level, an
    action is taken), back one level, and an action spelled out in full. A game gives `items(table)`,
    `_set` (the pick kept valid) and `take` (how an action is submitted); `fresh_cursor` is
    where the highlight sits on a new level (None: nowhere until NEXT)."""

    fresh_cursor: int | None = 0

    def take(self, table, action: Action) -> Outcome:
        return table.submit(action)

    def on_item(self, table, label: str) -> Outcome:
        """A menu button: a final action is taken, a word opens the next level."""
        for item in self.items(table):
            if item.label == label:
                if item.action is not None:
                    return self.take(table, item.action)
                return self._set(table, path=self.pick.path + (label,), cursor=self.fresh_cursor)
        return Outcome(info=f'"{label}" is not offered now.')

    def on_back(self, table) -> Outcome:
        return self.on_clear(table)

    def on_action(self, table, data: dict) -> Outcome:
        """An action spelled out in full (a panel or a test); the engine decides."""
        try:
            action = table.session.game.action_from_json(dict(data))
        except (ValueError, TypeError, KeyError) as exc:  # a garbled panel line: said, never a crash
            return Outcome(info=f"That action cannot be read: {exc}")
        return self.take(table, action)
