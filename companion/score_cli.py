"""`companion score GAME STATE.json --round N`: score a board state without a tracked game.

Only Welcome to Centerville has scoring rounds to score this way (docs/centerville-state.md).
Prints JSON on standard output; a bad file is refused with the path of the wrong field on
standard error and exit status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXIT_BAD_INPUT = 2


def score_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion score", description="Score a Welcome to Centerville board state (docs/centerville-state.md)."
    )
    parser.add_argument("game", help='the game: "centerville"')
    parser.add_argument("state", help="the board-state file (JSON); - for standard input")
    parser.add_argument("--round", type=int, required=True, choices=(1, 2, 3), help="the scoring round, 1-3")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage error
        return EXIT_BAD_INPUT if exc.code else 0
    if args.game != "centerville":
        print(f'companion score: only "centerville" has scoring rounds to score, not "{args.game}".', file=sys.stderr)
        return EXIT_BAD_INPUT
    from companion.engine.centerville.statefile import StateFileError, score_file

    from companion.cli import write_out
    from companion.engine.edge import EdgeError, decode_text, parse_json

    try:
        raw = sys.stdin.buffer.read() if args.state == "-" else Path(args.state).read_bytes()
    except OSError as exc:
        print(f"companion score: cannot read {args.state}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        # Bounded before any game code: bad UTF-8 names its line, a deep or huge value is refused.
        data = parse_json(decode_text(raw))
    except EdgeError as exc:
        print(f"{args.state}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        result = score_file(data, args.round)
    except StateFileError as exc:
        print(f"{args.state}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return write_out(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
