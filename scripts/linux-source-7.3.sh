#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Fetch Debian's linux-source-7.3 (Linux 7.3.x, suite trixie-backports) into
# build/linux-7.3/ without touching the machine's apt sources: a private
# sources list, lists and cache under that folder. The archive URI is the one
# the machine already uses for Debian. Prints the path of the tarball.
set -eu
cd "$(dirname "$0")/.."
top=$PWD/build/linux-7.3
tarball=$top/linux-source-7.3.tar.xz
[ -f "$tarball" ] && { echo "$tarball"; exit 0; }
die() { echo "linux-source-7.3.sh: $*" >&2; exit 1; }
command -v apt-get >/dev/null || die "apt-get missing (Debian or Ubuntu only)"
# the machine's Debian mirror: deb822 URIs: lines first, then one-line sources
uri=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
	awk '/^URIs:/ && $2 ~ /debian\/?$/ {print $2; exit}
	     /^deb / {for (i = 2; i <= NF; i++) if ($i ~ /^https?:.*debian\/?$/) {print $i; exit}}')
[ -n "$uri" ] || die "no Debian archive URI in /etc/apt/sources.list*"
apt=$top/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
echo "deb $uri trixie-backports main" >"$apt/sources.list"
set -- -o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null \
	-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
	-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User="$(id -un)"
echo "linux-source-7.3.sh: fetching linux-source-7.3 from $uri trixie-backports" >&2
apt-get "$@" update -qq || die "apt-get update of $uri trixie-backports failed"
(cd "$top" && rm -f linux-source-7.3_*.deb && apt-get "$@" download linux-source-7.3 >/dev/null) ||
	die "apt-get download linux-source-7.3 failed"
rm -rf "$top/deb" && dpkg-deb -x "$top"/linux-source-7.3_*.deb "$top/deb"
src=$(ls "$top"/deb/usr/src/linux-source-7.3*.tar.xz 2>/dev/null | head -n1)
[ -n "$src" ] || die "the package holds no /usr/src/linux-source-7.3*.tar.xz"
mv "$src" "$tarball" && rm -rf "$top/deb" "$top"/linux-source-7.3_*.deb
echo "$tarball"
