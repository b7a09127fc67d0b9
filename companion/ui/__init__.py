"""The touchscreen app (Kivy). Start it with `companion run` (see app.run).

Importing this package does not import Kivy: `app.run` sets Kivy's environment first.
"""
