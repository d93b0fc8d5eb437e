#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what dtltop needs, on Debian or Ubuntu, if missing.
#   scripts/deps.sh        build: gcc libc6-dev make pkg-config libncurses-dev libcap-dev
#                          libzstd-dev zlib1g-dev libmicrohttpd-dev,
#                          and linux-source-6.12 (for libperf) unless pkg-config finds libperf
#   scripts/deps.sh check  also: tmux (drives the TUI tests), mandoc (man page lint),
#                          linux-perf (a real perf.data for the import tests),
#                          and for the kernel driver's real-tree build:
#                          linux-source-6.12 gcc-powerpc64le-linux-gnu bc flex bison
#                          libssl-dev libelf-dev sparse,
#                          and for the packages: debhelper dpkg-dev lintian rpm
#                          bash-completion zsh jq, and for the exporter's tests
#                          prometheus (its server and promtool) curl python3, and
#                          chromium (headless: it draws the --report page), and systemd
#                          (systemd-analyze checks the exporter's unit; its pkg-config
#                          file says where units go)
#   scripts/deps.sh qemu   the QEMU end-to-end test (tests/qemu): the kernel build's
#                          packages, qemu-system-ppc, cpio, and through multiarch
#                          (dpkg --add-architecture ppc64el) the ppc64el -dev packages
#                          of ncurses, libcap, zstd and zlib for a static dtltop
#   scripts/deps.sh interop  all of qemu, and for a static upstream perf: libelf-dev:ppc64el
# Runs apt-get as root, or through sudo; does nothing when all are present.
# On Fedora/RHEL (dnf) and SLES (zypper) it installs what building needs
# (the tests' rig is Debian's). DEPS_PM=apt|dnf|zypper picks the manager,
# DEPS_DRY_RUN=1 prints the command instead of running it.
set -e
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
pm=${DEPS_PM:-}
if [ -z "$pm" ]; then
	if command -v apt-get >/dev/null 2>&1; then pm=apt
	elif command -v dnf >/dev/null 2>&1; then pm=dnf
	elif command -v zypper >/dev/null 2>&1; then pm=zypper
	fi
fi
run() {
	if [ -n "${DEPS_DRY_RUN:-}" ]; then echo "$*"; else "$@"; fi
}
case $pm in
dnf)
	# Fedora and RHEL ship libperf: no kernel source needed
	run $SUDO dnf install -y gcc make pkgconf-pkg-config ncurses-devel libcap-devel \
		libzstd-devel zlib-devel libperf-devel libmicrohttpd-devel
	exit 0 ;;
zypper)
	# SLES has no libperf package: it is built from kernel-source
	run $SUDO zypper --non-interactive install gcc make pkg-config ncurses-devel libcap-devel \
		libzstd-devel zlib-devel kernel-source libmicrohttpd-devel
	exit 0 ;;
esac
pkgs="gcc libc6-dev make pkg-config libncurses-dev libcap-dev libzstd-dev zlib1g-dev libmicrohttpd-dev"
# libperf: no Debian package; it is built from the kernel source package.
pkg-config --exists libperf 2>/dev/null || pkgs="$pkgs linux-source-6.12 xz-utils"
[ "${1:-}" = check ] && pkgs="$pkgs tmux mandoc linux-perf linux-source-6.12 gcc-powerpc64le-linux-gnu bc flex bison libssl-dev libelf-dev sparse
	debhelper dpkg-dev lintian rpm bash-completion zsh jq prometheus curl python3 chromium systemd"
ppc=""
if [ "${1:-}" = check ] || [ "${1:-}" = qemu ] || [ "${1:-}" = interop ]; then
	pkgs="$pkgs linux-source-6.12 gcc-powerpc64le-linux-gnu bc flex bison libssl-dev libelf-dev"
	pkgs="$pkgs qemu-system-ppc cpio"
	ppc="libncurses-dev:ppc64el libcap-dev:ppc64el libzstd-dev:ppc64el zlib1g-dev:ppc64el"
fi
[ "${1:-}" = interop ] && ppc="$ppc libelf-dev:ppc64el" && pkgs="$pkgs flex bison"
need=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in $pkgs $ppc; do
	have_pkg "$p" || need="$need $p"
done
[ -z "$need" ] && exit 0
if [ "$pm" != apt ]; then
	echo "deps.sh: missing:$need (no apt-get, dnf or zypper here; install them by hand)" >&2
	exit 1
fi
echo "deps.sh: installing:$need" >&2
if [ -n "${DEPS_DRY_RUN:-}" ]; then
	echo "apt-get install -y --no-install-recommends$need"
	exit 0
fi
# ppc64el packages (and busybox-static:ppc64el, which tests/qemu fetches) need the architecture
[ -n "$ppc" ] && ! dpkg --print-foreign-architectures | grep -qx ppc64el &&
	$SUDO dpkg --add-architecture ppc64el
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
