"""The shipped reader (or --model) on one table's own checked photos: `[camera] keep_photos = true`
keeps each pip roll the players checked, labelled with the faces they entered
(companion/checked_photos.py), in the shared sets' format.

    .venv/bin/python bench/table_photos.py [DATA_DIR/checked-photos] [--split all] [--model FILE] [--misses OUT]

Without a folder (as `make bench` runs it) it reads this table's own, beside the games.db its config
names, and says so when the table keeps none.

Figures as bench/real_sets.py names them. What they can say: how this table's dice are read and
asked (read right, flagged, silent misreads), the faces being the players' own. What they cannot:
how dice are found, since a roll is kept only when the camera that took it boxed as many dice as
the players entered, and the boxes are that camera's. A reader chosen or fine-tuned on these photos
is judged on another split (vision.realdata splits any set in name order, by time taken) or
another table's.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.real_sets import format_set, score_set  # noqa: E402
from vision.realdata import SPLITS  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", type=Path, nargs="?", default=None,
                   help="a folder of images/ and labels.json (default: this table's checked-photos)")
    p.add_argument("--split", default="all", choices=SPLITS)
    p.add_argument("--model", default=None, help="the detector file to read with (default: the shipped one)")
    p.add_argument("--misses", type=Path, default=None, help="draw each photo with a misread die here")
    args = p.parse_args(argv)
    folder = (args.folder or _own_folder()).resolve()
    if not (folder / "labels.json").is_file():
        if args.folder is None:    # make bench at a table that keeps none: nothing to measure, no failure
            print(f"This table keeps no checked photos ({folder}): [camera] keep_photos = true keeps them.")
            return 0
        print(f"{folder} holds no labels.json: not a folder of checked photos", file=sys.stderr)
        return 1
    from vision.reader import DiceReader

    reader = DiceReader(detector_path=args.model, keep_crops=False)
    result = score_set(reader, folder.name, args.split, args.misses, root=folder.parent)
    if result is None or not result["photos"]:
        print(f"{folder}: no photos in split {args.split}", file=sys.stderr)
        return 1
    print(format_set(result))
    return 0


def _own_folder() -> Path:
    """This table's checked photos: beside the games.db its config names."""
    from companion.checked_photos import FOLDER
    from hardware.config import load_config

    return load_config()[0].data_dir / FOLDER


if __name__ == "__main__":
    sys.exit(main())
