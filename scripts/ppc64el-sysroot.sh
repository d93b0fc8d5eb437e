#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# scripts/ppc64el-sysroot.sh DIR PKG...: Debian's ppc64el packages PKG and
# what they depend on, unpacked into DIR, with a private apt (ppc64el only;
# sources, lists, cache and an empty dpkg status under build/ppc64el/apt) that
# leaves the machine's dpkg and sources alone. Prints DIR.
#
# Why not multiarch (dpkg --add-architecture ppc64el): a multiarch -dev package
# must match the machine's own version exactly, and a mirror mid-sync on one
# index (bookworm-security's ppc64el Packages, for days in December 2026) leaves
# none that match, so the whole install fails. A sysroot needs only a set that
# agrees with itself, and the release's main has one.
#
# The cross compiler's own C library is kept: libc6, its headers and the
# kernel's are not unpacked, so DIR holds only what the toolchain lacks.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR PKG..." >&2; exit 2; }
cd "$(dirname "$0")/.."
dir=$1; shift
die() { echo "ppc64el-sysroot.sh: $*" >&2; exit 1; }
command -v apt-get >/dev/null || die "apt-get missing (Debian or Ubuntu only)"
apt=$PWD/build/ppc64el/apt
codename=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || die "no VERSION_CODENAME in /etc/os-release"
# the machine's Debian mirrors: deb822 URIs: lines, then one-line sources
uris=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
	awk '/^URIs:/ {for (i = 2; i <= NF; i++) print $i}
	     /^deb / {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) print $i}' |
	grep -E '/debian(-security)?/?$' | sort -u)
[ -n "$uris" ] || die "no Debian archive URI in /etc/apt/sources.list*"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/state"
: >"$apt/status"
key=/usr/share/keyrings/debian-archive-keyring.gpg
opt="arch=ppc64el"
[ -f "$key" ] && opt="$opt signed-by=$key"
for u in $uris; do
	case $u in
	*-security|*-security/) echo "deb [$opt] $u $codename-security main" ;;
	*) echo "deb [$opt] $u $codename main"; echo "deb [$opt] $u $codename-updates main" ;;
	esac
done >"$apt/sources.list"
pkgs="$*"
set -- -o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null \
	-o Dir::State="$apt/state" -o Dir::State::Lists="$apt/lists" \
	-o Dir::State::status="$apt/status" -o Dir::Cache="$apt/cache" \
	-o APT::Architecture=ppc64el -o APT::Architectures=ppc64el \
	-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=1
echo "ppc64el-sysroot.sh: fetching $pkgs (ppc64el) into $dir" >&2
# An index that fails (a mirror mid-sync) is left out; the download below says
# whether what is needed was in the rest.
apt-get "$@" update -qq 2>"$apt/update.log" ||
	echo "ppc64el-sysroot.sh: apt-get update reported errors ($apt/update.log); going on with the lists it has" >&2
rm -f "$apt"/cache/archives/*.deb
# shellcheck disable=SC2086 # a list of package names
apt-get "$@" install -y -qq --download-only --no-install-recommends $pkgs >"$apt/install.log" 2>&1 ||
	{ tail -n 5 "$apt/install.log" >&2; die "apt-get could not fetch $pkgs for ppc64el (log: $apt/install.log)"; }
rm -rf "$dir.new" && mkdir -p "$dir.new"
n=0
for deb in "$apt"/cache/archives/*.deb; do
	[ -f "$deb" ] || continue
	case ${deb##*/} in
	libc6_*|libc6-dev_*|linux-libc-dev_*|libgcc*|libcrypt*|libnsl*|libtirpc*|rpcsvc-proto_*|gcc-*-base_*)
		continue ;;
	esac
	dpkg-deb -x "$deb" "$dir.new" || die "dpkg-deb -x ${deb##*/} failed"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no package was fetched"
rm -rf "$dir" && mv "$dir.new" "$dir"
echo "$dir"
