"""Property: any bytes in a table's photo folder file, the checked photos' labels.json
(companion.checked_photos) or the photos to box' to-box.json (companion.photos_to_box), either read
or raise PhotosError naming the file; never another exception. Adding a photo either refuses before
writing anything (the file's bytes unchanged, no image added) or keeps every entry that was there
and adds the new one. Inputs: a whole file of pip or of Centerville photos damaged by a line, by
bytes, by a field, or cut short."""
import json

from fuzz import FUZZ, damaged, tally
from hypothesis import given
from hypothesis import strategies as st

from companion.checked_photos import CheckedPhotos, PhotosError, _labels_text
from companion.photos_to_box import PhotosToBox

BOX, OTHER = [1.5, 2.0, 30.0, 41.0], [50, 60, 90, 100]
FACES = {False: [1, 6], True: ["red-vote", "black-hourglass"]}     # icons: False / True


def _whole(folder: str, icons: bool) -> bytes:
    a, b = FACES[icons]
    if folder == "checked photos":
        entry = lambda n: [{"face": (a, b)[n % 2], "box": BOX}, {"face": (b, a)[n % 2], "box": OTHER}]  # noqa: E731
    else:      # a die the camera boxed as it read it, one it could not name (icons) or read as another face
        entry = lambda n: {"entered": [a, b, b], "camera": [{"face": a, "box": BOX},  # noqa: E731
                                                            {"face": None if icons else 2, "box": OTHER}]}
    return _labels_text({f"20270101-12000{n}-0.jpg": entry(n) for n in range(4)}).encode("utf-8")


KINDS = {  # folder -> (its class, the file, a new photo's arguments by icons, its refusal)
    "checked photos": (CheckedPhotos, "labels.json",
                       {False: ([(3, (0, 0, 9, 9))],), True: ([("blue-tree", (0, 0, 9, 9))],)},
                       "the checked photos are not kept:"),
    "photos to box": (PhotosToBox, "to-box.json", {False: ([3, 4], [(3, (0, 0, 9, 9))]),
                                                   True: (["blue-tree"], [(None, (0, 0, 9, 9))])},
                      "the photos to box are not kept:"),
}


def _field(draw, line: bytes) -> bytes:
    return line.replace(draw(st.sampled_from([b"1.5", b"2.0", b"50", b"\"face\": 1", b"\"red-vote\"", b"\"box\"",
                                              b"\"entered\"", b"null", b"\"camera\""])),
                        draw(st.sampled_from([b"NaN", b"Infinity", b"true", b"7", b"\"3\"", b"[]", b"null",
                                              b"1e999", b"\"\xff\"", b"-0", b"{}", b"\"red-fate\"", b"0"])), 1)


@st.composite
def damaged_files(draw):
    folder, icons = draw(st.sampled_from(sorted(KINDS))), draw(st.booleans())
    return (folder, icons, *damaged(draw, _whole(folder, icons), _field))


@FUZZ
@given(damaged_files())
def test_any_photo_folder_file_reads_or_is_refused_by_name(tmp_path_factory, case):
    kind, icons, _how, data = case
    make, name, new, refused = KINDS[kind]
    folder = tmp_path_factory.mktemp("photos")
    path = folder / name
    path.write_bytes(data)
    kept = make(folder, icons=icons)
    outcome = kind + (" (icons)" if icons else "")
    try:
        entries = kept.entries()
    except PhotosError as exc:
        assert str(exc).startswith(str(path)), exc
        assert not kept.add(b"\xff\xd8photo", *new[icons])
        assert path.read_bytes() == data and not (folder / "images").exists()   # refused before writing
        assert kept.problem.startswith(refused)
        tally("photo folders", f"{outcome} refused")
        return
    assert kept.add(b"\xff\xd8photo", *new[icons], when=1_900_000_000)
    again = json.loads(path.read_text(encoding="utf-8"))
    assert {k: again[k] for k in entries} == entries and len(again) == len(entries) + 1
    tally("photo folders", f"{outcome} read")
