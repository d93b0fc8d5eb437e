#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bare-check: the README's first command, on a bare Debian 12 (minbase
# with make and git, nothing else) made by mmdebstrap from this machine's
# apt sources: a fresh clone's first `make run`, in a terminal (script(1)),
# installs what it needs, builds, shows the TUI, and q ends it with exit 0;
# the dtltop it built serves --listen. Needs root (chroot, mounts) and the
# network the machine's apt sources name. BARE_KEEP=1 keeps build/bare.
set -u
cd "$(dirname "$0")/.."
top=$PWD
root=$top/build/bare
limit=${BARE_TIMEOUT:-1800}	# the installs, libperf and dtltop, on a slow mirror
die() { echo "bare-check: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap, chroot and mounts)"
command -v mmdebstrap >/dev/null || die "mmdebstrap missing (scripts/deps.sh bare installs it)"

unmount() {
	for m in dev/pts proc sys; do
		mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
	done
}
cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
	unmount
	[ -n "${BARE_KEEP:-}" ] || rm -rf "$root"
}
trap cleanup EXIT
unmount
rm -rf "$root"

# The machine's own sources, whichever form they take; nothing of its packages.
srcs=()
grep -qE '^[[:space:]]*deb ' /etc/apt/sources.list 2>/dev/null && srcs+=(/etc/apt/sources.list)
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -s "$f" ] && srcs+=("$f")
done
[ ${#srcs[@]} -gt 0 ] || die "no apt sources in /etc/apt"
t0=$(date +%s)
# Only the native architecture, as on a fresh machine. (A bare make run once
# added ppc64el itself: deps.sh's empty list of ppc64el packages was " ". Its
# first apt-get update then fetched bookworm-security's ppc64el index, and a
# mirror mid-sync on that one index cost the root every bookworm-security list.)
timeout -k 10 900 mmdebstrap --quiet --mode=root --variant=minbase --include=make,git \
	--architectures="$(dpkg --print-architecture)" bookworm "$root" "${srcs[@]}" || die "mmdebstrap failed"
git clone -q "$top" "$root/root/dtltop" || die "git clone into the bare root failed"
# what the chroot has: a clean clone, and no build of ours
[ ! -e "$root/usr/bin/gcc" ] && [ ! -e "$root/root/dtltop/build" ] || die "the root is not bare"
echo "bare-check: bare root in $(( $(date +%s) - t0 )) s; make run there" >&2
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mkdir -p "$root/dev/pts"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
[ -e "$root/dev/ptmx" ] || ln -s pts/ptmx "$root/dev/ptmx"

fifo=$root/tmp/keys
log=$root/tmp/run.log
mkfifo "$fifo"
t1=$(date +%s)
timeout -k 10 "$limit" chroot "$root" /usr/bin/env -i HOME=/root TERM=xterm LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin COLUMNS=100 LINES=30 \
	script -qefc "cd /root/dtltop && make run" /tmp/run.log <"$fifo" >/dev/null 2>&1 &
pid=$!
exec 3>"$fifo"
# the TUI's column headings, after the installs and the build
while kill -0 "$pid" 2>/dev/null && ! grep -q 'DISP/s' "$log" 2>/dev/null; do sleep 2; done
grep -q 'DISP/s' "$log" 2>/dev/null || { tail -c 3000 "$log" 2>/dev/null | tr -d '\033' >&2
	die "make run ended without showing the TUI"; }
built=$(( $(date +%s) - t1 ))
sleep 3		# an interval or two on screen
printf q >&3
for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
kill -0 "$pid" 2>/dev/null && die "q did not end dtltop in 30 s"
wait "$pid"; rc=$?
pid=
[ "$rc" -eq 0 ] || { tail -c 2000 "$log" | tr -d '\033' >&2; die "make run exited $rc"; }
grep -q 'steal' "$log" || die "the TUI never showed a figure"
# what make run installed, it installed for amd64 alone: no foreign architecture
[ -z "$(chroot "$root" dpkg --print-foreign-architectures)" ] ||
	die "make run added a foreign architecture: $(chroot "$root" dpkg --print-foreign-architectures | tr '\n' ' ')"
# a first build has everything: the exporter too
chroot "$root" /root/dtltop/dtltop --help 2>&1 | grep -q -- '--listen' ||
	die "the first make run built a dtltop without --listen"
echo "bare-check: make run on a bare Debian 12: TUI after $built s (installs and build), q: exit 0; --listen built" >&2
