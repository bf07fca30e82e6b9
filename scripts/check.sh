#!/bin/bash
# make check: boot the built kernel once, run the built-in KUnit suites (at
# boot) and the drv-net selftests on netdevsim, run checkpatch over
# patches/, then print every result, every SKIP with its reason, and the
# closing line "N passed, N failed, N skipped".
. "$(dirname "$0")/lib.sh"
# shellcheck source=postings.sh
. "$(dirname "$0")/postings.sh"

# drv-net selftests run in the VM, relative to tools/testing/selftests/drivers/net.
SELFTESTS=(ping.py hw/devmem.py hw/devmem_nsim.py hw/devmem_stress.py hw/iou-zcrx.py)
# Tests whose SKIP is a failure: they must run on netdevsim.
REQUIRED=(hw/devmem.py hw/devmem_nsim.py hw/devmem_stress.py hw/iou-zcrx.py)
# Cases of required tests that may still SKIP ("test:case"), and why.
ALLOWED_SKIPS=()

res=$RESULTS
rm -rf "$res/ktap" "$res/check.console" "$res/summary"
mkdir -p "$res/ktap"
sum=$res/summary
: >"$sum"
record() {	# record RESULT NAME [REASON]
	printf '%s %s%s\n' "$1" "$2" "${3:+ # $3}" >>"$sum"
}

# 1. VM: KUnit at boot, then the selftests.
vmrc=0
# Slow KUnit cases are benchmarks (make bench), not checks.
VM_APPEND="kunit.filter=speed>slow" "$TOP"/scripts/vm-run.sh check "${VM_TIMEOUT:-2400}" \
	"RESULTS=$res TEST_TIMEOUT=${TEST_TIMEOUT:-600} $TOP/scripts/guest-tests.sh ${SELFTESTS[*]}" || vmrc=$?
console=$res/check.console
[ -f "$console" ] || die "no console log"

# 2. KUnit: the TAP the kernel printed at boot, parsed by the kernel's tool.
step kunit
"$PYTHON" "$TREE/tools/testing/kunit/kunit.py" parse --json="$res/kunit.json" \
	<"$console" >"$res/kunit.txt" 2>&1 || true
"$PYTHON" - "$res/kunit.json" >>"$sum" <<'PY' || record FAIL kunit "no KUnit results in the console"
import json, sys
top = json.load(open(sys.argv[1]))
n = 0
def walk(group, path):
    global n
    for tc in group.get("test_cases", []):
        res = {"PASS": "PASS", "SKIP": "SKIP"}.get(tc.get("status"), "FAIL")
        print(f"{res} kunit:{'.'.join(path + [tc['name']])}")
        n += 1
    for sub in group.get("sub_groups", []):
        walk(sub, path + [sub["name"]])
walk(top, [])
sys.exit(0 if n else 1)
PY

# 3. Selftests: KTAP per test, one line per case.
step selftests
for t in "${SELFTESTS[@]}"; do
	f=$res/ktap/${t//\//_}.ktap
	req=0
	for r in "${REQUIRED[@]}"; do [ "$r" = "$t" ] && req=1; done
	if [ ! -s "$f" ]; then
		record FAIL "$t" "did not run (VM exit $vmrc)"
		continue
	fi
	awk -v t="$t" -v req="$req" -v allowed="${ALLOWED_SKIPS[*]}" '
	/^(not )?ok [0-9]+ / {
		line = $0; res = "PASS"; reason = ""
		if (line ~ /^not ok/) res = "FAIL"
		name = line; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ #.*/, "", name)
		if (line ~ /# SKIP/) {
			reason = line; sub(/.*# SKIP ?/, "", reason)
			ok_skip = index(" " allowed " ", " " t ":" name " ")
			res = req && !ok_skip ? "FAIL" : "SKIP"
			if (res == "FAIL") reason = "required test skipped: " reason
		} else if (line ~ /# XFAIL/) res = "PASS"
		printf "%s %s:%s%s\n", res, t, name, reason != "" ? " # " reason : ""
		n++
	}
	END { if (!n) printf "FAIL %s # no KTAP results\n", t }' "$f" >>"$sum"
	rc=$(cat "$res/ktap/${t//\//_}.rc" 2>/dev/null || echo none)
	case $rc in 0|4) ;; *) grep -q "^FAIL $t" "$sum" ||
		record FAIL "$t" "exit code $rc" ;; esac
done

# 4. Kernel splats anywhere in the run.
step console
if grep -nE "WARNING:|BUG:|KASAN|KFENCE|UBSAN|ODEBUG|possible circular locking|inconsistent lock state|unreferenced object|Kernel panic|Oops:" "$console" >"$res/splats"; then
	record FAIL console "kernel reports in the VM console (first: $(head -n1 "$res/splats" | cut -c1-120))"
else
	record PASS console:no-kernel-splats
fi

# 5. checkpatch over the series. FILE_PATH_CHANGES ("does MAINTAINERS need
# updating?") is ignored: the series adds files only in directories that
# MAINTAINERS entries already cover with globs. UNKNOWN_COMMIT_ID too: the
# Fixes: tags name upstream commits, and the Debian tarball has no history.
step checkpatch
mkdir -p "$res/checkpatch"
for p in $(patch_files); do
	log=$res/checkpatch/${p//\//_}.txt
	# On stdin: given the path of a file git tracks, checkpatch checks it
	# as a source file, not as a patch.
	if "$TREE/scripts/checkpatch.pl" --strict --quiet --no-tree --show-types \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID - <"$PATCHES/$p" >"$log" 2>&1; then
		record PASS "checkpatch:$p"
	else
		record FAIL "checkpatch:$p" "see ${log#"$TOP"/}"
	fi
done

# 6. The generated netlink code and uapi headers match the specs: the
# in-tree generator rewrites only files whose output differs.
step ynl-regen
gen=$(git -C "$TREE" grep -l '^/\* YNL-GEN')
if (cd "$TREE" && PATH=/usr/bin:$PATH tools/net/ynl/ynl-regen.sh -f >"$res/ynl-regen.txt" 2>&1) &&
   git -C "$TREE" diff --quiet -- $gen; then
	record PASS ynl-regen:no-diff
else
	record FAIL ynl-regen "generated netlink code differs from the specs (git -C build/linux diff)"
fi

step report
grep '^SKIP' "$sum" | sed 's/^/  /' | { grep . && true; } >"$res/skips" || true
grep '^FAIL' "$sum" | sed 's/^/  /' >"$res/fails" || true
echo "---- results ($(grep -c . "$sum") checks; full list in build/results/summary)"
kp=$(grep -c '^PASS kunit:' "$sum" || true)
echo "KUnit: $kp passed, $(grep -c '^FAIL kunit' "$sum" || true) failed, $(grep -c '^SKIP kunit' "$sum" || true) skipped"
grep -v 'kunit:' "$sum" | sed 's/^/  /'
if [ -s "$res/skips" ]; then echo "SKIPPED:"; cat "$res/skips"; fi
if [ -s "$res/fails" ]; then echo "FAILED:"; cat "$res/fails"; fi
p=$(grep -c '^PASS' "$sum" || true)
f=$(grep -c '^FAIL' "$sum" || true)
s=$(grep -c '^SKIP' "$sum" || true)
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] || exit 1
