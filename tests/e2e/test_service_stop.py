"""`systemctl stop` on the real app: SIGTERM ends it as a closed window does, not as a power cut.

The service stops the app with SIGTERM (systemd/companion.service, TimeoutStopSec=15). Nothing in
our code catches it: SDL turns SIGTERM into a quit event, Kivy closes the window, and `run`'s
`finally` settles the last rolls, closes the devices (STOPPING=1) and the store. This pins that
path, so a Kivy or SDL that stopped handling the signal (SDL_HINT_NO_SIGNAL_HANDLERS) would fail
here instead of turning every stop into a kill.
"""
from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.session import Session
from companion.store import Store
from companion.waiting_rolls import FILE
from table.waiting_table import roll_once, table_on

pytestmark = pytest.mark.ui
STOP_WITHIN = 15.0      # systemd/companion.service TimeoutStopSec
START_WITHIN = 120.0    # TimeoutStartSec


def messages(manager: socket.socket, until: str, within: float) -> list[str]:
    """The notify messages the app sends, up to and including the one holding `until`."""
    seen, deadline = [], time.monotonic() + within
    while time.monotonic() < deadline:
        manager.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            seen.append(manager.recv(4096).decode())
        except socket.timeout:
            break
        if until in seen[-1].split("\n"):
            return seen
    raise AssertionError(f"no {until} within {within} s; the app sent {seen}")


def start_and_stop(tmp_path, data: Path) -> None:
    """`companion run` on `data` as the service starts it; SIGTERM once it is on the screen."""
    config = tmp_path / "config.toml"
    config.write_text('[gpio]\nenabled = false\n[camera]\nsource = "sim:?seed=5"\n')
    manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    manager.bind(str(tmp_path / "notify"))
    env = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify"), COMPANION_CONFIG=str(config),
               COMPANION_DATA_DIR=str(data), KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy"))
    app = subprocess.Popen([sys.executable, "-m", "companion", "run"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        messages(manager, "READY=1", START_WITHIN)
        assert (data / "games.db-wal").exists()     # the store is open: a kill would leave this
        app.send_signal(signal.SIGTERM)
        assert messages(manager, "STOPPING=1", STOP_WITHIN)
        assert app.wait(timeout=STOP_WITHIN) == 0, app.stdout.read()[-3000:]
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        manager.close()


def test_sigterm_closes_the_app_cleanly_and_keeps_the_game(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data / "games.db") as store:
        session = Session.new("rolling-village", ["Ann", "Bo"], store=store)
        rng = random.Random(5)
        for _ in range(6):      # a game under way: a few legal moves, rolls among them
            assert session.submit(rng.choice(list(session.legal_actions()))).ok
        actions = [a.to_json() for a in session.actions]
    start_and_stop(tmp_path, data)
    # The store was closed, not abandoned: its last connection checkpointed the log into the file.
    assert not (data / "games.db-wal").exists()
    with Store.open(data / "games.db") as store:
        record = store.games()[0]
        assert record.finished is False
        _, live, _ = store.load(record.id)
        assert live == actions


def test_the_rolls_a_power_cut_left_waiting_are_kept_when_the_app_starts(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data / "games.db") as store:
        table = table_on(data, store)
        table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        roll_once(table)            # entered, still waiting; the table is never closed: a power cut
        assert (data / FILE).exists() and not store.rows("SELECT die, face FROM rolls")
    start_and_stop(tmp_path, data)
    assert not (data / FILE).exists()
    with Store.open(data / "games.db") as store:
        assert sorted(store.rows("SELECT die, face FROM rolls")) == [("red", "2"), ("white", "4")]
