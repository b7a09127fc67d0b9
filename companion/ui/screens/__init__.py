"""One module and one .kv file per screen."""
from pathlib import Path

from kivy.lang import Builder


def load_kv(module_file: str) -> None:
    """Load the .kv file next to a screen's module (once)."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)
