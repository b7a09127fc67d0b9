"""The table's one TOML config: pins, serial panel, camera, data, screen, touch input and keys.

Where it is read from: `$COMPANION_CONFIG` if set, else `/etc/companion/config.toml` when that
exists (the Pi), else `$XDG_CONFIG_HOME/companion/config.toml`. No file at all is fine: every
key has a default. A bad value never stops the table: `load_config` returns the defaults for that
key together with a warning naming the key and the problem (shown by `companion doctor` and logged).
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from companion.engine import edge
from companion.events import Command
from companion.paths import data_dir
from hardware import config_values as v
from hardware.config_values import Reader

SYSTEM_CONFIG = Path("/etc/companion/config.toml")
ROTATIONS = (0, 90, 180, 270)
TOUCH_PROVIDERS = ("mouse", "mtdev", "hidinput")


@dataclass(frozen=True)
class ButtonSpec:
    """One physical button: `press` fires on a short press, `hold` on a long one (never both)."""

    name: str
    pin: int | str | None
    press: Command | None = None
    hold: Command | None = None


DEFAULT_BUTTONS = (
    ButtonSpec("next", 17, press=Command.NEXT),
    ButtonSpec("confirm", 27, press=Command.CONFIRM),
    ButtonSpec("read_dice", 22, press=Command.READ_DICE),
    # Undo only on a long press, so a stray knock never takes back a move.
    ButtonSpec("undo", 23, hold=Command.UNDO),
)
# The panel's buttons have names on the wire (docs/serial-panel.md) instead of pins.
DEFAULT_PANEL_BUTTONS = (
    ButtonSpec("NEXT", None, press=Command.NEXT),
    ButtonSpec("CONFIRM", None, press=Command.CONFIRM),
    ButtonSpec("READ", None, press=Command.READ_DICE),
    ButtonSpec("UNDO", None, hold=Command.UNDO),
)
# Kivy key names, as companion/table.py's KEYS (backspace and escape clear an entry there, so
# they are not commands here).
DEFAULT_KEYS = {
    "next": ("n", "tab"),
    "confirm": ("enter", "numpadenter", "spacebar"),
    "undo": ("ctrl+z",),
    "redo": ("ctrl+y", "ctrl+shift+z"),
    "read_dice": ("r",),
}


@dataclass(frozen=True)
class GpioConfig:
    enabled: bool = True
    pin_factory: str = ""          # "" = gpiozero's choice (lgpio on a Pi); "mock" on a laptop
    bounce_time: float = 0.05
    hold_time: float = 1.5
    buttons: tuple[ButtonSpec, ...] = DEFAULT_BUTTONS
    led_red: int | None = 5        # one common-cathode RGB LED; None leaves it out
    led_green: int | None = 6
    led_blue: int | None = 13


@dataclass(frozen=True)
class PanelConfig:
    port: str = ""                 # "" = no panel; a path, or hwgrep://<regex> (pyserial URL)
    baudrate: int = 115200
    heartbeat: float = 2.0         # seconds between PINGs
    timeout: float = 6.0           # silence after which the board counts as gone
    hold_time: float = 1.5
    buttons: tuple[ButtonSpec, ...] = DEFAULT_PANEL_BUTTONS


@dataclass(frozen=True)
class CameraConfig:
    # auto: the Pi's camera on a Raspberry Pi, the simulator on a laptop; or sim:, v4l2:0,
    # /dev/video0, picamera2:, file:, folder:, video:
    source: str = "auto:"
    model: str = ""                # "" = models/dice_faces.tflite beside the code
    # Degrees clockwise the camera's frames are turned before the dice are read, so that the
    # tray's far side is at the top (a camera mounted upside down or sideways). The face reader
    # learned slanted dice from upright views: turned 180, the calib photos of aws-workshop-dice
    # read 125 of 174 dice right with 17 silent misreads, against 156 and 3 upright (bench/real_shifts.py).
    rotation: int = 0
    # Keep the photo of each roll the players checked (pip dice, and Centerville's in a folder of
    # their own), its dice labelled with the faces they entered (companion.checked_photos): this
    # table's own real set for judging readers. Off by default: the photos show whatever lies in the tray.
    keep_photos: bool = False


@dataclass(frozen=True)
class ScreenConfig:
    width: int = 800
    height: int = 480
    rotation: int = 0
    fullscreen: bool = False


@dataclass(frozen=True)
class TouchConfig:
    provider: str = "mouse"        # mouse: taps come through the window (SDL); else one per device
    devices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Config:
    gpio: GpioConfig = field(default_factory=GpioConfig)
    panel: PanelConfig = field(default_factory=PanelConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    data_dir: Path = field(default_factory=lambda: _default_data_dir(os.environ))
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    touch: TouchConfig = field(default_factory=TouchConfig)
    keys: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_KEYS))
    path: Path | None = None       # the file read, None if running on defaults

    def key_command(self, key: str, modifiers: tuple[str, ...] | list[str] = ()) -> Command | None:
        """The Command for a Kivy key name ("z") with modifiers (["ctrl"]), or a chord ("ctrl+z")."""
        if not modifiers and "+" in key.strip("+"):
            *mods, key = key.split("+")
            modifiers = mods
        return key_lookup(self.keys).get(_key_chord(key, modifiers))


def config_path(env: Mapping[str, str] = os.environ) -> Path:
    """The config file the table reads (it need not exist)."""
    if env.get("COMPANION_CONFIG"):
        return Path(env["COMPANION_CONFIG"])
    if SYSTEM_CONFIG.exists():
        return SYSTEM_CONFIG
    xdg = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", str(Path.home()))) / ".config")
    return Path(xdg) / "companion" / "config.toml"


def _default_data_dir(env: Mapping[str, str]) -> Path:
    return data_dir(env)  # the env handed in (tests pass their own)


def load_config(path: Path | str | None = None,
                env: Mapping[str, str] = os.environ) -> tuple[Config, list[str]]:
    """Read the config: (Config, warnings). Never raises for a bad or missing file or value."""
    path = Path(path) if path is not None else config_path(env)
    warnings: list[str] = []
    try:
        text = edge.decode_text(path.read_bytes())
    except FileNotFoundError:
        return Config(data_dir=_default_data_dir(env)), warnings
    except OSError as exc:
        warnings.append(f"{path}: cannot read the config ({exc.strerror or exc}); using the defaults for everything")
        return Config(data_dir=_default_data_dir(env)), warnings
    except edge.EdgeError as exc:
        warnings.append(f"{path}: {exc}; using the defaults for everything")
        return Config(data_dir=_default_data_dir(env)), warnings
    # A value too deep or a number too long for tomllib is blanked first, so that only its key
    # falls back to the default (tomllib itself would fail the whole file).
    try:
        text, too_big = edge.bound_toml(text)
        raw = tomllib.loads(text)
    except edge.EdgeError as exc:
        warnings.append(f"{path}: {exc}; using the defaults for everything")
        return Config(data_dir=_default_data_dir(env)), warnings
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:
        warnings.append(f"{path}: not valid TOML ({exc}); using the defaults for everything")
        return Config(data_dir=_default_data_dir(env)), warnings
    warnings += [f"{path}: {key}: {problem} (line {line}); using the default" for key, problem, line in too_big]
    return parse_config(raw, env=env, path=path, warnings=warnings), warnings


def parse_config(raw: Mapping[str, Any], *, env: Mapping[str, str] = os.environ,
                 path: Path | None = None, warnings: list[str] | None = None) -> Config:
    """Build a Config from parsed TOML, appending one warning per bad key to `warnings`."""
    r = Reader(str(path) if path else "config", warnings if warnings is not None else [])
    r.unknown(raw, ("gpio", "panel", "camera", "data", "screen", "touch", "keys"), "")
    g, p, c = r.table(raw, "gpio"), r.table(raw, "panel"), r.table(raw, "camera")
    d, s, t = r.table(raw, "data"), r.table(raw, "screen"), r.table(raw, "touch")
    dg, dp, dc, ds, dt = GpioConfig(), PanelConfig(), CameraConfig(), ScreenConfig(), TouchConfig()
    r.unknown(g, ("enabled", "pin_factory", "bounce_time", "hold_time", "buttons",
                  "led_red", "led_green", "led_blue"), "gpio")
    gpio = GpioConfig(
        enabled=r.get(g, "gpio.enabled", dg.enabled, v.bool_value),
        pin_factory=r.get(g, "gpio.pin_factory", dg.pin_factory,
                          v.choice(("", "mock", "lgpio", "rpigpio", "pigpio", "native"))),
        bounce_time=r.get(g, "gpio.bounce_time", dg.bounce_time, v.number(0.0, 1.0)),
        hold_time=r.get(g, "gpio.hold_time", dg.hold_time, v.number(0.2, 10.0)),
        buttons=_buttons(r, g.get("buttons"), "gpio.buttons", DEFAULT_BUTTONS, pins=True),
        led_red=r.get(g, "gpio.led_red", dg.led_red, v.pin_or_none),
        led_green=r.get(g, "gpio.led_green", dg.led_green, v.pin_or_none),
        led_blue=r.get(g, "gpio.led_blue", dg.led_blue, v.pin_or_none),
    )
    taken = {b.pin for b in gpio.buttons}
    for colour in ("red", "green", "blue"):
        pin = getattr(gpio, f"led_{colour}")
        if pin in taken:
            r.warnings.append(f"{r.source}: gpio.led_{colour}: pin {pin} is also a button's; "
                              "the LED is left out")
            gpio = replace(gpio, led_red=None, led_green=None, led_blue=None)
            break
        taken.add(pin)
    r.unknown(p, ("port", "baudrate", "heartbeat", "timeout", "hold_time", "buttons"), "panel")
    panel = PanelConfig(
        port=r.get(p, "panel.port", dp.port, v.port),
        baudrate=r.get(p, "panel.baudrate", dp.baudrate,
                       v.choice((9600, 19200, 38400, 57600, 115200, 230400))),
        heartbeat=r.get(p, "panel.heartbeat", dp.heartbeat, v.number(0.1, 60.0)),
        timeout=r.get(p, "panel.timeout", dp.timeout, v.number(0.3, 300.0)),
        hold_time=r.get(p, "panel.hold_time", dp.hold_time, v.number(0.2, 10.0)),
        buttons=_buttons(r, p.get("buttons"), "panel.buttons", DEFAULT_PANEL_BUTTONS, pins=False),
    )
    r.unknown(c, ("source", "model", "rotation", "keep_photos"), "camera")
    camera = CameraConfig(source=r.get(c, "camera.source", dc.source, v.camera_source),
                          model=r.get(c, "camera.model", dc.model, lambda m: str(v.home_path(m) or "")),
                          rotation=r.get(c, "camera.rotation", dc.rotation, v.choice(ROTATIONS)),
                          keep_photos=r.get(c, "camera.keep_photos", dc.keep_photos, v.bool_value))
    r.unknown(d, ("dir",), "data")
    default_dir = _default_data_dir(env)
    data_dir = r.get(d, "data.dir", default_dir, v.home_path) or default_dir
    r.unknown(s, ("width", "height", "rotation", "fullscreen"), "screen")
    screen = ScreenConfig(
        width=r.get(s, "screen.width", ds.width, v.integer(100, 10000)),
        height=r.get(s, "screen.height", ds.height, v.integer(100, 10000)),
        rotation=r.get(s, "screen.rotation", ds.rotation, v.choice(ROTATIONS)),
        fullscreen=r.get(s, "screen.fullscreen", ds.fullscreen, v.bool_value),
    )
    r.unknown(t, ("provider", "devices"), "touch")
    touch = TouchConfig(provider=r.get(t, "touch.provider", dt.provider, v.choice(TOUCH_PROVIDERS)),
                        devices=r.get(t, "touch.devices", dt.devices, v.string_list))
    if touch.provider != "mouse" and not touch.devices:
        r.warn("touch.devices", f'the "{touch.provider}" provider needs at least one device '
               '(e.g. ["/dev/input/by-path/...-event"])', "mouse")
        touch = TouchConfig()
    return Config(gpio=gpio, panel=panel, camera=camera,
                  data_dir=data_dir,
                  screen=screen, touch=touch, keys=_keys(r, r.table(raw, "keys")), path=path)


def _buttons(r: Reader, raw: Any, key: str, defaults: tuple[ButtonSpec, ...],
             pins: bool) -> tuple[ButtonSpec, ...]:
    """[gpio.buttons] name = { pin = 17, press = "next" } / { pin = 23, hold = "undo" }."""
    if raw is None:
        return defaults
    if not isinstance(raw, dict):
        r.warn(key, "must be a table of buttons", "the default buttons")
        return defaults
    specs, used_pins = [], set()
    for name, entry in raw.items():
        where = f"{key}.{name}"
        if not isinstance(entry, dict):
            r.warnings.append(f"{r.source}: {where}: must be a table like {{ pin = 17, press = \"next\" }}; "
                              "button left out")
            continue
        r.unknown(entry, ("pin", "press", "hold") if pins else ("press", "hold"), where)
        try:
            pin = v.pin(entry.get("pin")) if pins else None
            press = v.command(entry["press"]) if "press" in entry else None
            hold = v.command(entry["hold"]) if "hold" in entry else None
            if press is None and hold is None:
                raise ValueError('needs press = "<command>" or hold = "<command>"')
            if pins and pin in used_pins:
                raise ValueError(f"pin {pin} is already used by another button")
        except ValueError as exc:
            r.warnings.append(f"{r.source}: {where}: {exc}; button left out")
            continue
        used_pins.add(pin)
        specs.append(ButtonSpec(name.upper() if not pins else name, pin, press, hold))
    return tuple(specs)


def _key_chord(key: str, modifiers: tuple[str, ...] | list[str] = ()) -> str:
    # Kivy reports modifiers like "ctrl", "shift", "alt", "meta", plus lock states we ignore.
    mods = sorted(m for m in modifiers if m in ("ctrl", "shift", "alt", "meta"))
    return "+".join([*mods, key.lower()])


def key_lookup(keys: Mapping[str, tuple[str, ...]]) -> dict[str, Command]:
    """{normalised chord: Command} for a [keys] map."""
    return {_key_chord(k.split("+")[-1], k.split("+")[:-1]): Command(cmd)
            for cmd, chords in keys.items() for k in chords}


def _keys(r: Reader, raw: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    keys = dict(DEFAULT_KEYS)
    commands = tuple(c.value for c in Command)
    r.unknown(raw, commands, "keys")
    for name, value in raw.items():
        if name not in commands:
            continue
        where = f"keys.{name}"
        try:
            command = v.command(name)
            chords = v.string_list(value)
        except ValueError as exc:
            r.warn(where, str(exc), keys.get(name, ()))
            continue
        keys[command.value] = tuple(c.lower() for c in chords)
    # One key, one command: a key bound twice would fire whichever the lookup met last.
    seen: dict[str, str] = {}
    for command, chords in list(keys.items()):
        for chord in chords:
            norm = _key_chord(chord.split("+")[-1], chord.split("+")[:-1])
            if norm in seen and seen[norm] != command:
                fallback = tuple(c for c in DEFAULT_KEYS.get(command, ())
                                 if _key_chord(c.split("+")[-1], c.split("+")[:-1]) not in seen)
                r.warn(f"keys.{command}", f'"{chord}" is already bound to {seen[norm]}', fallback)
                keys[command] = fallback
                break
            seen[norm] = command
    return keys
