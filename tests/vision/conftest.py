"""Shared fixtures of the dice-reader tests: the real interpreter on the shipped model."""
import json

import pytest

from .helpers import MODEL, REAL_DICE


@pytest.fixture(scope="session")
def reader():
    from vision.reader import DiceReader
    return DiceReader(MODEL)


@pytest.fixture(scope="session")
def tilted_labels():
    path = REAL_DICE / "tilted-webcam" / "labels.json"
    if not path.is_file():
        pytest.skip(f"the shared real dice photos are not on this machine ({path})")
    return json.loads(path.read_text())
