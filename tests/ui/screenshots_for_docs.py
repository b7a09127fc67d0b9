"""Refresh docs/screenshot-*.png from the touch-game, Civility and Centerville tests' screenshots (run under a display):

    tools/with-display .venv/bin/python tests/ui/screenshots_for_docs.py
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHOSEN = {
    "home": "home",
    "setup": "setup",
    "village-advice": "play",
    "village-avenue-choice": "avenue-choice",
    "village-refused": "refused",
    "village-scored": "scored",
    "end": "end",
    "village-1280x720": "village-1280x720",
    "civility-placed": "civility-turn",
    "civility-battle": "civility-battle",
    "civility-6-players-1280x720": "civility-1280x720",
    "centerville-turn": "centerville-turn",
    "centerville-bot-turn": "centerville-bot-turn",
    "centerville-scoring": "centerville-scoring",
    "centerville-end": "centerville-end",
    "centerville-board-800x480": "centerville-board",
    "centerville-board-1280x720": "centerville-board-1280x720",
    "centerville-area-800x480": "centerville-area",
    "history-many": "history",
    "stats-many": "stats",
    "dice-fairness-many": "dice-fairness",
    "teach-camera": "teach-camera",
}
TESTS = ("test_touch_game.py", "test_civility_touch.py", "test_centerville_board.py",
         "test_centerville_touch.py", "test_centerville_bot_touch.py", "test_history_touch.py",
         "test_centerville_camera.py")


def main() -> int:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *(str(ROOT / "tests" / "ui" / name) for name in TESTS)], cwd=ROOT)
    if done.returncode != 0:
        print("The touch-game test failed; docs/ screenshots left as they were.", file=sys.stderr)
        return done.returncode
    for source, name in CHOSEN.items():
        target = ROOT / "docs" / f"screenshot-{name}.png"
        shutil.copyfile(ARTIFACTS / f"{source}.png", target)
        print(target.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
