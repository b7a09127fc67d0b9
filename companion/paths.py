"""Where the app keeps its data: one place, so the app, the CLI, the config and the service agree."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

DB_NAME = "games.db"


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """$COMPANION_DATA_DIR, else systemd's $STATE_DIRECTORY, else $XDG_DATA_HOME/companion.

    `env` defaults to the process environment; tests and the config loader hand in their own."""
    env = os.environ if env is None else env
    if env.get("COMPANION_DATA_DIR"):
        return Path(env["COMPANION_DATA_DIR"])
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    home = env.get("HOME") or str(Path.home())
    xdg = env.get("XDG_DATA_HOME") or str(Path(home) / ".local" / "share")
    return Path(xdg) / "companion"


def database_path(env: Mapping[str, str] | None = None) -> Path:
    return data_dir(env) / DB_NAME
