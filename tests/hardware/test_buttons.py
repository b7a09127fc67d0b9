"""GPIO buttons and the RGB LED on gpiozero's MockFactory: press, bounce, hold, release."""
from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from companion.events import Command, EventQueue, InputEvent, TableLight
from hardware.buttons import LIGHT_COLOURS, TableButtons
from hardware.config import ButtonSpec, GpioConfig

WAIT = 5.0  # generous upper bound on a wait for an event; a passing test never waits this long


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def table(factory):
    # Holds short enough to keep the suite quick, long enough that a press-release pair in the
    # test is never mistaken for one.
    config = GpioConfig(bounce_time=0.05, hold_time=0.8)
    events = EventQueue()
    with TableButtons(config, pin_factory=factory).start(events) as buttons:
        yield buttons, events, factory


def press(factory, pin):
    factory.pin(pin).drive_low()     # buttons connect the pin to ground


def release(factory, pin):
    factory.pin(pin).drive_high()


def gpio(command):
    return InputEvent.command(command, source="gpio")


def test_each_short_press_is_one_command(table):
    buttons, events, factory = table
    for pin, command in ((17, Command.NEXT), (27, Command.CONFIRM), (22, Command.READ_DICE)):
        press(factory, pin)
        assert events.get(timeout=WAIT) == gpio(command)
        release(factory, pin)
        assert buttons.wait_settled(WAIT)
    assert events.drain() == []


def test_a_bouncing_contact_is_one_press(factory):
    # A wide bounce window, so every chatter of the test is inside it however slow the machine.
    events = EventQueue()
    buttons = TableButtons(GpioConfig(bounce_time=1.0), pin_factory=factory).start(events)
    for _ in range(5):               # the contact chatters: closes and opens within microseconds
        press(factory, 17)
        release(factory, 17)
    press(factory, 17)
    release(factory, 17)
    assert buttons.wait_settled(WAIT)
    assert events.drain() == [gpio(Command.NEXT)]
    assert buttons.bounces == 5
    buttons.close()


def test_two_separate_presses_are_two_commands(table):
    buttons, events, factory = table
    for _ in range(2):
        press(factory, 27)
        release(factory, 27)
        assert buttons.wait_settled(WAIT)    # the release outlasted the bounce window
    assert events.drain() == [gpio(Command.CONFIRM), gpio(Command.CONFIRM)]


def test_undo_needs_a_long_press(table):
    buttons, events, factory = table
    press(factory, 23)
    release(factory, 23)             # a knock: far shorter than hold_time
    assert buttons.wait_settled(WAIT)
    assert events.drain() == []
    press(factory, 23)
    event = events.get(timeout=WAIT)  # arrives after hold_time while still held
    assert event == gpio(Command.UNDO) and event.detail["gesture"] == "hold"
    release(factory, 23)
    assert buttons.wait_settled(WAIT)
    assert events.drain() == []      # the hold fired once; letting go adds nothing


def test_a_button_with_press_and_hold_never_fires_both(factory):
    config = GpioConfig(hold_time=0.8, led_red=None, led_green=None, led_blue=None,
                        buttons=(ButtonSpec("next", 17, press=Command.NEXT, hold=Command.UNDO),))
    events = EventQueue()
    with TableButtons(config, pin_factory=factory).start(events) as buttons:
        press(factory, 17)
        held = events.get(timeout=WAIT)
        release(factory, 17)
        assert buttons.wait_settled(WAIT)
        press(factory, 17)
        release(factory, 17)
        assert buttons.wait_settled(WAIT)
        short = events.get(timeout=WAIT)
        assert (held, short) == (gpio(Command.UNDO), gpio(Command.NEXT))
        assert events.drain() == []


def test_the_led_shows_the_table_state(table):
    buttons, _, factory = table
    pins = (factory.pin(5), factory.pin(6), factory.pin(13))
    assert tuple(int(p.state) for p in pins) == LIGHT_COLOURS[TableLight.IDLE]
    for light in TableLight:
        buttons.set_light(light)
        assert tuple(int(p.state) for p in pins) == LIGHT_COLOURS[light]
    buttons.set_light("reading")
    assert tuple(int(p.state) for p in pins) == (1, 1, 0)
    assert len(set(LIGHT_COLOURS.values())) == len(TableLight)   # every state looks different


def test_events_before_start_and_after_close_go_nowhere(factory):
    events = EventQueue()
    buttons = TableButtons(GpioConfig(), pin_factory=factory)
    press(factory, 17)
    release(factory, 17)
    buttons.wait_settled(WAIT)
    buttons.start(events)
    buttons.close()
    buttons.close()                  # idempotent
    buttons.set_light(TableLight.READING)   # harmless after close
    with pytest.raises(queue.Empty):
        events.get(timeout=0)
    # The pins are free again: a second table can claim them.
    TableButtons(GpioConfig(), pin_factory=factory).close()


def test_a_pin_clash_releases_what_was_claimed(factory):
    config = GpioConfig(buttons=(ButtonSpec("next", 5, press=Command.NEXT),))  # 5 is the red LED
    with pytest.raises(Exception):
        TableButtons(config, pin_factory=factory)
    TableButtons(GpioConfig(), pin_factory=factory).close()
