#!/bin/sh
# Install what dtltop needs, on Debian or Ubuntu, if missing.
#   scripts/deps.sh        build: gcc libc6-dev make pkg-config libncurses-dev libcap-dev
#                          libzstd-dev zlib1g-dev,
#                          and linux-source-6.12 (for libperf) unless pkg-config finds libperf
#   scripts/deps.sh check  also: tmux (drives the TUI tests), mandoc (man page lint),
#                          linux-perf (a real perf.data for the import tests),
#                          and for the kernel driver's real-tree build:
#                          linux-source-6.12 gcc-powerpc64le-linux-gnu bc flex bison
#                          libssl-dev libelf-dev sparse
# Runs apt-get as root, or through sudo; does nothing when all are present.
set -e
pkgs="gcc libc6-dev make pkg-config libncurses-dev libcap-dev libzstd-dev zlib1g-dev"
# libperf: no Debian package; it is built from the kernel source package.
pkg-config --exists libperf 2>/dev/null || pkgs="$pkgs linux-source-6.12 xz-utils"
[ "${1:-}" = check ] && pkgs="$pkgs tmux mandoc linux-perf linux-source-6.12 gcc-powerpc64le-linux-gnu bc flex bison libssl-dev libelf-dev sparse"
need=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in $pkgs; do
	have_pkg "$p" || need="$need $p"
done
[ -z "$need" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: missing:$need (no apt-get here; install them by hand)" >&2
	exit 1
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "deps.sh: installing:$need" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
