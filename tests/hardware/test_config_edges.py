"""The config on hostile values: each bad value falls back to its default with one line naming
its key, the rest of the file still counts, and `companion doctor --config` shows the line."""
from __future__ import annotations

import pytest

from hardware.config import PanelConfig, ScreenConfig, load_config
from hardware.doctor import Host, doctor_main

# Every case also sets screen.height = 600, which must survive the bad value beside it.
CASES = {
    "deep array": ("[screen]\nwidth = " + "[" * 5000 + "]" * 5000 + "\nheight = 600\n",
                   "screen.width", "nested deeper than 32 levels"),
    "deep array over lines": ("[screen]\nheight = 600\n[keys]\nnext = [\n" + "[\n" * 400 + "]\n" * 400 + "]\n",
                              "keys.next", "nested deeper than 32 levels"),
    "5000-digit integer": ("[screen]\nwidth = " + "9" * 5000 + "\nheight = 600\n",
                           "screen.width", "a number of more than 30 digits"),
    "invalid regular expression": ('[panel]\nport = "hwgrep://[unclosed"\n[screen]\nheight = 600\n',
                                   "panel.port", "not a valid regular expression"),
    "~user that does not resolve": ('[data]\ndir = "~no_such_user_here/games"\n[screen]\nheight = 600\n',
                                    "data.dir", '"~no_such_user_here" does not resolve'),
    "~user model path": ('[camera]\nmodel = "~no_such_user_here/m.tflite"\n[screen]\nheight = 600\n',
                         "camera.model", '"~no_such_user_here" does not resolve'),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_bad_value_falls_back_with_one_line_naming_its_key(tmp_path, name):
    text, key, words = CASES[name]
    path = tmp_path / "config.toml"
    path.write_text(text)
    config, warnings = load_config(path, env={"HOME": str(tmp_path)})
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(f"{path}: {key}: ") and words in warnings[0], warnings[0]
    assert "using the default" in warnings[0]
    assert config.screen.height == 600  # the rest of the file still counts
    assert config.screen.width == ScreenConfig().width and config.panel.port == PanelConfig().port
    assert config.camera.model == "" and config.data_dir != tmp_path / "games"


def test_a_valid_hwgrep_pattern_and_home_path_are_kept(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[panel]\nport = "hwgrep://2341:00(43|01)&skip_busy"\n[data]\ndir = "~/games"\n'
                    "[screen]\nwidth = 1024\n")
    config, warnings = load_config(path, env={"HOME": str(tmp_path)})
    assert warnings == []
    assert config.panel.port == "hwgrep://2341:00(43|01)&skip_busy" and config.screen.width == 1024
    assert config.data_dir.name == "games" and "~" not in str(config.data_dir)


def test_a_config_that_is_not_utf8_says_its_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"[screen]\nwidth = 1024\n# caf\xe9\n")
    config, warnings = load_config(path, env={})
    assert warnings == [f"{path}: line 3: not UTF-8 text (byte 0xe9 at column 6).; "
                        "using the defaults for everything"]
    assert config.screen.width == ScreenConfig().width


@pytest.mark.parametrize("name", sorted(CASES))
def test_doctor_shows_the_line_and_passes_with_a_warning(tmp_path, name, capsys):
    text, key, words = CASES[name]
    path = tmp_path / "config.toml"
    path.write_text(text + f'\n[gpio]\npin_factory = "mock"\n')
    code = doctor_main(["--config", str(path), "--no-camera"], host=Host(env={"HOME": str(tmp_path)}, dev=tmp_path))
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.split()[1:2] == ["config"])
    assert line.split()[0] == "warn", out
    assert f"{key}: " in out and words in out, out
    assert code in (0, 1), out  # a warning is not a failure of the config check (2 is)


@pytest.mark.parametrize("text,key,words", [
    ('[touch]\nprovider = "mouse"\ndevices = ["/dev/input/event0", 3]\n', "touch.devices", "[1] must be text in quotes, not 3"),
    ('[keys]\nnext = ["n", ""]\n', "keys.next", "[1] must not be empty"),
    ("[screen]\nrotation = 45\n", "screen.rotation", "must be one of 0, 90, 180, 270, not 45"),
    ('[gpio]\npin_factory = "x"\n', "gpio.pin_factory", 'must be one of "", mock, lgpio'),
])
def test_the_config_types_are_the_shared_field_schemas_naming_the_entry(tmp_path, text, key, words):
    # The same sentences as a log or state file (companion/engine/schema.py), with the list entry
    # at fault named; before, a whole list was "must be a list of strings (got [...])".
    path = tmp_path / "config.toml"
    path.write_text(text)
    _config, warnings = load_config(path, env={"HOME": str(tmp_path)})
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}: {key}: {words}"), warnings
