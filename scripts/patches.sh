#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The driver's changes as two postings for upstream Linux (kernel/upstream/):
# fixes/ (for the powerpc fixes branch and stable) and features/ (for next, on
# top of the fixes), each with its cover-letter.txt.
#   scripts/patches.sh write   make patches: applies fixes/*.patch, then
#                              features/*.patch, with git am to 7.3's own
#                              arch/powerpc/perf/vpa-dtl.c and
#                              Documentation/arch/powerpc/vpa-dtl.rst, checks the
#                              ends are kernel/vpa-dtl.c and kernel/vpa-dtl.rst byte
#                              for byte, and writes build/patches/{fixes,features}/
#                              (git format-patch, each with its cover letter), and
#                              build/patches/vpa-dtl-fixes.c (the fixes alone)
#   scripts/patches.sh check   make patches-check: also builds every step in the
#                              7.3 tree for ppc64le with W=1 (any warning fails), and
#                              with sparse in Debian's 6.12 tree (7.3's refuses
#                              Debian 12's sparse), and runs checkpatch.pl --strict
#                              on every patch, and runs the kernel harness at every
#                              step (tests/kernel/steps.sh)
#   scripts/patches.sh boot    make patches-boot: boots every step in the QEMU rig and
#                              records with upstream perf 7.3 (a first run builds perf and two kernels, about 17 minutes; then about a minute a step)
#   scripts/patches.sh send    make patches-send: both postings as the sender mails
#                              them, refused while From: or Signed-off-by is a
#                              placeholder (the project's identity, an example.org
#                              address); prints the git send-email commands, and runs
#                              them with SEND=yes
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
doc=${PATCHES_DOC:-kernel/vpa-dtl.rst}
series=${PATCHES_SERIES:-$top/kernel/upstream}
out=$top/build/patches
git_dir=$top/build/patches-git
postings="fixes features"
c_file=arch/powerpc/perf/vpa-dtl.c
d_file=Documentation/arch/powerpc/vpa-dtl.rst
die() { echo "patches.sh: $*" >&2; exit 1; }

tarball=$(scripts/linux-source-7.3.sh) || die "no linux-source-7.3"
# the scratch repository: 7.3's files as the base commit, dated and authored
# the same on every run, so the series' hashes do not depend on the clock
rm -rf "$git_dir" && mkdir -p "$git_dir/x"
tar xf "$tarball" -C "$git_dir/x" --wildcards "*/$c_file" "*/$d_file" ||
	die "$tarball has no $c_file or $d_file"
for f in $c_file $d_file; do
	mkdir -p "$git_dir/$(dirname $f)"
	mv "$git_dir"/x/*/$f "$git_dir/$f"
done
rm -rf "$git_dir/x"
export GIT_AUTHOR_NAME="Linux 7.3.4" GIT_AUTHOR_EMAIL="linux@localhost" \
	GIT_COMMITTER_NAME="dtltop developers" GIT_COMMITTER_EMAIL="dtltop@lists.example.org" \
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
g() { git -C "$git_dir" -c core.autocrlf=false -c advice.detachedHead=false "$@"; }
g init -q
g add -A && g commit -q -m "Linux 7.3.4: $c_file and $d_file"
base=$(g rev-parse HEAD)
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
declare -A first last
for s in $postings; do
	ls "$series/$s"/0*.patch >/dev/null 2>&1 || die "no patches in $series/$s"
	first[$s]=$(g rev-parse HEAD)
	g am -q "$series/$s"/0*.patch || die "the $s series does not apply to 7.3's files (git am)"
	last[$s]=$(g rev-parse HEAD)
done
n=$(g rev-list --count "$base"..HEAD)
cmp -s "$git_dir/$c_file" "$driver" ||
	die "the series ends at a file that differs from $driver:
$(diff -u "$git_dir/$c_file" "$driver" | head -40)"
cmp -s "$git_dir/$d_file" "$doc" ||
	die "the series ends at a vpa-dtl.rst that differs from $doc:
$(diff -u "$git_dir/$d_file" "$doc" | head -40)"
# the fixes stand on their own: no feature's text in them
g diff --quiet "$base" "${last[fixes]}" -- "$d_file" ||
	die "the fixes change $d_file: that belongs to the features"

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
	# the rebase made new commits: find the postings' ends again by count
	k=0 prev=$base
	for s in $postings; do
		k=$((k + $(ls "$series/$s"/0*.patch | wc -l)))
		first[$s]=$prev
		last[$s]=$(g rev-list --reverse "$base"..HEAD | sed -n "${k}p")
		prev=${last[$s]}
	done
fi
rm -rf "$out" && mkdir -p "$out"
# the cover letter's From: is the committer: the sender when signed
[ $signed = 1 ] && export GIT_COMMITTER_NAME="$me_name" GIT_COMMITTER_EMAIL="$me_mail"
for s in $postings; do
	g format-patch -q --cover-letter --zero-commit --no-signature -o "$out/$s" "${first[$s]}".."${last[$s]}"
	cover=$(ls "$out/$s"/0000-cover-letter.patch)
	python3 - "$cover" "$series/$s/cover-letter.txt" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, _, blurb = text.partition("\n\n")
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", subject.strip()).replace("*** BLURB HERE ***", blurb.strip())
open(cover, "w").write(s)
PY
	grep -q '\*\*\*' "$cover" && die "the $s cover letter kept a placeholder"
done
# the driver of a kernel with the fixes only (FIXES=1 tests/qemu/run.sh boots it)
g show "${last[fixes]}:$c_file" >"$out/vpa-dtl-fixes.c"
echo "patches.sh: build/patches/fixes/ and features/: two cover letters and $n patches; applied to 7.3's files they give $driver and $doc byte for byte"
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
	for p in "$out"/*/0*.patch; do
		grep -q "^From: $me_name <$me_mail>$" "$p" && { [[ $p == *cover-letter* ]] ||
			grep -q "^Signed-off-by: $me_name <$me_mail>$" "$p"; } ||
			die "send: $(basename "$p") is not from and signed off by $me_name <$me_mail>"
	done
	# scripts/get_maintainer.pl of 7.3 on the series, plus the driver's and
	# the document's authors and the perf core's list (cover letters say so)
	cc=(--to=linuxppc-dev@lists.ozlabs.org --cc=linux-kernel@vger.kernel.org
		--cc=maddy@linux.ibm.com --cc=mpe@ellerman.id.au --cc=npiggin@gmail.com
		--cc=chleroy@kernel.org --cc=ritesh.list@gmail.com --cc=sshegde@linux.ibm.com
		--cc=kjain@linux.ibm.com --cc=atrajeev@linux.ibm.com
		--cc=linux-perf-users@vger.kernel.org --cc=peterz@infradead.org --cc=mingo@redhat.com
		--cc=acme@kernel.org --cc=namhyung@kernel.org)
	for s in $postings; do
		extra=()
		[ $s = features ] && extra=(--cc=corbet@lwn.net --cc=linux-doc@vger.kernel.org)
		cmd=(git send-email "${cc[@]}" "${extra[@]}" "$out/$s"/0*.patch)
		if [ "${SEND:-}" = yes ]; then
			"${cmd[@]}"
		else
			echo "patches.sh: would run (SEND=yes runs it): ${cmd[*]}"
		fi
	done
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
		g show "$c:$c_file" >"$steps/$k.c"
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

# every step builds: the 7.3 tree of tests/kernel/cross.sh (made there if
# missing) with W=1, and the 6.12 one with sparse too (its Makefile takes
# Debian 12's sparse; kernel/patches/ make the driver build there)
cross=${CROSS_COMPILE:-powerpc64le-linux-gnu-}
declare -A tree kout
for v in 7.3 6.12; do
	tree[$v]=$top/build/ktree/$v/linux-source-$v
	kout[$v]=$top/build/ktree/$v/out
	[ -f "${kout[$v]}/.config" ] || KVER=$v tests/kernel/cross.sh >/dev/null ||
		die "the $v tree did not build"
done
sparse=""
command -v sparse >/dev/null && sparse="C=1"
# checkpatch looks commit ids up with git in the directory it runs from; the
# release tarball has no history, so there it can only check their form
ignore="UNKNOWN_COMMIT_ID"
[ $signed = 1 ] || ignore="$ignore,MISSING_SIGN_OFF"
build_step() {	# VERSION EXTRA...: the step's driver in that tree; prints what it printed
	local v=$1
	shift
	rm -f "${kout[$v]}/arch/powerpc/perf/vpa-dtl.o"
	make -s -C "${tree[$v]}" O="${kout[$v]}" ARCH=powerpc CROSS_COMPILE="$cross" W=1 "$@" \
		arch/powerpc/perf/vpa-dtl.o 2>&1 | grep -v 'genksyms\|shift/reduce\|reduce/reduce\|counterexamples' || true
	[ -f "${kout[$v]}/arch/powerpc/perf/vpa-dtl.o" ] || echo "no vpa-dtl.o"
}
# each step's driver, kept for the harness below
steps=$top/build/patches-steps
rm -rf "$steps" && mkdir -p "$steps"
i=0
for s in $postings; do
	j=0
	for c in $(g rev-list --reverse "${first[$s]}".."${last[$s]}"); do
		i=$((i + 1)) j=$((j + 1))
		what="$s $j ($(g log -1 --format=%s "$c"))"
		step=$steps/$(printf '%02d' $i).c
		g show "$c:$c_file" >"$step"
		for v in 7.3 6.12; do
			cp "$step" "${tree[$v]}/$c_file"
		done
		log=$(build_step 7.3)
		[ -z "$log" ] || die "$what does not build cleanly with W=1 in 7.3:
$log"
		log=$(build_step 6.12 $sparse)
		[ -z "$log" ] || die "$what does not build cleanly with W=1${sparse:+ and sparse} in 6.12:
$log"
		p=$(ls "$out/$s"/$(printf '%04d' $j)-*.patch)
		cp=$(cd "${tree[7.3]}" && perl scripts/checkpatch.pl --strict --ignore "$ignore" -q "$p" 2>&1 || true)
		[ -z "$cp" ] || die "checkpatch --strict on $s/$(basename "$p"):
$cp"
		echo "patches.sh: $s $(printf '%02d' $j): builds for ppc64le with W=1 (7.3)${sparse:+ and sparse (6.12)}; checkpatch --strict: 0 errors, 0 warnings, 0 checks"
	done
done
for v in 7.3 6.12; do
	cp kernel/vpa-dtl.c "${tree[$v]}/$c_file"
done
# the harness at every step: nothing fixed comes undone, the fixes stand alone
FIXES_STEPS=$(g rev-list --count "$base".."${last[fixes]}") tests/kernel/steps.sh "$steps"/*.c ||
	die "the kernel harness went back at a step of the series (tests/kernel/steps.sh)"
echo "patches.sh: checkpatch ignored $ignore (no git history here$([ $signed = 1 ] || echo "; no sign-off yet"))"
[ -n "$sparse" ] || echo "patches.sh: sparse not run: not installed"
