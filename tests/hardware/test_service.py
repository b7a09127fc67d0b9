"""The systemd unit and its installer agree, the dry run changes nothing, and the CI checks pass."""
from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "companion.service"
INSTALL = ROOT / "systemd" / "install.sh"


def unit_values(key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in UNIT.read_text().splitlines() if line.startswith(key + "=")]


def install_var(name: str) -> str:
    match = re.search(rf'^{name}="?([^"\n]*)"?$', INSTALL.read_text(), re.M)
    assert match, f"install.sh sets no {name}"
    return match.group(1)


def test_unit_is_a_notify_service_with_a_watchdog():
    assert unit_values("Type") == ["notify"]
    assert unit_values("Restart") == ["on-failure"]
    assert int(unit_values("WatchdogSec")[0]) >= 10
    assert unit_values("User") == ["companion"]
    assert unit_values("StateDirectory") == ["companion"]
    env = dict(v.split("=", 1) for v in unit_values("Environment"))
    assert env["KIVY_WINDOW"] == "sdl2" and env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert "KIVY_BCM_DISPMANX_ID" not in env


def test_unit_and_installer_agree():
    venv = install_var("VENV").replace("$PREFIX", install_var("PREFIX"))
    assert unit_values("ExecStart") == [f"{venv}/bin/companion run --fullscreen"]
    assert unit_values("SupplementaryGroups")[0].split() == install_var("DEVICE_GROUPS").split()
    assert install_var("SERVICE_USER") == unit_values("User")[0]
    assert install_var("STATE_DIR") == "/var/lib/" + unit_values("StateDirectory")[0]
    env = dict(v.split("=", 1) for v in unit_values("Environment"))
    assert env["COMPANION_CONFIG"] == install_var("CONFIG_DIR") + "/config.toml"
    assert env["COMPANION_DATA_DIR"] == install_var("STATE_DIR")


def test_unit_parses_as_an_ini_file():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string(UNIT.read_text())
    assert {"Unit", "Service", "Install"} <= set(parser.sections())


def test_dry_run_prints_every_step_and_changes_nothing():
    watched = [Path("/opt/companion"), Path("/etc/companion"), Path("/etc/systemd/system/companion.service")]
    before = [p.exists() for p in watched]
    result = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    steps = [line for line in result.stdout.splitlines() if line.startswith("== ")]
    assert len(steps) == 7
    commands = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert "systemctl enable companion.service" in commands
    assert any(c.startswith("install -m 0644") and c.endswith("/etc/systemd/system/companion.service")
               for c in commands)
    assert any("venv --system-site-packages /opt/companion/.venv" in c for c in commands) or \
        Path("/opt/companion/.venv/bin/python").exists()
    assert [p.exists() for p in watched] == before


def test_installer_refuses_unknown_options():
    result = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "unknown option --frobnicate" in result.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is missing: apt-get install -y systemd")
def test_ci_systemd_checks_pass():
    result = subprocess.run([str(ROOT / "tools" / "ci-systemd-checks.sh")], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    exposure = re.search(r"Overall exposure level for companion.service: ([0-9.]+)", result.stdout)
    assert exposure and float(exposure.group(1)) <= 2.5
