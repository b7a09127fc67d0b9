"""Welcome to Centerville's wiring without a window: every legal action is reachable by taps (the
menu, the face pad, the dice picked up), every button leads to a legal action, no two actions
share a path; dice by icon; pages for the bot's turn and the scoring rounds; undo to the start.
Everything goes through the real Table and Session."""
from __future__ import annotations

import random

import pytest

from companion.engine.centerville import actions as A
from companion.engine.core import find_game
from companion.events import Command, InputEvent
from companion.session import Session
from companion.table import Table
from companion.table import centerville as cv
from companion.table.menu import level

GAME = find_game("centerville")


def positions(names, seed: int, every: int = 3):
    """States along a seeded random game (the engine's own legal actions, chosen at random)."""
    rng = random.Random(seed)
    state = GAME.new(names, {})
    for count in range(2000):
        if GAME.finished(state):
            break
        if count % every == 0:
            yield state
        legal = list(GAME.legal_actions(state))
        spend = [a for a in legal if not isinstance(a, A.Done)]
        state = GAME.apply(state, rng.choice(spend if spend and rng.random() < 0.8 else legal))
    yield state


def leaves(state, legal, path=()):
    """Every action the menu reaches from `path`, with the words tapped to reach it."""
    entries = [(p, a, "") for a in legal if (p := cv.path_of(state, a)) is not None]
    for item in level(entries, path):
        if item.action is not None:
            yield path + (item.label,), item.action
        else:
            yield from leaves(state, legal, path + (item.label,))


@pytest.mark.parametrize("names,seed", [(("Ana", "Ben", "Cy"), 1), (("Ana", "Ben"), 2),
                                        (("Ana", "Ben", "Cy", "Dee"), 3)])
def test_every_legal_action_is_reachable_and_every_button_is_legal(names, seed):
    checked = 0
    for state in positions(names, seed):
        legal = list(GAME.legal_actions(state))
        reached = dict(leaves(state, legal))
        menu_actions = [a for a in legal if cv.path_of(state, a) is not None]
        # No two actions share a path: each button names exactly one action.
        assert len(reached) == len(menu_actions), (
            f"{len(menu_actions) - len(reached)} actions share a path in phase {state.phase}")
        assert set(reached.values()) == set(menu_actions)
        for path, action in reached.items():
            assert all(word.strip() for word in path), f"an empty word on the way to {action}"
        # What the menu leaves out is entered otherwise: the roll on the pad, rerolls by pickup.
        for action in legal:
            if cv.path_of(state, action) is None:
                assert isinstance(action, (A.Roll, A.Reroll))
        checked += 1
    assert checked > 20


@pytest.fixture
def table(tmp_path):
    from companion.store import Store

    store = Store.open(tmp_path / "games.db")
    table = Table()
    yield table, store
    store.close()


def open_game(table, names, options=None):
    table_, store = table
    session = Session.new("centerville", names, options or {}, store=store)
    table_.open(session)
    return table_


def tap(t: Table, *value):
    return t.handle(InputEvent("tap", value, "touch"))


def command(t: Table, name: str):
    return t.handle(InputEvent("command", Command(name), "touch"))


def fill_campus(t: Table) -> None:
    """Enter the set-up draws by tapping the first vocation offered each time."""
    wiring = t.game_input
    while t.state.phase == "setup-draw":
        if wiring.pages:
            command(t, "confirm")
            continue
        items = wiring.items(t)
        first = items[0]
        if first.action is None:
            tap(t, "item", first.label)
            first = wiring.items(t)[0]
        tap(t, "item", first.label)


def test_setup_shows_the_checklist_then_the_draws_fill_the_campus(table):
    t = open_game(table, ("Ana", "Ben", "Cy"))
    wiring = t.game_input
    assert wiring.pages and wiring.pages[0].kind == "setup"
    assert any("time marker" in line.lower() for line in wiring.pages[0].lines)
    assert wiring.items(t) == []  # the checklist first: nothing else to tap meanwhile
    fill_campus(t)
    assert t.state.phase in ("masters", "roll")
    assert all(v is not None for v in t.state.campus)


def test_dice_are_entered_by_their_faces_and_a_wrong_die_is_refused(table):
    t = open_game(table, ("Ana", "Ben", "Cy"))
    fill_campus(t)
    wiring = t.game_input
    wanted = cv.dice_wanted(t.state)
    assert len(wanted) == 6
    # A face not on its die is refused with the die-faces rule.
    outcome = tap(t, "face", "black-fate")
    assert "no such face" in outcome.info and "Die Faces" in outcome.info
    # Five faces tapped: confirm asks for the last, nothing is entered.
    for face in ("red-contract", "yellow-vote", "blue-tree", "purple-education", "green-bench"):
        tap(t, "face", face)
    actions_before = len(t.session.actions)
    outcome = command(t, "confirm")
    assert "black" in outcome.info and len(t.session.actions) == actions_before
    # The pad follows: the die still to enter is on it; a tap on a die puts it back on the pad.
    assert wiring.die_on_pad(t) == 5
    tap(t, "slot", "red")
    assert wiring.die_on_pad(t) == 0
    tap(t, "face", "red-vote")
    tap(t, "face", "black-hourglass")
    assert wiring.roll_ready(t)
    command(t, "confirm")
    assert t.state.dice[0] == "red-vote" and t.state.phase == "keep"
    # The hourglass stays; a tap on it says why.
    outcome = tap(t, "slot", "black")
    assert "hourglass" in outcome.info
    tap(t, "slot", "red")
    tap(t, "slot", "blue")
    assert wiring.pick.pickup == (0, 2)
    command(t, "confirm")
    assert t.state.phase == "roll" and tuple(t.state.to_roll) == (0, 2)


def test_confirm_takes_nothing_nobody_chose(table):
    t = open_game(table, ("Ana", "Ben", "Cy"))
    fill_campus(t)
    for face in ("red-contract", "yellow-contract", "blue-contract", "purple-tree",
                 "green-tree", "black-tree"):
        tap(t, "face", face)
    command(t, "confirm")
    tap(t, "item", cv.words.action_text(t.state, A.Keep()))
    assert t.state.phase == "spend"
    count = len(t.session.actions)
    outcome = command(t, "confirm")
    assert len(t.session.actions) == count and "Next" in outcome.info
    command(t, "next")  # highlights the first choice; only now does confirm take it
    assert t.game_input.pick.cursor == 0
    command(t, "confirm")
    assert len(t.session.actions) > count or t.game_input.pick.path


def test_a_refused_action_names_its_rule(table):
    t = open_game(table, ("Ana", "Ben", "Cy"))
    fill_campus(t)
    outcome = tap(t, "action", {"type": "keep"})
    assert outcome.rejected is not None and "rule:" in outcome.rejected.reason


def play_turns(t: Table, rng: random.Random, until, limit: int = 3000) -> None:
    """Play by taps only (menu buttons, face pad, pages) until `until(t)`."""
    wiring = t.game_input
    for _ in range(limit):
        if until(t) or t.session.finished:
            return
        if wiring.pages:
            command(t, "confirm")
            continue
        wanted = cv.dice_wanted(t.state)
        if wanted:
            if cv.is_bot_turn(t.state) and rng.random() < 0.5:
                tap(t, "roll_for_bot")
                continue
            for die in wanted:
                tap(t, "face", rng.choice(cv.DICE.labels(die)))
            command(t, "confirm")
            continue
        items = wiring.items(t)
        if wiring.pickable(t) and rng.random() < 0.3:
            tap(t, "slot", cv.DIE_ORDER[rng.choice(wiring.pickable(t))])
            if wiring.pick.pickup:
                command(t, "confirm")
                continue
        done = [i for i in items if i.action is not None and isinstance(i.action, A.Done)]
        choice = done[0] if done and rng.random() < 0.25 else rng.choice(items)
        tap(t, "item", choice.label)
    raise AssertionError("the game did not reach the wanted point")


def test_the_bots_turn_is_read_as_numbered_placements(table):
    t = open_game(table, ("Ana", "Ben"))
    rng = random.Random(5)
    play_turns(t, rng, until=lambda t: any(p.kind == "bot" for p in t.game_input.pages))
    page = next(p for p in t.game_input.pages if p.kind == "bot")
    assert page.lines and "Bot" in page.title
    before = len(t.session.actions)
    while t.game_input.pages:
        command(t, "confirm")
    assert len(t.session.actions) == before  # reading pages changes nothing in the game


def test_a_scoring_round_is_walked_through_and_undo_goes_back_to_the_start(table):
    t = open_game(table, ("Ana", "Ben", "Cy"))
    rng = random.Random(7)
    play_turns(t, rng, until=lambda t: any(p.kind == "scoring" for p in t.game_input.pages))
    steps = [p for p in t.game_input.pages if p.kind == "scoring"]
    assert len(steps) >= 4 and any(line for p in steps for line in p.lines)
    assert t.state.rounds
    while t.session.can_undo:
        command(t, "undo")
    assert t.session.actions == () and t.state.phase == "setup-draw"


def test_the_secret_legacy_is_offered_at_the_reveal(table):
    legacies = {"Ana": "greenbelt", "Ben": "offices", "Cy": "vocations"}
    t = open_game(table, ("Ana", "Ben", "Cy"), {"legacies": legacies})
    assert cv.secret_legacies(t.session) == legacies
    rng = random.Random(11)
    play_turns(t, rng, until=lambda t: bool(t.state.pending) and t.state.pending[0].kind == "reveal-legacy",
               limit=6000)
    if t.session.finished:
        pytest.skip("this seed ended without a reveal")
    items = t.game_input.items(t)
    subject = t.state.names[t.state.pending[0].subject]
    assert "(entered at set-up)" in items[0].label and legacies[subject] in items[0].action.legacy


def test_keys_and_buttons_work_as_on_the_other_games(table):
    """n highlights the next choice, Enter takes it, Ctrl+Z undoes it; a GPIO or panel button
    sends the same commands (InputEvent "command" from its source)."""
    t = open_game(table, ("Ana", "Ben", "Cy"))
    t.handle(InputEvent("key", "enter", "keyboard"))          # the set-up checklist is done
    assert not t.game_input.pages
    t.handle(InputEvent("key", "n", "keyboard"))              # "Reseed Vocations" highlighted
    assert t.game_input.pick.cursor == 0
    t.handle(InputEvent("command", Command.CONFIRM, "gpio"))  # ... and opened by the button
    assert t.game_input.pick.path == ("Reseed Vocations",)
    t.handle(InputEvent("key", "n", "keyboard"))
    t.handle(InputEvent("command", Command.CONFIRM, "panel"))
    assert len(t.session.actions) == 1 and t.state.campus.count(None) == len(t.state.campus) - 1
    t.handle(InputEvent("key", "ctrl+z", "keyboard"))
    assert t.session.actions == ()


def test_a_game_resumed_mid_scoring_reads_the_round_again(table, tmp_path):
    """A power cut while the table reads a scoring round: the resumed game shows the round's
    pages again, from the first (the log holds the game; what was read was never a game fact)."""
    t = open_game(table, ("Ana", "Ben", "Cy"))
    play_turns(t, random.Random(7), until=lambda t: any(p.kind == "scoring" for p in t.game_input.pages))
    pages = list(t.game_input.pages)
    command(t, "confirm")  # one step read before the power went
    game_id = t.session.game_id
    _, store = table
    again = Table()
    again.open(Session.resume(store, game_id))
    assert [p.title for p in again.game_input.pages] == [p.title for p in pages]
