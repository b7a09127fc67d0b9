"""A simulated serial panel on a pseudo-terminal, speaking the firmware's protocol.

For tests, demos and laptops: `SimBoard(link=...)` creates a pty pair, answers HELLO and PING,
keeps the LED / tray / ring state the host set, and can press buttons, send garbage, be
"unplugged" (the pty closes) and "plugged in" again (a new pty behind the same symlink, like a
USB board coming back under /dev/serial/by-id/).

    python -m hardware.simboard [--link PATH]

prints the pty path (point `[panel] port` at it) and reads commands from standard input:
`press NAME`, `hold NAME [SECONDS]`, `down NAME`, `up NAME`, `garbage`, `unplug`, `plug`, `quit`.
"""
from __future__ import annotations

import argparse
import os
import select
import sys
import threading
import time
import tty
from pathlib import Path
from typing import Callable

from hardware import protocol

FIRMWARE_VERSION = "1.0-sim"


class SimBoard:
    """The board's side of the wire. Thread-safe; `wait_for(predicate)` to wait on its state."""

    def __init__(self, link: Path | str | None = None, *, version: str = FIRMWARE_VERSION,
                 answer_pings: bool = True) -> None:
        self.link = Path(link) if link is not None else None
        self.version = version
        self.answer_pings = answer_pings
        self.path: str | None = None
        self.led: str | None = None
        self.tray: bool | None = None
        self.ring: tuple[int, int, int] | None = None
        self.received: list[str] = []     # every line the host sent, in order
        self.plugs = 0
        self._cond = threading.Condition()
        self._master = self._slave = -1
        self._wake_r = self._wake_w = -1
        self._thread: threading.Thread | None = None

    # -- plugging -----------------------------------------------------------------------------
    def plug(self) -> "SimBoard":
        """Create the pty (a fresh one each time), point the link at it, announce READY."""
        if self._master >= 0:
            return self
        master, slave = os.openpty()
        tty.setraw(slave)               # no echo, no line editing: a wire, not a terminal
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)  # atomic: the host never sees a half-made link
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._serve, name="simboard", daemon=True)
        self._thread.start()
        with self._cond:
            self.plugs += 1
            self._cond.notify_all()
        self.send(f"READY {self.version}")   # what a board prints after its reset
        return self

    def unplug(self) -> None:
        """Pull the cable: the pty goes away and the host's reads fail."""
        if self._master < 0:
            return
        os.write(self._wake_w, b"x")
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            os.close(fd)
        self._master = self._slave = self._wake_r = self._wake_w = -1
        with self._cond:
            self._cond.notify_all()

    close = unplug

    def __enter__(self) -> "SimBoard":
        return self.plug()

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    # -- the board's outputs ------------------------------------------------------------------
    def send(self, line: str | bytes) -> None:
        """Write a line (str, a "\\n" is added) or raw bytes (as given) to the host."""
        data = (line + "\n").encode("ascii") if isinstance(line, str) else line
        if self._master >= 0:
            os.write(self._master, data)

    def down(self, name: str) -> None:
        self.send(f"BTN {name} DOWN")

    def up(self, name: str) -> None:
        self.send(f"BTN {name} UP")

    def press(self, name: str) -> None:
        self.down(name)
        self.up(name)

    # -- waiting on what the host did -----------------------------------------------------------
    def wait_for(self, predicate: Callable[["SimBoard"], bool], timeout: float = 5.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self), timeout)

    def _serve(self) -> None:
        buffer, skipping = bytearray(), False
        while True:
            ready, _, _ = select.select([self._master, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            try:
                data = os.read(self._master, 1024)
            except OSError:             # EIO: the host closed its side; wait for it to reopen
                time.sleep(0.01)
                continue
            buffer.extend(data)
            lines, too_long, skipping = protocol.split_lines(buffer, skipping=skipping)
            for _ in range(too_long):   # as the firmware answers an overflowed line
                self.send("ERR line too long")
            for packet in lines:
                self._handle(packet.decode("ascii", "replace"))

    def _handle(self, line: str) -> None:
        try:
            command = protocol.parse_host_line(line)
        except protocol.ProtocolError as exc:
            self.send(f"ERR {exc}"[: protocol.MAX_LINE])
            command = None
        with self._cond:
            self.received.append(line)
            if command is not None:
                if command.verb == "LED":
                    self.led = command.args[0]
                elif command.verb == "TRAY":
                    self.tray = command.args[0]
                elif command.verb == "RING":
                    self.ring = command.args
            self._cond.notify_all()
        if command is None:
            return
        if command.verb == "HELLO":
            self.send(f"READY {self.version}")
        elif command.verb == "PING" and self.answer_pings:
            self.send(" ".join(["PONG", *command.args]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.simboard", description=__doc__.split("\n")[0])
    parser.add_argument("--link", help="a symlink to keep pointed at the pty (survives unplug/plug)")
    parser.add_argument("--version", default=FIRMWARE_VERSION, help="what READY reports")
    args = parser.parse_args(argv)
    board = SimBoard(args.link, version=args.version).plug()
    print(f"simulated panel on {board.path}" + (f" (link {board.link})" if board.link else ""), flush=True)
    print("commands: press NAME | hold NAME [SECONDS] | down NAME | up NAME | garbage | unplug | plug | quit",
          flush=True)
    seen = 0
    try:
        for raw in sys.stdin:
            words = raw.split()
            if not words:
                pass
            elif words[0] == "quit":
                break
            elif words[0] in ("press", "down", "up") and len(words) == 2:
                getattr(board, words[0])(words[1].upper())
            elif words[0] == "hold" and len(words) in (2, 3):
                board.down(words[1].upper())
                time.sleep(float(words[2]) if len(words) == 3 else 2.0)
                board.up(words[1].upper())
            elif words[0] == "garbage":
                board.send(bytes(range(256)) + b"\n")
            elif words[0] == "unplug":
                board.unplug()
            elif words[0] == "plug":
                board.plug()
                print(f"plugged in on {board.path}", flush=True)
            else:
                print(f"unknown command: {raw.strip()!r}", flush=True)
            for line in board.received[seen:]:
                print(f"host: {line}", flush=True)
            seen = len(board.received)
    except KeyboardInterrupt:
        pass
    finally:
        board.unplug()
    return 0


if __name__ == "__main__":
    sys.exit(main())
