"""The panel thread never dies: a port lost while opening, an EIO on a connected port, the device
file removed and brought back. Each ends as "disconnected", is told to the app, and reconnects."""
from __future__ import annotations

import errno
import threading

import pytest
import serial

from companion.events import Command, EventQueue, InputEvent
from hardware import panel as panel_module
from hardware.config import PanelConfig
from hardware.panel import Panel
from hardware.simboard import SimBoard

WAIT = 5.0  # upper bound for a wait on an event; a passing test never waits this long
REAL_OPEN = serial.serial_for_url


def next_of(events, kind):
    """The next event of `kind` (status news and commands share the queue)."""
    while True:
        event = events.get(timeout=WAIT)
        if event.kind == kind:
            return event


@pytest.fixture
def link(tmp_path):
    return tmp_path / "panel"


def start(link, events):
    config = PanelConfig(port=str(link), heartbeat=0.2, timeout=3.0, hold_time=0.5)
    return Panel(config, backoff=(0.05, 0.2)).start(events)


def test_a_port_lost_while_opening_is_retried_not_fatal(link, monkeypatch):
    opens = []

    def flaky_open(*args, **kwargs):
        port = REAL_OPEN(*args, **kwargs)
        opens.append(port)
        if len(opens) == 1:
            port.close()  # gone between open and the reader starting: "already stopped"
        return port

    monkeypatch.setattr(panel_module.serial, "serial_for_url", flaky_open)
    events = EventQueue()
    with SimBoard(link) as board, start(link, events) as panel:
        assert panel.wait_ready(WAIT)
        assert len(opens) >= 2 and panel.status().counters["disconnects"] >= 1
        board.press("NEXT")
        assert next_of(events, "command").value == Command.NEXT


class _EioPort:
    """A real pty port whose `in_waiting` ioctl fails with EIO once `fail` is set, as a USB
    adapter's does when it is pulled: an OSError that pyserial's own reader loop never catches."""

    def __init__(self, port, fail: threading.Event):
        self._port, self._fail = port, fail

    def __getattr__(self, name):
        return getattr(self._port, name)

    @property
    def in_waiting(self):
        if self._fail.is_set():
            raise OSError(errno.EIO, "Input/output error")
        return self._port.in_waiting


def test_an_eio_on_a_connected_port_disconnects_tells_the_app_and_reconnects(link, monkeypatch):
    fail = threading.Event()
    ports = []

    def eio_open(*args, **kwargs):
        port = _EioPort(REAL_OPEN(*args, **kwargs), fail if not ports else threading.Event())
        ports.append(port)
        return port

    monkeypatch.setattr(panel_module.serial, "serial_for_url", eio_open)
    events = EventQueue()
    with SimBoard(link) as board, start(link, events) as panel:
        assert panel.wait_ready(WAIT)
        fail.set()
        board.press("NEXT")  # wakes the reader, which now meets the EIO
        assert panel.wait_status(lambda s: not s.connected or s.counters["connects"] >= 2, WAIT)
        news = next_of(events, "status")
        assert news.value["panel"] == "disconnected" and "Input/output error" in news.value["message"]
        assert panel.wait_status(lambda s: s.ready and s.counters["connects"] == 2, WAIT)
        assert next_of(events, "status").value["panel"] == "connected"
        board.press("CONFIRM")
        assert next_of(events, "command").value == Command.CONFIRM


def test_closed_mid_stream_then_the_device_file_removed_and_brought_back(link):
    events = EventQueue()
    with start(link, events) as panel:
        board = SimBoard(link).plug()
        assert panel.wait_ready(WAIT)
        board.send(b"BTN NEXT DO")  # half a line, then the cable goes
        board.unplug()
        link.unlink()               # the device file is gone, not only the tty behind it
        assert panel.wait_status(lambda s: not s.connected and s.counters["open_failures"] >= 1, WAIT)
        assert next_of(events, "status").value["panel"] == "disconnected"
        board.plug()                # the device file is back
        assert panel.wait_ready(WAIT)
        board.press("READ")
        assert next_of(events, "command").value == Command.READ_DICE
        board.unplug()


def test_the_table_shows_the_panel_news():
    from companion.table.table import Table

    table = Table()
    table.handle(InputEvent("status", {"panel": "disconnected", "message": "The button panel was gone."}, "panel"))
    assert table.panel_status == "disconnected"
    assert (table.message, table.message_is_error) == ("The button panel was gone.", True)
