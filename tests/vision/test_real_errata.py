"""vision.realdata's errata (data/real_dice_errata.toml): labels their own photo contradicts,
corrected where the shared sets are read, the shared files untouched."""
import json
import shutil

import pytest

from vision import realdata
from vision.realdata import errata, photos

from .helpers import REAL_DICE


def test_every_fix_is_well_formed_and_has_its_picture():
    from pathlib import Path
    cards = Path(__file__).resolve().parents[2] / "models" / "card"
    text = (Path(realdata.__file__).parent / "data" / "real_dice_errata.toml").read_text()
    assert errata(), "the errata file lists no fix"
    for (set_name, photo, die), (labelled, face) in errata().items():
        assert set_name in realdata.SETS and labelled != face and 0 <= die
    pictures = [w.rstrip(".,") for w in text.split() if w.startswith("models/card/") and ".png" in w]
    assert len(pictures) >= len(errata())
    for picture in pictures:
        assert (cards.parent.parent / picture).is_file(), picture


def test_the_fix_is_applied_and_the_shared_label_file_is_not_touched():
    root = REAL_DICE / "aws-workshop-dice"
    if not root.is_dir():
        pytest.skip(f"the shared real dice photos are not on this machine ({REAL_DICE})")
    before = (root / "labels.json").read_bytes()
    shots = {s.path.name: s for s in photos("aws-workshop-dice", "calib")}
    for (set_name, photo, die), (labelled, face) in errata().items():
        if set_name == "aws-workshop-dice":
            assert json.loads(before)[photo][die]["face"] == labelled
            assert shots[photo].dice[die][0] == face
    assert (root / "labels.json").read_bytes() == before


def test_a_fix_whose_label_changed_upstream_stops_by_name(tmp_path):
    """A label corrected in the shared file (or its dice reordered) must not be "fixed" again."""
    root = REAL_DICE / "aws-workshop-dice"
    if not root.is_dir():
        pytest.skip(f"the shared real dice photos are not on this machine ({REAL_DICE})")
    (set_name, photo, die), (labelled, face) = next(iter(errata().items()))
    labels = json.loads((root / "labels.json").read_text())
    labels[photo][die]["face"] = face  # fixed upstream
    copy = tmp_path / set_name
    copy.mkdir()
    (copy / "labels.json").write_text(json.dumps(labels))
    shutil.copytree(root / "images", copy / "images")
    with pytest.raises(ValueError, match=f"{photo} die {die} is labelled {face}, not {labelled}"):
        photos(set_name, "all", tmp_path)
