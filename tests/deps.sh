#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/deps.sh picks, per distribution, a kernel source package that it has
# (libperf is built from it), and a kind it does not know is an error.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# choice OS-RELEASE-LINES: the package deps.sh's dry run names for libperf
choice() {
	printf '%s\n' "$@" >"$tmp/os-release"
	DEPS_OS_RELEASE=$tmp/os-release DEPS_PM=apt DEPS_DRY_RUN=1 timeout -k 5 30 scripts/deps.sh \
		2>&1 >/dev/null | sed -n 's/^deps.sh: kernel source for libperf on [a-z]*: //p'
}
[ "$(choice ID=debian VERSION_ID='"12"')" = linux-source-6.12 ] && ok || fail "Debian 12: $(choice ID=debian VERSION_ID='"12"')"
[ "$(choice ID=debian VERSION_ID='"13"')" = linux-source-6.12 ] && ok || fail "Debian 13"
[ "$(choice ID=ubuntu VERSION_ID='"22.04"')" = linux-source ] && ok || fail "Ubuntu 22.04: $(choice ID=ubuntu)"
[ "$(choice ID=ubuntu VERSION_ID='"24.04"')" = linux-source ] && ok || fail "Ubuntu 24.04"
# a derivative says what it is like
[ "$(choice ID=linuxmint ID_LIKE='"ubuntu debian"')" = linux-source ] && ok || fail "Mint (like Ubuntu)"
# no os-release at all: Debian's
[ "$(DEPS_OS_RELEASE=$tmp/none DEPS_PM=apt DEPS_DRY_RUN=1 scripts/deps.sh 2>&1 >/dev/null |
	sed -n 's/^deps.sh: kernel source for libperf on [a-z]*: //p')" = linux-source-6.12 ] && ok ||
	fail "no os-release"
# the Makefile finds what each installs: Debian's tarball and Ubuntu's directory
grep -q '/usr/src/linux-source-\*\.tar\.xz' Makefile && grep -q '/usr/src/linux-source-\*/linux-source-\*\.tar\.bz2' Makefile &&
	ok || fail "Makefile's LINUX_SRC does not look where the packages put the source"
# Fedora and RHEL have libperf-devel; SLES builds it from kernel-source
out=$(DEPS_PM=dnf DEPS_DRY_RUN=1 scripts/deps.sh 2>&1)
grep -q 'libperf-devel' <<<"$out" && ok || fail "dnf: $out"
out=$(DEPS_PM=zypper DEPS_DRY_RUN=1 scripts/deps.sh 2>&1)
grep -q 'kernel-source' <<<"$out" && ok || fail "zypper: $out"
# an unknown kind is named, exit 2
out=$(DEPS_PM=apt DEPS_DRY_RUN=1 scripts/deps.sh chek 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "unknown kind 'chek'" <<<"$out" && ok || fail "unknown kind: rc $rc: $out"
# kinds add up: check and fuzz at once
out=$(DEPS_PM=apt DEPS_DRY_RUN=1 DEPS_ASSUME_MISSING=1 scripts/deps.sh check fuzz 2>&1)
grep -q ' tmux' <<<"$out" && grep -q ' clang' <<<"$out" && grep -q ' qemu-system-ppc' <<<"$out" &&
	! grep -q ':ppc64el' <<<"$out" &&
	ok || fail "check fuzz: $out"
finish
