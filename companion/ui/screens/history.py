"""History: every game, newest first, filtered by game and by player. A tap shows the game beside
the list (players, scores, winner, round by round); from there it opens
its end screen, shows its BG Stats QR code, resumes, is set aside, or is deleted once the
players confirm."""
from __future__ import annotations

from kivy.app import App
from kivy.core.window import Window
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import Screen

from companion.engine.core import all_games
from companion.history import SCORE_WORD, Play, plays, recent_people
from companion.store import StoreError

from .. import theme
from ..game_screens import PLAY_SCREENS
from ..sharing import find_play, seat_lines, share
from ..widgets.common import TouchButton
from ..widgets.rename import RenameView
from . import load_kv


class HistoryRow(TouchButton):
    """One game in the list (a RecycleView row: only the rows on screen are widgets)."""

    game_id = NumericProperty(0)

    def on_release(self) -> None:
        screen = App.get_running_app().screens.get_screen("history")
        screen.select(self.game_id)


load_kv(__file__)


LIST_SHARE = 0.54  # of the screen's width: history.kv's list


def row_text(play: Play, title: str, room: int = 40) -> str:
    """The game; its date, length (or how it stands) and winner; the players, highest score
    first, as many as fit in `room` characters (the rest counted: the game beside names all)."""
    seats = sorted(play.seats, key=lambda s: -(s.score or 0)) if play.finished else list(play.seats)
    state = f"{play.minutes} min" if play.finished else "set aside" if play.archived else "unfinished"
    won = f"  \u00b7  {' and '.join(play.winners)} won" if play.winners else ""
    line = f"{play.day}  \u00b7  {state}{won}"
    if len(line) > room:
        line = f"{play.day}  \u00b7  {state}"
    named = [f"{s.name}{'' if s.score is None else ' ' + str(s.score)}" for s in seats]
    shown = len(named)
    while shown > 1 and len(", ".join(named[:shown])) + len(f" +{len(named) - shown}") > room:
        shown -= 1
    more = f" +{len(named) - shown}" if shown < len(named) else ""
    return f"{title}\n{line}\n{', '.join(named[:shown])}{more}"


class HistoryScreen(Screen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.game_filter: str | None = None
        self.player_filter: str | None = None
        self.found: list[Play] = []
        self.selected: Play | None = None
        self.confirming = False

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    # -- the list ------------------------------------------------------------------------------
    def refresh(self) -> None:
        app = App.get_running_app()
        self.found = plays(app.store, game=self.game_filter, player=self.player_filter)
        titles = {g.name: g.title for g in all_games()}
        # The characters a row's line holds: from the window (the list may not be laid out yet),
        # the list's share of it less the margins, at about 0.56 of the font's size a character.
        room = int((Window.width * LIST_SHARE - theme.scaled(48)) / (theme.scaled(18) * 0.56))
        # The row's font size goes with its data: a row the list keeps from before a resize
        # was once found still at the old size (18 px at 1280x720) by the screen audit.
        font = theme.scaled(18)
        self.ids.list.data = [{"text": row_text(p, titles.get(p.game, p.game), room), "game_id": p.id,
                               "font_size": font,
                               "fill": theme.PANEL_LIGHT if p.finished else theme.BUTTON}
                              for p in self.found]
        self.ids.game_filter.text = f"Game: {titles.get(self.game_filter, 'all')}"
        self.ids.player_filter.text = f"Player: {self.player_filter or 'all'}"
        # Rename: offered while one player's games are listed (that player is the one renamed).
        rename = self.ids.rename
        rename.width, rename.opacity, rename.disabled = (
            (theme.scaled(100), 1, False) if self.player_filter else (0, 0, True))
        self.ids.count.text = f"{len(self.found)} game{'s' if len(self.found) != 1 else ''}"
        keep = self.selected.id if self.selected else None
        self.select(keep if any(p.id == keep for p in self.found) else (self.found[0].id if self.found else None))

    def next_game(self) -> None:
        """Cycle the game filter: all, then each game in turn."""
        names = [None] + [g.name for g in all_games() if g.name in PLAY_SCREENS]
        self.game_filter = names[(names.index(self.game_filter) + 1) % len(names)] \
            if self.game_filter in names else None
        self.refresh()

    def next_player(self) -> None:
        """Cycle the player filter through the people who have played, most recent first."""
        people = [None] + [name for name, _ in recent_people(App.get_running_app().store, limit=50)]
        self.player_filter = people[(people.index(self.player_filter) + 1) % len(people)] \
            if self.player_filter in people else None
        self.refresh()

    def rename(self) -> None:
        if self.player_filter:
            RenameView(self.player_filter, self._renamed).open()

    def _renamed(self, old: str, new: str) -> str | None:
        """None once `old` is called `new`; else the sentence saying why not (nothing changed)."""
        app = App.get_running_app()
        try:
            app.store.rename_person(old, new)
        except (KeyError, ValueError) as exc:
            return exc.args[0]
        except StoreError as exc:
            return str(exc)
        self.player_filter = new.strip()
        self.refresh()
        app.say(f"{old} is now {self.player_filter}; their games are kept.")
        return None

    # -- the game shown beside ---------------------------------------------------------------
    def select(self, game_id: int | None) -> None:
        listed = next((p for p in self.found if p.id == game_id), None)
        # The list holds names, scores and winners; the game shown beside is read whole (rounds).
        self.selected = find_play(App.get_running_app().store, game_id) if listed is not None else None
        self.confirming = False
        self._detail()

    def _detail(self) -> None:
        ids, play, app = self.ids, self.selected, App.get_running_app()
        if play is None:
            ids.detail_title.text = "No games yet." if not self.found else ""
            ids.detail_players.text = ""
            ids.rounds.text = ""
            for button in (ids.open, ids.second, ids.delete):
                _folded(button, True)
            return
        title = app.game_title(play.game)
        ids.detail_title.text = f"{title}\n{play.date}  \u00b7  {play.minutes} min"
        state = "" if play.finished else ("Set aside.\n" if play.archived else "Unfinished.\n")
        ids.detail_players.text = state + "\n".join(seat_lines(play))
        ids.rounds.text = _rounds_text(play)
        ids.open.text = "End screen" if play.finished else "Resume"
        _folded(ids.open, not play.readable or self.confirming)
        if self.confirming:
            ids.detail_players.text = "Delete this game for good? Its entries cannot be brought back."
            ids.second.text, ids.delete.text, ids.delete.fill = "Keep it", "Yes, delete", theme.ERROR
            return
        # The third button: a finished game is shared (its QR code), an unfinished one deleted.
        ids.delete.text, ids.delete.fill = ("BG Stats", theme.BUTTON) if play.finished else ("Delete", theme.BUTTON)
        _folded(ids.delete, not play.readable)
        # The middle button: an unfinished game is set aside (or put back); a finished
        # Rolling Village game shows its sheets.
        sheets = play.finished and play.game == "rolling-village" and play.readable
        _folded(ids.second, play.finished and not sheets)
        ids.second.text = "Sheets" if sheets else "Put back" if play.archived else "Set aside"

    def open_selected(self) -> None:
        play, app = self.selected, App.get_running_app()
        if play is None:
            return
        if play.archived:
            self._store_call(lambda: app.store.set_archived(play.id, False))
        app.resume(play.id)  # a finished game comes back on its end screen

    def sheets(self) -> None:
        """Rolling Village: every player's sheet as the game left it."""
        play, app = self.selected, App.get_running_app()
        if play is not None and play.game in PLAY_SCREENS:
            app.resume(play.id)
            app.screens.current = PLAY_SCREENS[play.game]

    def second(self) -> None:
        """The middle button: keep the game (while asked to confirm), its sheets, or set aside."""
        play = self.selected
        if play is None:
            return
        if self.confirming:
            self.confirming = False
            self._detail()
        elif play.finished:
            self.sheets()
        else:
            self._store_call(lambda: App.get_running_app().store.set_archived(play.id, not play.archived))
            self.refresh()

    def third(self) -> None:
        play = self.selected
        if play is None:
            return
        if play.finished:
            view = share(App.get_running_app().store, play.id, App.get_running_app().game_title(play.game))
            if view is not None:
                view.open()
            return
        self.delete()

    def delete(self) -> None:
        """The first tap only asks; the second deletes (nothing is deleted without both)."""
        play = self.selected
        if play is None or play.finished:
            return
        if not self.confirming:
            self.confirming = True
            self._detail()
            return
        if self._store_call(lambda: App.get_running_app().store.delete_game(play.id)):
            App.get_running_app().say(f"Game {play.id} was deleted.")
            self.selected = None
        self.refresh()

    def _store_call(self, write) -> bool:
        try:
            write()
        except StoreError as exc:
            App.get_running_app().say(str(exc), error=True)
            return False
        return True


def _folded(button, hidden: bool) -> None:
    button.opacity, button.disabled = (0, True) if hidden else (1, False)


def _rounds_text(play: Play) -> str:
    """Round by round: short entries (Rolling Village's turn scores) as one line per player,
    long ones (Centerville's scoring rounds) as one line per round and player."""
    if not play.rounds:
        return "" if play.finished else "Round-by-round scores come when the game ends."
    names = [s.name for s in play.seats]
    if all(len(e) <= 3 for _, entries in play.rounds for e in entries):
        head = f"{play.rounds[0][0]} to {play.rounds[-1][0].split()[-1]}:"
        return head + "\n" + "\n".join(
            f"{name}:  " + " \u00b7 ".join(entries[seat] for _, entries in play.rounds if seat < len(entries))
            for seat, name in enumerate(names))
    return "\n".join(f"{round_name}, {name}: {entry}"
                     for round_name, entries in play.rounds for name, entry in zip(names, entries))
