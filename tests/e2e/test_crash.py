"""Crash safety: kill a scripted game with SIGKILL at several points, restart, lose nothing.

Every action acknowledged before the kill must be in the store, and the resumed state must
equal a replay of the stored log.
"""
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import race_game  # noqa: F401  (registers "test-race")

from companion.engine.core import all_games
from companion.engine.log import replay
from companion.session import Session
from companion.store import Store

SCRIPT = Path(__file__).with_name("crash_player.py")
GAMES = [("test-race", ["Ann", "Bo"])]
if any(g.name == "rolling-village" for g in all_games()):
    GAMES.append(("rolling-village", ["Ann", "Bo", "Cy"]))


def run_until(db, game, players, seed, acks_wanted):
    """Start the player; SIGKILL it right after `acks_wanted` acknowledgements (or let it end)."""
    proc = subprocess.Popen([sys.executable, str(SCRIPT), str(db), game, str(seed), *players],
                            stdout=subprocess.PIPE, text=True)
    acked = []
    for line in proc.stdout:
        if line.startswith("ACK "):
            _, count, data = line.rstrip("\n").split(" ", 2)
            acked.append((int(count), json.loads(data)))
            if len(acked) >= acks_wanted:
                proc.send_signal(signal.SIGKILL)  # no clean-up of any kind: as a power cut
                break
        elif line.startswith(("DONE", "REJECTED")):
            assert line.startswith("DONE"), line
            break
    proc.stdout.close()
    proc.wait(timeout=30)
    return acked


def check_store(db, acknowledged):
    with Store.open(db) as store:
        assert store.notice is None
        record = store.games()[0]
        header, live, _ = store.load(record.id)
        for count, data in acknowledged:
            assert len(live) >= count and live[count - 1] == data, f"acknowledged action {count} lost"
        session = Session.resume(store, record.id)
        assert session.notice is None
        assert session.state == replay(session.export().splitlines()).state
        return session


@pytest.mark.parametrize("game, players", GAMES, ids=[g for g, _ in GAMES])
def test_sigkill_at_several_points_loses_no_acknowledged_action(tmp_path, game, players):
    db = tmp_path / "games.db"
    acknowledged = []
    for round_number, kill_after in enumerate((1, 3, 5, 2, 4)):
        acked = run_until(db, game, players, seed=round_number, acks_wanted=kill_after)
        acknowledged = [a for a in acknowledged if a[0] < (acked[0][0] if acked else 10**9)] + acked
        session = check_store(db, acknowledged)
    acked = run_until(db, game, players, seed=99, acks_wanted=10**9)  # play to the end
    session = check_store(db, acknowledged + acked)
    assert session.finished
