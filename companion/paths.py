"""Where the app keeps its data: one place, so the app, the CLI and the service agree."""
from __future__ import annotations

import os
from pathlib import Path

DB_NAME = "games.db"


def data_dir() -> Path:
    """$COMPANION_DATA_DIR, else systemd's $STATE_DIRECTORY, else $XDG_DATA_HOME/companion."""
    explicit = os.environ.get("COMPANION_DATA_DIR")
    if explicit:
        return Path(explicit)
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "companion"


def database_path() -> Path:
    return data_dir() / DB_NAME
