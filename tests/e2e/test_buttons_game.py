"""Rolling Village played with the table's buttons alone (issue 5, "In the app").

The real app under Xvfb, `companion.peripherals.attach` as `companion run` does it: GPIO buttons
and the RGB LED on gpiozero's MockFactory, the serial panel as a simulated board on a real
pseudo-terminal, the simulator as the dice camera, and sd_notify on a real Unix socket. Once
the game is set up (a touch task), no tap is made: read-dice throws and reads the dice, confirm
takes them (and builds the advisor's squares), next turns the sheets, a long undo takes back.
"""
from __future__ import annotations

import socket

import pytest

from .app_driver import Driver, WAIT, until  # sets Kivy's environment before kivy is imported

from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion.dice_camera import DiceCamera  # noqa: E402
from companion.events import TableLight  # noqa: E402
from companion.peripherals import attach  # noqa: E402
from hardware.buttons import LIGHT_COLOURS  # noqa: E402
from hardware.config import parse_config  # noqa: E402
from hardware.notify import Notifier  # noqa: E402
from hardware.simboard import SimBoard  # noqa: E402

pytestmark = pytest.mark.ui

NEXT, CONFIRM, READ_DICE, UNDO = 17, 27, 22, 23     # the default [gpio] pins
LED_PINS = (5, 6, 13)


class Table:
    """The app, the board, the pins and the service manager's socket, for one game."""

    def __init__(self, tmp_path):
        self.path = tmp_path
        self.board = SimBoard(tmp_path / "panel").plug()
        self.factory = MockFactory()
        self.manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.manager.bind(str(tmp_path / "notify"))
        config = parse_config({"panel": {"port": str(tmp_path / "panel"), "heartbeat": 0.5}})
        self.drv = Driver(tmp_path / "data")
        notifier = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "400000"})
        camera = DiceCamera("sim:?seed=7", self.drv.table.post)
        self.attached = attach(self.drv.table, config, pin_factory=self.factory,
                               notifier=notifier, camera=camera)
        self.devices = self.attached.devices

    def close(self):
        self.attached()
        self.drv.close()
        self.board.unplug()
        self.manager.close()
        self.factory.reset()

    # -- presses -----------------------------------------------------------------------------
    def gpio(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()
        self.factory.pin(pin).drive_high()
        # The release counts once the contact has stayed open (debouncing): then press again.
        assert self.devices.buttons.wait_settled(WAIT)

    def hold_gpio(self, pin: int, done) -> None:
        self.factory.pin(pin).drive_low()
        until(self.drv, done, what=f"the long press on pin {pin}")
        self.factory.pin(pin).drive_high()
        assert self.devices.buttons.wait_settled(WAIT)

    def panel(self, name: str) -> None:
        self.board.press(name)

    # -- waiting -----------------------------------------------------------------------------
    @property
    def table(self):
        return self.drv.table

    def actions(self) -> int:
        return len(self.table.session.actions)

    def until(self, predicate, what: str) -> None:
        until(self.drv, predicate, what=what)


@pytest.fixture(scope="module")
def t(tmp_path_factory):
    table = Table(tmp_path_factory.mktemp("table"))
    yield table
    table.close()


def read_dice_by_buttons(t) -> tuple[int, ...]:
    """Read-dice on the panel until the camera has given two dice; confirm an unsure reading."""
    for _attempt in range(4):
        before = t.table.message_count
        t.panel("READ")
        t.until(lambda: t.table.light is TableLight.READING, "the reading to start")
        assert t.board.wait_for(lambda b: b.tray is True, WAIT)      # the tray is lit
        t.until(lambda: not t.table.reading and t.table.message_count > before, "the camera's reading")
        if t.table.dice_check is not None:
            reading = t.table.dice_check.faces
            t.gpio(CONFIRM)                                           # as read
            t.until(lambda: t.table.dice_check is None, "the check to be confirmed")
            assert t.table.draft.dice == reading
        assert t.board.wait_for(lambda b: b.tray is False, WAIT)     # dark again
        if len(t.table.draft.dice) == 2:
            return t.table.draft.dice
    raise AssertionError(f"the camera never read two dice: {t.table.message}")


def confirm_roll(t) -> None:
    dice, count = t.table.draft.dice, t.actions()
    t.gpio(CONFIRM)
    t.until(lambda: t.actions() == count + 1, "the roll to be taken")
    assert t.table.session.actions[-1].dice == dice


def build_by_buttons(t) -> None:
    """Each owed Project: confirm shows the advisor's squares, confirm again builds the first."""
    while t.table.state.phase == "build":
        player, count = t.table.draft.player, t.actions()
        t.panel("CONFIRM")
        t.until(lambda: t.table.advice is not None and t.table.advice.player == player, "the advice")
        row, street, project = t.table.advice.squares[0]
        t.panel("CONFIRM")
        t.until(lambda: t.actions() == count + 1, "the build")
        built = t.table.session.actions[-1]
        assert (built.player, built.project, built.row, built.street) == (player, project, row, street)


def test_the_board_and_the_service_manager_hear_from_the_app(t):
    assert t.devices.problems == [] and t.devices.panel.wait_ready(WAIT)
    assert t.drv.app.start_game("rolling-village", ["Ann", "Bo"])
    t.until(lambda: t.board.led == "waiting_for_dice", "the panel's ring")
    assert tuple(t.factory.pin(p).state for p in LED_PINS) == LIGHT_COLOURS[TableLight.WAITING_FOR_DICE]
    heard = []

    def listen() -> bool:
        try:
            heard.append(t.manager.recv(256).decode())
        except BlockingIOError:
            pass
        return [h for h in heard if not h.startswith("STATUS=")][2:3] == ["WATCHDOG=1"]

    t.manager.setblocking(False)
    t.until(listen, "READY and two watchdog pings")        # the pings come from the Kivy loop
    assert "STATUS=dice camera connected: sim:?seed=7" in heard   # for systemctl status
    heard = [h for h in heard if not h.startswith("STATUS=")]
    assert heard[0].startswith("READY=1")                 # once the window drew a frame
    assert heard[1:] == ["WATCHDOG=1", "WATCHDOG=1"]
    # The manager goes away (nobody reads its socket any more): the app carries on regardless.
    t.manager.close()
    (t.path / "notify").unlink()


def test_two_turns_by_buttons_alone(t):
    state = t.table.state
    assert state.turn == 0 and state.phase == "roll"
    while not (t.table.state.turn == 2 and t.table.state.phase == "roll"):
        phase = t.table.state.phase
        if phase in ("roll", "activate"):
            read_dice_by_buttons(t)
            assert t.table.light is TableLight.NEEDS_CONFIRMATION
            assert t.board.led == "needs_confirmation"
            confirm_roll(t)
        else:
            build_by_buttons(t)
    assert all(v.score >= 0 for v in t.table.state.villages) and len(t.table.state.villages[0].turn_scores) >= 1


def test_next_turns_the_sheet_and_a_long_undo_takes_back_a_build(t):
    read_dice_by_buttons(t)
    confirm_roll(t)
    first = t.table.draft.player
    t.gpio(NEXT)
    t.until(lambda: t.table.draft.player != first, "the next sheet")
    t.gpio(NEXT)
    t.until(lambda: t.table.draft.player == first, "the sheets to come round")
    build_by_buttons_once = t.actions()
    t.panel("CONFIRM")
    t.until(lambda: t.table.advice is not None, "the advice")
    t.panel("CONFIRM")
    t.until(lambda: t.actions() == build_by_buttons_once + 1, "a build")
    # A short press of undo does nothing (so a knock never takes back a move) ...
    t.gpio(UNDO)
    t.drv.frames(3)
    assert t.actions() == build_by_buttons_once + 1
    # ... a long one does, on the GPIO button and on the panel alike.
    t.hold_gpio(UNDO, lambda: t.actions() == build_by_buttons_once)
    t.board.down("UNDO")
    t.until(lambda: t.actions() == build_by_buttons_once - 1, "the panel's long undo")
    t.board.up("UNDO")
    assert t.table.state.phase == "roll"
