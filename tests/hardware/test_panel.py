"""The serial panel against the simulated board over a real pseudo-terminal pair."""
from __future__ import annotations

import pytest

from companion.events import Command, EventQueue, InputEvent, TableLight
from hardware import protocol
from hardware.config import PanelConfig
from hardware.panel import Panel
from hardware.simboard import SimBoard

WAIT = 5.0  # upper bound for a wait on an event; a passing test never waits this long


def panel_event(command):
    return InputEvent.command(command, source="panel")


@pytest.fixture
def link(tmp_path):
    return tmp_path / "panel"        # like /dev/serial/by-id/usb-...: a symlink to the tty


@pytest.fixture
def rig(link):
    board = SimBoard(link).plug()
    events = EventQueue()
    config = PanelConfig(port=str(link), heartbeat=0.2, timeout=3.0, hold_time=0.5)
    panel = Panel(config, backoff=(0.05, 0.2)).start(events)
    assert panel.wait_ready(WAIT)
    yield board, panel, events
    panel.close()
    board.unplug()


def test_the_board_announces_its_version(rig):
    board, panel, _ = rig
    status = panel.status()
    assert status.connected and status.ready
    assert status.version == "1.0-sim"
    assert status.counters["connects"] == 1


def test_buttons_become_commands(rig):
    board, panel, events = rig
    board.press("NEXT")
    board.press("CONFIRM")
    board.press("READ")
    assert [events.get(timeout=WAIT) for _ in range(3)] == [
        panel_event(Command.NEXT), panel_event(Command.CONFIRM), panel_event(Command.READ_DICE)]


def test_undo_is_a_long_press_only(rig):
    board, panel, events = rig
    board.press("UNDO")              # a tap: DOWN and UP back to back
    board.down("UNDO")
    event = events.get(timeout=WAIT)
    board.up("UNDO")
    board.press("NEXT")              # lines are handled in order: NEXT comes after UNDO's UP
    assert event == panel_event(Command.UNDO) and event.detail["gesture"] == "hold"
    assert events.get(timeout=WAIT) == panel_event(Command.NEXT)
    assert events.drain() == []


def test_lights_reach_the_board(rig):
    board, panel, _ = rig
    panel.set_light(TableLight.READING)
    panel.tray_light(True)
    panel.ring(255, 120, 0)
    assert board.wait_for(lambda b: (b.led, b.tray, b.ring) == ("reading", True, (255, 120, 0)), WAIT)
    panel.tray_light(False)
    assert board.wait_for(lambda b: b.tray is False, WAIT)


def test_heartbeat_pings_are_answered(rig):
    board, panel, _ = rig
    assert board.wait_for(lambda b: sum(l.startswith("PING") for l in b.received) >= 2, WAIT)
    assert panel.status().counters["timeouts"] == 0


def test_garbage_is_counted_and_ignored(rig):
    board, panel, events = rig
    board.send(bytes(range(1, 10)) + b"\xff\xfe\n")                 # not text
    board.send("HELLO THERE")                                       # not a board message
    board.send("BTN NEXT SIDEWAYS")                                 # a board message, badly made
    board.send("BTN NOSUCHBUTTON DOWN")                             # a button we do not have
    board.send(b"X" * 500)                                          # over-long, in pieces ...
    board.send(b"Y" * 500 + b"\n")                                  # ... ending here
    board.send(b"Z" * (protocol.MAX_LINE + 1) + b"\r\n")           # one byte too long
    board.send("ERR unknown command 'FOO'")
    board.press("NEXT")                                             # and the board still works
    assert events.get(timeout=WAIT) == panel_event(Command.NEXT)
    counters = panel.status().counters
    assert counters["malformed"] == 2
    assert counters["unknown"] == 2
    assert counters["too_long"] == 2
    assert counters["board_errors"] == 1
    assert panel.status().connected


def test_a_line_of_exactly_the_limit_is_accepted(rig):
    board, panel, events = rig
    version = "v" * (protocol.MAX_LINE - len("READY "))
    board.send(f"READY {version}\r")
    board.press("NEXT")
    events.get(timeout=WAIT)
    assert panel.status().version == version


def test_unplug_and_plug_back_in(rig):
    board, panel, events = rig
    panel.set_light(TableLight.WAITING_FOR_DICE)
    board.down("NEXT")
    assert events.get(timeout=WAIT) == panel_event(Command.NEXT)
    board.unplug()                   # mid-game, with a button still down
    assert panel.wait_status(lambda s: not s.connected, WAIT)
    panel.set_light(TableLight.NEEDS_CONFIRMATION)   # the app carries on without the board
    panel.tray_light(True)
    assert not panel.status().ready
    board.received.clear()
    board.plug()                     # a new pty behind the same link
    assert panel.wait_ready(WAIT)
    # The board came back dark: the panel tells it the current state.
    assert board.wait_for(lambda b: (b.led, b.tray) == ("needs_confirmation", True), WAIT)
    board.press("CONFIRM")
    # The app was told both ways (the table shows it): disconnected, then back.
    news = [events.get(timeout=WAIT) for _ in range(3)]
    assert [e.value["panel"] for e in news[:2]] == ["disconnected", "connected"]
    assert news[2] == panel_event(Command.CONFIRM)
    counters = panel.status().counters
    assert counters["connects"] == 2 and counters["disconnects"] == 1


def test_absent_at_start_then_plugged_in(link):
    events = EventQueue()
    config = PanelConfig(port=str(link), heartbeat=0.2)
    with Panel(config, backoff=(0.05, 0.2)).start(events) as panel:
        panel.set_light(TableLight.SCORING)
        assert not panel.wait_ready(0.3)
        assert panel.status().counters["open_failures"] >= 1
        assert "panel" in panel.status().last_error
        with SimBoard(link) as board:
            assert panel.wait_ready(WAIT)
            assert board.wait_for(lambda b: b.led == "scoring", WAIT)
            board.press("READ")
            assert events.get(timeout=WAIT) == panel_event(Command.READ_DICE)


def test_a_silent_board_is_dropped_and_retried(link):
    events = EventQueue()
    config = PanelConfig(port=str(link), heartbeat=0.1, timeout=0.5)
    with SimBoard(link, answer_pings=False) as board, \
            Panel(config, backoff=(0.05, 0.2)).start(events) as panel:
        assert panel.wait_ready(WAIT)
        # Answers READY to every HELLO, never PONG: each time the silence outlasts the timeout.
        assert panel.wait_status(lambda s: s.counters["timeouts"] >= 1 and s.counters["connects"] >= 2,
                                 WAIT)
        assert board.wait_for(lambda b: b.received.count("HELLO") >= 2, WAIT)


def test_no_port_configured_means_no_thread():
    with Panel(PanelConfig(port="")).start(EventQueue()) as panel:
        panel.set_light(TableLight.READING)
        panel.tray_light(True)
        assert panel.status().connected is False
    panel.close()                    # idempotent


def test_hwgrep_with_no_match_keeps_trying():
    with Panel(PanelConfig(port="hwgrep://^no-such-device-anywhere$"), backoff=(0.05, 0.1)) as panel:
        panel.start(EventQueue())
        assert not panel.wait_ready(0.3)
        assert panel.status().counters["open_failures"] >= 1
