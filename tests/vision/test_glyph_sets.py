"""The embedding's rendered die sets (vision.train.glyph_sets): the same dice with any number of
workers, one worker rendering in this process (no fork), and cached chunks read back."""
from __future__ import annotations

import numpy as np

from vision.train.glyph_sets import die_set, rendered_sets


def test_die_sets_are_the_same_in_process_and_across_workers_and_come_back_from_cache(tmp_path):
    quiet = lambda *_: None  # noqa: E731
    one = rendered_sets(3, 5, 2, 1, tmp_path / "one", log=quiet)
    two = rendered_sets(3, 5, 2, 2, tmp_path / "two", log=quiet)
    assert one.shape == (3, 6, 2, 48, 48, 3) and one.dtype == np.uint8
    assert np.array_equal(one, two)
    assert np.array_equal(one[1], die_set(5, 1, 2))
    said = []
    again = rendered_sets(3, 5, 2, 1, tmp_path / "one", log=said.append)
    assert np.array_equal(again, one) and "(0 rendered now)" in said[-1]
