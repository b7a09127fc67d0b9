#!/bin/bash
# Install the Tabletop Companion as a kiosk service on Raspberry Pi OS (Bookworm or later).
#
#   sudo systemd/install.sh            install or update (safe to run again: every step checks first)
#   systemd/install.sh --dry-run       print every step, change nothing (no root needed)
#   sudo systemd/install.sh --no-start install and enable, but do not (re)start now
#
# Steps: apt packages; the `companion` user in exactly the device groups; the code in
# /opt/companion with a venv that sees the system's site packages (picamera2 and libcamera come
# from apt); /etc/companion/config.toml (kept if it exists); the unit; boot to console; enable
# and start. See docs/raspberry-pi.md.
set -euo pipefail

PREFIX=/opt/companion
VENV=$PREFIX/.venv
CONFIG_DIR=/etc/companion
UNIT_DIR=/etc/systemd/system
SERVICE_USER=companion
STATE_DIR=/var/lib/companion
# Keep in step with SupplementaryGroups= in companion.service (a test checks they agree).
DEVICE_GROUPS="video render input gpio dialout"
APT_PACKAGES="python3 python3-venv python3-pip python3-picamera2 python3-libcamera python3-lgpio \
libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0 libmtdev1 libgles2 libegl1 \
libgl1 libgbm1 libdrm2"
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

DRY_RUN=0
START=1
for arg in "$@"; do
    case $arg in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
    esac
done

step() { echo; echo "== $*"; }
# Every change goes through run: printed always, executed unless --dry-run.
run() {
    echo "+ $*"
    if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}
skip() { echo "  (already done: $*)"; }

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo $0), or with --dry-run to see the steps" >&2
    exit 1
fi
for f in pyproject.toml systemd/companion.service systemd/config.toml; do
    if [ ! -f "$SOURCE/$f" ]; then
        echo "install.sh: $SOURCE/$f is missing: run this from a checkout of the project" >&2
        exit 1
    fi
done
if [ ! -f /etc/rpi-issue ]; then
    echo "note: this does not look like Raspberry Pi OS (/etc/rpi-issue is missing); going on anyway"
fi
[ "$DRY_RUN" = 1 ] && echo "dry run: printing the steps, changing nothing"

step "1. apt packages"
missing=""
for p in $APT_PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    run apt-get update
    # shellcheck disable=SC2086
    run apt-get install -y --no-install-recommends $missing
else
    skip "all apt packages installed"
fi

step "2. the $SERVICE_USER user and its device groups"
for g in $DEVICE_GROUPS; do
    if ! getent group "$g" >/dev/null; then
        # gpio comes with Raspberry Pi OS's udev rules; elsewhere make it so the unit still starts.
        run groupadd --system "$g"
    fi
done
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin \
        --user-group --groups "${DEVICE_GROUPS// /,}" "$SERVICE_USER"
else
    have=" $(id -nG "$SERVICE_USER") "
    for g in $DEVICE_GROUPS; do
        case $have in *" $g "*) ;; *) run usermod -a -G "$g" "$SERVICE_USER" ;; esac
    done
    skip "user $SERVICE_USER exists"
fi

step "3. the code in $PREFIX and its venv"
CODE="pyproject.toml README.md companion vision hardware models docs systemd"
if [ "$SOURCE" != "$PREFIX" ]; then
    run install -d -m 0755 "$PREFIX"
    for item in $CODE; do
        # Replace, not merge: a module removed upstream must not linger in /opt.
        run rm -rf "${PREFIX:?}/$item"
        run cp -a "$SOURCE/$item" "$PREFIX/$item"
    done
else
    skip "running from $PREFIX itself: the code is in place"
fi
if [ ! -x "$VENV/bin/python" ]; then
    run python3 -m venv --system-site-packages "$VENV"
else
    skip "venv $VENV exists"
fi
run "$VENV/bin/python" -m pip install --quiet --upgrade pip
# Editable: the code runs from $PREFIX, beside models/ where the dice reader finds its model.
run "$VENV/bin/python" -m pip install --quiet --editable "$PREFIX"
# The service cannot write under /opt (ProtectSystem=strict): compile the bytecode now.
run "$VENV/bin/python" -m compileall -q "$PREFIX/companion" "$PREFIX/vision" "$PREFIX/hardware"

step "4. the config"
run install -d -m 0755 "$CONFIG_DIR"
if [ ! -f "$CONFIG_DIR/config.toml" ]; then
    run install -m 0644 "$SOURCE/systemd/config.toml" "$CONFIG_DIR/config.toml"
else
    skip "$CONFIG_DIR/config.toml exists (kept; the shipped one is $PREFIX/systemd/config.toml)"
fi

step "5. the unit"
run install -m 0644 "$SOURCE/systemd/companion.service" "$UNIT_DIR/companion.service"
run systemctl daemon-reload

step "6. kiosk: boot to the console, KMS display driver"
if [ "$(systemctl get-default 2>/dev/null || echo unknown)" != multi-user.target ]; then
    run systemctl set-default multi-user.target
else
    skip "boots to the console"
fi
BOOT_CONFIG=/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=/boot/config.txt
if [ -f "$BOOT_CONFIG" ] && ! grep -Eq '^dtoverlay=vc4-kms-v3d' "$BOOT_CONFIG"; then
    echo "warning: $BOOT_CONFIG has no dtoverlay=vc4-kms-v3d line: the app needs the KMS driver."
    echo "         Add it under [all] and reboot (docs/raspberry-pi.md, 'Display')."
fi

step "7. enable and start"
run systemctl enable companion.service
if [ "$START" = 1 ]; then
    run systemctl restart companion.service
    echo "check it with: systemctl status companion; journalctl -u companion -f; $VENV/bin/companion doctor"
else
    skip "not starting (--no-start); start with: systemctl start companion"
fi
echo
echo "done."
