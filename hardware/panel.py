"""The optional serial button/LED board (docs/serial-panel.md), reconnecting in the background.

`Panel(config).start(queue)` starts a thread that opens the port (a path, or a pyserial URL such as
`hwgrep://2341:0043`), runs pyserial's `ReaderThread` with the line protocol, pings the board, and
when the port is absent or goes away (unplugged mid-game) waits with backoff and opens it again.
The app never waits for the board: `set_light` and `tray_light` are remembered and sent whenever a
board is there. Bad lines are counted (see `status()`) and ignored, never fatal. Any serial error
(EIO, a port lost while opening, the device file removed) is a disconnect, never a dead thread; the
app hears of each disconnect and return as a "status" event ({"panel": ...}) and shows it.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import serial
from serial.threaded import Protocol, ReaderThread

from companion.events import Command, EventQueue, InputEvent, TableLight
from hardware import protocol
from hardware.config import ButtonSpec, PanelConfig

COUNTERS = ("lines", "malformed", "unknown", "too_long", "board_errors", "connects",
            "disconnects", "timeouts", "open_failures")


@dataclass(frozen=True)
class PanelStatus:
    port: str
    connected: bool                   # the port is open
    ready: bool                       # the board answered READY since it was opened
    version: str | None
    counters: dict = field(default_factory=dict)
    last_error: str = ""


class _PanelLines(Protocol):
    """Framing only: bytes in, complete lines out to the Panel (runs in the reader thread)."""

    def __init__(self, panel: "Panel", lost: threading.Event) -> None:
        self.panel, self.lost = panel, lost
        self.buffer = bytearray()
        self.skipping = False

    def data_received(self, data: bytes) -> None:
        self.buffer.extend(data)
        lines, too_long, self.skipping = protocol.split_lines(self.buffer, skipping=self.skipping)
        self.panel._count("too_long", too_long)
        for packet in lines:
            self.panel._on_packet(packet)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.panel._note_error(exc)
        self.lost.set()


class _SafeReaderThread(ReaderThread):
    """pyserial's ReaderThread, but any failure ends in `connection_lost`, never a dead thread.

    Its own loop catches only SerialException: an EIO from `in_waiting` (an ioctl, an OSError)
    kills it silently, and the panel would go on believing the board is connected."""

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        error: BaseException | None = None
        try:
            self.protocol.connection_made(self)
        except Exception as exc:  # noqa: BLE001 (reported through connection_lost)
            error = exc
            self.alive = False
        self._connection_made.set()
        while error is None and self.alive:
            try:
                if not self.serial.is_open:
                    break
                data = self.serial.read(self.serial.in_waiting or 1)
                if data:
                    self.protocol.data_received(data)
            except Exception as exc:  # noqa: BLE001 (EIO, a closed fd, a vanished device)
                error = exc
        self.alive = False
        self.protocol.connection_lost(error)


class _ButtonRule:
    """Press/hold for one panel button (the board sends edges; the host times the hold)."""

    def __init__(self, spec: ButtonSpec) -> None:
        self.spec = spec
        self.timer: threading.Timer | None = None
        self.held = False
        self.down = False


class Panel:
    """The serial panel. `start(queue)`, `set_light`, `tray_light`, `status()`, `close()`."""

    def __init__(self, config: PanelConfig | None = None, *, backoff: tuple[float, float] = (0.2, 5.0),
                 source: str = "panel") -> None:
        self.config = config or PanelConfig()
        self.backoff = backoff
        self.source = source
        self._queue: EventQueue | None = None
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)   # notified on every status change
        self._counters = dict.fromkeys(COUNTERS, 0)
        self._rules = {spec.name: _ButtonRule(spec) for spec in self.config.buttons}
        # The reader thread (edges) and hold timers both decide a press: one at a time, so a
        # release landing on the hold time gives a press or a hold, never both.
        self._button_lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: ReaderThread | None = None
        self._version: str | None = None
        self._last_error = ""
        self._last_rx = 0.0
        self._light = TableLight.IDLE
        self._tray = False
        self._ring: tuple[int, int, int] | None = None
        self._told_lost = False  # the app was told "disconnected" and has not heard "back" yet

    # -- the app's side ---------------------------------------------------------------------
    def start(self, queue: EventQueue) -> "Panel":
        """Begin connecting in the background (returns at once); events go to `queue`."""
        self._queue = queue
        if self._thread is None and self.config.port and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name="companion-panel", daemon=True)
            self._thread.start()
        return self

    def set_light(self, light: TableLight | str) -> None:
        self._light = TableLight(light)
        self._send(protocol.led(self._light))

    def tray_light(self, on: bool) -> None:
        """Light the dice tray (the app turns it on while reading dice)."""
        self._tray = bool(on)
        self._send(protocol.tray(self._tray))

    def ring(self, r: int, g: int, b: int) -> None:
        line = protocol.ring(r, g, b)
        self._ring = (r, g, b)
        self._send(line)

    def status(self) -> PanelStatus:
        """Connected / ready / firmware version / counters / the last error, for doctor and logs."""
        with self._lock:
            return self._status_locked()

    def _status_locked(self) -> PanelStatus:
        return PanelStatus(self.config.port, self._connected.is_set(), self._ready.is_set(),
                           self._version, dict(self._counters), self._last_error)

    def _set_flag(self, flag: threading.Event, on: bool) -> None:
        with self._changed:
            flag.set() if on else flag.clear()
            self._changed.notify_all()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until a board has said READY (tests, doctor); False on timeout."""
        return self._ready.wait(timeout)

    def wait_status(self, predicate, timeout: float | None = None) -> bool:
        """Wait until `predicate(self.status())` holds; False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self._status_locked()), timeout)

    def close(self) -> None:
        """Stop the background thread and close the port; safe to call twice."""
        self._stop.set()
        reader = self._reader
        if reader is not None:
            reader.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        for rule in self._rules.values():
            if rule.timer is not None:
                rule.timer.cancel()

    def __enter__(self) -> "Panel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the connection ---------------------------------------------------------------------
    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.config.port, baudrate=self.config.baudrate,
                                             timeout=None, exclusive=True)
            except Exception as exc:  # noqa: BLE001 (absent, busy, a bad URL: retried, never fatal)
                self._count("open_failures")
                self._note_error(exc)
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            delay = self.backoff[0]
            try:
                self._session(port)
            except Exception as exc:  # noqa: BLE001 (lost while opening: "already stopped")
                self._note_error(exc)
                self._count("disconnects")
                try:
                    port.close()
                except Exception:  # noqa: BLE001 (the port is gone already)
                    pass
                self._stop.wait(delay)

    def _session(self, port: serial.SerialBase) -> None:
        lost = threading.Event()
        reader = _SafeReaderThread(port, lambda: _PanelLines(self, lost))
        reader.daemon = True
        reader.start()
        reader.connect()  # RuntimeError if the port died at once: _run counts it and retries
        self._reader = reader
        self._count("connects")
        self._last_rx = time.monotonic()
        self._set_flag(self._connected, True)
        if self._told_lost:  # at start-up, the panel joining is no news
            self._told_lost = False
            self._announce("connected", "The button panel is back.")
        # A board that does not reset on open (native USB) announces itself only when asked.
        self._send(protocol.hello())
        self._resync()
        token = 0
        try:
            while not self._stop.is_set() and not lost.is_set():
                if lost.wait(self.config.heartbeat) or self._stop.is_set():
                    break
                if time.monotonic() - self._last_rx > self.config.timeout:
                    self._count("timeouts")
                    self._note_error(f"no answer from the board for {self.config.timeout:g} s")
                    break
                token += 1
                self._send(protocol.ping(token))
        finally:
            self._set_flag(self._connected, False)
            self._set_flag(self._ready, False)
            self._reader = None
            self._release_all()
            try:
                reader.close()
            except Exception as exc:  # noqa: BLE001 (closing a vanished device may fail too)
                self._note_error(exc)
            if not self._stop.is_set():
                self._count("disconnects")
                self._told_lost = True
                why = self._last_error or "no reason given"
                self._announce("disconnected", f"The button panel was disconnected ({why}); touch and keys "
                                               f"still work, and it reconnects by itself when it is back.")

    def _announce(self, state: str, message: str) -> None:
        """Tell the app (on its queue): the table shows it, and falls back to touch and keys."""
        queue = self._queue
        if queue is not None:
            queue.put(InputEvent("status", {"panel": state, "message": message}, self.source))

    def _resync(self) -> None:
        # A re-plugged board starts dark: tell it everything the app set while it was away.
        self._send(protocol.led(self._light))
        self._send(protocol.tray(self._tray))
        if self._ring is not None:
            self._send(protocol.ring(*self._ring))

    def _send(self, line: str) -> None:
        reader = self._reader
        if reader is None:
            return
        try:
            reader.write((line + "\n").encode("ascii"))
        except (serial.SerialException, OSError, AttributeError) as exc:
            # The reader thread notices the same failure and starts the reconnect.
            self._note_error(exc)

    # -- lines from the board (reader thread) -----------------------------------------------
    def _on_packet(self, packet: bytes) -> None:
        self._last_rx = time.monotonic()
        try:
            line = packet.decode("ascii")
            message = protocol.parse_board_line(line)
        except UnicodeDecodeError:
            self._count("malformed")
            return
        except protocol.ProtocolError as exc:
            self._count(exc.kind)
            return
        self._count("lines")
        if isinstance(message, protocol.Ready):
            self._version = message.version
            self._set_flag(self._ready, True)
        elif isinstance(message, protocol.ButtonEdge):
            self._on_button(message)
        elif isinstance(message, protocol.BoardError):
            self._count("board_errors")
            self._note_error(f"board: {message.text}")

    def _on_button(self, edge: protocol.ButtonEdge) -> None:
        rule = self._rules.get(edge.name)
        if rule is None:
            self._count("unknown")
            return
        with self._button_lock:
            emit = self._edge(rule, edge.down)
        if emit is not None:
            self._emit(*emit)

    def _edge(self, rule: _ButtonRule, down: bool) -> tuple | None:
        """Update one button for an edge; the event to emit, if any."""
        spec = rule.spec
        if down:
            if rule.down:
                return None       # a repeated DOWN (e.g. after a line was lost) is the same press
            rule.down, rule.held = True, False
            if spec.hold:
                rule.timer = threading.Timer(self.config.hold_time, self._on_held, args=(rule,))
                rule.timer.daemon = True
                rule.timer.start()
                return None
            return (spec.press, spec.name, "press") if spec.press else None
        if not rule.down:
            return None
        rule.down = False
        if rule.timer is not None:
            rule.timer.cancel()
        if spec.hold and spec.press and not rule.held:
            return (spec.press, spec.name, "press")
        return None

    def _on_held(self, rule: _ButtonRule) -> None:
        with self._button_lock:
            fire = rule.down and not rule.held and not self._stop.is_set()
            if fire:
                rule.held = True
        if fire:
            self._emit(rule.spec.hold, rule.spec.name, "hold")

    def _release_all(self) -> None:
        # A button down when the board vanished is not pressed any more.
        with self._button_lock:
            for rule in self._rules.values():
                if rule.timer is not None:
                    rule.timer.cancel()
                rule.down = rule.held = False

    def _emit(self, command: Command, button: str, gesture: str) -> None:
        queue = self._queue
        if queue is not None:
            queue.put(InputEvent("command", Command(command), self.source,
                                 detail={"button": button, "gesture": gesture}))

    def _count(self, name: str, n: int = 1) -> None:
        if n:
            with self._changed:
                self._counters[name] += n
                self._changed.notify_all()

    def _note_error(self, exc: object) -> None:
        if exc is not None:
            self._last_error = str(exc)
