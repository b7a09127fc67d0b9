"""sd_notify over a real datagram socket, as systemd would receive it."""
from __future__ import annotations

import os
import socket

import pytest

from hardware.notify import Notifier


@pytest.fixture
def manager(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(5)
    yield sock, str(path)
    sock.close()


def received(sock) -> str:
    return sock.recv(4096).decode()


def test_ready_status_and_stopping(manager):
    sock, path = manager
    n = Notifier({"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.ready("table up")
    assert received(sock) == "READY=1\nSTATUS=table up"
    assert n.status("reading dice")
    assert received(sock) == "STATUS=reading dice"
    assert n.stopping()
    assert received(sock) == "STOPPING=1"


def test_abstract_socket(manager):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"companion-test-{os.getpid()}"
    sock.bind(b"\0" + name.encode())
    sock.settimeout(5)
    with sock:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert received(sock) == "READY=1"


def test_watchdog_pings_at_half_the_interval(manager):
    sock, path = manager
    now = [100.0]
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    n = Notifier(env, clock=lambda: now[0])
    assert n.watchdog_interval == 30.0
    assert n.tick()                              # the first tick pings at once
    assert received(sock) == "WATCHDOG=1"
    now[0] += 14.9
    assert not n.tick()
    now[0] += 0.2                                # 15.1 s after the last ping: half of 30
    assert n.tick()
    assert received(sock) == "WATCHDOG=1"
    assert n.sent == ["WATCHDOG=1", "WATCHDOG=1"]


def test_watchdog_meant_for_another_process_is_ignored(manager):
    _, path = manager
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"})
    assert n.watchdog_interval is None and not n.tick()


def test_without_systemd_everything_is_a_quiet_no_op():
    n = Notifier({})
    assert not n.enabled
    assert not n.ready() and not n.tick() and not n.watchdog() and not n.status("x")
    assert n.sent == []


def test_a_vanished_manager_does_not_crash_the_table(tmp_path):
    n = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert n.enabled and not n.ready()


def test_a_manager_that_stops_reading_never_blocks_the_table(tmp_path):
    # The manager's socket exists but nobody reads it: once its queue is full, messages are
    # dropped instead of blocking the UI thread that sends them.
    path = tmp_path / "notify"
    deaf = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    deaf.bind(str(path))
    try:
        notifier = Notifier(env={"NOTIFY_SOCKET": str(path)})
        results = [notifier.notify(f"STATUS=message {i}") for i in range(5000)]
        assert results[0] is True
        assert results[-1] is False  # the queue filled up and the call returned at once
    finally:
        deaf.close()
