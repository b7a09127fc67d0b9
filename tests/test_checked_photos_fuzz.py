"""Property: any bytes in a table's checked-photos labels.json (companion.checked_photos) either read
as labels or raise PhotosError naming the file; never another exception. Adding a photo either
refuses before writing anything (labels.json's bytes unchanged, no image added) or keeps every photo
that was there and adds the new one. Inputs: a whole file of pip or of Centerville photos damaged by
a line, by bytes, by a field, or cut short."""
import json

from fuzz import FUZZ, damaged, tally
from hypothesis import given
from hypothesis import strategies as st

from companion.checked_photos import CheckedPhotos, PhotosError, _labels_text, read_labels

def _whole(faces) -> bytes:
    return _labels_text({f"20270101-12000{n}-0.jpg": [{"face": faces[n % 2], "box": [1.5, 2.0, 30.0, 41.0]},
                                                      {"face": faces[1 - n % 2], "box": [50, 60, 90, 100]}]
                         for n in range(4)}).encode("utf-8")


WHOLE = {False: _whole([1, 6]), True: _whole(["red-vote", "black-hourglass"])}   # icons: False / True
NEW = {False: 3, True: "blue-tree"}


def _field(draw, line: bytes) -> bytes:
    return line.replace(draw(st.sampled_from([b"1.5", b"2.0", b"50", b"\"face\": 1", b"\"red-vote\"", b"\"box\""])),
                        draw(st.sampled_from([b"NaN", b"Infinity", b"true", b"7", b"\"3\"", b"[]", b"null",
                                              b"1e999", b"\"\xff\"", b"-0", b"{}", b"\"red-fate\""])), 1)


@st.composite
def damaged_files(draw):
    icons = draw(st.booleans())
    return (icons, *damaged(draw, WHOLE[icons], _field))


@FUZZ
@given(damaged_files())
def test_any_labels_file_reads_as_labels_or_is_refused_by_name(tmp_path_factory, case):
    icons, _how, data = case
    folder = tmp_path_factory.mktemp("checked-photos")
    path = folder / "labels.json"
    path.write_bytes(data)
    kept = CheckedPhotos(folder, icons=icons)
    try:
        labels = read_labels(path, icons)
    except PhotosError as exc:
        assert str(exc).startswith(str(path)), exc
        assert not kept.add(b"\xff\xd8photo", [(NEW[icons], (0, 0, 9, 9))])
        assert path.read_bytes() == data and not (folder / "images").exists()   # refused before writing
        assert kept.problem.startswith("the checked photos are not kept:")
        tally("checked photos", "refused" + (" (icons)" if icons else ""))
        return
    assert kept.add(b"\xff\xd8photo", [(NEW[icons], (0, 0, 9, 9))], when=1_900_000_000)
    again = json.loads(path.read_text(encoding="utf-8"))
    assert {k: again[k] for k in labels} == labels and len(again) == len(labels) + 1
    tally("checked photos", "read" + (" (icons)" if icons else ""))
