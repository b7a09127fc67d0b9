"""The session: the ONLY place where a game's state changes.

`submit(action)` checks the action against the rules; an accepted action is committed to the
store *before* it becomes the current state, so whatever the screen shows is already on disk.
Undo and redo work on any action, dice included; `correct` replaces an earlier entry (a misread
die) and replays what followed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from companion.engine.core import Action, Game, RulesError, SetupError, find_game
from companion.engine.log import Header, encode
from companion.store import StoreError


@dataclass(frozen=True)
class Accepted:
    state: Any
    action: Action | None = None
    ok = True


@dataclass(frozen=True)
class Rejected:
    reason: str
    rule: str = ""
    ok = False


class Session:
    """One game in play: its header, its actions and the states they lead to."""

    def __init__(self, game: Game, header: Header, store=None, game_id: int | None = None):
        self.game = game
        self.header = header
        self.store = store
        self.game_id = game_id
        self._actions: list[Action] = []
        self._states: list = [game.new(header.players, header.options)]
        self._redo: list[Action] = []  # most recently undone last
        self.notice: str | None = None

    # -- starting and resuming -------------------------------------------------------------
    @classmethod
    def new(cls, game_name: str, players: Iterable[str], options: Mapping[str, Any] | None = None,
            store=None) -> "Session":
        """A new game; SetupError (a RulesError) for a bad table. Recorded in `store` if given."""
        game = find_game(game_name)
        names = game.check_players(players)
        header = Header(game_name, names, dict(options or {}))
        session = cls(game, header)  # validates the set-up before anything is stored
        if store is not None:
            for seat, name in enumerate(names, 1):
                if not _storable(name):
                    # A lone surrogate is valid in a JSON log, but SQLite stores UTF-8 text only.
                    raise SetupError(f"Player {seat}'s name {name.encode('utf-8', 'backslashreplace').decode()} "
                                     "holds a character that is not text (a lone surrogate): it cannot be kept.")
            session.store = store
            session.game_id = store.create_game(header)
        return session

    @classmethod
    def resume(cls, store, game_id: int) -> "Session":
        """Replay a stored game. A stored action the rules now refuse stops the replay there,
        and `notice` says so: the game stays playable from the last good position."""
        header, live, redo = store.load(game_id)
        game = find_game(header.game)
        session = cls(game, header, store, game_id)
        for number, data in enumerate(live, start=1):
            try:
                action = game.action_from_json(data)
                session._push(action, game.apply(session.state, action))
            except RulesError as exc:
                # Kept, not deleted: a later version of the rules may read it again.
                try:
                    kept = store.set_aside(game_id, number - 1, str(exc))
                except StoreError:  # read-only or full: they simply stay where they are
                    kept = len(live) - number + 1
                session.notice = (f"Saved action {number} could not be replayed ({exc}); the game resumes "
                                  f"before it. It and the {kept - 1} after it are kept in the saved games file.")
                return session
        for data in reversed(redo):
            try:
                session._redo.append(game.action_from_json(data))
            except RulesError:
                break
        return session

    # -- reading -----------------------------------------------------------------------------
    @property
    def state(self):
        return self._states[-1]

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def before_last(self):
        """The state before the last action (None at the start): what a resumed table needs to
        say again what the last action asked of the players."""
        return self._states[-2] if len(self._states) > 1 else None

    @property
    def prompt(self):
        return self.game.prompt(self.state)

    @property
    def finished(self) -> bool:
        return self.game.finished(self.state)

    def summary(self) -> dict:
        return self.game.summary(self.state)

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def export(self) -> str:
        """The game as a JSON Lines log (docs/game-log.md)."""
        return encode(self.header, self._actions)

    def legal_actions(self):
        return self.game.legal_actions(self.state)

    # -- changing ----------------------------------------------------------------------------
    def submit(self, action: Action) -> Accepted | Rejected:
        try:
            new_state = self.game.apply(self.state, action)
        except RulesError as exc:
            return Rejected(str(exc), exc.rule)
        saved = self._save(lambda: self.store.append(self.game_id, len(self._actions), action.to_json()))
        if saved is not None:
            return saved
        self._push(action, new_state)
        self._redo.clear()
        self._record_result()
        return Accepted(new_state, action)

    def submit_json(self, data: Mapping[str, Any]) -> Accepted | Rejected:
        try:
            action = self.game.action_from_json(data)
        except RulesError as exc:
            return Rejected(str(exc), exc.rule)
        return self.submit(action)

    def undo(self) -> Accepted | Rejected:
        if not self._actions:
            return Rejected("There is nothing to undo.")
        seq = len(self._actions) - 1
        saved = self._save(lambda: self.store.set_undone(self.game_id, seq, True))
        if saved is not None:
            return saved
        action = self._actions.pop()
        self._states.pop()
        self._redo.append(action)
        self._record_result()
        return Accepted(self.state, action)

    def redo(self) -> Accepted | Rejected:
        if not self._redo:
            return Rejected("There is nothing to redo.")
        action = self._redo[-1]
        try:
            new_state = self.game.apply(self.state, action)
        except RulesError as exc:  # cannot happen for a true redo; kept for safety of old files
            return Rejected(str(exc), exc.rule)
        seq = len(self._actions)
        saved = self._save(lambda: self.store.set_undone(self.game_id, seq, False))
        if saved is not None:
            return saved
        self._redo.pop()
        self._push(action, new_state)
        self._record_result()
        return Accepted(new_state, action)

    def correct(self, index: int, action: Action) -> Accepted | Rejected:
        """Replace the action at `index` (e.g. a misread roll) and replay everything after it.

        Refused, with nothing changed, if the new entry or any later action becomes illegal."""
        if not 0 <= index < len(self._actions):
            return Rejected(f"There is no action number {index + 1} to correct.")
        old = self._actions[index]
        if type(old) is not type(action):
            return Rejected(f'Action {index + 1} is a "{old.type}"; it can only be corrected by another "{old.type}".')
        states = self._states[: index + 1]
        rest = [action] + self._actions[index + 1:]
        for n, later in enumerate(rest):
            try:
                states.append(self.game.apply(states[-1], later))
            except RulesError as exc:
                if n == 0:
                    return Rejected(str(exc), exc.rule)
                return Rejected(
                    f"With that correction, action {index + n + 1} ({later}) would no longer be legal: {exc} "
                    f"Undo back to it first.", exc.rule)
        saved = self._save(lambda: self.store.replace_from(self.game_id, index, [a.to_json() for a in rest]))
        if saved is not None:
            return saved
        self._actions[index:] = rest
        self._states = states
        self._redo.clear()
        self._record_result()
        return Accepted(self.state, action)

    def correct_last_chance(self, action: Action) -> Accepted | Rejected:
        """Correct the most recent chance entry of the same kind (the dice just read)."""
        for index in range(len(self._actions) - 1, -1, -1):
            old = self._actions[index]
            if self.game.is_chance(old) and type(old) is type(action):
                return self.correct(index, action)
        return Rejected(f'There is no "{action.type}" to correct yet.')

    def record_rolls(self, dice) -> None:
        """Keep camera-read dice, each (die, face), for the fairness statistics. Not the game's
        state: a roll that cannot be kept (read-only, full disk) costs the game nothing."""
        if self.store is None or not dice:
            return
        try:
            self.store.add_rolls(self.game_id, dice)
        except StoreError:
            pass

    # -- internals ---------------------------------------------------------------------------
    def _push(self, action: Action, state) -> None:
        self._actions.append(action)
        self._states.append(state)

    def _save(self, write) -> Rejected | None:
        """Run a store write; a failed write leaves the game exactly as it was."""
        if self.store is None:
            return None
        try:
            write()
        except StoreError as exc:  # a full disk, a lock, a read-only file: the sentence says which
            return Rejected(f"That could not be saved, so it was not taken: {exc} Nothing already saved "
                            f"was lost.")
        except Exception as exc:  # anything else: the action must not be shown either
            return Rejected(f"That could not be saved, so it was not taken ({exc}). Nothing else changed.")
        return None

    def _record_result(self) -> None:
        if self.store is None:
            return
        finished = self.finished
        try:
            self.store.set_finished(self.game_id, finished, self.summary() if finished else None)
        except Exception:  # the actions are safe; the finished flag is re-derived on resume
            pass


def _storable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
