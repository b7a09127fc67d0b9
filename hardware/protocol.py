"""The serial panel's line protocol (docs/serial-panel.md), shared by the host and the simulator.

One ASCII line per message, ended by "\\n" (a "\\r" before it is ignored), at most MAX_LINE bytes.
Board to host: READY <version> | BTN <name> DOWN|UP | PONG [<token>] | ERR <text>.
Host to board: HELLO | PING [<token>] | LED <state> | TRAY ON|OFF | RING <r> <g> <b>.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.events import TableLight

MAX_LINE = 64          # bytes, without the terminator; the firmware's buffer is this size
PROTOCOL_VERSION = 1
BUTTON_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


class ProtocolError(ValueError):
    """A line that is not a message: kind is "malformed" (bad shape) or "unknown" (bad verb)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Ready:
    version: str


@dataclass(frozen=True)
class ButtonEdge:
    name: str
    down: bool


@dataclass(frozen=True)
class Pong:
    token: str


@dataclass(frozen=True)
class BoardError:
    text: str


@dataclass(frozen=True)
class HostCommand:
    """What the host asked the board (parsed by the simulator; the firmware does the same)."""

    verb: str
    args: tuple = ()


def parse_board_line(line: str) -> Ready | ButtonEdge | Pong | BoardError:
    """Parse a board-to-host line; ProtocolError if it is not one."""
    verb, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if verb == "READY":
        if not rest:
            raise ProtocolError("malformed", "READY needs a version")
        return Ready(rest)
    if verb == "BTN":
        parts = rest.split()
        if len(parts) != 2 or parts[1] not in ("DOWN", "UP") or not _is_name(parts[0]):
            raise ProtocolError("malformed", f"BTN needs <NAME> DOWN|UP (got {rest!r})")
        return ButtonEdge(parts[0], parts[1] == "DOWN")
    if verb == "PONG":
        return Pong(rest)
    if verb == "ERR":
        return BoardError(rest)
    raise ProtocolError("unknown", f"unknown message {verb!r}")


def parse_host_line(line: str) -> HostCommand:
    """Parse a host-to-board line; ProtocolError if it is not one (the board answers ERR)."""
    verb, _, rest = line.strip().partition(" ")
    parts = rest.split()
    if verb == "HELLO" and not parts:
        return HostCommand("HELLO")
    if verb == "PING" and len(parts) <= 1:
        return HostCommand("PING", tuple(parts))
    if verb == "LED" and len(parts) == 1 and parts[0] in {t.value for t in TableLight}:
        return HostCommand("LED", (parts[0],))
    if verb == "TRAY" and parts in (["ON"], ["OFF"]):
        return HostCommand("TRAY", (parts[0] == "ON",))
    if verb == "RING" and len(parts) == 3 and all(p.isdigit() and int(p) <= 255 for p in parts):
        return HostCommand("RING", tuple(int(p) for p in parts))
    if verb in ("HELLO", "PING", "LED", "TRAY", "RING"):
        raise ProtocolError("malformed", f"bad arguments for {verb}: {rest!r}")
    raise ProtocolError("unknown", f"unknown command {verb!r}")


def _is_name(name: str) -> bool:
    return 0 < len(name) <= 16 and set(name) <= BUTTON_NAME_CHARS


def hello() -> str:
    return "HELLO"


def ping(token: int | str) -> str:
    return f"PING {token}"


def led(light: TableLight | str) -> str:
    return f"LED {TableLight(light).value}"


def tray(on: bool) -> str:
    return f"TRAY {'ON' if on else 'OFF'}"


def ring(r: int, g: int, b: int) -> str:
    for value in (r, g, b):
        if not 0 <= int(value) <= 255:
            raise ValueError(f"RING colour values are 0-255 (got {value!r})")
    return f"RING {int(r)} {int(g)} {int(b)}"


def split_lines(buffer: bytearray, *, skipping: bool) -> tuple[list[bytes], int, bool]:
    """Cut complete lines off `buffer` (in place): (lines, too_long_count, skipping).

    A line longer than MAX_LINE is dropped and counted once; while its tail is still arriving
    (`skipping`), bytes are discarded up to the next terminator so memory stays bounded.
    """
    lines, too_long = [], 0
    while True:
        end = buffer.find(b"\n")
        if end < 0:
            if len(buffer) > MAX_LINE + 1:        # +1: room for a "\r" before the "\n"
                if not skipping:
                    too_long += 1
                skipping = True
                buffer.clear()
            return lines, too_long, skipping
        packet = bytes(buffer[:end])
        del buffer[:end + 1]
        if packet.endswith(b"\r"):
            packet = packet[:-1]
        if skipping:                              # the rest of an over-long line
            skipping = False
            continue
        if len(packet) > MAX_LINE:
            too_long += 1
            continue
        lines.append(packet)
