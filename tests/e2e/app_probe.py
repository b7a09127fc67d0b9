"""Start the real app in this process on a data folder, optionally tap Resume, print what it shows.

Run by tests/e2e as a subprocess (one Kivy app per process):
    python tests/e2e/app_probe.py DATA_DIR [resume]
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))

from kivy_driver import Driver  # noqa: E402


def main() -> None:
    data_dir, actions = Path(sys.argv[1]), sys.argv[2:]
    drv = Driver(data_dir)
    home = drv.screen
    report = {
        "screen": drv.app.screens.current,
        "message": drv.app.banner.text,
        "message_is_error": drv.app.banner.error,
        "offers_resume": not home.ids.resume.disabled,
        "resume_text": home.ids.resume_text.text,
    }
    if "resume" in actions:
        drv.tap(home.ids.resume)
        session = drv.table.session
        report.update(screen=drv.app.screens.current, headline=drv.screen.ids.headline.text,
                      actions=[a.to_json() for a in session.actions], summary=session.summary())
    drv.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
