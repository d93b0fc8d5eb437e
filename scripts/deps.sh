#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what dtltop needs, on Debian or Ubuntu, if missing.
#   scripts/deps.sh        build: gcc libc6-dev make pkg-config libncurses-dev libcap-dev
#                          libzstd-dev zlib1g-dev libmicrohttpd-dev, and unless pkg-config
#                          finds libperf a kernel source to build it from: linux-source-6.12
#                          on Debian, linux-source (its own kernel's) on Ubuntu
#   scripts/deps.sh KIND.. also what each KIND needs (make passes its goals' kinds):
#   scripts/deps.sh check  also: tmux (drives the TUI tests), mandoc (man page lint),
#                          linux-perf (a real perf.data for the import tests),
#                          and for the kernel driver's real-tree build:
#                          linux-source-6.12 gcc-powerpc64le-linux-gnu bc flex bison
#                          libssl-dev libelf-dev sparse,
#                          and for the packages: debhelper dpkg-dev lintian rpm
#                          bash-completion zsh jq, and for the exporter's tests
#                          prometheus (its server and promtool) curl python3, and
#                          python3-pcp python3-requests (PCP's pmdaopenmetrics, under
#                          a pmcd that tests/fleet.sh unpacks from the pcp package: its
#                          postinst would start system services), and
#                          chromium (headless: it draws the --report page), and systemd
#                          (systemd-analyze checks the exporter's unit; its pkg-config
#                          file says where units go)
#   scripts/deps.sh qemu   the QEMU end-to-end test (tests/qemu): the kernel build's
#                          packages, qemu-system-ppc, cpio, the cross C library
#                          (libc6-dev-ppc64el-cross; the ppc64el -dev packages
#                          for a static dtltop are not installed: the build unpacks
#                          them into build/ppc64el/sysroot, scripts/ppc64el-sysroot.sh)
#   scripts/deps.sh interop  all of qemu (upstream perf's libelf is in that sysroot too)
#   scripts/deps.sh fuzz   clang and its sanitizer runtimes (libFuzzer)
#   scripts/deps.sh bare   mmdebstrap (tests/bare.sh: the README's make run in a bare root)
# Runs apt-get as root, or through sudo; does nothing when all are present.
# On Fedora/RHEL (dnf) and SLES (zypper) it installs what building needs
# (the tests' rig is Debian's). DEPS_PM=apt|dnf|zypper picks the manager,
# DEPS_DRY_RUN=1 prints the command instead of running it.
# DEPS_OS_RELEASE, DEPS_ASSUME_MISSING: for tests/deps.sh, below.
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
		libzstd-devel zlib-devel libperf-devel libmicrohttpd-devel libxcrypt-devel
	exit 0 ;;
zypper)
	# SLES has no libperf package: it is built from kernel-source
	run $SUDO zypper --non-interactive install gcc make pkg-config ncurses-devel libcap-devel \
		libzstd-devel zlib-devel kernel-source libmicrohttpd-devel libxcrypt-devel
	exit 0 ;;
esac
# libperf: no Debian or Ubuntu package; it is built from a kernel source package.
# Debian 12 and 13 have linux-source-6.12 (also the tests' tree); Ubuntu has
# its own kernel's as linux-source (a .tar.bz2 under /usr/src/linux-source-*/).
# DEPS_OS_RELEASE reads another os-release (the tests of this choice).
osr=${DEPS_OS_RELEASE:-/etc/os-release}
os_id=$([ -r "$osr" ] && . "$osr"; echo "${ID:-debian} ${ID_LIKE:-}")
case " $os_id " in
*" ubuntu "*) ksrc="linux-source bzip2" ;;
*) ksrc="linux-source-6.12 xz-utils" ;;
esac
[ -n "${DEPS_DRY_RUN:-}" ] && echo "deps.sh: kernel source for libperf on ${os_id%% *}: ${ksrc%% *}" >&2
pkgs="gcc libc6-dev make pkg-config libncurses-dev libcap-dev libzstd-dev zlib1g-dev libmicrohttpd-dev
	libcrypt-dev"
pkg-config --exists libperf 2>/dev/null || pkgs="$pkgs $ksrc"
# Several kinds at once (make check fuzz): each adds its own.
for kind in "$@"; do
	case $kind in
	check)
		pkgs="$pkgs tmux mandoc groff-base linux-perf linux-source-6.12 xz-utils
			gcc-powerpc64le-linux-gnu bc flex bison libssl-dev libelf-dev sparse
			debhelper dpkg-dev lintian rpm bash-completion zsh jq prometheus curl python3
			ca-certificates chromium systemd mmdebstrap python3-pcp python3-requests
			openssl apache2-utils" ;;
	qemu|interop) ;;
	fuzz) pkgs="$pkgs clang libclang-rt-14-dev" ;;
	bare) pkgs="$pkgs mmdebstrap ca-certificates" ;;
	*) echo "deps.sh: unknown kind '$kind' (check, qemu, interop, fuzz, bare)" >&2; exit 2 ;;
	esac
	case $kind in
	check|qemu|interop)
		pkgs="$pkgs linux-source-6.12 xz-utils gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross bc flex bison"
		pkgs="$pkgs libssl-dev libelf-dev qemu-system-ppc cpio" ;;
	esac
done
pkgs=$(printf '%s\n' $pkgs | awk '!seen[$0]++' | tr '\n' ' ')
need=""
# DEPS_ASSUME_MISSING=1 (with DEPS_DRY_RUN): list everything, as on a bare machine
have_pkg() { [ -z "${DEPS_ASSUME_MISSING:-}" ] && dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in $pkgs; do
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
# A mirror mid-sync fails one index of many (seen: bookworm-security's ppc64el
# Packages "File has unexpected size"); apt keeps the old list for it, so go on
# and let the install say whether what is needed was there.
$SUDO apt-get update -qq ||
	echo "deps.sh: apt-get update reported errors (above); installing from the lists apt has" >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
