"""`companion doctor` on a prepared machine: a device tree in tmp, the simulated board, mock pins."""
from __future__ import annotations

import os

import pytest

from hardware.config import parse_config
from hardware.doctor import (Host, check_data_dir, check_detector, check_display, check_gpio, check_model,
                             check_panel, check_touch, doctor_main)
from hardware.simboard import SimBoard


@pytest.fixture
def dev(tmp_path):
    d = tmp_path / "dev"
    (d / "dri").mkdir(parents=True)
    (d / "input").mkdir()
    (d / "dri" / "card1").touch()
    (d / "input" / "event0").touch()
    return d


def write_config(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_a_whole_run_reports_each_part(tmp_path, dev, capsys):
    link = tmp_path / "panel"
    config = write_config(tmp_path, f"""
[gpio]
pin_factory = "mock"
hold_time = "long"
[panel]
port = "{link}"
[camera]
source = "sim:"
model = "{tmp_path / 'nothing.tflite'}"
rotation = 180
[data]
dir = "{tmp_path / 'data'}"
""")
    with SimBoard(link):
        code = doctor_main(["--config", str(config), "--panel-timeout", "5"],
                           host=Host(env={"SDL_VIDEODRIVER": "kmsdrm"}, dev=dev))
    out = capsys.readouterr().out
    assert code == 1                                  # the model is missing
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("  ") and line.split()[0] in
             ("ok", "warn", "FAIL", "off")}
    assert lines["config"].split()[0] == "warn" and "gpio.hold_time" in out
    assert lines["display"].split()[0] == "ok" and "card1" in lines["display"]
    assert lines["touch"].split()[0] == "ok"
    assert lines["camera"].split()[0] == "warn"       # the simulator is not a camera
    assert "turned 180 degrees before reading" in lines["camera"]
    assert lines["gpio"].split()[0] == "ok"
    assert lines["panel"].split()[0] == "ok" and "1.0-sim" in lines["panel"]
    assert lines["model"].split()[0] == "FAIL" and "nothing.tflite" in lines["model"]
    assert lines["data"].split()[0] == "ok"
    assert (tmp_path / "data").is_dir() and os.listdir(tmp_path / "data") == []  # probe cleaned up
    assert "fix: copy dice_faces.tflite" in out


def test_no_display_device_names_the_boot_config_fix(tmp_path):
    check = check_display(Host(env={}, dev=tmp_path))
    assert check.state == "FAIL" and "vc4-kms-v3d" in check.fix


def test_a_desktop_display_is_fine(tmp_path):
    assert check_display(Host(env={"DISPLAY": ":0"}, dev=tmp_path)).state == "ok"


@pytest.mark.skipif(os.geteuid() == 0, reason="root can open any file, so permissions cannot be denied")
def test_an_unreadable_display_asks_for_the_video_group(dev):
    os.chmod(dev / "dri" / "card1", 0)
    check = check_display(Host(env={}, dev=dev))
    assert check.state == "FAIL" and "usermod -aG video,render companion" in check.fix


def test_touch_devices_missing_or_listed_twice(tmp_path, dev):
    event = dev / "input" / "event0"
    link = dev / "input" / "by-path-touch"
    link.symlink_to(event)
    missing = parse_config({"touch": {"provider": "mtdev", "devices": [str(tmp_path / "gone")]}})
    assert check_touch(missing, Host(env={}, dev=dev)).state == "FAIL"
    twice = parse_config({"touch": {"provider": "mtdev", "devices": [str(event), str(link)]}})
    assert check_touch(twice, Host(env={}, dev=dev)).state == "warn"
    once = parse_config({"touch": {"provider": "mtdev", "devices": [str(link)]}})
    assert check_touch(once, Host(env={}, dev=dev)).state == "ok"


def test_gpio_without_a_chip_says_use_mock(tmp_path):
    check = check_gpio(parse_config({}), Host(env={}, dev=tmp_path))
    assert check.state == "FAIL" and 'pin_factory = "mock"' in check.fix
    assert check_gpio(parse_config({"gpio": {"enabled": False}}), Host(env={}, dev=tmp_path)).state == "off"


def test_panel_absent_or_silent(tmp_path):
    link = tmp_path / "panel"
    absent = check_panel(parse_config({"panel": {"port": str(link)}}), timeout=0.3)
    assert absent.state == "FAIL" and "/dev/serial/by-id" in absent.fix
    assert check_panel(parse_config({}), timeout=0.3).state == "off"


def test_a_broken_model_file_is_named(tmp_path):
    model = tmp_path / "dice_faces.tflite"
    model.write_bytes(b"not a flatbuffer at all")
    (tmp_path / "dice_faces.labels.txt").write_text("pip1\npip2\n")
    check = check_model(parse_config({"camera": {"model": str(model)}}))
    assert check.state == "FAIL" and str(model) in check.message


def test_the_detector_check_names_the_second_finder_and_a_missing_one(tmp_path):
    import json
    import shutil
    from vision.model import DEFAULT_DETECTOR
    ok = check_detector()
    assert ok.state == "ok" and "dice_detector_384.tflite (384x288)" in ok.message
    shutil.copy(DEFAULT_DETECTOR, tmp_path)
    shutil.copy(DEFAULT_DETECTOR.with_suffix(".json"), tmp_path)   # names a second file not copied
    gone = check_detector(tmp_path / DEFAULT_DETECTOR.name)
    assert gone.state == "FAIL" and "dice_detector_384.tflite does not exist" in gone.message
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    del meta["second_finder"]
    (tmp_path / DEFAULT_DETECTOR.with_suffix(".json").name).write_text(json.dumps(meta))
    alone = check_detector(tmp_path / DEFAULT_DETECTOR.name)
    assert alone.state == "ok" and "second finder" not in alone.message


def test_an_unwritable_data_dir_fails_with_the_install_command(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    check = check_data_dir(parse_config({"data": {"dir": str(blocker / "sub")}}))
    assert check.state == "FAIL" and "install -d -o companion" in check.fix


def test_an_unknown_config_key_fails_the_config_check_with_the_nearest_key_and_exit_2(tmp_path, capsys):
    config = write_config(tmp_path, '[gpio]\nhold_tme = 2.0\n[panel]\nport = ""\n')
    code = doctor_main(["--config", str(config), "--no-camera"], host=Host(env={}, dev=tmp_path))
    out = capsys.readouterr().out
    assert code == 2
    line = next(line for line in out.splitlines() if line.split()[1:2] == ["config"])
    assert line.split()[0] == "FAIL"
    assert line.endswith(f"{config}: gpio.hold_tme: unknown key; did you mean hold_time? (ignored)")


def test_the_taught_centerville_faces_are_counted_per_colour_and_located(tmp_path):
    import numpy as np

    from companion.engine.centerville.dice import default_dice
    from companion.taught_dice import TaughtDice
    from hardware.doctor import check_taught

    config = parse_config({"data": {"dir": str(tmp_path)}})
    check = check_taught(config)
    assert check.state == "off" and str(tmp_path / "taught-dice" / "centerville") in check.message
    taught = TaughtDice(tmp_path)
    die = np.zeros((40, 40, 3), np.uint8)
    die[8:32, 8:32] = (200, 40, 40)
    for label in ("red-vote", "red-vote", "black-tree"):
        taught.add(label, die)
    check = check_taught(config)
    assert check.state == "warn" and "29 faces not taught yet" in check.message
    assert ("2 Centerville faces taught (3 pictures: red 2, yellow 0, blue 0, purple 0, green 0, "
            f"black 1) in {taught.root}") in check.message
    for label in default_dice().all_labels():
        taught.add(label, die)
    check = check_taught(config)
    assert check.state == "ok" and "31 Centerville faces taught (34 pictures" in check.message
    assert "the camera asks by the model's pair (0 checked reads; a looser pair needs about 598 more" \
        in check.message


def test_the_doctor_says_which_asking_pair_the_table_earned(tmp_path):
    import numpy as np

    from companion.engine.centerville.dice import default_dice
    from companion.taught_dice import TaughtDice
    from hardware.doctor import check_taught
    from vision.earned import CheckedRead

    config = parse_config({"data": {"dir": str(tmp_path)}})
    taught = TaughtDice(tmp_path)
    die = np.zeros((40, 40, 3), np.uint8)
    for label in default_dice().all_labels():
        taught.add(label, die)
    taught.check([CheckedRead(0.97, 0.7, True, "red-vote", "red-vote")] * 610)
    check = check_taught(config)
    assert check.state == "ok" and "asks by a looser pair, step 5 of 5" in check.message
    assert "earned by 610 checked reads" in check.message
    path = taught.examples.checked.path
    path.write_text(path.read_text(encoding="utf-8") + "0.9,oops,1,a,a\n", encoding="utf-8")
    check = check_taught(config)
    assert check.state == "warn" and "line 612: field margin is 'oops'" in check.message
    assert "model's own pair" in check.fix


def test_the_doctor_says_below_which_confidence_pip_dice_are_asked(tmp_path):
    from companion.pip_checks import PipChecks
    from hardware.doctor import check_pip_reads
    from vision.earned import CheckedRead

    config = parse_config({"data": {"dir": str(tmp_path)}})
    check = check_pip_reads(config)
    assert check.state == "ok" and "asks about pip dice read below 0.99975 (0 checked reads" in check.message
    assert "needs about 598 more" in check.message and str(tmp_path / "checked-reads") in check.message
    checks = PipChecks(tmp_path)
    checks.checked.add([CheckedRead(0.99999, None, True, "pip2", "pip2")] * 600)
    check = check_pip_reads(config)
    assert "below 0.99, step 5 of its ladder, earned by 600 checked reads" in check.message
    path = checks.checked.path
    path.write_text(path.read_text(encoding="utf-8") + "0.9,,yes,pip1,pip1\n", encoding="utf-8")
    check = check_pip_reads(config)
    assert check.state == "warn" and "line 602: field right is 'yes'" in check.message
    assert "reader's own threshold" in check.fix


def test_the_doctor_says_where_the_checked_photos_go_and_how_many_are_kept(tmp_path):
    import cv2
    import numpy as np

    from companion.checked_photos import CheckedPhotos
    from companion.photos_to_box import PhotosToBox
    from hardware.doctor import check_photos

    off = check_photos(parse_config({"data": {"dir": str(tmp_path)}}))
    assert off.state == "off" and off.message == "not kept ([camera] keep_photos = false)"
    config = parse_config({"data": {"dir": str(tmp_path)}, "camera": {"keep_photos": True}})
    check = check_photos(config)
    assert check.state == "ok" and check.message == (f"none kept yet; they go to {tmp_path / 'checked-photos'} "
                                                     f"and {tmp_path / 'checked-icon-photos'}")
    photo = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    assert CheckedPhotos(tmp_path / "checked-photos").add(photo, [(5, (0, 0, 8, 8))])
    assert check_photos(config).message == f"1 of at most 1000 photos in {tmp_path / 'checked-photos'}"
    to_box = PhotosToBox(tmp_path / "checked-photos" / "to-box")
    assert to_box.add(photo, (5, 2), [(5, (0, 0, 8, 8))])          # a die missed: for a person to box
    assert check_photos(config).message == (
        f"1 of at most 1000 photos in {tmp_path / 'checked-photos'}; 1 photo of a roll the camera boxed wrongly "
        f"waits in {to_box.folder} (Statistics, Are our dice fair?, Photos to box)")
    (tmp_path / "checked-photos" / "labels.json").write_text('{"x.jpg": [{"face": 9, "box": [0, 0, 1, 1]}]}')
    check = check_photos(config)
    assert check.state == "warn" and "x.jpg die 0: face must be 1 to 6, not 9" in check.message
    assert "no roll is lost" in check.fix
