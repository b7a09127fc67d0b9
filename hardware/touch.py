"""Kivy's [input] section for the touch screen: exactly one input provider per device.

Why this matters: Kivy's stock config has both `mouse = mouse` and `%(name)s = probesysfs`. On a
Pi with SDL2/KMS a touch screen then reaches Kivy twice, once as SDL's emulated mouse and once
read directly from /dev/input, so every tap is two taps. The app replaces the whole section
with `kivy_input_entries(config.touch)` (through `apply_kivy_input`) before the window opens.
"""
from __future__ import annotations

import os
from typing import Any, Iterable

from hardware.config import TouchConfig


def kivy_input_entries(touch: TouchConfig) -> dict[str, str]:
    """{option: value} for Kivy's [input] section, one provider per physical device.

    provider "mouse": only the window's mouse provider (SDL turns a touch into a mouse press).
    provider "mtdev" / "hidinput": one entry per device, and no mouse provider, since SDL would
    report the same finger as a mouse press. A device listed twice under different names
    (a /dev/input/by-path link and its eventN) is one device and gets one entry.
    """
    if touch.provider == "mouse":
        # disable_multitouch: a right or middle click must not leave a red multitouch dot.
        return {"mouse": "mouse,disable_multitouch"}
    entries: dict[str, str] = {}
    for device in unique_devices(touch.devices):
        entries[f"touch{len(entries)}"] = f"{touch.provider},{device}"
    return entries


def unique_devices(devices: Iterable[str]) -> list[str]:
    """The devices in order, dropping any that resolve to a node already listed."""
    seen: set[str] = set()
    unique = []
    for device in devices:
        real = os.path.realpath(device)
        if real not in seen:
            seen.add(real)
            unique.append(device)
    return unique


def apply_kivy_input(kivy_config: Any, entries: dict[str, str]) -> None:
    """Replace Kivy's whole [input] section with `entries` (call before the window is created).

    `kivy_config` is `kivy.config.Config` (passed in so this module does not import Kivy).
    """
    if kivy_config.has_section("input"):
        for option in list(kivy_config.options("input")):
            kivy_config.remove_option("input", option)
    else:
        kivy_config.add_section("input")
    for option, value in entries.items():
        kivy_config.set("input", option, value)
