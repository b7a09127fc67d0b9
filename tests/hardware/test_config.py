"""The TOML config: defaults without a file, one warning naming each bad key, never a crash."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.events import Command
from hardware.config import (DEFAULT_BUTTONS, Config, config_path, load_config)

ROOT = Path(__file__).resolve().parents[2]


def load(tmp_path, text, env=None):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(path, env=env or {"HOME": str(tmp_path)})


def test_no_file_means_defaults_and_no_warnings(tmp_path):
    config, warnings = load_config(tmp_path / "absent.toml", env={"HOME": str(tmp_path)})
    assert warnings == []
    assert config == Config(data_dir=tmp_path / ".local/share/companion")
    assert config.gpio.buttons == DEFAULT_BUTTONS
    assert config.panel.port == "" and config.camera.source == "auto:"


def test_the_shipped_pi_config_is_clean():
    config, warnings = load_config(ROOT / "systemd" / "config.toml", env={"STATE_DIRECTORY": "/var/lib/companion"})
    assert warnings == []
    assert config.camera.source == "auto:"   # on the Pi: its camera, never the simulator
    assert config.data_dir == Path("/var/lib/companion")
    assert config.screen.fullscreen


def test_where_the_config_is_read_from(tmp_path):
    assert config_path({"COMPANION_CONFIG": "/x/y.toml"}) == Path("/x/y.toml")
    if not Path("/etc/companion/config.toml").exists():
        assert config_path({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "companion" / "config.toml"


def test_data_dir_follows_systemd_then_xdg(tmp_path):
    assert load_config(tmp_path / "none", env={"STATE_DIRECTORY": "/var/lib/companion:/x"})[0].data_dir \
        == Path("/var/lib/companion")
    assert load_config(tmp_path / "none", env={"XDG_DATA_HOME": "/d"})[0].data_dir == Path("/d/companion")
    config, _ = load(tmp_path, '[data]\ndir = "/srv/table"\n')
    assert config.data_dir == Path("/srv/table")


@pytest.mark.parametrize("text, key, kept", [
    ('[gpio]\nhold_time = 0.01\n', "gpio.hold_time", ("gpio", "hold_time", 1.5)),
    ('[gpio]\nbounce_time = "fast"\n', "gpio.bounce_time", ("gpio", "bounce_time", 0.05)),
    ('[gpio]\nled_red = 40\n', "gpio.led_red", ("gpio", "led_red", 5)),
    ('[panel]\nport = "COM3"\n', "panel.port", ("panel", "port", "")),
    ('[panel]\nbaudrate = 1234\n', "panel.baudrate", ("panel", "baudrate", 115200)),
    ('[camera]\nsource = "webcam"\n', "camera.source", ("camera", "source", "auto:")),
    ('[screen]\nrotation = 45\n', "screen.rotation", ("screen", "rotation", 0)),
    ('[camera]\nrotation = 45\n', "camera.rotation", ("camera", "rotation", 0)),
    ('[camera]\nkeep_photos = "yes"\n', "camera.keep_photos", ("camera", "keep_photos", False)),
    ('[screen]\nwidth = true\n', "screen.width", ("screen", "width", 800)),
    ('[touch]\nprovider = "tuio"\n', "touch.provider", ("touch", "provider", "mouse")),
])
def test_a_bad_value_names_its_key_and_keeps_the_default(tmp_path, text, key, kept):
    config, warnings = load(tmp_path, text)
    assert len(warnings) == 1, warnings
    assert f": {key}: " in warnings[0] and "using the default" in warnings[0]
    section, name, default = kept
    assert getattr(getattr(config, section), name) == default


def test_the_camera_can_be_turned_for_a_camera_mounted_upside_down(tmp_path):
    config, warnings = load(tmp_path, '[camera]\nsource = "v4l2:0"\nrotation = 180\n')
    assert warnings == [] and (config.camera.source, config.camera.rotation) == ("v4l2:0", 180)
    assert load(tmp_path, "")[0].camera.rotation == 0


def test_the_checked_rolls_photos_are_kept_only_when_asked(tmp_path):
    assert load(tmp_path, "")[0].camera.keep_photos is False
    config, warnings = load(tmp_path, '[camera]\nkeep_photos = true\n')
    assert warnings == [] and config.camera.keep_photos is True


def test_other_keys_of_a_section_survive_a_bad_one(tmp_path):
    config, warnings = load(tmp_path, '[screen]\nwidth = 1280\nheight = "tall"\nrotation = 180\n')
    assert (config.screen.width, config.screen.height, config.screen.rotation) == (1280, 480, 180)
    assert len(warnings) == 1 and "screen.height" in warnings[0]


def test_not_toml_at_all_gives_defaults_with_the_line(tmp_path):
    config, warnings = load(tmp_path, '[gpio]\nhold_time = \n')
    assert config.gpio.hold_time == 1.5
    assert len(warnings) == 1 and "not valid TOML" in warnings[0] and "line 2" in warnings[0]


def test_unknown_keys_are_reported_not_fatal(tmp_path):
    config, warnings = load(tmp_path, '[gpio]\nhold_tme = 2.0\n[sound]\nvolume = 3\n')
    assert config.gpio.hold_time == 1.5
    assert f"{tmp_path / 'config.toml'}: gpio.hold_tme: unknown key; did you mean hold_time? (ignored)" in warnings
    assert any("sound: unknown key (known: gpio, " in w for w in warnings)
    config, warnings = load(tmp_path, '[keys]\nundoo = ["u"]\n')
    assert config.keys["undo"] != ("u",) and len(warnings) == 1
    assert warnings[0].endswith("keys.undoo: unknown key; did you mean undo? (ignored)")


def test_a_section_that_is_not_a_table(tmp_path):
    config, warnings = load(tmp_path, 'gpio = 3\n')
    assert config.gpio.enabled and "gpio: must be a table" in warnings[0]


def test_buttons_from_the_config(tmp_path):
    config, warnings = load(tmp_path, """
[gpio]
led_red = false
[gpio.buttons]
next = { pin = 20, press = "next", hold = "redo" }
undo = { pin = 21, hold = "undo" }
broken = { pin = 7, press = "launch" }
clash = { pin = 20, press = "confirm" }
empty = { pin = 8 }
""")
    names = [(b.name, b.pin, b.press, b.hold) for b in config.gpio.buttons]
    assert names == [("next", 20, Command.NEXT, Command.REDO), ("undo", 21, None, Command.UNDO)]
    assert config.gpio.led_red is None
    assert [w.split(": ")[1] for w in warnings] == ["gpio.buttons.broken", "gpio.buttons.clash",
                                                    "gpio.buttons.empty"]
    assert all("button left out" in w for w in warnings)


def test_keys_map_and_lookup(tmp_path):
    config, warnings = load(tmp_path, '[keys]\nread_dice = ["d", "F5"]\n')
    assert warnings == []
    assert config.key_command("d") == Command.READ_DICE
    assert config.key_command("f5") == Command.READ_DICE
    assert config.key_command("r") is None
    assert config.key_command("z", ["ctrl", "numlock"]) == Command.UNDO
    assert config.key_command("z", ["shift", "ctrl"]) == Command.REDO
    assert config.key_command("ctrl+shift+z") == Command.REDO      # the chord the app posts
    assert config.key_command("shift+ctrl+z") == Command.REDO
    assert config.key_command("n") == Command.NEXT
    assert config.key_command("spacebar") == Command.CONFIRM
    assert config.key_command("enter") == Command.CONFIRM
    assert config.key_command("backspace") is None                 # the screen's "clear"


def test_a_key_bound_twice_is_reported(tmp_path):
    config, warnings = load(tmp_path, '[keys]\nnext = ["n", "enter"]\nlaunch = ["l"]\n')
    assert config.key_command("enter") == Command.NEXT
    assert config.key_command("numpadenter") == Command.CONFIRM
    assert config.key_command("spacebar") == Command.CONFIRM
    assert any("keys.confirm" in w and '"enter" is already bound to next' in w for w in warnings)
    assert any("keys.launch" in w for w in warnings)


def test_an_led_on_a_button_pin_is_left_out(tmp_path):
    config, warnings = load(tmp_path, '[gpio.buttons]\nnext = { pin = 6, press = "next" }\n')
    assert config.gpio.led_green is None and config.gpio.led_red is None
    assert len(warnings) == 1 and "gpio.led_green: pin 6 is also a button's" in warnings[0]
