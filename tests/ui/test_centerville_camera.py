"""Welcome to Centerville with camera-read icon dice, on the real app window (Xvfb) by real
touches: the camera is taught a rendered set of the six dice at set-up (the simulator serving
rendered Centerville trays through the real DiceCamera thread, its settle detection and the real
TaughtReader), then turns are played with the dice read by the camera; a misread die is
corrected by tap, and the correction is learned: stored under the data directory and used on
the next reading.

The test is the players: it looks at the tray's truth (what the rendered dice show) the way
players look at their dice, and taps what they would tap. One face (the red die's fate) is left
untaught at set-up, so the first time the red die shows it the camera cannot know it: that is
the misread the players correct. Screenshots: tests/artifacts/teach-camera*.png.
"""
from __future__ import annotations

import random
import time

import pytest

from centerville_play import confirm, play_one, set_up, tap
from layout_check import assert_layout

from companion.dice_camera import DiceCamera
from companion.engine.centerville.dice import default_dice
from companion.events import InputEvent
from companion.peripherals import attach
from companion.table import centerville as cv
from companion.taught_dice import TaughtDice
from hardware.config import parse_config
from vision.sim import SimulatedTray
from vision.sources import SimulatedSource
from vision.synth.centerville import CENTERVILLE_COLOURS, centerville_labels

pytestmark = [pytest.mark.ui, pytest.mark.timeout(900)]

CONFIG = parse_config({"gpio": {"enabled": False}})
UNTAUGHT = "red-fate"          # left out of the lesson: the camera's first misread
RED_FATE = centerville_labels("red").index(UNTAUGHT) + 1


class PlannedTray(SimulatedTray):
    """The simulator, thrown as the test plans: `plan` gives the next throw's face values (one
    per die, in colour order), or None for a random throw. The players turning their dice."""

    def __init__(self, plan, **options):
        super().__init__(icons="centerville", **options)
        self.plan = plan

    def roll(self, faces=None) -> None:
        planned = self.plan() if faces is None else faces
        if planned == "again":      # read again, not thrown: the same dice lie still
            self._frames = []
            return
        super().roll(planned)


def until(drv, predicate, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}; banner: {drv.table.message!r}"
        time.sleep(0.01)
        drv.frames(1)


def truth_of(tray, die) -> str | None:
    """What the die read at `die.box` really shows: the rendered die whose box holds its box's
    centre (None: the camera boxed something that is no die)."""
    cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
    return next((t.label for t in tray.truth
                 if t.box[0] <= cx <= t.box[2] and t.box[1] <= cy <= t.box[3]), None)


def truth_by_colour(tray) -> dict[str, str]:
    return {t.label.split("-", 1)[0]: t.label for t in tray.truth}


@pytest.fixture(scope="module")
def camera(drv):
    state = {"plan": []}
    # No sensor noise: a tray read again without a throw gives the very pictures it gave before.
    tray = PlannedTray(lambda: state["plan"].pop(0) if state["plan"] else None, seed=11, noise=0.0)
    cam = DiceCamera("sim:?icons=centerville", drv.table.post, open_source=lambda _spec: SimulatedSource(tray))
    attached = attach(drv.table, CONFIG, camera=cam)
    until(drv, lambda: drv.table.camera_status == "connected", "the camera")
    yield cam, tray, state
    attached()


def read_dice(drv) -> None:
    """The read-dice key (as a GPIO button or the panel would): the simulator throws, the camera
    reads once the tray is still."""
    before = drv.table.message_count
    drv.table.post(InputEvent("key", "r", "keyboard"))
    drv.frames(1)
    until(drv, lambda: not drv.table.reading and drv.table.message_count > before + 1, "the camera's reading")


def test_teach_the_camera_at_set_up(drv, camera):
    from companion.ui.widgets.teach_camera import TeachView

    cam, tray, state = camera
    drv.resize(800, 480)
    tap(drv, drv.screen.ids.new_game)
    setup = drv.screen
    tap(drv, next(b for b in setup.ids.games.children if b.text == "Welcome to Centerville"))
    tap(drv, setup.ids.seats)
    seats = drv.window.children[0]
    tap(drv, next(w for w in seats.walk() if getattr(w, "text", "") == "Teach the camera"))
    view = drv.window.children[0]
    assert isinstance(view, TeachView) and drv.table.teaching is not None
    assert "Still to teach" in view.needed.text and "red: all 5" in view.needed.text
    drv.screenshot("teach-camera-start")
    assert_layout(drv)
    # Six throws, every die showing its face value 1 to 6 in turn: each face at least once; then,
    # as the view says which faces are still missing, throws showing those.
    state["plan"] += [[value] * 6 for value in range(1, 7)]
    shot = False
    for throw in range(12):
        if throw >= 6:
            wanted = {f for fs in drv.table.taught.missing().values() for f in fs} - {UNTAUGHT}
            if not wanted:
                break
            state["plan"].append([next((v for v, f in enumerate(centerville_labels(c), 1) if f in wanted),
                                       1) for c in CENTERVILLE_COLOURS])
        tap(drv, view.read_dice)
        until(drv, lambda: view.table.teaching.die is not None, "a reading to teach")
        lesson = drv.table.teaching
        while lesson.die is not None:
            face = truth_of(tray, lesson.die)
            if not shot and (lesson.guess() is not None or throw >= 3):
                drv.screenshot("teach-camera")   # a die read, with the camera's guess, before it is taught
                assert_layout(drv)
                shot = True
            if face is None or face == UNTAUGHT:
                tap(drv, view.skip)
                continue
            colour = face.split("-", 1)[0]
            if throw > 0 and lesson.colour == colour:
                # Every colour has a face taught after the first throw: the reader uses them.
                assert lesson.guess() is not None, (throw, face, lesson.die.reason)
            if lesson.colour != colour:           # the camera named its colour wrong: put right
                tap(drv, view.colour_chips[colour])
            shown = lesson.die
            tap(drv, next(b for b in view.face_buttons if b.face == face))
            assert lesson.die is not shown
    counts = drv.table.taught.counts()
    assert UNTAUGHT not in counts
    everything = {label for colour in CENTERVILLE_COLOURS for label in centerville_labels(colour)}
    assert set(counts) == everything - {UNTAUGHT}, sorted(everything - set(counts))
    assert "red: fate" in view.needed.text
    drv.screenshot("teach-camera-taught")
    assert_layout(drv)
    tap(drv, view.done)
    until(drv, lambda: view.parent is None and drv.table.teaching is None, "the lesson to close")
    # Kept under the data directory, beside games.db: a fresh look at the folder finds them.
    kept = TaughtDice(drv.store.path.parent)
    assert kept.counts() == counts and kept.root.is_relative_to(drv.store.path.parent)


def test_turns_with_camera_read_dice_a_misread_corrected_and_learned(drv, camera):
    cam, tray, state = camera
    rng = random.Random(15)
    seats = drv.window.children[0]
    tap(drv, next(w for w in seats.walk() if getattr(w, "text", "") == "Done"))
    until(drv, lambda: seats.parent is None, "the seats view to close")
    setup = drv.screen
    for field, name in zip(setup.fields, ("Ana", "Ben", "Cy")):
        field.text = name
    tap(drv, setup.ids.start)
    assert drv.app.screens.current == "centerville", drv.table.message
    assert drv.screen.ids.teach.opacity == 1       # Camera: teach again from the table
    wiring = drv.table.game_input
    # Every throw in play shows the red die's fate (the face never taught); the rest at random.
    state["plan"].clear()
    red = cv.DIE_ORDER.index("red")
    seen = {"readings": 0, "corrected": 0, "asked": 0, "misread_red": None, "learned_read": None}
    steps = 0
    while seen["readings"] < 4 or seen["learned_read"] is None:
        steps += 1
        assert steps < 400, seen
        table = drv.table
        if not (cv.dice_wanted(table.state) and not wiring.pages):
            play_one(drv, rng, {})
            continue
        state["plan"].append([RED_FATE if d == red else rng.randint(1, 6) for d in range(6)])
        read_dice(drv)
        seen["readings"] += 1
        wanted = cv.dice_wanted(table.state)
        first_fate = red in wanted and not table.taught.counts().get(UNTAUGHT)
        if first_fate:
            assert wiring.pick.face(red) != UNTAUGHT    # it cannot know a face it was never shown
            seen["misread_red"] = (f"asked, guessed {wiring.camera_guess(red)}" if wiring.pick.face(red) is None
                                   else f"read surely as {wiring.pick.face(red)}")
            drv.screenshot("centerville-camera-misread")
            assert_layout(drv)
        enter_as_shown(drv, tray, seen)
        if not first_fate:
            continue
        assert table.taught.counts().get(UNTAUGHT) == 1, table.message
        assert "learned" in table.message and "red fate" in table.message
        # Undo the roll and read the same tray again (the players did not throw): the red die's
        # fate is now read by the example the correction taught.
        actions = len(table.session.actions)
        tap(drv, drv.screen.ids.undo)
        until(drv, lambda: len(table.session.actions) == actions - 1 and cv.dice_wanted(table.state),
              "the roll to be undone")
        state["plan"].append("again")
        read_dice(drv)
        seen["readings"] += 1
        seen["learned_read"] = (wiring.camera_guess(red), "unsure" if wiring.camera_read[red].uncertain else "sure")
        assert wiring.camera_guess(red) == UNTAUGHT, seen
        enter_as_shown(drv, tray, seen)
    print(f"camera-read turns: {seen}")
    assert seen.get("guesses_taken"), seen         # the one-tap path was used at least once
    assert TaughtDice(drv.store.path.parent).counts().get(UNTAUGHT, 0) >= 1   # stored on disk
    # Each entered roll kept the camera's reads as the players checked them (vision.earned).
    checked = TaughtDice(drv.store.path.parent).examples.checked.records()
    labels = set(default_dice().all_labels())
    assert checked and any(r.right for r in checked), checked
    assert all(r.read in labels and r.face in labels for r in checked)


def test_the_camera_is_taught_again_from_the_table_and_the_game_goes_on(drv, camera):
    from companion.ui.widgets.teach_camera import TeachView

    table = drv.table
    actions, state = len(table.session.actions), table.state
    tap(drv, drv.screen.ids.teach)                 # Camera, in the bar
    view = drv.window.children[0]
    assert isinstance(view, TeachView) and table.teaching is not None
    assert "red: fate" not in view.needed.text      # the face learned in play counts as taught
    tap(drv, view.done)
    until(drv, lambda: view.parent is None and table.teaching is None, "the lesson to close")
    assert len(table.session.actions) == actions and table.state is state
    assert drv.app.screens.current == "centerville"


def enter_as_shown(drv, tray, seen) -> None:
    """The players check the dice row against their dice: a misread die, or an asked die whose
    marked guess is wrong, is tapped in the row and then its face tapped on the pad; the asked
    dice guessed right are entered together by the button naming the guesses; then the roll is
    entered."""
    table = drv.table
    wiring = table.game_input
    wanted = cv.dice_wanted(table.state)
    truth = truth_by_colour(tray)
    for die in wanted:
        right = truth[cv.DIE_ORDER[die]]
        if wiring.pick.face(die) == right:
            continue
        if wiring.pick.face(die) is None:
            seen["asked"] += 1
            if wiring.camera_guess(die) == right:
                continue                          # a right guess: taken below with the others
        else:
            seen["corrected"] += 1
        tap(drv, drv.screen.slots[die])           # the die on the pad
        assert wiring.die_on_pad(table) == die
        tap(drv, next(b for b in drv.screen.faces if b.face == right))
    guessed = wiring.guesses(table)
    if guessed:
        assert all(face == truth[cv.DIE_ORDER[die]] for die, face in guessed)
        drv.frames(2)
        # Each guess shows faint in its die's empty slot, named with a "?", for the table to check.
        for die, face in guessed:
            slot = drv.screen.slots[die]
            from companion.ui.widgets.icon_die import ICON_NAMES
            named = f"{ICON_NAMES[face.split('-', 1)[1]]}?"
            assert slot.guess == face and slot.text in ("?", named)
        if not seen.get("guesses_shot"):
            drv.screenshot("centerville-camera-guesses")
            assert_layout(drv)
            seen["guesses_shot"] = True
        tap(drv, drv.screen.ids.guesses)          # one tap for every guess the table checked
        seen["guesses_taken"] = seen.get("guesses_taken", 0) + len(guessed)
        seen["guess_taps"] = seen.get("guess_taps", 0) + 1
        assert drv.screen.ids.guesses.disabled    # nothing left to guess: the button goes
    assert [wiring.pick.face(d) for d in wanted] == [truth[cv.DIE_ORDER[d]] for d in wanted]
    confirm(drv)                                   # "Enter the roll"


def test_slot_names_never_split(drv):
    """A rolled die is named under its picture only where every name fits on one line: six dice
    across 800x480 are pictures alone (a guess keeps its "?"), wider slots name the die."""
    from layout_check import _split_words

    from companion.ui.widgets.icon_die import IconFace

    narrow = IconFace(face="red", guess="red-contract", size_hint=(None, None), size=(57, 56))
    wide = IconFace(face="red", guess="red-contract", size_hint=(None, None), size=(140, 90))
    entered = IconFace(face="blue-education", size_hint=(None, None), size=(57, 56))
    drv.frames(1)
    assert (narrow.text, narrow.valign, wide.text, entered.text) == ("?", "top", "contract?", "")
    for slot in (narrow, wide, entered):
        assert _split_words(slot, slot.face) == []
    narrow.size = (140, 90)                      # the window grew: the names come back
    assert narrow.text == "contract?"
