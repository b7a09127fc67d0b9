"""Kivy reads its environment at import: no argument parsing, no console log spam in tests."""
import os
import sys
from pathlib import Path

os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
# The helpers beside the tests (kivy_driver, layout_check) import the same way whether or not
# tests/ is a package, and from the e2e probe script.
sys.path.insert(0, str(Path(__file__).resolve().parent))


import pytest  # noqa: E402


@pytest.fixture(scope="module")
def drv(tmp_path_factory):
    """One app on a real window per test module (several Kivy apps in one module are fragile)."""
    from kivy_driver import Driver

    driver = Driver(tmp_path_factory.mktemp("data"))
    yield driver
    driver.close()
