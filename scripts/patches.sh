#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The driver's fixes as a patch series for upstream Linux (kernel/upstream/).
#   scripts/patches.sh write   make patches: applies kernel/upstream/*.patch with
#                              git am to 7.3's own arch/powerpc/perf/vpa-dtl.c, checks
#                              the end is kernel/vpa-dtl.c byte for byte, and writes
#                              build/patches/ (git format-patch, cover letter from
#                              kernel/upstream/cover-letter.txt)
#   scripts/patches.sh check   make patches-check: also builds every step in the
#                              7.3 tree for ppc64le with W=1 (any warning fails) and
#                              runs checkpatch.pl --strict on every patch
#   scripts/patches.sh boot    make patches-boot: boots every step in the QEMU rig and
#                              records with upstream perf 7.3 (a first run builds perf and two kernels, about 17 minutes; then about a minute a step)
#   scripts/patches.sh send    make patches-send: the series as the sender mails it,
#                              refused while its From: or Signed-off-by is a placeholder
#                              (the project's identity, an example.org address); prints
#                              the git send-email command, and runs it with SEND=yes
# Signed-off-by: none is invented. The patches carry the project's author line
# and no sign-off (checkpatch is told to expect none) unless SIGNOFF=1: then
# each patch's author becomes you, as git config user.name/user.email say, and
# gets your Signed-off-by, as "git commit -s" would. Only the sender may sign.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-write}
top=$PWD
# where the series must end (tests/kernel/series.sh points it elsewhere)
driver=${PATCHES_DRIVER:-kernel/vpa-dtl.c}
series=${PATCHES_SERIES:-$top/kernel/upstream}
out=$top/build/patches
git_dir=$top/build/patches-git
die() { echo "patches.sh: $*" >&2; exit 1; }

tarball=$(scripts/linux-source-7.3.sh) || die "no linux-source-7.3"
# the scratch repository: 7.3's file as the base commit, dated and authored
# the same on every run, so the series' hashes do not depend on the clock
rm -rf "$git_dir" && mkdir -p "$git_dir/x"
tar xf "$tarball" -C "$git_dir/x" --wildcards '*/arch/powerpc/perf/vpa-dtl.c' ||
	die "$tarball has no arch/powerpc/perf/vpa-dtl.c"
mkdir -p "$git_dir/arch/powerpc/perf"
mv "$git_dir"/x/*/arch/powerpc/perf/vpa-dtl.c "$git_dir/arch/powerpc/perf/" && rm -rf "$git_dir/x"
export GIT_AUTHOR_NAME="Linux 7.3.4" GIT_AUTHOR_EMAIL="linux@localhost" \
	GIT_COMMITTER_NAME="dtltop developers" GIT_COMMITTER_EMAIL="dtltop@lists.example.org" \
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
g() { git -C "$git_dir" -c core.autocrlf=false -c advice.detachedHead=false "$@"; }
g init -q
g add -A && g commit -q -m "Linux 7.3.4: arch/powerpc/perf/vpa-dtl.c"
base=$(g rev-parse HEAD)
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
g am -q "$series"/0*.patch || die "the series does not apply to 7.3's vpa-dtl.c (git am)"
n=$(g rev-list --count "$base"..HEAD)
cmp -s "$git_dir/arch/powerpc/perf/vpa-dtl.c" "$driver" ||
	die "the series ends at a file that differs from $driver:
$(diff -u "$git_dir/arch/powerpc/perf/vpa-dtl.c" "$driver" | head -40)"

# the sender's identity, only when asked for (SIGNOFF=1)
signed=0
if [ "${SIGNOFF:-0}" = 1 ]; then
	me_name=$(cd / && git config user.name || true)
	me_mail=$(cd / && git config user.email || true)
	[ -n "$me_name" ] && [ -n "$me_mail" ] || die "SIGNOFF=1: git config user.name and user.email first"
	GIT_COMMITTER_NAME="$me_name" GIT_COMMITTER_EMAIL="$me_mail" \
		g -c user.name="$me_name" -c user.email="$me_mail" rebase -q \
		--exec 'git commit -q --amend --no-edit --reset-author --signoff' "$base" >/dev/null 2>&1 ||
		die "SIGNOFF=1: signing the series failed"
	signed=1
fi
rm -rf "$out" && mkdir -p "$out"
# the cover letter's From: is the committer: the sender when signed
[ $signed = 1 ] && export GIT_COMMITTER_NAME="$me_name" GIT_COMMITTER_EMAIL="$me_mail"
g format-patch -q --cover-letter --zero-commit --no-signature -o "$out" "$base"..HEAD
cover=$(ls "$out"/0000-cover-letter.patch)
python3 - "$cover" "$series/cover-letter.txt" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, _, blurb = text.partition("\n\n")
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", subject.strip()).replace("*** BLURB HERE ***", blurb.strip())
open(cover, "w").write(s)
PY
grep -q '\*\*\*' "$cover" && die "the cover letter kept a placeholder"
echo "patches.sh: build/patches/: a cover letter and $n patches; applied to 7.3's vpa-dtl.c they give $driver byte for byte"
if [ $signed = 1 ]; then
	echo "patches.sh: authored and signed off as $me_name <$me_mail>"
else
	echo "patches.sh: no Signed-off-by: the sender adds theirs with make patches SIGNOFF=1 (git's user.name and user.email)"
fi
[ "$mode" = write ] && exit 0
if [ "$mode" = send ]; then
	# only a person may send: their name and address, on every patch, signed
	placeholder() {
		grep -Eiq '@(lists\.)?example\.(org|com|net)>?$|@localhost>?$|\.(test|invalid|example)>?$|^your name' <<<"$1"
	}
	[ $signed = 1 ] || die "send: From: and Signed-off-by are the placeholder 'dtltop developers <dtltop@lists.example.org>': make patches-send SIGNOFF=1 with your git user.name and user.email"
	placeholder "$me_name" || placeholder "$me_mail" &&
		die "send: '$me_name <$me_mail>' is a placeholder, not a sender: set git config user.name and user.email"
	for p in "$out"/0*.patch; do
		grep -q "^From: $me_name <$me_mail>$" "$p" && { [[ $p == *cover-letter* ]] ||
			grep -q "^Signed-off-by: $me_name <$me_mail>$" "$p"; } ||
			die "send: $(basename "$p") is not from and signed off by $me_name <$me_mail>"
	done
	cmd=(git send-email --to=linuxppc-dev@lists.ozlabs.org --cc=linux-kernel@vger.kernel.org
		--cc=maddy@linux.ibm.com --cc=mpe@ellerman.id.au --cc=kjain@linux.ibm.com
		--cc=linux-perf-users@vger.kernel.org "$out"/0*.patch)
	if [ "${SEND:-}" = yes ]; then
		"${cmd[@]}"
	else
		echo "patches.sh: would run (SEND=yes runs it): ${cmd[*]}"
	fi
	exit 0
fi
if [ "$mode" = boot ]; then
	# each step booted in the QEMU rig with upstream perf 7.3 (tests/interop, the
	# count and AUX-full scenarios of make upstream-compare): long, not in make check
	steps=$top/build/patches-steps
	rm -rf "$steps" && mkdir -p "$steps"
	sum=$out/boot.md
	echo "# Each step of the series booted in the QEMU rig (make patches-boot, $(date -u +%F))" >"$sum"
	i=0
	for c in $(g rev-list --reverse "$base"..HEAD); do
		i=$((i + 1))
		k=$(printf '%02d' $i)
		g show "$c:arch/powerpc/perf/vpa-dtl.c" >"$steps/$k.c"
		echo "patches.sh: booting step $k/$n: $(g log -1 --format=%s "$c")" >&2
		INTEROP_DRIVER="$steps/$k.c" INTEROP_NAME="step-$k" tests/interop/run.sh >"$steps/$k.log" 2>&1 ||
			die "step $k did not boot or record: $(tail -3 "$steps/$k.log")"
		{ echo; echo "## $k: $(g log -1 --format=%s "$c")"; echo
		  grep -v '^interop: booting' "$steps/$k.log"; } >>"$sum"
	done
	echo "patches.sh: every step booted and recorded: $sum"
	exit 0
fi
[ "$mode" = check ] || die "mode '$mode': write, check, send or boot"

# every step builds: the 7.3 tree of tests/kernel/cross.sh (made there if missing)
ktop=$top/build/ktree/7.3
tree=$ktop/linux-source-7.3
kout=$ktop/out
[ -f "$kout/.config" ] || KVER=7.3 tests/kernel/cross.sh >/dev/null || die "the 7.3 tree did not build"
cross=${CROSS_COMPILE:-powerpc64le-linux-gnu-}
# checkpatch looks commit ids up with git in the directory it runs from; the
# release tarball has no history, so there it can only check their form
ignore="UNKNOWN_COMMIT_ID"
[ $signed = 1 ] || ignore="$ignore,MISSING_SIGN_OFF"
i=0
for c in $(g rev-list --reverse "$base"..HEAD); do
	i=$((i + 1))
	g show "$c:arch/powerpc/perf/vpa-dtl.c" >"$tree/arch/powerpc/perf/vpa-dtl.c"
	rm -f "$kout/arch/powerpc/perf/vpa-dtl.o"
	log=$(make -s -C "$tree" O="$kout" ARCH=powerpc CROSS_COMPILE="$cross" W=1 \
		arch/powerpc/perf/vpa-dtl.o 2>&1 | grep -v 'genksyms\|shift/reduce\|reduce/reduce\|counterexamples' || true)
	[ -z "$log" ] && [ -f "$kout/arch/powerpc/perf/vpa-dtl.o" ] ||
		die "patch $i of $n ($(g log -1 --format=%s "$c")) does not build cleanly with W=1:
$log"
	p=$(ls "$out"/$(printf '%04d' $i)-*.patch)
	cp=$(cd "$tree" && perl scripts/checkpatch.pl --strict --ignore "$ignore" -q "$p" 2>&1 || true)
	[ -z "$cp" ] || die "checkpatch --strict on $(basename "$p"):
$cp"
	echo "patches.sh: $(printf '%02d' $i)/$n builds for ppc64le with W=1; checkpatch --strict: 0 errors, 0 warnings, 0 checks"
done
cp kernel/vpa-dtl.c "$tree/arch/powerpc/perf/vpa-dtl.c"
echo "patches.sh: checkpatch ignored $ignore (no git history here$([ $signed = 1 ] || echo "; no sign-off yet"))"
echo "patches.sh: sparse not run: 7.3's Makefile refuses Debian 12's sparse 0.6.4 (tests/kernel/cross.sh)"
