#!/bin/sh
# CI checks for the service (needs the Debian package `systemd` for systemd-analyze):
#  1. systemd/install.sh --dry-run runs and changes nothing;
#  2. systemd-analyze security --offline=true rates companion.service at most 2.5;
#  3. systemd-analyze verify is clean (no output at all, exit 0).
# verify checks that ExecStart= exists and is executable, and resolves the unit's dependencies
# against installed units. CI has no /opt/companion, so it runs in a scratch root laid out as
# install.sh lays out the Pi: the unit in /etc/systemd/system, the host's own unit files (for
# multi-user.target, getty@.service, ...), and the project's real console script at the unit's
# ExecStart path. The unit file checked is the repository's, byte for byte.
set -eu
cd "$(dirname "$0")/.."
UNIT=systemd/companion.service
MAX_EXPOSURE=2.5

command -v systemd-analyze >/dev/null || {
    echo "ci-systemd-checks: systemd-analyze is missing: apt-get install -y systemd" >&2; exit 1; }

echo "== install.sh --dry-run"
out=$(bash systemd/install.sh --dry-run) || { echo "$out"; echo "FAIL: install.sh --dry-run exited $?" >&2; exit 1; }
echo "$out" | grep '^+ ' | head -n 100
echo "$out" | grep -q '^+ systemctl enable companion.service' || {
    echo "FAIL: the dry run does not enable the service" >&2; exit 1; }

echo "== systemd-analyze security --offline=true $UNIT (must be <= $MAX_EXPOSURE)"
threshold=$(echo "$MAX_EXPOSURE" | awk '{ printf "%d", $1 * 10 }')
if ! sec=$(systemd-analyze security --offline=true --threshold="$threshold" --no-pager "$UNIT" 2>&1); then
    echo "$sec"; echo "FAIL: exposure above $MAX_EXPOSURE" >&2; exit 1
fi
echo "$sec" | grep 'Overall exposure level'

echo "== systemd-analyze verify $UNIT"
entry=${COMPANION_ENTRY:-.venv/bin/companion}
[ -x "$entry" ] || { echo "FAIL: $entry is missing: run make first (or set COMPANION_ENTRY)" >&2; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
exec_start=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$UNIT")
mkdir -p "$root/etc/systemd/system" "$root/usr/lib/systemd" "$root$(dirname "$exec_start")"
cp -a /usr/lib/systemd/system "$root/usr/lib/systemd/"
install -m 0644 "$UNIT" "$root/etc/systemd/system/companion.service"
install -m 0755 "$entry" "$root$exec_start"
if ! ver=$(systemd-analyze verify --root="$root" --man=no companion.service 2>&1) || [ -n "$ver" ]; then
    echo "$ver" | sed "s|$root||g"
    echo "FAIL: systemd-analyze verify is not clean" >&2; exit 1
fi
echo "clean"
echo "ci-systemd-checks: all passed"
