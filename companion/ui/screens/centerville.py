"""The Welcome to Centerville table: the whole board, each player's panel, the six icon dice
entered by tapping their faces, the menu of what the rules allow now, and the pages the table
reads before play goes on (a scoring round step by step, the bot's placements).

Everything is redrawn from the table (state + the wiring's pick) in `render`; taps only post events.
"""
from __future__ import annotations

from kivy.app import App

from companion.engine.centerville.state import DIE_ORDER
from companion.events import Command
from companion.table import centerville as cv
from companion.table import centerville_words as words

from .. import theme
from ..widgets.centerville_board import CentervilleBoard  # noqa: F401  (used by centerville.kv)
from ..widgets.centerville_paint import ink_on, mix, player_rgb
from ..widgets.centerville_players import PlayerView
from ..widgets.common import TouchButton, shown
from ..widgets.icon_die import IconFace
from ..widgets.teach_camera import open_teaching
from . import TableScreen, load_kv, undo_text

load_kv(__file__)


class CentervilleScreen(TableScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.menu_buttons: dict[str, TouchButton] = {}
        self.slots: list[IconFace] = []
        self.faces: list[IconFace] = []
        self._tab_names: tuple = ()
        self._board_shows: tuple = (None, ())
        self._pad_die: int | None = -1
        self._menu_key: tuple = (None, (), ())
        self._item_buttons: list[TouchButton] = []
        self._reroll: TouchButton | None = None
        for colour in DIE_ORDER:
            slot = IconFace(face=colour)
            slot.bind(on_release=lambda _s, c=colour: self.post("tap", ("slot", c)))
            self.ids.dice.add_widget(slot)
            self.slots.append(slot)

    @property
    def banner(self):
        return None  # the app's banner, below the screen

    def post(self, kind: str, value) -> None:
        if kind == "command":
            value = Command(value)
        App.get_running_app().post(kind, value)

    def on_confirm(self) -> None:
        self.post("command", "confirm")

    def teach(self) -> None:
        open_teaching(App.get_running_app())

    # -- rendering -----------------------------------------------------------------------------
    def render(self, table) -> None:
        session, state = table.session, table.state
        wiring = table.game_input
        if state is None or not isinstance(wiring, cv.CentervilleInput):
            return
        ids = self.ids
        ids.undo.disabled = not session.can_undo
        ids.undo.text = undo_text(table)
        camera = table.camera is not None
        ids.teach.opacity, ids.teach.disabled = (1, False) if camera else (0, True)
        ids.teach.width = theme.scaled(96) if camera else 0
        ids.redo.disabled = not session.can_redo
        items = wiring.items(table)
        page = wiring.pages[0] if wiring.pages else None
        highlight = page.areas if page is not None else cv.highlights(state, items, wiring.pick)
        shown_state, shown_highlight = self._board_shows
        if state is not shown_state or highlight != shown_highlight:  # a face tapped leaves the board be
            ids.board.show(state, highlight=highlight)
            self._board_shows = (state, highlight)
        self._tabs(state)
        self._dice(table, wiring)
        ids.explain.text = self._explain(table, wiring, page)
        self._page(page, len(wiring.pages))
        self._menu(table, wiring, items, page)
        self._confirm(table, wiring, page, items)

    def _explain(self, table, wiring, page) -> str:
        state = table.state
        head = f"[color=#f9b833]{cv.headline(state)}[/color]"
        if page is not None:
            return f"{head}\n[b]{page.title}[/b]"
        lines = [head, f"[b]{table.session.prompt.text}[/b]"]
        if cv.is_bot_turn(state) and cv.dice_wanted(state):
            lines.append(words.bot_keep_rules(state))
        elif state.phase == "keep":
            lines.append("Tap the dice to pick up and reroll, or keep them all.")
        elif state.phase == "masters" and wiring.die_on_pad(table) is None:
            lines.append("Tap a die to enter the roll.")
        return "\n".join(lines)

    def _page(self, page, count: int) -> None:
        label = self.ids.page
        if page is None:
            label.text, label.opacity = "", 0
            label.height = 0
            return
        label.opacity = 1
        body = list(page.lines)  # the bot's lines come numbered, in the rulebook's order
        if page.kind == "bot":  # placements made so far dimmed, the one to make now in bold
            body = [f"[color=#b3bcc7]{line}[/color]" for line in body[:-1]] + [f"[b]{body[-1]}[/b]"]
        if page.moves:
            body.append("[b]On the board:[/b]")
            body += [f"\u2022 {move}" for move in page.moves]
        if count > 1:
            body.append(f"[color=#b3bcc7]{count - 1} more to read after this.[/color]")
        label.text = "\n".join(body)

    def _tabs(self, state) -> None:
        box = self.ids.tabs
        if self._tab_names != state.names:
            box.clear_widgets()
            for seat, name in enumerate(state.names):
                tab = TouchButton(text_px=18, margin=theme.scaled(6), shorten=True)
                tab.bind(on_release=lambda _b, s=seat: self.open_player(s))
                box.add_widget(tab)
            self._tab_names = state.names
        for seat, tab in enumerate(box.children[::-1]):
            score = min(state.wealth[seat], state.prestige[seat])
            tab.text = f"{state.names[seat]} {score}"
            tab.chosen = seat == state.active and state.phase != "over"
            fill = player_rgb(state, seat)
            tab.chosen_fill = fill
            tab.color = ink_on(fill) if tab.chosen else theme.TEXT

    def open_player(self, seat: int) -> None:
        table = App.get_running_app().table
        if table.state is not None:
            PlayerView(table.state, seat, cv.secret_legacies(table.session)).open()

    def _dice(self, table, wiring) -> None:
        state, pick = table.state, wiring.pick
        wanted = cv.dice_wanted(state)
        on_pad = wiring.die_on_pad(table)
        pickable = wiring.pickable(table)
        in_play = set(range(6)) - ({DIE_ORDER.index("green")} if state.no_green else set())
        guessed = dict(wiring.guesses(table))  # an unsure die's guess, for "Guesses right" to take
        for die, slot in enumerate(self.slots):
            face = pick.face(die) if die in wanted else state.dice[die]
            slot.face = face or DIE_ORDER[die]
            slot.marked = die == on_pad
            slot.guess = guessed.get(die, "")  # faint in its empty slot
            slot.picked = die in pick.pickup
            slot.disabled = die not in in_play or not (die in wanted or die in pickable)
            slot.opacity = 1 if die in in_play else 0.3
        # The dice row while dice are in play; set-up, draws and decisions have no dice to show.
        rolling = state.phase in ("masters", "roll", "keep", "spend") and not state.pending
        reading = bool(wiring.pages)  # a page to read first: the next roll waits for it
        shown(self.ids.dice, rolling and not reading, theme.scaled(64))
        if reading:
            on_pad = None
        pad = self.ids.pad
        guess = wiring.camera_guess(on_pad) if on_pad is not None else None
        if on_pad == self._pad_die and (on_pad is None or self.faces):
            for button in self.faces:  # the camera's guess for an unsure die, marked
                button.marked = button.face == guess
            return  # the same die's faces are on the pad already
        self._pad_die = on_pad
        pad.clear_widgets()
        self.faces = []
        if on_pad is not None:
            seen = []
            for face in cv.DICE.labels(on_pad):
                if face not in seen:
                    seen.append(face)
            for face in seen:
                button = IconFace(face=face, marked=face == guess)
                button.bind(on_release=lambda _b, f=face: self.post("tap", ("face", f)))
                pad.add_widget(button)
                self.faces.append(button)
        rows = (len(self.faces) + 2) // 3
        shown(pad, bool(self.faces), rows * theme.scaled(70))

    def _menu(self, table, wiring, items, page) -> None:
        state = table.state
        # The bot's roll can be the app's: a button beside Confirm, where it is always in reach
        # (the face pad fills the panel while dice are entered).
        bot_rolls = page is None and cv.is_bot_turn(state) and bool(cv.dice_wanted(state))
        roll = self.ids.bot_roll
        roll.opacity, roll.disabled = (1, False) if bot_rolls else (0, True)
        roll.width = theme.scaled(130) if bot_rolls else 0
        # Besides the engine's actions the menu offers one thing of the table's: the reroll.
        reroll = "Reroll " + ", ".join(DIE_ORDER[d] for d in wiring.pick.pickup) if wiring.pick.pickup else None
        # The page shown above the menu is part of what scrolls: a new page starts at the top too.
        key = (page, reroll, tuple((i.label, i.action is None, i.player) for i in items))
        if key == self._menu_key:  # the same buttons: only the highlight may have moved
            for index, button in enumerate(self.menu_buttons.values()):
                button.chosen = index == wiring.pick.cursor
            return
        self._menu_key = key
        self.ids.menu_scroll.scroll_y = 1  # a new menu starts at its top
        box = self.ids.menu
        box.clear_widgets()
        self.menu_buttons = {}
        if reroll:
            button = self._reroll_button()
            button.text = reroll
            box.add_widget(button)
        for index, item in enumerate(items):
            seat = state.names.index(item.player) if item.player in state.names else None
            button = self._item_button(index)
            button.text = item.label + ("  \u203a" if item.action is None else "")
            button.item_label = item.label
            button.chosen = index == wiring.pick.cursor
            # whose choice it is, in their piece colour (text stays light)
            button.fill = theme.BUTTON if seat is None else mix(theme.PANEL_LIGHT, player_rgb(state, seat), 0.22)
            box.add_widget(button)
            self.menu_buttons[item.label] = button

    # The menu's buttons are made once and relabelled for each new menu: making a menu's worth of
    # buttons (widgets, kv rules, canvases) took about a tenth of a menu tap's frame here.
    def _item_button(self, index: int) -> TouchButton:
        while len(self._item_buttons) <= index:
            button = TouchButton(text_px=18, size_hint_y=None, ring=True, halign="left",
                                 chosen_fill=theme.BUTTON_DOWN)
            button.bind(texture_size=lambda b, size: setattr(
                b, "height", max(theme.scaled(52), size[1] + theme.scaled(14))))
            button.bind(on_release=lambda b: self.post("tap", ("item", b.item_label)))
            self._item_buttons.append(button)
        button = self._item_buttons[index]
        button.margin = theme.scaled(12)  # the window's scale now, which may have changed since
        return button

    def _reroll_button(self) -> TouchButton:
        if self._reroll is None:
            self._reroll = TouchButton(text_px=18, size_hint_y=None, fill=theme.INFO)
            self._reroll.bind(on_release=lambda _b: self.post("tap", ("reroll",)))
        self._reroll.height = theme.scaled(52)
        return self._reroll

    def _confirm(self, table, wiring, page, items) -> None:
        ids = self.ids
        # The camera's guesses for the asked dice, checked by the table against its dice: one tap
        # takes them all. It stands in Confirm's place, which has nothing to enter until they are
        # in; a button of its own, so that a careless Confirm (or the GPIO one) takes no guess.
        guessing = page is None and bool(wiring.guesses(table))
        for button, shown_now in ((ids.guesses, guessing), (ids.confirm, not guessing)):
            button.opacity, button.size_hint_x = (1, 1) if shown_now else (0, None)
            if not shown_now:
                button.width = 0
        ids.guesses.disabled = not guessing
        if page is not None:
            ids.confirm.text = "Done, next" if len(wiring.pages) > 1 else "Done"
            ids.confirm.disabled = False
        elif wiring.roll_ready(table):
            ids.confirm.text = "Enter the roll"
            ids.confirm.disabled = False
        elif wiring.pick.pickup:
            ids.confirm.text = "Reroll"
            ids.confirm.disabled = False
        else:
            ids.confirm.text = "Confirm"
            ids.confirm.disabled = wiring.pick.cursor is None or not items
        ids.back.disabled = not (wiring.pick.path or wiring.pick.faces or wiring.pick.pickup)
        ids.confirm.disabled = ids.confirm.disabled or guessing
