"""One tap is one event: Kivy gets exactly one input provider per touch device."""
from __future__ import annotations

import os

import pytest
from kivy import config as kivy_config
from kivy.input import MotionEventFactory

from hardware.config import TouchConfig, parse_config
from hardware.touch import apply_kivy_input, kivy_input_entries


def stock_pi_config():
    """Kivy's own [input] defaults on a Raspberry Pi (kivy/config.py): the double-tap setup."""
    config = kivy_config.ConfigParser()   # unnamed: not registered with Kivy
    config.add_section("input")
    config.set("input", "mouse", "mouse")
    config.set("input", "%(name)s", "probesysfs,provider=hidinput")
    return config


def providers_from(config):
    """Build the providers exactly as kivy.base._runTouchApp_prepare does: one per option."""
    made = []
    for key, value in config.items("input"):
        provider_id, _, args = str(value).partition(",")
        provider = MotionEventFactory.get(provider_id)
        assert provider is not None, f"Kivy has no input provider {provider_id!r}"
        made.append((provider_id, provider(key, args)))
    return made


@pytest.fixture
def devices(tmp_path):
    # Device nodes as the Pi names them: an eventN and stable by-path links to it.
    event = tmp_path / "event3"
    event.touch()
    by_path = tmp_path / "platform-ts-event"
    by_path.symlink_to(event)
    other = tmp_path / "event5"
    other.touch()
    return str(event), str(by_path), str(other)


def test_the_stock_pi_config_reads_a_touch_screen_twice():
    # Why the app replaces the section: SDL's emulated mouse and probesysfs's hidinput both see it.
    ids = sorted(v.split(",")[0] for _, v in stock_pi_config().items("input"))
    assert ids == ["mouse", "probesysfs"]


def test_mouse_provider_alone_by_default():
    config = stock_pi_config()
    apply_kivy_input(config, kivy_input_entries(TouchConfig()))
    made = providers_from(config)
    assert [pid for pid, _ in made] == ["mouse"]


@pytest.mark.parametrize("provider", ["mtdev", "hidinput"])
def test_one_provider_per_device_and_no_mouse(devices, provider):
    event, by_path, other = devices
    # The same screen listed by two names, plus a second touch device.
    touch = TouchConfig(provider=provider, devices=(by_path, event, other))
    config = stock_pi_config()
    apply_kivy_input(config, kivy_input_entries(touch))
    made = providers_from(config)
    assert [pid for pid, _ in made] == [provider, provider]
    assert sorted(os.path.realpath(v.split(",", 1)[1]) for _, v in config.items("input")) == \
        sorted([os.path.realpath(event), os.path.realpath(other)])


def test_from_the_toml_config(devices):
    event, _, _ = devices
    warnings = []
    config = parse_config({"touch": {"provider": "hidinput", "devices": [event]}}, warnings=warnings)
    assert warnings == []
    assert kivy_input_entries(config.touch) == {"touch0": f"hidinput,{event}"}


def test_a_touch_provider_without_devices_falls_back_to_mouse():
    warnings = []
    config = parse_config({"touch": {"provider": "mtdev"}}, warnings=warnings)
    assert config.touch.provider == "mouse"
    assert len(warnings) == 1 and "touch.devices" in warnings[0]
