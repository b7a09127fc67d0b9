"""systemd's notify protocol (sd_notify) in plain Python: READY=1, WATCHDOG=1, STATUS=, STOPPING=1.

Without `$NOTIFY_SOCKET` (not started by systemd, or on a laptop) every call does nothing.
The app calls `ready()` once its first screen is up and `tick()` from its main loop (e.g. from a
Kivy `Clock.schedule_interval`): `tick` sends WATCHDOG=1 at half the unit's WatchdogSec, so a hung
main loop stops the pings and systemd restarts the service.
"""
from __future__ import annotations

import os
import socket
import time
from typing import Callable, Mapping


class Notifier:
    """One connection to the service manager, or a no-op without one."""

    def __init__(self, env: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        env = os.environ if env is None else env
        self.address = _address(env.get("NOTIFY_SOCKET", ""))
        self.watchdog_interval = _watchdog_interval(env)
        self._clock = clock
        self._last_ping: float | None = None
        self.sent: list[str] = []        # what was sent, for `companion doctor` and tests

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *assignments: str) -> bool:
        """Send e.g. notify("READY=1", "STATUS=...") ; False if there is no manager or it failed."""
        if self.address is None:
            return False
        message = "\n".join(assignments)
        try:
            # Non-blocking: this runs on the UI thread, which must never wait on a manager
            # that stopped reading (a full queue drops the message: BlockingIOError below).
            flags = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK
            with socket.socket(socket.AF_UNIX, flags) as sock:
                sock.connect(self.address)
                sock.sendall(message.encode("utf-8"))
        except OSError:
            # The manager went away (shutdown), its queue is full, or the socket is not ours to
            # use: the table keeps running; systemd will notice missing pings itself.
            return False
        self.sent.append(message)
        return True

    def ready(self, status: str = "") -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def watchdog(self) -> bool:
        self._last_ping = self._clock()
        return self.notify("WATCHDOG=1")

    def tick(self) -> bool:
        """Call often from the main loop; pings the watchdog when half its interval has passed."""
        if self.watchdog_interval is None or self.address is None:
            return False
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self.watchdog_interval / 2:
            return False
        return self.watchdog()


def _address(value: str) -> str | bytes | None:
    if not value:
        return None
    if value.startswith("@"):           # an abstract socket: a leading NUL byte on the wire
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    return None                         # vsock and others: not used on a Pi


def _watchdog_interval(env: Mapping[str, str]) -> float | None:
    """WatchdogSec in seconds if the watchdog is meant for this process, else None."""
    usec = env.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid.isdigit() and int(pid) != os.getpid():
        return None
    return int(usec) / 1_000_000
