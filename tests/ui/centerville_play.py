"""Play Welcome to Centerville on the real app window by real touches only: the set-up screen,
the Legacy entered privately, the checklist, the campus draws, every die's face on the pad, the
dice picked up to reroll, the menu, the bot's placements and the scoring steps, to the winner.

The choices are a seeded random player's, among what the screen offers (so whatever the screen
fails to offer, the game cannot reach); every step is a tap on a widget at its place on screen.
"""
from __future__ import annotations

import random
import time

from kivy.tests.common import UnitTestTouch

from companion.engine.centerville import actions as A
from companion.table import centerville as cv
from companion.ui import theme
from companion.ui.widgets.centerville_setup import legacy_title


def tap(drv, widget) -> None:
    """A finger's tap: down and up, then a frame (the pump runs and the screen redraws).

    No frame between down and up: nothing in the app acts on a press before its release, and
    under Xvfb's software GL a frame of the Centerville screen costs about 55 ms of wall time
    (two whole games by touch took 256 s of the suite with one frame between, 2026-12-06)."""
    assert widget.opacity > 0 and not widget.disabled, f"{widget} ({getattr(widget, 'text', '')!r}) is not tappable now"
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    touch.touch_up()
    drv.frames(1)


def wait(drv, done, what: str, tries: int = 300) -> None:
    for _ in range(tries):
        if done():
            return
        time.sleep(0.01)
        drv.frames(1)
    raise AssertionError(f"timed out waiting for {what}")


def progress(drv):
    table = drv.table
    wiring = table.game_input
    return (len(table.session.actions), wiring.pick, len(wiring.pages), table.message_count,
            drv.app.screens.current)


def tap_listed(drv, button) -> None:
    """Tap a button in the scrolling menu: scrolled into view first, as a finger would; then
    wait for the tap's effect."""
    view = drv.screen.ids.menu_scroll
    assert drv.scroll_to_see(view, button), \
        f"{button.text!r} cannot be scrolled into view (scroll_y {view.scroll_y})"
    before = progress(drv)
    tap(drv, button)
    wait(drv, lambda: progress(drv) != before, f"the tap on {button.text!r} to do something")


def confirm(drv) -> None:
    before = progress(drv)
    tap(drv, drv.screen.ids.confirm)
    wait(drv, lambda: progress(drv) != before, "confirm to do something")


def enter_roll(drv, rng: random.Random) -> None:
    """Tap one face per die being rolled on the pad (the pad follows the next die), then confirm."""
    screen, wiring = drv.screen, drv.table.game_input
    if wiring.die_on_pad(drv.table) is None:  # Masters to set first: a tap on a die starts the roll
        tap(drv, screen.slots[cv.dice_wanted(drv.table.state)[0]])
    while not wiring.roll_ready(drv.table):
        die = wiring.die_on_pad(drv.table)
        assert screen.faces, "the face pad is empty while dice are to be entered"
        assert all(f.colour == cv.DIE_ORDER[die] for f in screen.faces)
        tap(drv, rng.choice(screen.faces))
    confirm(drv)


def play_one(drv, rng: random.Random, seen: dict) -> None:
    """One step of the game as the screen offers it now."""
    table, screen = drv.table, drv.screen
    wiring = table.game_input
    if wiring.pages:
        seen[wiring.pages[0].kind] = seen.get(wiring.pages[0].kind, 0) + 1
        confirm(drv)
        return
    state = table.state
    if cv.dice_wanted(state):
        if cv.is_bot_turn(state) and rng.random() < 0.5:
            before = progress(drv)
            tap(drv, screen.ids.bot_roll)  # "App rolls", beside Confirm
            wait(drv, lambda: progress(drv) != before, "the app's roll for the bot")
        else:
            enter_roll(drv, rng)
        return
    pickable = wiring.pickable(table)
    if pickable and rng.random() < 0.35:
        for die in rng.sample(pickable, rng.randint(1, len(pickable))):
            tap(drv, screen.slots[die])
        assert set(wiring.pick.pickup) <= set(pickable) and wiring.pick.pickup
        first = screen.ids.menu.children[-1]  # the reroll heads the menu, naming the dice picked up
        assert first is screen._reroll and first.text == "Reroll " + ", ".join(
            cv.DIE_ORDER[d] for d in wiring.pick.pickup), first.text
        confirm(drv)
        return
    items = wiring.items(table)
    assert items, f"nothing offered in phase {state.phase} ({table.session.prompt.text})"
    buttons = screen.menu_buttons
    assert_menu_shows(screen, state, items, wiring.pick.cursor)
    entered = [i for i in items if i.label.endswith("(entered at set-up)")]
    if entered:  # the Legacy a player entered privately is the one they reveal
        tap_listed(drv, buttons[entered[0].label])
        return
    done = [i for i in items if isinstance(i.action, (A.Done, A.Keep))]
    leaves = [i for i in items if i.action is not None]
    if done and rng.random() < 0.3:
        choice = done[0]
    elif wiring.pick.path and leaves and rng.random() < 0.9:
        choice = rng.choice(leaves)
    else:
        choice = rng.choice(items)
    tap_listed(drv, buttons[choice.label])


def assert_menu_shows(screen, state, items, cursor) -> None:
    """The menu shows these items and nothing else, in order: the screen relabels the buttons it
    made for earlier menus, so a label, a mark or a player's colour left from one would show here."""
    buttons = screen.menu_buttons
    assert list(buttons) == [i.label for i in items]
    shown = [w for w in screen.ids.menu.children[::-1] if w is not screen._reroll]
    assert shown == list(buttons.values()), "the menu box holds other buttons than the items"
    for index, item in enumerate(items):
        button = buttons[item.label]
        assert button.text.startswith(item.label) and button.text.endswith("\u203a") == (item.action is None)
        assert button.chosen == (index == cursor), item.label
        if item.player not in state.names:
            assert tuple(button.fill) == tuple(theme.BUTTON), item.label
        else:
            assert tuple(button.fill) != tuple(theme.BUTTON), item.label


def play_to_the_end(drv, rng: random.Random, limit: int = 6000) -> dict:
    """Play until the end screen shows; returns how many pages of each kind were read."""
    seen: dict = {}
    for _ in range(limit):
        if drv.app.screens.current == "centerville-end":
            return seen
        play_one(drv, rng, seen)
    raise AssertionError(f"the game did not end in {limit} steps; phase {drv.table.state.phase}")


def set_up(drv, names, legacies: dict | None = None) -> None:
    """Home -> New game -> Welcome to Centerville: names, colours, Legacies entered privately.
    At 800x480, the Pi's screen (a test module before may have left the window larger)."""
    drv.resize(800, 480)
    tap(drv, drv.screen.ids.new_game)
    setup = drv.screen
    button = next(b for b in setup.ids.games.children if b.text == "Welcome to Centerville")
    tap(drv, button)
    assert setup.game_name == "centerville"
    while len(setup.fields) < len(names):
        tap(drv, setup.ids.add)
    while len(setup.fields) > len(names):
        tap(drv, setup.ids.drop)
    for field, name in zip(setup.fields, names):
        field.text = name  # the keyboard's typing itself is Kivy's business
    if legacies:
        tap(drv, setup.ids.seats)
        view = drv.window.children[0]
        for seat, name in enumerate(names):
            if name not in legacies:
                continue
            row = view.rows.children[::-1][seat]
            tap(drv, row.children[0])              # "Legacy: enter" (the row's last widget)
            private = drv.window.children[0]
            assert legacies[name] not in "".join(getattr(w, "text", "") for w in private.walk())
            tap(drv, private.root_box.children[-2])  # "I am <name>: show"
            tile = next(w for w in private.walk() if getattr(w, "text", "") ==
                        legacy_title(legacies[name]))
            tap(drv, tile)
            wait(drv, lambda: private.parent is None, "the Legacy to hide again")
        done = next(w for w in view.walk() if getattr(w, "text", "") == "Done")
        tap(drv, done)
        wait(drv, lambda: view.parent is None, "the seats view to close")
    tap(drv, setup.ids.start)
    assert drv.app.screens.current == "centerville", drv.table.message
