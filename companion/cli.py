"""`companion`: the console entry point. Sub-commands: run, replay, export, history, score, doctor, bench."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

EXIT_BAD_INPUT = 2


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().replace("`companion`: ", "usage: companion COMMAND ... -- "))
        print("\n  run      start the table app\n  replay   replay a game log and print the result"
              "\n  export   write a stored game as a game log (--bgstats: its BG Stats link)"
              "\n  history  list the stored games (--json, --csv)"
              "\n  rename-player  rename a player, keeping their games\n  score    score a board state"
              "\n  doctor   check display, touch, camera, buttons, board, model and data"
              "\n  bench    run the benchmark scripts")
        return 0 if argv else EXIT_BAD_INPUT
    command, rest = argv[0], argv[1:]
    handler = COMMANDS.get(command)
    if handler is None:
        print(f'companion: unknown command "{command}" (try: {", ".join(COMMANDS)})', file=sys.stderr)
        return EXIT_BAD_INPUT
    return handler(rest)


def _run(argv: list[str]) -> int:
    from companion.peripherals import attach
    from companion.ui.app import run

    # Buttons, the serial panel, the service watchdog and the dice camera join the app here.
    return run(argv, attach=attach)


def _replay(argv: list[str]) -> int:
    from companion.engine.log import LogError, decode_lines, replay

    parser = argparse.ArgumentParser(prog="companion replay", description="Replay a game log headless.")
    parser.add_argument("file", help="a game log (JSON Lines, docs/game-log.md); - for standard input")
    args = parser.parse_args(argv)
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        print(f"companion replay: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        # Bytes, split on "\n" only: a name holding U+2028 is one line, and bad UTF-8 has a line number.
        result = replay(decode_lines(data), keep_states=False)
    except LogError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return write_out(json.dumps(result.game.summary(result.state), ensure_ascii=False) + "\n")


def write_out(text: str) -> int:
    """Standard output as UTF-8; a lone surrogate (valid in JSON, not in UTF-8) as its escape.

    A reader that closed the pipe early (`| head`) wanted no more: that ends quietly."""
    from companion.engine.edge import printable

    try:
        binary = getattr(sys.stdout, "buffer", None)  # None when a caller swapped in a StringIO
        if binary is None:
            sys.stdout.write(printable(text).decode("utf-8"))
        else:
            binary.write(printable(text))
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would complain again when it flushes at exit: point stdout at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _export(argv: list[str]) -> int:
    from companion.engine.edge import printable
    from companion.session import Session
    from companion.store import StoreError

    parser = argparse.ArgumentParser(prog="companion export", description="Write a stored game as a game log.")
    parser.add_argument("game_id", nargs="?", type=int, help="the game's number (default: the latest)")
    parser.add_argument("-o", "--output", default="-", help="file to write (default: standard output)")
    parser.add_argument("--db", default=None, help="the games database (default: the app's)")
    parser.add_argument("--list", action="store_true", help="list the stored games instead")
    parser.add_argument("--bgstats", action="store_true",
                        help="print the game's BG Stats \"create play\" link (docs/history.md)")
    args = parser.parse_args(argv)
    store = _open_read_only("export", args.db)
    if store is None:
        return EXIT_BAD_INPUT
    with store:
        if args.bgstats:
            return _bgstats(store, args.game_id)
        games = store.games(limit=1000, archived=True)
        if args.list:
            for g in games:
                state = "finished" if g.finished else "in play"
                print(f"{g.id}\t{g.game}\t{', '.join(g.players)}\t{state}")
            return 0
        game_id = args.game_id if args.game_id is not None else (games[0].id if games else None)
        if game_id is None:
            print("companion export: no game has been stored yet.", file=sys.stderr)
            return EXIT_BAD_INPUT
        try:
            text = Session.resume(store, game_id).export()
        except KeyError as exc:
            print(f"companion export: {exc.args[0]}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except StoreError as exc:
            print(f"companion export: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if args.output == "-":
        return write_out(text)
    # A lone surrogate in a name becomes its JSON escape, which reads back as the same name.
    Path(args.output).write_bytes(printable(text))
    return 0


def _open_read_only(command: str, db_arg: str | None):
    """The games file opened read-only (never changed, nor moved aside), or None, said why."""
    from companion.paths import database_path
    from companion.store import Store, StoreError

    db = Path(db_arg) if db_arg else database_path()
    if not db.exists():
        print(f"companion {command}: there is no games database at {db} yet.", file=sys.stderr)
        return None
    try:
        return Store.open(db, read_only=True, report=lambda _notice: None)
    except StoreError as exc:
        print(f"companion {command}: {exc}", file=sys.stderr)
        return None


def _bgstats(store, game_id: int | None) -> int:
    from companion import bgstats
    from companion.engine.core import RulesError, find_game
    from companion.history import plays

    found = plays(store)
    play = next((p for p in found if p.id == game_id), None) if game_id is not None else (
        next((p for p in found if p.finished), None))
    if play is None:
        print(f"companion export: there is no saved game number {game_id}." if game_id is not None
              else "companion export: no game has been finished yet.", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not play.finished:
        print(f"companion export: game {play.id} has not been finished: BG Stats takes finished plays.",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        title = find_game(play.game).title
    except RulesError:
        title = play.game
    return write_out(bgstats.link(play, title) + "\n")


def _history(argv: list[str]) -> int:
    from companion.history_format import as_csv, as_json, as_text
    from companion.history import plays

    parser = argparse.ArgumentParser(prog="companion history", description="List the stored games, newest first.")
    parser.add_argument("--game", help="only this game (its name, e.g. centerville, or its title)")
    parser.add_argument("--player", help="only games this player played in (their name now or then)")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON document (docs/history.md)")
    form.add_argument("--csv", action="store_true", help="CSV, one row per player per game (docs/history.md)")
    parser.add_argument("--db", default=None, help="the games database (default: the app's)")
    args = parser.parse_args(argv)
    store = _open_read_only("history", args.db)
    if store is None:
        return EXIT_BAD_INPUT
    with store:
        found = plays(store, game=args.game, player=args.player)
    writer = as_json if args.json else as_csv if args.csv else as_text
    return write_out(writer(found))


def _rename_player(argv: list[str]) -> int:
    from companion.paths import database_path
    from companion.store import Store, StoreError

    parser = argparse.ArgumentParser(prog="companion rename-player",
                                     description="Rename a player; their past games stay theirs.")
    parser.add_argument("old", help="the name they have played under")
    parser.add_argument("new", help="the name from now on")
    parser.add_argument("--db", default=None, help="the games database (default: the app's)")
    args = parser.parse_args(argv)
    db = Path(args.db) if args.db else database_path()
    if not db.exists():
        print(f"companion rename-player: there is no games database at {db} yet.", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        with Store.open(db, report=lambda _notice: None) as store:
            store.rename_person(args.old, args.new)
    except (StoreError, KeyError, ValueError) as exc:
        print(f"companion rename-player: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f'"{args.old}" is now "{args.new.strip()}"; their games are kept under the new name.')
    return 0


def _score(argv: list[str]) -> int:
    from companion.score_cli import score_main

    return score_main(argv)


def _doctor(argv: list[str]) -> int:
    from hardware.doctor import doctor_main

    return doctor_main(argv)


def _bench(argv: list[str]) -> int:
    import runpy

    script = Path(__file__).resolve().parent.parent / "bench" / "run_all.py"
    if not script.exists():
        print("companion bench: the benchmarks live in the source tree (bench/); run it from a checkout.",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.argv = [str(script), *argv]
    runpy.run_path(str(script), run_name="__main__")
    return 0


COMMANDS = {
    "run": _run,
    "replay": _replay,
    "export": _export,
    "history": _history,
    "rename-player": _rename_player,
    "score": _score,
    "doctor": _doctor,
    "bench": _bench,
}

if __name__ == "__main__":
    sys.exit(main())
