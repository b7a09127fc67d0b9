"""`companion doctor`: check display, touch, camera, GPIO, serial board, model, detector, data directory,
the dice the camera has been taught, the threshold it asks about pip dice below (checked reads) and
the checked rolls' photos it keeps.

Prints one line per check, what works and, for what does not, the exact command or edit that
fixes it. Exit status 0 when nothing failed (warnings allowed), 2 when the config holds a key it
does not know (the app starts, ignoring it, but the table meant something), 1 otherwise.
"""
from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from hardware.config import Config, config_path, load_config
from hardware.config_values import UnknownKeyWarning
from hardware.touch import unique_devices

EXIT_BAD_CONFIG = 2  # as every reader of the project refuses a file with an unknown key
SERVICE_USER = "companion"
BUSY_HINT = "if the companion service is running it holds this device: sudo systemctl stop companion"


@dataclass(frozen=True)
class Check:
    name: str
    state: str           # "ok", "warn", "FAIL" or "off" (not configured, and that is fine)
    message: str
    fix: str = ""


@dataclass(frozen=True)
class Host:
    """Where to look: the real machine by default, a prepared tree in tests."""

    env: Mapping[str, str]
    dev: Path = Path("/dev")
    boot_config: Path = Path("/boot/firmware/config.txt")


def doctor_main(argv: list[str] | None = None, *, host: Host | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion doctor", description=__doc__.split("\n")[0])
    parser.add_argument("--config", help="the config file (default: $COMPANION_CONFIG, "
                        "/etc/companion/config.toml, ~/.config/companion/config.toml)")
    parser.add_argument("--panel-timeout", type=float, default=4.0,
                        help="seconds to wait for the serial board's READY (an Arduino resets on open)")
    parser.add_argument("--no-camera", action="store_true", help="do not open the camera")
    args = parser.parse_args(argv)
    host = host or Host(env=os.environ)
    path = Path(args.config) if args.config else config_path(host.env)
    config, warnings = load_config(path, env=host.env)
    print(f"companion doctor: config {path}" + ("" if path.exists() else " (not there: using the defaults)"))
    checks: list[tuple[str, Callable[[], Check]]] = [
        ("config", lambda: check_config(path, warnings)),
        ("display", lambda: check_display(host)),
        ("touch", lambda: check_touch(config, host)),
        ("camera", lambda: Check("camera", "off", "not opened (--no-camera)") if args.no_camera
         else check_camera(config)),
        ("gpio", lambda: check_gpio(config, host)),
        ("panel", lambda: check_panel(config, args.panel_timeout)),
        ("model", lambda: check_model(config)),
        ("detector", lambda: check_detector()),
        ("data", lambda: check_data_dir(config)),
        ("taught", lambda: check_taught(config)),
        ("checked", lambda: check_pip_reads(config)),
        ("photos", lambda: check_photos(config)),
    ]
    failed = False
    for name, run in checks:
        try:
            check = run()
        except Exception as exc:     # a check that itself breaks is a finding, not a crash
            check = Check(name, "FAIL", f"the check itself failed: {exc!r}")
        failed |= check.state == "FAIL"
        print(f"  {check.state:<5} {check.name:<8} {check.message}")
        if check.fix and check.state in ("FAIL", "warn"):
            for i, line in enumerate(check.fix.splitlines()):
                print(f"  {'':<5} {'':<8} {'fix: ' if i == 0 else '     '}{line}")
    print("all good." if not failed else "some checks failed: see the fixes above.")
    if any(isinstance(w, UnknownKeyWarning) for w in warnings):
        return EXIT_BAD_CONFIG
    return 1 if failed else 0


def check_config(path: Path, warnings: list[str]) -> Check:
    if not warnings:
        return Check("config", "ok", f"{path}: no problems" if path.exists() else "defaults (no file)")
    unknown = [w for w in warnings if isinstance(w, UnknownKeyWarning)]
    if unknown:
        return Check("config", "FAIL", unknown[0] if len(unknown) == 1 else f"{len(unknown)} unknown keys",
                     fix="\n".join(f"edit {w}" for w in warnings))
    return Check("config", "warn", f"{len(warnings)} problem(s); those keys use their defaults",
                 fix="\n".join(f"edit {w}" for w in warnings))


def _device_access(node: str) -> str | None:
    """None if readable and writable, else why not."""
    if not os.access(node, os.R_OK | os.W_OK):
        return "no permission"
    return None


def check_display(host: Host) -> Check:
    if host.env.get("WAYLAND_DISPLAY") or host.env.get("DISPLAY"):
        what = host.env.get("WAYLAND_DISPLAY") or host.env.get("DISPLAY")
        return Check("display", "ok", f"desktop session display {what}")
    cards = sorted(glob.glob(str(host.dev / "dri" / "card*")))
    if not cards:
        return Check("display", "FAIL", f"no KMS/DRM display device ({host.dev}/dri/card*)",
                     fix=f"enable the KMS driver: put dtoverlay=vc4-kms-v3d under [all] in "
                         f"{host.boot_config}, then sudo reboot")
    usable = [c for c in cards if _device_access(c) is None]
    if not usable:
        return Check("display", "FAIL", f"{', '.join(cards)}: no permission",
                     fix=f"sudo usermod -aG video,render {SERVICE_USER}  (then sudo systemctl restart companion)")
    driver = host.env.get("SDL_VIDEODRIVER", "")
    if driver and driver != "kmsdrm":
        return Check("display", "warn", f"{usable[0]} present, but SDL_VIDEODRIVER={driver}",
                     fix="without a desktop, run with SDL_VIDEODRIVER=kmsdrm (the service sets it)")
    return Check("display", "ok", f"KMS/DRM {', '.join(usable)}")


def check_touch(config: Config, host: Host) -> Check:
    if config.touch.provider == "mouse":
        events = sorted(glob.glob(str(host.dev / "input" / "event*")))
        if not events:
            return Check("touch", "FAIL", f"no input devices in {host.dev}/input",
                         fix="connect the touch screen (DSI ribbon, or its USB cable for HDMI screens)")
        if not any(os.access(e, os.R_OK) for e in events):
            return Check("touch", "FAIL", f"{len(events)} input device(s), none readable",
                         fix=f"sudo usermod -aG input {SERVICE_USER}  (then sudo systemctl restart companion)")
        return Check("touch", "ok", f"through the window (SDL), {len(events)} input device(s) readable")
    devices = list(config.touch.devices)
    missing = [d for d in devices if not os.path.exists(d)]
    if missing:
        return Check("touch", "FAIL", f"{', '.join(missing)}: no such device",
                     fix=f"list the screen's stable name with: ls -l {host.dev}/input/by-path/ {host.dev}/input/by-id/\n"
                         "and set [touch] devices to it")
    unreadable = [d for d in devices if not os.access(d, os.R_OK)]
    if unreadable:
        return Check("touch", "FAIL", f"{', '.join(unreadable)}: no permission",
                     fix=f"sudo usermod -aG input {SERVICE_USER}  (then sudo systemctl restart companion)")
    if len(unique_devices(devices)) < len(devices):
        return Check("touch", "warn", "a device is listed twice under different names (used once)",
                     fix="list each touch device once in [touch] devices")
    return Check("touch", "ok", f"{config.touch.provider} on {', '.join(devices)}")


def check_camera(config: Config) -> Check:
    from vision.sources import SourceError, open_source

    spec = config.camera.source
    fixes = {
        "picamera2": "check the ribbon cable and that the camera is listed by: rpicam-hello --list-cameras\n"
                     "on Raspberry Pi OS: sudo apt install python3-picamera2 (the venv must see system "
                     "packages)\n" + BUSY_HINT,
        "v4l2": f"plug the USB camera in and check: ls -l /dev/video*; sudo usermod -aG video {SERVICE_USER}",
    }
    fixes["auto"] = fixes["picamera2"] + "\nor " + fixes["v4l2"]
    scheme = "v4l2" if spec.startswith("/dev/video") else spec.split(":", 1)[0]
    try:
        with open_source(spec) as source:
            frame = source.read()
            name = source.name  # auto: says which camera it found
    except SourceError as exc:
        return Check("camera", "FAIL", f"{spec}: {exc}",
                     fix=fixes.get(scheme, "set [camera] source to a working source (sim: needs nothing)"))
    h, w = frame.image.shape[:2]
    simulated = scheme == "sim" or name == "auto: sim:"
    state = "warn" if simulated else "ok"
    note = " (the simulator: no real camera configured)" if simulated else ""
    if config.camera.rotation:
        note += f", turned {config.camera.rotation} degrees before reading"
    return Check("camera", state, f"{name if scheme == 'auto' else spec} gives {w}x{h} pictures{note}",
                 fix='on the Pi set [camera] source = "picamera2:" (or "v4l2:0" for a USB camera)')


def check_gpio(config: Config, host: Host) -> Check:
    gpio = config.gpio
    if not gpio.enabled:
        return Check("gpio", "off", "buttons turned off in the config ([gpio] enabled = false)")
    if gpio.pin_factory == "mock":
        return Check("gpio", "ok", "mock pins (no physical buttons; keys stand in)")
    chips = sorted(glob.glob(str(host.dev / "gpiochip*")))
    if not chips:
        return Check("gpio", "FAIL", f"no GPIO chip ({host.dev}/gpiochip*): not a Raspberry Pi?",
                     fix='without a Pi set [gpio] pin_factory = "mock" (or enabled = false)')
    if not any(_device_access(c) is None for c in chips):
        return Check("gpio", "FAIL", f"{', '.join(chips)}: no permission",
                     fix=f"sudo usermod -aG gpio {SERVICE_USER}  (then sudo systemctl restart companion)")
    if gpio.pin_factory in ("", "lgpio") and importlib.util.find_spec("lgpio") is None:
        return Check("gpio", "FAIL", "the lgpio library is not importable",
                     fix="sudo apt install python3-lgpio, with a venv that sees system packages "
                         "(python3 -m venv --system-site-packages)")
    from hardware.buttons import TableButtons

    try:
        TableButtons(gpio).close()
    except Exception as exc:   # gpiozero raises many kinds (GPIOPinInUse, PinInvalidPin, OSError)
        return Check("gpio", "FAIL", f"cannot claim the button pins: {exc}", fix=BUSY_HINT)
    pins = ", ".join(f"{b.name}={b.pin}" for b in gpio.buttons)
    return Check("gpio", "ok", f"{len(gpio.buttons)} buttons ({pins}) and the LED claimed and released")


def check_panel(config: Config, timeout: float) -> Check:
    if not config.panel.port:
        return Check("panel", "off", "no serial board configured ([panel] port; optional)")
    from companion.events import EventQueue
    from hardware.panel import Panel

    started = time.monotonic()
    with Panel(config.panel, backoff=(0.2, 1.0)).start(EventQueue()) as panel:
        ready = panel.wait_ready(timeout)
        status = panel.status()
    port = config.panel.port
    if ready:
        return Check("panel", "ok", f"board {status.version} on {port} (READY after "
                     f"{time.monotonic() - started:.1f} s)")
    error = status.last_error
    if status.connected or "timeout" in error or "no answer" in error:
        return Check("panel", "FAIL", f"{port} opens but the board never said READY",
                     fix="flash hardware/firmware/companion_panel/companion_panel.ino and check "
                         f"[panel] baudrate ({config.panel.baudrate})")
    if "ermission" in error:
        fix = f"sudo usermod -aG dialout {SERVICE_USER}  (then sudo systemctl restart companion)"
    elif "lock" in error or "busy" in error:
        fix = BUSY_HINT
    else:
        fix = ("plug the board in; its stable name is in: ls -l /dev/serial/by-id/\n"
               "set [panel] port to that path (or a hwgrep:// pattern), or \"\" for no board")
    return Check("panel", "FAIL", f"{port}: {error or 'cannot open'}", fix=fix)


def check_model(config: Config) -> Check:
    from vision.classify import DEFAULT_MODEL, FaceClassifier, ModelError

    path = Path(config.camera.model) if config.camera.model else DEFAULT_MODEL
    if not path.is_file():
        return Check("model", "FAIL", f"{path} does not exist (dice must be entered by hand)",
                     fix="copy dice_faces.tflite and dice_faces.labels.txt from the project's models/ "
                         f"into {path.parent}, or set [camera] model")
    try:
        classifier = FaceClassifier(path)
    except ModelError as exc:
        return Check("model", "FAIL", str(exc),
                     fix="reinstall the model files from the project's models/ (the labels file "
                         "sits beside the .tflite)")
    return Check("model", "ok", f"{path} loads: {len(classifier.labels)} faces, "
                 f"{classifier.input_size}x{classifier.input_size} input")


def check_detector(path: Path | None = None) -> Check:
    """The learned dice detector the camera reads with (vision.model.load_detector): its file and the
    second finder its .json names, if any (issue 14 round 36d), load."""
    from vision.classify import ModelError
    from vision.model import DEFAULT_DETECTOR, load_detector

    path = Path(path) if path is not None else DEFAULT_DETECTOR
    try:
        detector = load_detector(path)
    except (ModelError, OSError, ValueError) as exc:
        return Check("detector", "FAIL", f"{exc} (dice must be entered by hand)",
                     fix="reinstall the project's models/ folder: dice_detector.tflite, its .json and the "
                         "second finder the .json names sit side by side")
    second = getattr(detector, "second", None)
    with_second = f", with its second finder {second.model_path.name} ({second.input_w}x{second.input_h})" \
        if second is not None else ""
    return Check("detector", "ok", f"{path} loads ({detector.input_w}x{detector.input_h}){with_second}")


def check_data_dir(config: Config) -> Check:
    path = config.data_dir
    fix = (f"sudo install -d -o {SERVICE_USER} -g {SERVICE_USER} -m 0750 {path}  "
           "(the service gets /var/lib/companion from StateDirectory=), or set [data] dir")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".doctor-") as probe:
            probe.write(b"ok")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        return Check("data", "FAIL", f"{path} is not writable: {exc.strerror or exc}", fix=fix)
    free_mb = shutil.disk_usage(path).free // 2**20
    if free_mb < 50:
        return Check("data", "warn", f"{path} writable, but only {free_mb} MB free",
                     fix="free some space: the games database must be able to grow")
    return Check("data", "ok", f"{path} writable, {free_mb} MB free")


def check_taught(config: Config) -> Check:
    """How many Centerville faces the camera has been taught, per die colour, and where."""
    from companion.taught_dice import TaughtDice, per_colour

    taught = TaughtDice(config.data_dir)
    if not taught.any():
        return Check("taught", "off", f"no Centerville dice taught yet (they would be kept in "
                     f"{taught.root}): teach the camera at Centerville's set-up, or tap the dice")
    counts = taught.counts()
    colours = per_colour(counts)
    missing = sum(len(faces) for faces in taught.missing().values())
    by_colour = ", ".join(f"{colour} {n}" for colour, n in colours.items())
    message = (f"{len(counts)} Centerville faces taught ({sum(colours.values())} pictures: {by_colour}) "
               f"in {taught.root}")
    from vision.earned import EvidenceError

    try:
        message += f"; the camera {taught.asking().describe()}"
    except (EvidenceError, OSError) as exc:
        return Check("taught", "warn", f"{message}; its checked reads cannot be read: {exc}",
                     fix="the camera asks by the model's own pair meanwhile; move the file aside to "
                         "start its checked reads afresh")
    if missing:
        return Check("taught", "warn", f"{message}; {missing} faces not taught yet",
                     fix="teach the camera (Centerville's set-up, or Camera on its table) until no "
                         "face is missing: the missing ones are always asked")
    return Check("taught", "ok", message)


def check_pip_reads(config: Config) -> Check:
    """Below which confidence the camera asks about pip dice: the reader's own threshold, or the
    looser one this table earned from its checked reads (companion.pip_checks)."""
    from companion.pip_checks import PipChecks
    from vision.earned import EvidenceError

    checks = PipChecks(config.data_dir, config.camera.model)
    try:
        asking = checks.asking()
    except (EvidenceError, OSError, ValueError) as exc:
        return Check("checked", "warn", f"the camera's checked pip reads cannot be read: {exc}",
                     fix="the camera asks by the reader's own threshold meanwhile; move the file aside to "
                         "start its checked reads afresh")
    if not checks.earns:
        return Check("checked", "ok", f"the camera asks about pip dice read below {asking.ask_below:g}, its reader's "
                     f"own threshold (its .json does not let a table earn a looser one); {asking.reads} checked reads "
                     f"kept in {checks.checked.path}")
    return Check("checked", "ok", f"the camera {asking.describe()} ({checks.checked.path})")


def check_photos(config: Config) -> Check:
    """The checked rolls' photos this table keeps ([camera] keep_photos; companion.checked_photos):
    pip rolls and Centerville's icon rolls, each in a folder of its own."""
    from companion.checked_photos import FOLDER, ICON_FOLDER, MOST, CheckedPhotos, PhotosError
    from companion.photos_to_box import FOLDER as TO_BOX
    from companion.photos_to_box import PhotosToBox

    folders = [CheckedPhotos(Path(config.data_dir) / FOLDER), CheckedPhotos(Path(config.data_dir) / ICON_FOLDER,
                                                                            icons=True)]
    counts = []
    for photos in folders:
        try:
            counts.append(photos.count())
        except (PhotosError, OSError) as exc:
            return Check("photos", "warn", f"the checked photos cannot be added to: {exc}",
                         fix="mend the file or move the folder aside: no photo is added meanwhile, and no roll "
                             "is lost")
    kept = "; ".join(f"{n} of at most {MOST} photos in {photos.folder}" for photos, n in zip(folders, counts) if n)
    for photos in folders:
        to_box = PhotosToBox(photos.folder / TO_BOX, photos.icons)
        try:
            waiting = to_box.count()
        except (PhotosError, OSError) as exc:
            return Check("photos", "warn", f"the photos to box cannot be added to: {exc}",
                         fix="mend the file or move the folder aside: no photo is added meanwhile, and no roll "
                             "is lost")
        if waiting:
            what = (f"{waiting} photos of rolls the camera boxed wrongly wait" if waiting > 1
                    else "1 photo of a roll the camera boxed wrongly waits")
            where = f"in {to_box.folder} (Statistics, Are our dice fair?, Photos to box)"
            kept += ("; " if kept else "") + f"{what} {where}"
    if not config.camera.keep_photos:
        return Check("photos", "off", "not kept ([camera] keep_photos = false)" + (f"; {kept}" if kept else ""))
    full = [str(photos.folder) for photos, n in zip(folders, counts) if n >= MOST]
    if full:
        return Check("photos", "warn", f"{kept}: {', '.join(full)} full, no more are added there",
                     fix="move the folder aside (a labelled photo set: bench/table_photos.py reads the pip one)")
    return Check("photos", "ok", kept or f"none kept yet; they go to {folders[0].folder} and {folders[1].folder}")


if __name__ == "__main__":
    import sys

    sys.exit(doctor_main())
