"""Training crops by the classifier's label: a pip face, or no one die (NOT_A_DIE)."""
from __future__ import annotations

import numpy as np

from ..classify import NOT_A_DIE
from .nodie import render_not_a_die_crop
from .scene import render_die_crop


def render_label_crop(rng, label: str, **kwargs) -> np.ndarray:
    """A training crop showing what the classifier label names (pip1..pip6, or NOT_A_DIE)."""
    if label == NOT_A_DIE:
        return render_not_a_die_crop(rng, **kwargs)
    if label.startswith("pip") and label[3:].isdigit() and 1 <= int(label[3:]) <= 6:
        return render_die_crop(rng, int(label[3:]), **kwargs)
    raise ValueError(f"The renderer draws pip faces pip1..pip6 and {NOT_A_DIE!r}; it cannot draw {label!r} yet.")
