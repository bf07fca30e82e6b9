#!/bin/bash
# make check: boot the built kernel once, run the built-in KUnit suites (at
# boot) and every program of the drivers/net selftests on netdevsim through
# the kselftest runner, scan the console for kernel reports, run checkpatch
# over patches/ and the ynl regeneration check, then print every result,
# every SKIP with its reason, and the closing line
# "N passed, N failed, N skipped".
#
# PROGRAMS limits the run to the named programs ("series": those whose
# files the series adds or changes, as CI runs them on 7.3). check-debug
# runs it a second time with swiotlb=force (DMA that bounces, which a
# buffer may be too large for): REFUSED is a regex of the reasons for which
# a required program may skip there (the refusal it must give), VM_ONLY=1
# leaves out the checks of patches/, and VM_APPEND adds to the kernel
# command line. NO_RETRY names programs that are not run a second time
# after a failure (check-mutants.sh's killers).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=postings.sh
. "$(dirname "$0")/postings.sh"

# Programs that must run on netdevsim: any SKIP of theirs is a failure.
# The other programs of the target may skip, for the reason they give.
# (REQUIRED_PROGRAMS overrides the list: compare-base runs the base's.)
DEFAULT_REQUIRED="drivers/net:devmem.py drivers/net:devmem_nsim.py drivers/net:devmem_stress.py"
DEFAULT_REQUIRED+=" drivers/net:iou-zcrx.py drivers/net:nk_devmem.py drivers/net:userns_devmem.py"
DEFAULT_REQUIRED+=" drivers/net:rss_qstats.py drivers/net:rss_rehash.py"
DEFAULT_REQUIRED+=" drivers/net/hw:toeplitz.py"
read -ra REQUIRED <<<"${REQUIRED_PROGRAMS-$DEFAULT_REQUIRED}"
# Programs of drivers/net/hw (NIPA runs them on NICs only) that run on
# netdevsim too, after those of drivers/net: toeplitz.py checks the RSS
# hash netdevsim gives received packets against its own Toeplitz.
NSIM_HW="drivers/net/hw:toeplitz.py"
# Cases of required programs that may still SKIP ("program:case"), and why:
# the leak check needs kmemleak, which make check-debug's kernel has;
# netdevsim's queues have no IRQ, so the CPU a packet reaches does not
# tell which queue RSS picked.
ALLOWED_SKIPS=(devmem_stress.py:devmem_stress.check_no_leaks
	       toeplitz.py:toeplitz.test.rss_tcp_ipv4 toeplitz.py:toeplitz.test.rss_tcp_ipv6
	       toeplitz.py:toeplitz.test.rss_udp_ipv4 toeplitz.py:toeplitz.test.rss_udp_ipv6)
# Programs that fail here for want of a fast guest, on the base kernel as
# on the series (make compare-base shows it), when the VM runs under TCG:
# their failures are reported as skips, with the reason.
declare -A TCG_FAILS=(
	[drivers/net:so_txtime.py]="sends at set times a few ms ahead, which a TCG guest misses (\"start time already passed\")"
)
# A TCG guest emulates every instruction, several times slower than the
# KVM guests netdev's CI runs: there each program gets TCG_TIMEOUT_SCALE
# times its target's timeout (xdp.py's 24 cases on 7.3 take more than
# the 360 s of drivers/net/settings), and the programs of TCG_FAILS are
# not run a second time.
accel=$("$TOP"/scripts/detect-accel.sh)
no_retry=${NO_RETRY:-}
guest_env=
if [ "$accel" = tcg ]; then
	guest_env="TIMEOUT_SCALE=${TCG_TIMEOUT_SCALE:-3}"
	no_retry+=" ${!TCG_FAILS[*]}"
fi
guest_env+=" NO_RETRY='$no_retry'"

res=$RESULTS
rm -rf "$res/ktap" "$res/check.console" "$res/summary" "$res/checkpatch" "$res/details"
mkdir -p "$res/ktap"
sum=$res/summary
: >"$sum"
record() {	# record RESULT NAME [REASON]
	printf '%s %s%s\n' "$1" "$2" "${3:+ # $3}" >>"$sum"
}

# The drivers/net programs, as the kselftest install lists them, and
# those of NSIM_HW from drivers/net/hw's
list=$KSELFTEST/kselftest-list.txt
[ -f "$list" ] || die "no $list: run 'make build'"
hwlist=$KSELFTEST_HW/kselftest-list.txt
[ -f "$hwlist" ] || die "no $hwlist: run 'make build'"
mapfile -t SELFTESTS < <(grep '^drivers/net:' "$list"; for t in $NSIM_HW; do grep -xF "$t" "$hwlist"; done)
# PROGRAMS=series: the programs whose files the series adds or changes
if [ "${PROGRAMS:-}" = series ]; then
	PROGRAMS=$(git -C "$TREE" diff --name-only base..HEAD -- tools/testing/selftests/drivers/net |
		sed -n 's|^tools/testing/selftests/\(drivers/net\(/hw\)\{0,1\}\)/\([^/]*\)$|\1:\3|p' |
		grep -xF "$(printf '%s\n' "${SELFTESTS[@]}")" | tr '\n' ' ')
	[ -n "$PROGRAMS" ] || die "PROGRAMS=series: the series changes no program of $list"
fi
if [ -n "${PROGRAMS:-}" ]; then
	for t in $PROGRAMS; do grep -qxF "$t" "$list" "$hwlist" || die "PROGRAMS: no $t in $list"; done
	read -ra SELFTESTS <<<"$PROGRAMS"
fi
[ ${#SELFTESTS[@]} -gt 0 ] || die "no drivers/net programs in $list"

# 1. VM: KUnit at boot, then the selftests.
vmrc=0
# Slow KUnit cases are benchmarks (make bench), not checks.
VM_APPEND="kunit.filter=speed>slow ${VM_APPEND:-}" "$TOP"/scripts/vm-run.sh check "${VM_TIMEOUT:-5400}" \
	"RESULTS=$res KSELFTEST=$KSELFTEST KSELFTEST_HW=$KSELFTEST_HW $guest_env $TOP/scripts/guest-tests.sh ${SELFTESTS[*]}" || vmrc=$?
console=$res/check.console
[ -f "$console" ] || die "no console log"

# 2. KUnit: the TAP the kernel printed at boot (up to the start of the
# guest's script, whose selftests print TAP too), parsed by the kernel's
# tool, one line per case; its own verdict counts too (a suite-level
# "not ok", a crash mid-suite: kunit.py exits non-zero). KUNIT=0 for a
# kernel built without KUnit (check-fragments).
if [ "${KUNIT:-1}" = 1 ]; then
	step kunit
	krc=0
	sed '/virtme-init: starting script/q' "$console" |
		"$PYTHON" "$TREE/tools/testing/kunit/kunit.py" parse --json="$res/kunit.json" \
		>"$res/kunit.txt" 2>&1 || krc=$?
	"$PYTHON" - "$res/kunit.json" >>"$sum" <<'PY' || record FAIL kunit "no KUnit results in the console"
import json, sys
top = json.load(open(sys.argv[1]))
n = 0
def verdict(status):
    return {"PASS": "PASS", "SKIP": "SKIP"}.get(status, "FAIL")
def walk(group, path):
    global n
    for tc in group.get("test_cases", []):
        print(f"{verdict(tc.get('status'))} kunit:{'.'.join(path + [tc['name']])}")
        n += 1
    for sub in group.get("sub_groups", []):
        walk(sub, path + [sub["name"]])
walk(top, [])
sys.exit(0 if n else 1)
PY
	[ $krc -eq 0 ] || record FAIL kunit "kunit.py parse exited $krc (see ${res#"$TOP"/}/kunit.txt)"
fi

# 3. Selftests: one KTAP per program from the kselftest runner; one line
# per case, from the program's own KTAP nested in the runner's.
step selftests
for t in "${SELFTESTS[@]}"; do
	name=${t//[:\/]/_}
	f=$res/ktap/$name.ktap retried=
	if [ -s "$res/ktap/$name.retry.ktap" ]; then
		f=$res/ktap/$name.retry.ktap retried="failed, then"
	fi
	req=0
	for r in "${REQUIRED[@]}"; do [ "$r" = "$t" ] && req=1; done
	if [ ! -s "$f" ]; then
		record FAIL "$t" "did not run (VM exit $vmrc)"
		continue
	fi
	prog=${t#*:}
	known=
	[ "$accel" != tcg ] || known=${TCG_FAILS[$t]:-}
	awk -v t="$prog" -v req="$req" -v allowed="${ALLOWED_SKIPS[*]}" -v retried="$retried" \
	    -v known="$known" -v refused="${REFUSED:-}" -v details="$res/details" '
	# what the program printed since its last case before one failed (its
	# diagnostics; of a long traceback the start and the end), for the
	# report; for the program as a whole only if no case failed
	function why(name,    i, m, keep) {
		if (name == "program" && failed) return
		failed = 1
		m = 0
		for (i = 1; i <= nb; i++)
			if (buf[i] !~ /^# [A-Za-z]+\|[ ^]*$/) keep[++m] = buf[i]
		printf "FAIL %s:%s, what it printed:\n", t, name >> details
		for (i = 1; i <= m; i++) {
			if (m > 10 && i > 3 && i <= m - 6) {
				if (i == 4) printf "    ...\n" >> details
				continue
			}
			printf "    %s\n", substr(keep[i], 1, 160) >> details
		}
	}
	function result(line, name,    res, reason, ok_skip) {
		res = line ~ /^not ok/ ? "FAIL" : "PASS"
		reason = ""
		if (line ~ /# SKIP/) {
			reason = line; sub(/.*# SKIP ?/, "", reason)
			if (reason == "") reason = "no reason given"
			ok_skip = index(" " allowed " ", " " t ":" name " ") ||
				  (refused != "" && reason ~ refused)
			res = req && !ok_skip ? "FAIL" : "SKIP"
			if (res == "FAIL") reason = "required program skipped: " reason
		} else if (line ~ /# XFAIL/) {
			res = "PASS"
		} else if (line ~ /# TIMEOUT/) {
			reason = line; sub(/.*# /, "", reason)
		}
		if (retried != "" && res == "PASS") reason = retried " passed"
		if (known != "" && res == "FAIL") {
			res = "SKIP"; reason = "fails under TCG: " known
		}
		printf "%s %s:%s%s\n", res, t, name, reason != "" ? " # " reason : ""
		if (res == "FAIL") why(name)
	}
	/^# (not )?ok [0-9]+ / {	# a case of the program
		line = substr($0, 3); name = line
		sub(/^(not )?ok [0-9]+ /, "", name); sub(/ #.*/, "", name)
		result(line, name); n++
		nb = 0
		next
	}
	/^(not )?ok [0-9]+ selftests: / { prog = $0; next }	# the runner on the program
	/^# / && !prog { buf[++nb] = substr($0, 3) }
	END {
		if (prog == "") { printf "FAIL %s # no result from the kselftest runner\n", t; exit }
		# the program as a whole: its exit code, a timeout, a crash
		# after its last case, or a skip with no case run
		if (prog ~ /^not ok/ || !n) result(prog, "program")
	}' "$f" >>"$sum"
	# what the state check after it found changed (guest-state.py)
	for st in "$res/ktap/$name.state" "$res/ktap/$name.retry.state"; do
		[ -s "$st" ] || continue
		record FAIL "$t:state" "left behind: $(head -n 1 "$st" | cut -c1-150) (${st#"$TOP"/})"
	done
done

# 4. Kernel reports anywhere in the run: splats, and what only prints a
# line (RCU stalls, hung tasks, page pools that never drain).
step console
if grep -nE "$KERNEL_REPORTS" "$console" >"$res/splats"; then
	record FAIL console "kernel reports in the VM console (first: $(head -n1 "$res/splats" | cut -c1-120))"
else
	record PASS console:no-kernel-splats
fi

if [ "${VM_ONLY:-0}" != 1 ]; then
	# 5. checkpatch over the series. FILE_PATH_CHANGES ("does MAINTAINERS need
	# updating?") is ignored: the series adds files only in directories that
	# MAINTAINERS entries already cover with globs. UNKNOWN_COMMIT_ID too: the
	# Fixes: tags name upstream commits, and the Debian tarball has no history.
	# Generated netlink code is left out: step 6 checks it.
	step checkpatch
	mkdir -p "$res/checkpatch"
	for p in $(patch_files); do
		log=$res/checkpatch/${p//\//_}.txt
		# On stdin: given the path of a file git tracks, checkpatch checks it
		# as a source file, not as a patch.
		if "$TREE/scripts/checkpatch.pl" --strict --quiet --no-tree --show-types \
			--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID - \
			< <(without_generated <"$PATCHES/$p") >"$log" 2>&1; then
			record PASS "checkpatch:$p"
		else
			record FAIL "checkpatch:$p" "see ${log#"$TOP"/}"
		fi
	done

	# 6. The generated netlink code and uapi headers match the specs: the
	# in-tree generator rewrites only files whose output differs.
	step ynl-regen
	mapfile -t gen < <(git -C "$TREE" grep -l '^/\* YNL-GEN')
	if (cd "$TREE" && tools/net/ynl/ynl-regen.sh -f >"$res/ynl-regen.txt" 2>&1) &&
	   git -C "$TREE" diff --quiet -- "${gen[@]}"; then
		record PASS ynl-regen:no-diff
	else
		record FAIL ynl-regen "generated netlink code differs from the specs (git -C ${TREE#"$TOP"/} diff)"
	fi
fi

step report
grep '^SKIP' "$sum" | sed 's/^/  /' >"$res/skips" || true
grep '^FAIL' "$sum" | sed 's/^/  /' >"$res/fails" || true
echo "---- results ($(grep -c . "$sum") checks; full list in ${sum#"$TOP"/})"
echo "KUnit: $(grep -c '^PASS kunit:' "$sum" || true) passed," \
     "$(grep -c '^FAIL kunit' "$sum" || true) failed, $(grep -c '^SKIP kunit' "$sum" || true) skipped"
for t in "${SELFTESTS[@]}"; do
	prog=${t#*:}
	echo "$t: $(grep -c "^PASS $prog:" "$sum" || true) passed," \
	     "$(grep -c "^FAIL $prog:" "$sum" || true) failed," \
	     "$(grep -c "^SKIP $prog:" "$sum" || true) skipped"
done
[ "${VM_ONLY:-0}" = 1 ] ||
	echo "checkpatch: $(grep -c '^PASS checkpatch:' "$sum" || true) of $(patch_files | grep -c .) patches clean"
if [ -s "$res/skips" ]; then echo "SKIPPED:"; cat "$res/skips"; fi
if [ -s "$res/details" ]; then
	echo "FAILED, as the programs told it (${res#"$TOP"/}/ktap has all):"
	cat "$res/details"
fi
if [ -s "$res/fails" ]; then echo "FAILED:"; cat "$res/fails"; fi
p=$(grep -c '^PASS' "$sum" || true)
f=$(grep -c '^FAIL' "$sum" || true)
s=$(grep -c '^SKIP' "$sum" || true)
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] || exit 1
