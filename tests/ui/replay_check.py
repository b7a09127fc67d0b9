"""After a game played on the window: `companion export` writes its log and `companion replay`
replays it headless to the very same scores (real processes, the test's data folder)."""
from __future__ import annotations

import json
import os
import subprocess
import sys


def assert_replays(drv, tmp_path) -> None:
    session = drv.table.session
    env = dict(os.environ, COMPANION_DATA_DIR=str(drv.store.path.parent))
    log = tmp_path / "game.jsonl"
    subprocess.run([sys.executable, "-m", "companion", "export", str(session.game_id), "-o", str(log)],
                   check=True, env=env, capture_output=True, text=True)
    out = subprocess.run([sys.executable, "-m", "companion", "replay", str(log)], check=True, env=env,
                         capture_output=True, text=True).stdout
    replayed = json.loads(out)
    summary = session.summary()
    scores = {p["name"]: (p["wealth"], p["prestige"], p["score"]) for p in summary["players"]}
    found = replayed.get("summary", replayed)
    assert {p["name"]: (p["wealth"], p["prestige"], p["score"]) for p in found["players"]} == scores
    assert found["winner"] == summary["winner"]
