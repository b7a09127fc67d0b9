"""The issue-17 before/after pictures: the same table states on the real window, saved as
docs/audit/<name>-<tag>.png (run under a display, in the tree to picture):

    tools/with-display .venv/bin/python tests/ui/audit_shots.py after [OUT_DIR]

Driven by table events (the same in older trees), not by the screen's newer buttons."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kivy_driver import Driver  # noqa: E402


def shot(drv, out: Path, name: str, tag: str) -> None:
    made = drv.screenshot(f"shot-{name}")
    out.mkdir(parents=True, exist_ok=True)
    os.replace(made, out / f"{name}-{tag}.png")


def send(drv, *events) -> None:
    from companion.events import InputEvent

    for kind, value in events:
        drv.table.post(InputEvent(kind, value, "touch"))
        drv.frames(2)


def _camera_shot(drv, out: Path, at: str, tag: str) -> None:
    """The dice camera beside the dice: the simulated tray, the real model."""
    from companion.dice_camera import DiceCamera
    from companion.peripherals import attach
    from hardware.config import parse_config

    drv.app.start_game("rolling-village", ["Ana", "Ben"])
    drv.frames(3)
    camera = DiceCamera("sim:?seed=21", drv.table.post)
    with attach(drv.table, parse_config({"gpio": {"enabled": False}}), camera=camera):
        for _ in range(600):
            if drv.table.camera_status == "connected" and drv.screen.ids.tray.frame_index >= 0:
                break
            drv.frames(1)
        drv.frames(3)
        shot(drv, out, f"village-camera-{at}", tag)
    drv.frames(2)
    drv.app.go_home()


def main(tag: str, out: Path) -> None:
    from companion.table.rolling_village import RollingVillageInput as RV

    drv = Driver(Path(tempfile.mkdtemp()))
    for size in ((800, 480), (1280, 720)):
        at = f"{size[0]}x{size[1]}"
        drv.resize(*size)
        drv.app.start_game("rolling-village", ["Ana", "Ben"])
        drv.frames(3)
        send(drv, ("tap", ("die", 2)), ("tap", ("die", 4)), ("tap", ("confirm",)))
        table = drv.table
        player = table.draft.player
        row, street = RV.legal_squares(table.state, player, table.draft.project)[0]
        import time

        from companion.table.rolling_village import advise_rolling_village

        def slow(*args):  # the advisor held 5 s: longer than the frames the pictures take here
            time.sleep(5.0)
            return advise_rolling_village(*args)

        table.advisor = slow
        send(drv, ("tap", ("square", player, row, street)))  # the advisor starts on the sheet in front
        shot(drv, out, f"village-after-a-build-{at}", tag)
        send(drv, ("tap", ("advise",)))
        shot(drv, out, f"village-advise-tapped-{at}", tag)  # Thinking... (or, before, the advice after a frozen wait)
        for _ in range(400):  # the advice, on the app's worker (or at once, in older trees)
            if table.advice is not None:
                break
            drv.frames(1)
        drv.frames(2)
        shot(drv, out, f"village-advice-{at}", tag)
        table.advisor = None
        drv.app.go_home()
        _camera_shot(drv, out, at, tag)
        drv.app.start_game("civility", ["Ana", "Ben"])
        drv.frames(3)
        # The Status cards turned over, then the Diplomat's roll: each action's banner.
        for _ in range(3):
            if drv.table.session.prompt.kind != "reveal-status":
                break
            send(drv, ("tap", ("item", drv.table.game_input.items(drv.table)[0].label)))
        for value in (3, 5, 2, 6, 4, 1):
            if drv.table.session.prompt.kind != "roll":
                break
            send(drv, ("tap", ("die", value)), ("tap", ("confirm",)))
        send(drv, ("tap", ("item", "Draw a card")))
        shot(drv, out, f"civility-after-an-action-{at}", tag)
        drv.app.go_home()
        drv.app.go_setup(["Ana", "Ben", "Cy"])
        drv.frames(3)
        from kivy.config import Config

        Config.set("kivy", "keyboard_mode", "systemanddock")  # as on the touchscreen
        setup = drv.app.screens.get_screen("setup")
        setup.fields[-1].focus = True
        drv.frames(3)
        from kivy.uix.vkeyboard import VKeyboard

        keyboard = VKeyboard()  # drawn where Kivy docks it, for the picture (no keyboard here)
        keyboard.scale = drv.window.width / keyboard.width
        keyboard.do_translation = keyboard.do_rotation = keyboard.do_scale = False
        drv.window.add_widget(keyboard)
        keyboard.pos = (0, 0)
        drv.frames(3)
        shot(drv, out, f"setup-typing-the-last-name-{at}", tag)
        drv.window.remove_widget(keyboard)
        setup.fields[-1].focus = False
        Config.set("kivy", "keyboard_mode", "system")
        drv.frames(2)
        drv.app.go_home()
    drv.close()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parents[2] / "docs" / "audit")
