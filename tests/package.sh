#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Installing dtltop: make install/uninstall leave nothing behind, the shell
# completion answers, make dist is reproducible, and the .deb (built by
# dpkg-buildpackage, checked by lintian) and the .rpm (rpmbuild) hold the
# expected files. Run by make check after the build (make package-check).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

want="usr/bin/dtltop usr/share/bash-completion/completions/dtltop usr/share/man/man1/dtltop.1
usr/share/man/man5/dtltop-format.5"

# --- install, then uninstall: nothing of ours left, nothing of others' touched
mkdir -p "$tmp/root/usr/bin"
echo other >"$tmp/root/usr/bin/someone-else"
make -s install DESTDIR="$tmp/root" PREFIX=/usr >/dev/null || fail "make install"
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /usr/lib/systemd/system)
fleet="usr/share/doc/dtltop/examples/grafana/dtltop.json usr/share/doc/dtltop/examples/prometheus/dtltop.rules.yml
var/lib/pcp/pmdas/openmetrics/config.d/dtltop.url"
for f in $want $fleet usr/share/zsh/site-functions/_dtltop "${unitdir#/}/dtltop-exporter.service"; do
	[ -f "$tmp/root/$f" ] || fail "make install did not install $f"
done
make -s uninstall DESTDIR="$tmp/root" PREFIX=/usr >/dev/null || fail "make uninstall"
left=$(cd "$tmp/root" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "./usr ./usr/bin ./usr/bin/someone-else " ] && ok || fail "after uninstall: $left"

# --- bash completion, sourced as bash-completion would, asked as a person's TAB would
complete_words() { # words... : the completions of the last one
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_dtltop
	echo "${COMPREPLY[*]}"
}
(
	PATH=$(dirname "$DTLTOP"):$PATH
	. completion/dtltop.bash
	r=$(complete_words dtltop --for)
	[ "$r" = "--format" ] || echo "FAIL --for: $r"
	r=$(complete_words dtltop --format=c)
	[ "$r" = "--format=csv" ] || echo "FAIL --format=c: $r"
	r=$(complete_words dtltop --sim=vc)
	[ "$r" = "--sim=vcpus=" ] || echo "FAIL --sim=vc: $r"
	r=$(complete_words dtltop --sim=vcpus=8,lo)
	[ "$r" = "--sim=vcpus=8,load=" ] || echo "FAIL --sim=vcpus=8,lo: $r"
	r=$(complete_words dtltop --sim=clock=v)
	[ "$r" = "--sim=clock=virtual" ] || echo "FAIL --sim=clock=v: $r"
	# --sim=help's notes under its keys are no keys
	r=$(complete_words dtltop --sim=pro)
	[ "$r" = "--sim=profile=" ] || echo "FAIL --sim=pro: $r"
	r=$(complete_words dtltop --sim=Fr)
	[ -z "$r" ] || echo "FAIL --sim=Fr: $r"
	r=$(complete_words dtltop -s steal)
	[ "$r" = "steal_us steal_pct steal_vpa_diff_pct steal_stat_diff_pct" ] || echo "FAIL -s steal: $r"
	r=$(complete_words dtltop -s -lat_p9)
	[ "$r" = "-lat_p99_us" ] || echo "FAIL -s -lat_p9: $r"
	r=$(complete_words dtltop --source sim -e pre)
	[ "$r" = "preempt preempt,fault" ] || echo "FAIL -e pre: $r"
) >"$tmp/comp.out"
[ ! -s "$tmp/comp.out" ] && ok || fail "bash completion: $(cat "$tmp/comp.out")"
command -v zsh >/dev/null && { zsh -n completion/_dtltop && ok || fail "zsh completion syntax"; }
# zsh's specs come from --list-options: every option has one, with its values
if command -v zsh >/dev/null; then
	specs=$(PATH=$(dirname "$DTLTOP"):$PATH zsh -c 'source <(sed "\$d" completion/_dtltop); _dtltop_specs')
	for o in $("$DTLTOP" --list-options | cut -f1 | grep -oE -- '--[a-z-]+'); do
		grep -q -- "^([^)]*)$o[=[]" <<<"$specs" || echo "no zsh spec for $o"
	done >"$tmp/zsh.out"
	# the values the binary lists, offered as zsh's choices: a format added there must appear here
	fmts=$("$DTLTOP" --list-options | grep -oE -- '^ *--format=[a-z|]+' | sed 's/.*=//')
	case $fmts in *'|'*) ;; *) echo "--list-options: no --format values" >>"$tmp/zsh.out" ;; esac
	grep -qF -- "--format=[batch output format (default text)]:$fmts:(${fmts//|/ })" <<<"$specs" \
		|| echo "zsh: --format values are not $fmts" >>"$tmp/zsh.out"
	[ ! -s "$tmp/zsh.out" ] && ok || fail "zsh completion: $(cat "$tmp/zsh.out")"
fi

# --- --version says where libperf came from
"$DTLTOP" --version | sed -n 2p | grep -Eq '^(static libperf from .+|system libperf [0-9.]+);' && ok \
	|| fail "--version: $("$DTLTOP" --version | tr '\n' '|')"

# --- no libperf and no kernel source: one clear message naming what to install
out=$(LINUX_SRC=/nonexistent scripts/build-libperf.sh "$tmp/lp" 2>&1)
[ $? -ne 0 ] && grep -q 'libperf-devel' <<<"$out" && grep -q 'linux-source' <<<"$out" && ok \
	|| fail "build-libperf.sh without a source: $out"
# a system libperf found by pkg-config is used as it is (here: a .pc naming our static build)
mkdir -p "$tmp/src" "$tmp/pc"
git ls-files | tar -cf - -T - | tar -xf - -C "$tmp/src"
cat >"$tmp/pc/libperf.pc" <<PC
Name: libperf
Description: stands in for a distribution's libperf-devel
Version: 0.0.1
Cflags: -I$PWD/build/libperf/include
Libs: $PWD/build/libperf/libperf.a $PWD/build/libperf/libapi.a
PC
PKG_CONFIG_PATH="$tmp/pc" make -s -C "$tmp/src" dtltop >/dev/null 2>&1 && [ ! -e "$tmp/src/build/libperf" ] &&
	"$tmp/src/dtltop" --version | grep -q '^system libperf 0.0.1;' && ok || fail "build with a system libperf"
# neither: make stops with what to install
out=$(make -s -C "$tmp/src" -B dtltop LINUX_SRC=/nonexistent 2>&1)
[ $? -ne 0 ] && grep -q 'dnf install libperf-devel' <<<"$out" && ok || fail "make without libperf: $out"
# deps.sh knows dnf and zypper (dry run), and parses
sh -n scripts/deps.sh && ok || fail "deps.sh syntax"
DEPS_PM=dnf DEPS_DRY_RUN=1 scripts/deps.sh | grep -q 'dnf install -y .*libperf-devel' && ok || fail "deps.sh dnf"
DEPS_PM=zypper DEPS_DRY_RUN=1 scripts/deps.sh | grep -q 'zypper .*install .*kernel-source' && ok \
	|| fail "deps.sh zypper"

# --- make dist: the same bytes twice
# --- the exporter's unit, installed where it points at a real binary: systemd's own lint
make -s install PREFIX="$tmp/pfx" >/dev/null || fail "make install PREFIX=$tmp/pfx"
unit="$tmp/pfx/lib/systemd/system/dtltop-exporter.service"
grep -q "^ExecStart=$tmp/pfx/bin/dtltop " "$unit" && ok || fail "unit's ExecStart: $(grep ExecStart "$unit")"
if MANPATH="$tmp/pfx/share/man" systemd-analyze verify "$unit" >"$tmp/verify" 2>&1 && [ ! -s "$tmp/verify" ]; then
	ok
else
	fail "systemd-analyze verify: $(cat "$tmp/verify")"
fi
grep -q '^AmbientCapabilities=CAP_PERFMON$' "$unit" && grep -q '^CapabilityBoundingSet=CAP_PERFMON$' "$unit" &&
	grep -q '^DynamicUser=yes$' "$unit" && grep -q '^ProtectSystem=strict$' "$unit" && ok ||
	fail "the unit lost its confinement"
grep -q '^ExecStart=.* --source=perf ' "$unit" && ok || fail "the PMU unit does not ask for the PMU"
dunit="$tmp/pfx/lib/systemd/system/dtltop-exporter-debugfs.service"
if MANPATH="$tmp/pfx/share/man" systemd-analyze verify "$dunit" >"$tmp/verify" 2>&1 && [ ! -s "$tmp/verify" ]; then
	ok
else
	fail "systemd-analyze verify $dunit: $(cat "$tmp/verify")"
fi
grep -q "^ExecStart=$tmp/pfx/bin/dtltop .*--source=debugfs " "$dunit" && grep -q '^User=root$' "$dunit" &&
	grep -q '^CapabilityBoundingSet=CAP_PERFMON$' "$dunit" && grep -q '^AmbientCapabilities=CAP_PERFMON$' "$dunit" &&
	grep -q '^SystemCallFilter=@system-service perf_event_open$' "$dunit" && grep -q '^NoNewPrivileges=yes$' "$dunit" && ok ||
	fail "the debugfs unit: $(grep -E '^(ExecStart|User|CapabilityBoundingSet)=' "$dunit")"
# each unit's ExecCondition, as systemd runs it: on a machine without its DTL (this one), one
# line saying why and what to do, and exit 1 (skipped, not failed: no restart every 5 s)
condition() {
	awk '/^ExecCondition=/ { on = 1; sub(/^ExecCondition=/, "") } on { c = c $0; if (!sub(/\\$/, "", c)) exit }
		END { print c }' "$1"
}
for u in "$unit" "$dunit"; do
	cmd=$(condition "$u")
	out=$(eval "$cmd" 2>&1); rc=$?
	if [ -d /sys/bus/event_source/devices/vpa_dtl ] || [ -d /sys/kernel/debug/powerpc/dtl ]; then
		ok	# a POWER machine: nothing to skip
	else
		[ $rc -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && ok || fail "$(basename "$u"): ExecCondition rc $rc: $out"
	fi
done
[ -d /sys/bus/event_source/devices/vpa_dtl ] || grep -q 'no vpa_dtl PMU .*6.18.*enable --now dtltop-exporter-debugfs' <<<"$(eval "$(condition "$unit")" 2>&1)" &&
	ok || fail "the PMU unit's skip line does not say what to do"
grep -q 'mount debugfs' <<<"$(eval "$(condition "$dunit")" 2>&1)" && ok || fail "the debugfs unit's skip line"
# the debugfs unit's privilege is enough and no more: uid 0 without a single capability reads
# and writes root's 0400/0600 files under a 0700 directory; another owner's, it cannot
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
	r=$tmp/lockroot d=$tmp/lockroot/sys/kernel/debug/powerpc/dtl
	mkdir -p "$d" "$r/sys/devices/system/cpu" "$r/proc"
	echo 0-1 >"$r/sys/devices/system/cpu/online"
	printf 'processor\t: 0\ntimebase\t: 512000000\n' >"$r/proc/cpuinfo"
	echo 0x7 >"$d/dtl_event_mask" && chmod 0600 "$d/dtl_event_mask"
	: >"$d/cpu-0" && : >"$d/cpu-1" && chmod 0400 "$d"/cpu-*
	chmod 0700 "$r/sys/kernel/debug"
	nocaps() { setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all "$@"; }
	out=$(nocaps "$DTLTOP" --no-config --source=debugfs --root "$r" -e cede -b -n 1 -d 0.2 --format=csv 2>&1)
	[ $? -eq 0 ] && grep -q '^0x1$' "$d/dtl_event_mask" && ok || fail "uid 0 without capabilities: $out"
	chown -R 4321 "$r/sys/kernel/debug"
	out=$(nocaps "$DTLTOP" --no-config --source=debugfs --root "$r" -b -n 1 -d 0.2 2>&1)
	[ $? -eq 2 ] && grep -q 'Permission denied (debugfs needs root)' <<<"$out" && ok ||
		fail "debugfs of another owner, no capabilities: $out"
fi

# --- one version everywhere a user or a packager reads it
v=$(sed -n 's/^#define DTLTOP_VERSION "\(.*\)"/\1/p' src/version.h)
for got in "$("$DTLTOP" --version | sed -n '1s/^dtltop //p')" \
	"$(sed -n '1s/^dtltop (\([^)]*\)).*/\1/p' debian/changelog)" \
	"$(sed -n 's/^Version: *//p' dtltop.spec)" \
	"$(sed -n '/^%changelog/{n;s/.* - \([0-9.]*\)-[0-9]*$/\1/p}' dtltop.spec)" \
	"$(sed -n 's/^dtltop \([0-9.]*\) (.*/\1/p' NEWS | head -1)" \
	"$(sed -n '1s/.*"dtltop \([0-9.]*\)".*/\1/p' man/dtltop.1)" \
	"$(sed -n '1s/.*"dtltop \([0-9.]*\)".*/\1/p' man/dtltop-format.5)"; do
	[ -n "$v" ] && [ "$got" = "$v" ] && ok || fail "version $v in src/version.h, '$got' elsewhere"
done

make -s dist >/dev/null && a=$(sha256sum <build/dtltop-*.tar.gz) || fail "make dist"
sleep 1.1
make -s dist >/dev/null && b=$(sha256sum <build/dtltop-*.tar.gz)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || fail "make dist is not reproducible"
tar tzf build/dtltop-*.tar.gz | grep -q '^dtltop-[0-9.]*/src/main.c$' && ok || fail "dist lacks src/main.c"

# --- the Debian package: lintian errors fail make deb; the file list, unpacked
if make -s deb >"$tmp/deb.log" 2>&1; then
	ok
	deb=$(ls build/deb/dtltop_*_*.deb)
	dpkg -x "$deb" "$tmp/deb"
	files=$(cd "$tmp/deb" && find . -type f | sed 's,^\./,,' | sort | tr '\n' ' ')
	exp="usr/bin/dtltop usr/share/bash-completion/completions/dtltop usr/share/doc/dtltop/NEWS.gz"
	exp="$exp usr/share/doc/dtltop/README.Debian"
	exp="$exp usr/share/doc/dtltop/changelog.gz usr/share/doc/dtltop/copyright"
	exp="$exp usr/share/doc/dtltop/examples/grafana/dtltop.json"
	exp="$exp usr/share/doc/dtltop/examples/prometheus/dtltop.rules.yml"
	exp="${unitdir#/}/dtltop-exporter-debugfs.service ${unitdir#/}/dtltop-exporter.service $exp"
	exp="$exp usr/share/man/man1/dtltop.1.gz usr/share/man/man5/dtltop-format.5.gz"
	exp="$exp usr/share/zsh/vendor-completions/_dtltop var/lib/pcp/pmdas/openmetrics/config.d/dtltop.url "
	[ "$files" = "$exp" ] && ok || fail "deb files: $files"
	"$tmp/deb/usr/bin/dtltop" --sim=vcpus=4,clock=virtual -b -n 1 --csv | grep -q ',all,' && ok \
		|| fail "the packaged binary does not run"
	echo "package.sh: $(basename "$deb") $(stat -c %s "$deb") bytes; lintian: $(lintian "$deb" 2>/dev/null | wc -l) tags"
else
	fail "make deb: $(tail -5 "$tmp/deb.log")"
fi

# --- the RPM: the spec parses, rpmbuild builds it from the dist tarball
if make -s rpm >"$tmp/rpm.log" 2>&1; then
	ok
	rpmf=$(ls build/rpm/RPMS/*/dtltop-*.rpm)
	files=$(rpm -qlp "$rpmf" 2>/dev/null | grep -v build-id | grep -v '^/usr/share/doc\|^/usr/share/licenses' |
		sort | tr '\n' ' ')
	exp="/usr/bin/dtltop /usr/share/bash-completion/completions/dtltop /usr/share/man/man1/dtltop.1"
	exp="$exp /usr/share/man/man5/dtltop-format.5 /usr/share/zsh/site-functions/_dtltop"
	exp="$exp /var/lib/pcp/pmdas/openmetrics/config.d/dtltop.url "
	exp="/usr/bin/dtltop /usr/lib/systemd/system/dtltop-exporter-debugfs.service /usr/lib/systemd/system/dtltop-exporter.service ${exp#/usr/bin/dtltop }"
	[ "$files" = "$exp" ] && ok || fail "rpm files: $files"
	rpm -qlp "$rpmf" 2>/dev/null | grep -q '/usr/share/licenses/dtltop.*/COPYING' && ok || fail "rpm lacks COPYING"
	for f in grafana/dtltop.json prometheus/dtltop.rules.yml; do
		rpm -qlp "$rpmf" 2>/dev/null | grep -qx "/usr/share/doc/dtltop/examples/$f" && ok || fail "rpm lacks examples/$f"
	done
	echo "package.sh: $(basename "$rpmf") $(stat -c %s "$rpmf") bytes"
else
	fail "make rpm: $(tail -5 "$tmp/rpm.log")"
fi

finish
