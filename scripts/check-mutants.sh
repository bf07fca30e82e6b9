#!/bin/bash
# make check-mutants: break the stack on purpose, one small diff at a
# time, and show that the checks named for each break fail. A mutant is
# a file mutants/NAME.diff: a few header lines, then a diff against the
# work tree (git diff output).
#   # breaks: what the diff breaks
#   # killers: the checks that must fail, space-separated: selftest
#   #   programs as the kselftest list names them (drivers/net:devmem.py),
#   #   KUnit suites or cases (kunit:SUITE, kunit:SUITE.CASE), "console"
#   #   (a kernel report in the VM console while the programs ran)
#   # expect: (optional) an extended regex that the killers' output must
#   #   match: the failure is the mutant's, not another one's
# For each mutant: apply it, rebuild incrementally, run its killers, and
# revert it. Mutants whose killers are all KUnit run under UML (kunit.py,
# net/core/.kunitconfig); the others boot the VM kernel once and run
# their programs through check.sh (KUnit runs at boot there too).
# Killed: a killer failed and printed the expect regex. Otherwise
# survived, or: no-apply (the diff does not apply to the tree),
# build-broken, timeout (the VM did not finish).
# MUTANTS="a b" runs those (names without .diff); MUTANT_TIMEOUT bounds
# each VM (s). Prints a table and the closing line; exits non-zero unless
# every mutant was killed. The tree is left as it was, and the VM kernel
# rebuilt from it.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

dir=$TOP/mutants
if [ -n "${MUTANTS:-}" ]; then
	read -ra names <<<"$MUTANTS"
else
	mapfile -t names < <(find "$dir" -maxdepth 1 -name "*.diff" -printf "%f\n" | sed 's/\.diff$//' | sort)
fi
[ ${#names[@]} -gt 0 ] || die "no mutants in ${dir#"$TOP"/}"
git -C "$TREE" diff --quiet HEAD ||
	die "${TREE#"$TOP"/} has uncommitted changes: commit or stash them first"

out=$RESULTS/mutants
rm -rf "$out"
mkdir -p "$out"
table=$out/table
: >"$table"
applied=
restore() {
	[ -z "$applied" ] || git -C "$TREE" apply -R "$applied"
	applied=
}
trap restore EXIT

header() {	# header FILE FIELD: the value of "# FIELD: ..."
	sed -n "s/^# $2: //p" "$1" | head -n1
}

# killed SUMMARY EXPECT KTAP...: did a killer fail for the mutant's reason?
# SUMMARY holds "FAIL name # reason" lines of the killers only.
killed() {
	local sum=$1 expect=$2
	shift 2
	grep -q '^FAIL ' "$sum" || return 1
	[ -z "$expect" ] || cat "$sum" "$@" 2>/dev/null | grep -qE -- "$expect"
}

# kunit_filter SUMMARY KILLERS...: the summary lines of the named KUnit
# suites or cases ("kunit:suite.case" in check.sh's summary)
kunit_lines() {
	local sum=$1 k
	shift
	for k in "$@"; do
		grep -E "^[A-Z]+ kunit:([^ ]*\.)?${k#kunit:}(\.| |$)" "$sum" || true
	done
}

for name in "${names[@]}"; do
	f=$dir/$name.diff
	[ -f "$f" ] || die "no mutant $name (${f#"$TOP"/})"
	read -ra killers <<<"$(header "$f" killers)"
	expect=$(header "$f" expect)
	[ ${#killers[@]} -gt 0 ] || die "$name: no '# killers:' line"
	step "mutant:$name"
	echo "breaks: $(header "$f" breaks)"
	start=$SECONDS
	res=$out/$name
	mkdir -p "$res"
	progs=() kunits=() console=
	for k in "${killers[@]}"; do
		case $k in
		kunit:*) kunits+=("$k") ;;
		console) console=1 ;;
		*) progs+=("$k") ;;
		esac
	done
	[ ${#progs[@]} -gt 0 ] || [ -z "$console" ] ||
		die "$name: a console killer needs a program to run"

	verdict=
	if ! git -C "$TREE" apply --check "$f" 2>"$res/apply.log"; then
		verdict=no-apply
	else
		git -C "$TREE" apply "$f"
		applied=$f
	fi

	if [ -z "$verdict" ] && [ ${#progs[@]} -eq 0 ]; then
		# KUnit only: UML, the build directory check-arch uses
		rc=0
		(cd "$TREE" && "$PYTHON" tools/testing/kunit/kunit.py run \
			--kunitconfig=net/core --build_dir="$BUILD/kunit-um$SFX" \
			--jobs="$JOBS" --timeout=900 --make_options="CC=ccache gcc" \
			--json="$res/kunit.json") >"$res/kunit.log" 2>&1 || rc=$?
		if [ ! -s "$res/kunit.json" ]; then
			grep -q "build failed\|Build Error\|error:" "$res/kunit.log" &&
				verdict=build-broken || verdict=timeout
		else
			"$PYTHON" - "$res/kunit.json" >"$res/summary.all" <<'PY'
import json, sys
def walk(group, path):
    for tc in group.get("test_cases", []):
        v = {"PASS": "PASS", "SKIP": "SKIP"}.get(tc.get("status"), "FAIL")
        print(f"{v} kunit:{'.'.join(path + [tc['name']])}")
    for sub in group.get("sub_groups", []):
        walk(sub, path + [sub["name"]])
walk(json.load(open(sys.argv[1])), [])
PY
			kunit_lines "$res/summary.all" "${kunits[@]}" >"$res/summary"
			killed "$res/summary" "$expect" "$res/kunit.log" && verdict=killed || verdict=survived
		fi
	elif [ -z "$verdict" ]; then
		if ! "$TOP"/scripts/build-kernel.sh >"$res/build.log" 2>&1; then
			verdict=build-broken
		else
			rc=0
			RESULTS=$res VM_ONLY=1 PROGRAMS="${progs[*]}" REQUIRED_PROGRAMS="${progs[*]}" \
				VM_TIMEOUT="${MUTANT_TIMEOUT:-2400}" \
				"$TOP"/scripts/check.sh >"$res/check.log" 2>&1 || rc=$?
			if grep -q "VM timed out" "$res/check.log"; then
				verdict=timeout
			else
				{
					for p in "${progs[@]}"; do
						grep -E "^[A-Z]+ ${p#*:}:" "$res/summary" || true
					done
					kunit_lines "$res/summary" "${kunits[@]}"
					[ -z "$console" ] || grep -E "^[A-Z]+ console" "$res/summary" || true
				} >"$res/summary.killers"
				ktaps=("$res/splats")
				for p in "${progs[@]}"; do
					ktaps+=("$res/ktap/${p//[:\/]/_}".ktap "$res/ktap/${p//[:\/]/_}".retry.ktap)
				done
				killed "$res/summary.killers" "$expect" "${ktaps[@]}" &&
					verdict=killed || verdict=survived
			fi
		fi
	fi
	restore
	secs=$((SECONDS - start))
	echo "$name: $verdict (${secs}s)"
	printf '%s\t%s\t%s\t%s\n' "$name" "${killers[*]}" "$verdict" "$secs" >>"$table"
done

step rebuild
"$TOP"/scripts/build-kernel.sh >"$out/rebuild.log" 2>&1 ||
	die "the unmutated kernel does not build (see ${out#"$TOP"/}/rebuild.log)"

step report
printf '%-36s %-9s %6s  %s\n' mutant result time "expected killers"
while IFS=$'\t' read -r name killers verdict secs; do
	printf '%-36s %-9s %5ss  %s\n' "$name" "$verdict" "$secs" "$killers"
done <"$table"
total=$(wc -l <"$table")
nkilled=$(awk -F'\t' '$3 == "killed"' "$table" | wc -l)
nsurv=$(awk -F'\t' '$3 == "survived"' "$table" | wc -l)
echo "$nkilled killed, $nsurv survived, $((total - nkilled - nsurv)) other, of $total mutants"
[ "$nkilled" -eq "$total" ]
