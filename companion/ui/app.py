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


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion run", description="Open the table app.")
    parser.add_argument("--size", help="window size WIDTHxHEIGHT (default: the config's [screen], else 800x480)")
    parser.add_argument("--fullscreen", action="store_true",
                        help="fill the screen (the Pi's touchscreen) and dock an on-screen keyboard")
    parser.add_argument("--data-dir", help="folder of games.db (default: $COMPANION_DATA_DIR, the config's "
                                           "[data], else ~/.local/share/companion)")
    parser.add_argument("--verbose", action="store_true", help="Kivy's log on the console")
    parser.add_argument("--exit-after-first-frame", action="store_const", const=0.0, dest="exit_after",
                        help="print the start-up time once the first frame is drawn, then quit (bench)")
    parser.add_argument("--exit-after", type=float, metavar="SECONDS",
                        help="the same, but quit SECONDS after the first frame (bench: memory while the "
                             "camera reads)")
    args = parser.parse_args(argv)
    if args.exit_after is not None and args.exit_after < 0:
        parser.error(f"--exit-after takes seconds, 0 or more, not {args.exit_after}")
    args.width = args.height = None
    if args.size is not None:
        try:
            args.width, args.height = (int(v) for v in args.size.lower().split("x"))
            if args.width < 320 or args.height < 240:
                raise ValueError
        except ValueError:
            parser.error(f"--size must look like 800x480 (at least 320x240), not {args.size!r}")
    return args


def load_table_config():
    """The table's config file (hardware/config.py): screen, touch input, keys, data folder.
    A bad value never stops the app: it comes back as a warning, with the default used."""
    from hardware.config import load_config

    return load_config()


def configure_kivy(args: argparse.Namespace, table_config=None) -> None:
    """Environment and Config for Kivy; must run before anything imports kivy.core."""
    os.environ["KIVY_NO_ARGS"] = "1"
    if not args.verbose:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    # SDL2 reads and writes every image the app uses; Kivy's PIL provider would pull in PIL and
    # NumPy at start-up (about 20 MB and a third of a second on this machine) for nothing.
    os.environ.setdefault("KIVY_IMAGE", "sdl2")
    from kivy.config import Config

    from hardware.config import TouchConfig
    from hardware.touch import apply_kivy_input, kivy_input_entries

    screen = table_config.screen if table_config is not None else None
    width, height = DEFAULT_SIZE if screen is None else (screen.width, screen.height)
    if args.width is not None:
        width, height = args.width, args.height
    fullscreen = args.fullscreen or bool(screen and screen.fullscreen)
    Config.set("kivy", "log_level", "info" if args.verbose else "warning")
    Config.set("kivy", "exit_on_escape", "0")  # escape clears an entry; it must not quit the game
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "show_cursor", "0" if fullscreen else "1")
    Config.set("graphics", "rotation", str(screen.rotation if screen else 0))
    # No multisample anti-aliasing (Kivy's default is 2): its multisampled copy of the window was
    # 14.7 MB of the app's memory under this machine's software GL (`companion run` with the
    # camera reading 238 -> 225 MB, bench/app_startup.py), and it costs a Pi's GPU fill rate. The
    # screens are flat rectangles and text: it only softened the rounded corners by a pixel.
    Config.set("graphics", "multisamples", "0")
    # Exactly one input provider per device: Kivy's stock [input] reads a Pi's touch screen twice
    # (SDL's mouse and probesysfs), so every tap would be two taps (see hardware/touch.py).
    touch = table_config.touch if table_config is not None else TouchConfig()
    apply_kivy_input(Config, kivy_input_entries(touch))
    Config.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")


def run(argv=None, attach=None) -> int:
    """Open the app (what `companion run` calls); returns the exit status.

    `attach(table)`, if given, is called before the app's main loop starts with its `Table`: hardware
    and the dice reader put their InputEvents on it with `table.post` (any thread), follow its
    lights with `table.on_light`, and may return a callable that closes them when the app ends."""
    args = parse_args(argv)
    table_config, warnings = load_table_config()
    for warning in warnings:
        print(f"config: {warning}", file=sys.stderr)
    configure_kivy(args, table_config)
    from companion.paths import DB_NAME
    from companion.store import Store, StoreError

    path = Path(args.data_dir or table_config.data_dir) / DB_NAME
    # Kivy has swapped sys.stderr for its logger by now: the journal must get these as they are.
    def to_stderr(message: str) -> None:
        print(message, file=sys.__stderr__, flush=True)

    try:
        store = Store.open(path, report=to_stderr)
    except StoreError as exc:  # locked, unreadable, foreign: the sentence names the file and why
        # Exit 1: the service restarts the app, which is the retry for a lock or a full disk.
        to_stderr(str(exc))
        return 1
    except Exception as exc:  # anything else: still a sentence, not a traceback
        to_stderr(f"The saved games file {path} cannot be opened: {exc}")
        return 1
    from hardware.config import key_lookup

    from .main import CompanionApp  # creates the window, with the Config set above

    app = CompanionApp(store, exit_after=args.exit_after, started=_started,
                       command_keys=key_lookup(table_config.keys))
    detach = attach(app.table) if attach is not None else None
    # The rolls a power cut left waiting, settled as the app closing would have (once the camera's
    # photo folders are attached); then the game goes on.
    app.table.waiting.settle(app.table, store, report=to_stderr)
    try:
        app.run()
    finally:
        app.table.settle_rolls()   # the last rolls of a game left open: kept for the statistics
        if callable(detach):
            detach()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(run())
