"""The touchscreen app: `run(argv)` opens the window; screens re-render from the table's state.

Kivy reads its environment and configuration when first imported, so `run` sets them before any
Kivy import: no command-line parsing by Kivy, quiet console, the window size asked for.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

DEFAULT_SIZE = (800, 480)
_started = time.perf_counter()


def data_path() -> Path:
    """Where the saved games live: $COMPANION_DATA_DIR, else ~/.local/share/companion."""
    base = os.environ.get("COMPANION_DATA_DIR") or os.path.join(os.path.expanduser("~"), ".local", "share",
                                                                "companion")
    return Path(base) / "games.db"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion run", description="Open the table app.")
    parser.add_argument("--size", default=f"{DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]}",
                        help="window size WIDTHxHEIGHT (default 800x480)")
    parser.add_argument("--fullscreen", action="store_true",
                        help="fill the screen (the Pi's touchscreen) and dock an on-screen keyboard")
    parser.add_argument("--data-dir", help="folder of games.db (default $COMPANION_DATA_DIR or "
                                           "~/.local/share/companion)")
    parser.add_argument("--verbose", action="store_true", help="Kivy's log on the console")
    parser.add_argument("--exit-after-first-frame", action="store_true",
                        help="print the start-up time once the first frame is drawn, then quit (bench)")
    args = parser.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        if width < 320 or height < 240:
            raise ValueError
    except ValueError:
        parser.error(f"--size must look like 800x480 (at least 320x240), not {args.size!r}")
    args.width, args.height = width, height
    return args


def configure_kivy(args: argparse.Namespace) -> None:
    """Environment and Config for Kivy; must run before anything imports kivy.core."""
    os.environ["KIVY_NO_ARGS"] = "1"
    if not args.verbose:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    from kivy.config import Config

    Config.set("kivy", "log_level", "info" if args.verbose else "warning")
    Config.set("kivy", "exit_on_escape", "0")  # escape clears an entry; it must not quit the game
    Config.set("graphics", "width", str(args.width))
    Config.set("graphics", "height", str(args.height))
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if args.fullscreen else "0")
    Config.set("graphics", "show_cursor", "0" if args.fullscreen else "1")
    # A right click must not leave the red multitouch dots on a table screen.
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "keyboard_mode", "systemanddock" if args.fullscreen else "system")


def run(argv=None, attach=None) -> int:
    """Open the app (what `companion run` calls); returns the exit status.

    `attach(table)`, if given, is called before the window opens with the app's `Table`: hardware
    and the dice reader put their InputEvents on it with `table.post` (any thread), follow its
    lights with `table.on_light`, and may return a callable that closes them when the app ends."""
    args = parse_args(argv)
    configure_kivy(args)
    from companion.store import Store

    path = Path(args.data_dir) / "games.db" if args.data_dir else data_path()
    try:
        store = Store.open(path)
    except Exception as exc:  # a folder we cannot write: say so instead of a traceback
        print(f"The saved games file {path} cannot be opened: {exc}", file=sys.stderr)
        return 1
    from .main import CompanionApp

    app = CompanionApp(store, exit_after_first_frame=args.exit_after_first_frame, started=_started)
    detach = attach(app.table) if attach is not None else None
    try:
        app.run()
    finally:
        if callable(detach):
            detach()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(run())
