"""Rendered dice for training, tests and the camera simulator (OpenCV and NumPy only)."""
from .labels import render_label_crop
from .nodie import render_not_a_die_crop
from .scene import DieTruth, Scene, render_die_crop, render_tray
from .roll import Roll, render_roll, render_roll_sequence

__all__ = ["DieTruth", "Scene", "Roll", "render_tray", "render_die_crop", "render_label_crop",
           "render_not_a_die_crop", "render_roll", "render_roll_sequence"]
