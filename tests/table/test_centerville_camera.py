"""Centerville's icon dice from the camera, without a window: the lesson that teaches the camera,
readings filling the dice row, unsure dice asked on the face pad, and every face the players
confirm or correct taught. The real Table, Session, SQLite store and taught examples
(vision.taught.TaughtExamples in a tmp data directory); the readings are made from rendered
Centerville trays (the simulator's) with the truth's labels, so each test says exactly which die
the camera read how. The whole path with the real reader is tests/e2e/test_centerville_camera.py.
"""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from companion.engine.centerville.dice import default_dice
from companion.events import Command, InputEvent
from companion.session import Session
from companion.table import Table
from companion.table import centerville as cv
from companion.taught_dice import TaughtDice, missing, taught_root
from vision.crops import die_crop
from vision.reader import DiceReading, DieRead
from vision.sim import SimulatedTray

DICE = default_dice()


def tray_reading(seed: int, faces=None) -> DiceReading:
    """A settled rendered tray of the six dice, read as its truth says (sure of every die)."""
    tray = SimulatedTray(seed=seed, icons="centerville", noise=0.0)
    tray.roll(faces)
    for _ in range(tray.moving + 1):
        frame, _ = tray.next_frame()
    dice = tuple(DieRead(None, t.label, 0.97, t.box, t.color, False, die_crop(frame, t.box))
                 for t in tray.truth)
    return DiceReading(dice)


def misread(reading: DiceReading, colour: str, label: str, unsure: bool = False) -> DiceReading:
    dice = tuple(replace(d, label=label, uncertain=unsure, confidence=0.4 if unsure else d.confidence)
                 if d.color == colour else d for d in reading.dice)
    return DiceReading(dice)


@pytest.fixture
def table(tmp_path):
    from companion.store import Store

    store = Store.open(tmp_path / "games.db")
    t = Table()
    t.taught = TaughtDice(tmp_path)
    yield t, store
    store.close()


def send(t: Table, kind: str, value):
    return t.handle(InputEvent(kind, value, "camera" if kind == "dice" else "touch"))


def to_the_roll(t: Table, store) -> None:
    t.open(Session.new("centerville", ("Ana", "Ben", "Cy"), {}, store=store))
    wiring = t.game_input
    while t.state.phase == "setup-draw":
        if wiring.pages:
            send(t, "command", Command.CONFIRM)
            continue
        first = wiring.items(t)[0]
        send(t, "tap", ("item", first.label))
        if first.action is None:
            send(t, "tap", ("item", wiring.items(t)[0].label))
    assert t.state.phase in ("masters", "roll") and len(cv.dice_wanted(t.state)) == 6


def teach_all(t: Table, seeds=range(40)) -> None:
    """A lesson over rendered trays until every face has one picture."""
    t.start_teaching()
    for seed in seeds:
        if not t.taught.missing():
            break
        send(t, "dice", tray_reading(seed))
        while t.teaching.die is not None:
            send(t, "tap", ("teach", t.teaching.die.label))
    t.stop_teaching()
    assert not t.taught.missing()


def test_the_lesson_shows_die_by_die_and_says_what_is_still_missing(table):
    t, _store = table
    assert not t.taught.any() and len(missing(t.taught.counts())) == 6
    t.start_teaching()
    lesson = t.teaching
    reading = tray_reading(3)
    outcome = send(t, "dice", reading)
    assert "found 6 dice" in outcome.info and lesson.die is reading.dice[0]
    first = reading.dice[0]
    assert lesson.colour == first.color and set(lesson.choices()) == set(
        DICE.labels(DICE.index(first.color)))
    # A face of another die is refused and nothing is taught.
    other = next(label for label in DICE.all_labels() if not label.startswith(first.color))
    assert "not a face" in send(t, "tap", ("teach", other)).info and not t.taught.any()
    send(t, "tap", ("teach", first.label))
    assert t.taught.counts() == {first.label: 1} and lesson.die is reading.dice[1]
    assert first.label not in t.taught.missing().get(first.color, ())
    # Confirm takes the camera's guess; skip moves on; the colour can be put right.
    send(t, "command", Command.CONFIRM)
    assert t.taught.counts()[reading.dice[1].label] == 1
    send(t, "tap", ("teach_skip",))
    assert lesson.die is reading.dice[3]
    send(t, "tap", ("teach_colour", "black"))
    assert lesson.colour == "black" and "black-vote" in lesson.choices()
    # What was taught is on disk, under the data directory: a new TaughtDice sees it.
    again = TaughtDice(t.taught.root.parents[1])
    assert again.root == taught_root(t.taught.root.parents[1]) and sum(again.counts().values()) == 2
    # Forget: every taught face goes.
    send(t, "tap", ("teach_clear",))
    assert not t.taught.any() and not TaughtDice(t.taught.root.parents[1]).any()
    t.stop_teaching()
    assert t.teaching is None


def test_without_taught_dice_the_camera_reading_asks_for_teaching_or_taps(table):
    t, store = table
    to_the_roll(t, store)
    assert not t.game_input.wants_dice(t)
    outcome = send(t, "dice", tray_reading(5))
    assert "not been taught" in outcome.info and t.game_input.pick.faces == ()


def test_a_sure_reading_fills_the_row_and_an_unsure_die_is_asked_then_taught(table):
    t, store = table
    teach_all(t)
    to_the_roll(t, store)
    wiring = t.game_input
    assert wiring.wants_dice(t)
    wanted = cv.dice_wanted(t.state)
    reading = misread(tray_reading(101), "blue", "blue-vote", unsure=True)
    truth = {d.color: d.label for d in tray_reading(101).dice}
    before = dict(t.taught.counts())
    outcome = send(t, "dice", reading)
    assert "Check the blue die" in outcome.info
    blue = cv.DIE_ORDER.index("blue")
    faces = dict(wiring.pick.faces)
    assert blue not in faces                      # asked, not guessed
    assert all(faces[d] == truth[cv.DIE_ORDER[d]] for d in wanted if d != blue)
    assert wiring.die_on_pad(t) == blue and wiring.camera_guess(blue) == "blue-vote"
    assert not wiring.roll_ready(t)
    send(t, "tap", ("face", truth["blue"]))       # the players look and tap what it shows
    outcome = send(t, "command", Command.CONFIRM)
    assert outcome.action is not None and "learned" in outcome.info
    assert t.state.dice[blue] == truth["blue"]
    after = t.taught.counts()
    assert after[truth["blue"]] == before.get(truth["blue"], 0) + 1
    assert sum(after.values()) == sum(before.values()) + 1   # dice read surely teach nothing new


def test_a_table_that_keeps_photos_keeps_each_roll_labelled_with_the_faces_entered(table, tmp_path):
    from companion.checked_photos import CheckedPhotos, HeldPhotos, read_labels
    from companion.table.centerville_camera import photo_labels

    t, store = table
    teach_all(t)
    to_the_roll(t, store)
    kept = CheckedPhotos(tmp_path / "checked-icon-photos", icons=True)
    t.icon_photos = HeldPhotos(kept)
    photo = b"\xff\xd8 a frame"
    truth = tray_reading(101)
    reading = replace(misread(truth, "blue", "blue-vote", unsure=True), photo=photo)
    blue = next(d for d in truth.dice if d.color == "blue")
    # A roll entered with a wrong face, undone and entered again: only what the game keeps is labelled.
    send(t, "dice", reading)
    send(t, "tap", ("face", next(f for f in ("blue-tree", "blue-vote") if f != blue.label)))
    assert send(t, "command", Command.CONFIRM).action is not None
    send(t, "command", Command.UNDO)
    send(t, "dice", reading)
    send(t, "tap", ("face", blue.label))              # the players tap what the blue die shows
    assert send(t, "command", Command.CONFIRM).action is not None
    assert kept.count() == 0                          # it could still be undone
    t.close()                                         # the game set aside: its roll is final
    labels = read_labels(kept.labels_path, icons=True)
    assert len(labels) == 1
    (name, dice), = labels.items()
    assert (kept.folder / "images" / name).read_bytes() == photo
    assert sorted((d["face"], tuple(d["box"])) for d in dice) == sorted(
        (d.label, tuple(float(v) for v in d.box)) for d in truth.dice)
    # Two dice named blue: which one is the blue die is the camera's guess, so no labels.
    twice = replace(truth, dice=tuple(replace(d, color="blue") if d.color == "green" else d for d in truth.dice))
    entered = {cv.DIE_ORDER.index(d.color): d.label for d in truth.dice}
    assert photo_labels(truth, entered, {}) is not None and photo_labels(twice, entered, {}) is None
    unsure = replace(truth, dice=(SimpleNamespace(color="red", colour_confidence=0.5, box=(0, 0, 9, 9)),))
    assert photo_labels(unsure, entered, {}) is None     # its colour unsure: asked, and no label


def test_a_roll_the_camera_could_not_label_is_kept_for_a_person_to_box(table, tmp_path):
    from companion.checked_photos import CheckedPhotos, HeldPhotos
    from companion.photos_to_box import PhotosToBox

    t, store = table
    teach_all(t)
    to_the_roll(t, store)
    kept = CheckedPhotos(tmp_path / "checked-icon-photos", icons=True)
    to_box = PhotosToBox(tmp_path / "checked-icon-photos" / "to-box", icons=True)
    t.icon_photos = HeldPhotos(kept, to_box)
    truth = tray_reading(102)
    # The camera missed the black die, and could not name the green one's colour surely.
    dice = tuple(replace(d, color="", label="", uncertain=True, confidence=0.3) if d.color == "green"
                 else d for d in truth.dice if d.color != "black")
    send(t, "dice", replace(truth, dice=dice, photo=b"\xff\xd8 a frame"))
    for d in truth.dice:
        if d.color in ("green", "black"):
            send(t, "tap", ("face", d.label))             # the players tap what the two dice show
    assert send(t, "command", Command.CONFIRM).action is not None
    t.close()
    assert kept.count() == 0
    (name,) = to_box.waiting()
    entry = to_box.entries()[name]
    assert entry["entered"] == [d.label for d in sorted(truth.dice, key=lambda d: cv.DIE_ORDER.index(d.color))]
    assert sorted((d["face"] or "", tuple(d["box"])) for d in entry["camera"]) == sorted(
        ("" if d.color == "green" else d.label, tuple(float(v) for v in d.box)) for d in dice)


def test_the_camera_s_guesses_checked_by_the_table_are_entered_with_one_tap_and_taught(table):
    t, store = table
    teach_all(t)
    to_the_roll(t, store)
    wiring = t.game_input
    truth = {d.color: d.label for d in tray_reading(103).dice}
    wrong = next(f for f in DICE.labels(cv.DIE_ORDER.index("green")) if f != truth["green"])
    # Unsure of three dice: red and blue guessed right, green guessed wrong.
    reading = tray_reading(103)
    for colour, label in (("red", truth["red"]), ("blue", truth["blue"]), ("green", wrong)):
        reading = misread(reading, colour, label, unsure=True)
    before = dict(t.taught.counts())
    send(t, "dice", reading)
    red, blue, green = (cv.DIE_ORDER.index(c) for c in ("red", "blue", "green"))
    assert wiring.guesses(t) == ((red, truth["red"]), (blue, truth["blue"]), (green, wrong))
    # The table looks: green is wrong, so it is tapped on the pad first; its guess is gone.
    send(t, "tap", ("slot", "green"))
    send(t, "tap", ("face", truth["green"]))
    assert wiring.guesses(t) == ((red, truth["red"]), (blue, truth["blue"]))
    assert not wiring.roll_ready(t)
    send(t, "tap", ("guesses",))                    # the rest are right: one tap for both
    assert wiring.pick.face(red) == truth["red"] and wiring.pick.face(blue) == truth["blue"]
    assert wiring.guesses(t) == () and wiring.roll_ready(t)
    assert "no guess" in send(t, "tap", ("guesses",)).info
    outcome = send(t, "command", Command.CONFIRM)
    assert outcome.action is not None
    assert all(t.state.dice[cv.DIE_ORDER.index(c)] == truth[c] for c in ("red", "green", "blue"))
    after = t.taught.counts()
    # The three dice the table was asked about are taught; the ones read surely are not.
    assert sum(after.values()) == sum(before.values()) + 3
    assert all(after[truth[c]] >= before.get(truth[c], 0) + 1 for c in ("red", "green", "blue"))


def test_a_sure_misread_corrected_by_tap_is_taught_and_undo_works_as_for_pips(table):
    t, store = table
    teach_all(t)
    to_the_roll(t, store)
    wiring = t.game_input
    reading = tray_reading(202)
    truth = {d.color: d.label for d in reading.dice}
    wrong = next(f for f in DICE.labels(cv.DIE_ORDER.index("red")) if f != truth["red"])
    send(t, "dice", misread(reading, "red", wrong))
    assert wiring.pick.face(0) == wrong and wiring.roll_ready(t)
    send(t, "tap", ("slot", "red"))
    assert wiring.die_on_pad(t) == 0
    send(t, "tap", ("face", truth["red"]))
    before = t.taught.counts().get(truth["red"], 0)
    actions = len(t.session.actions)
    outcome = send(t, "command", Command.CONFIRM)
    assert outcome.action is not None and f"learned {truth['red'].replace('-', ' ')}" in outcome.info
    assert t.taught.counts()[truth["red"]] == before + 1
    send(t, "command", Command.UNDO)
    assert len(t.session.actions) == actions and cv.dice_wanted(t.state)


def test_dice_not_being_rolled_are_left_alone(table):
    t, store = table
    teach_all(t)
    to_the_roll(t, store)
    send(t, "dice", tray_reading(7))
    send(t, "command", Command.CONFIRM)
    assert t.state.phase == "keep"
    first = dict(enumerate(t.state.dice))
    wiring = t.game_input
    pickable = wiring.pickable(t)
    send(t, "tap", ("slot", cv.DIE_ORDER[pickable[0]]))
    send(t, "command", Command.CONFIRM)          # one die picked up and rerolled
    assert tuple(t.state.to_roll) == (pickable[0],)
    kept = dict(enumerate(t.state.dice))
    send(t, "dice", tray_reading(8))             # the whole tray seen again: only the rerolled die counts
    assert [d for d, _ in wiring.pick.faces] == [pickable[0]]
    send(t, "command", Command.CONFIRM)
    assert all(t.state.dice[d] == face for d, face in kept.items() if d != pickable[0])
    # The fairness statistics count each die rolled once: the kept dice read again are not rolls.
    assert store.rows("SELECT die, face FROM rolls ORDER BY rowid") == [
        (f"Centerville {cv.DIE_ORDER[d]}", face.split("-")[1]) for d, face in first.items()]
    rerolled = t.state.dice[pickable[0]]
    t.close()                                    # the game set aside: its last roll is final too
    assert store.rows("SELECT die, face FROM rolls ORDER BY rowid")[6:] == [
        (f"Centerville {cv.DIE_ORDER[pickable[0]]}", rerolled.split("-")[1])]


def test_the_read_dice_button_reads_for_the_lesson_as_in_play(table):
    t, _store = table
    asked = []
    t.dice_reader = lambda: asked.append(True)
    t.start_teaching()
    outcome = send(t, "command", Command.READ_DICE)   # a GPIO button, the panel or the key
    assert asked == [True] and t.reading and "Reading the dice" in outcome.info
    send(t, "dice", tray_reading(9))
    assert not t.reading and t.teaching.count == 6


def test_entered_rolls_keep_the_checked_reads_and_the_table_hears_when_the_camera_asks_less(table):
    from vision.earned import CheckedRead
    from vision.taught import TaughtDieRead

    t, store = table
    teach_all(t)
    to_the_roll(t, store)
    # 597 checked reads are one short of a looser pair (vision.earned: none wrong in 598).
    t.taught.check([CheckedRead(0.97, 0.7, True, "red-vote", "red-vote")] * 597)
    assert t.taught.asking().step == 0
    read = tray_reading(101)
    sure = tuple(TaughtDieRead(None, d.label, 0.97, d.box, d.color, False, d.crop, score=0.96, margin=0.62,
                               pair_decides=True) for d in read.dice)
    send(t, "dice", DiceReading(sure))
    outcome = send(t, "command", Command.CONFIRM)
    assert outcome.action is not None, outcome.info
    assert "ask about fewer of them" in outcome.info
    records = t.taught.examples.checked.records()
    assert len(records) == 603 and all(r.right for r in records[597:])
    assert {r.read for r in records[597:]} == {d.label for d in read.dice}
    assert t.taught.asking().step == 5
