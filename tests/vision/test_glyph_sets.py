"""The embedding's rendered die sets (vision.train.glyph_sets): the same dice with any number of
workers, one worker rendering in this process (no fork), and cached chunks read back."""
from __future__ import annotations

import subprocess
import sys

import numpy as np

from vision.train.glyph_sets import die_set, rendered_sets

# Two workers fork a pool: done in a fresh interpreter, as `make train-embedding` runs it (a test
# process already runs threads, and a child forked from it may wait forever on a lock one held).
TWO_WORKERS = """
import sys
from pathlib import Path
import numpy as np
from vision.train.glyph_sets import rendered_sets
np.save(sys.argv[2], rendered_sets(3, 5, 2, 2, Path(sys.argv[1]), log=lambda *_: None))
"""


def test_die_sets_are_the_same_in_process_and_across_workers_and_come_back_from_cache(tmp_path):
    one = rendered_sets(3, 5, 2, 1, tmp_path / "one", log=lambda *_: None)
    assert one.shape == (3, 6, 2, 48, 48, 3) and one.dtype == np.uint8
    assert np.array_equal(one[1], die_set(5, 1, 2))
    subprocess.run([sys.executable, "-c", TWO_WORKERS, str(tmp_path / "two"), str(tmp_path / "two.npy")],
                   check=True, timeout=300)
    assert np.array_equal(np.load(tmp_path / "two.npy"), one)
    said = []
    again = rendered_sets(3, 5, 2, 1, tmp_path / "one", log=said.append)
    assert np.array_equal(again, one) and "(0 rendered now)" in said[-1]
