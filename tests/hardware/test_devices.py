"""The app's one object for the physical table: GPIO and panel events on one queue, lights to both."""
from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from companion.events import Command, EventQueue, InputEvent, TableLight
from hardware.config import parse_config
from hardware.devices import TableDevices
from hardware.simboard import SimBoard

WAIT = 5.0


def test_buttons_and_panel_share_the_queue_and_the_lights(tmp_path):
    link = tmp_path / "panel"
    factory = MockFactory()
    config = parse_config({"panel": {"port": str(link), "heartbeat": 0.2}})
    events = EventQueue()
    with SimBoard(link) as board, TableDevices(config, pin_factory=factory).start(events) as devices:
        assert devices.problems == []
        assert devices.panel.wait_ready(WAIT)
        factory.pin(22).drive_low()
        assert events.get(timeout=WAIT) == InputEvent.command(Command.READ_DICE, source="gpio")
        board.press("CONFIRM")
        assert events.get(timeout=WAIT) == InputEvent.command(Command.CONFIRM, source="panel")
        devices.set_light(TableLight.READING)
        devices.tray_light(True)
        assert board.wait_for(lambda b: (b.led, b.tray) == ("reading", True), WAIT)
        assert (factory.pin(5).state, factory.pin(6).state, factory.pin(13).state) == (1, 1, 0)
    devices.close()                      # idempotent after the with block
    factory.reset()


def test_busy_pins_leave_the_buttons_out_and_the_rest_running():
    from gpiozero import Button

    factory = MockFactory()
    other = Button(17, pin_factory=factory)    # another program holds the "next" pin
    with TableDevices(parse_config({}), pin_factory=factory).start(EventQueue()) as devices:
        assert devices.buttons is None
        assert len(devices.problems) == 1 and "GPIO buttons left out" in devices.problems[0]
        devices.set_light(TableLight.SCORING)      # still safe to call
        devices.tray_light(False)
    other.close()
    # Nothing was left claimed by the failed start: the pins are free for a new table.
    with TableDevices(parse_config({}), pin_factory=factory).start(EventQueue()) as devices:
        assert devices.buttons is not None and devices.problems == []
    factory.reset()
