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
#   # shares-boot: yes (optional) the break shows only in its killers,
#   #   so it may be applied next to others and run in their VM boot
# Mutants whose killers are all KUnit run under UML (kunit.py, the
# series' .kunitconfig files), one at a time. The others boot the VM kernel
# and run their programs through check.sh (KUnit runs at boot there
# too): alone, or, if they say shares-boot and have an expect regex, up
# to MUTANT_GROUP (4) of them in one boot, when no two share a killer or
# a file. Each is then judged on its own killers only.
# Killed: a killer failed and printed the expect regex. Otherwise
# survived, or: no-apply (the diff does not apply to the tree),
# build-broken, timeout (the VM did not finish).
# The killers run once: a failure is not run again.
# MUTANTS="a b" runs those (names without .diff); MUTANT_PLAN=1 prints
# which run under UML and which share a boot, and stops; MUTANT_TIMEOUT bounds
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
applied=()
restore() {
	local i
	for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
		git -C "$TREE" apply -R "${applied[i]}"
	done
	applied=()
}
trap restore EXIT

header() {	# header FILE FIELD: the value of "# FIELD: ..."
	sed -n "s/^# $2: //p" "$1" | head -n1
}

declare -A KILLERS EXPECT SHARES FILES
for name in "${names[@]}"; do
	f=$dir/$name.diff
	[ -f "$f" ] || die "no mutant $name (${f#"$TOP"/})"
	KILLERS[$name]=$(header "$f" killers)
	[ -n "${KILLERS[$name]}" ] || die "$name: no '# killers:' line"
	EXPECT[$name]=$(header "$f" expect)
	SHARES[$name]=$(header "$f" shares-boot)
	FILES[$name]=$(sed -n 's|^+++ b/||p' "$f" | sort -u | tr '\n' ' ')
	case " ${KILLERS[$name]} " in
	*" console "*)
		[[ " ${KILLERS[$name]} " = *" "[!k]*:* ]] ||
			die "$name: a console killer needs a program to run" ;;
	esac
done

# record NAME VERDICT SECONDS BOOT: a row of the table
record() {
	echo "$1: $2 (${3}s)"
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "${KILLERS[$1]}" "$2" "$3" "$4" >>"$table"
}

# killed SUMMARY EXPECT KTAP...: did a killer fail for the mutant's reason?
# SUMMARY holds "FAIL name # reason" lines of the killers only.
killed() {
	local sum=$1 expect=$2
	shift 2
	grep -q '^FAIL ' "$sum" || return 1
	# -s: a program that passed has no .retry.ktap
	[ -z "$expect" ] || grep -qsE -- "$expect" "$sum" "$@"
}

# kunit_lines SUMMARY KILLERS...: the summary lines of the named KUnit
# suites or cases ("kunit:suite.case" in check.sh's summary)
kunit_lines() {
	local sum=$1 k
	shift
	for k in "$@"; do
		case $k in kunit:*) ;; *) continue ;; esac
		grep -E "^[A-Z]+ kunit:([^ ]*\.)?${k#kunit:}(\.| |$)" "$sum" || true
	done
}

progs_of() {	# progs_of NAME: its selftest program killers
	local k
	for k in ${KILLERS[$1]}; do
		case $k in kunit:* | console) ;; *) echo "$k" ;; esac
	done
}

# apply NAME RES: apply the mutant, or record it as no-apply
apply() {
	local f=$dir/$1.diff
	mkdir -p "$2"
	if git -C "$TREE" apply --check "$f" 2>"$2/apply.log"; then
		git -C "$TREE" apply "$f"
		applied+=("$f")
		return 0
	fi
	record "$1" no-apply 0 -
	return 1
}

# run_uml NAME: a mutant whose killers are all KUnit, under UML
run_uml() {
	local name=$1 res=$out/$1 start=$SECONDS verdict
	step "mutant:$name (UML)"
	echo "breaks: $(header "$dir/$name.diff" breaks)"
	apply "$name" "$res" || return 0
	(cd "$TREE" && "$PYTHON" tools/testing/kunit/kunit.py run \
		"${KUNITCONFIGS[@]}" --build_dir="$BUILD/kunit-um$SFX" \
		--jobs="$JOBS" --timeout=900 --make_options="CC=ccache gcc" \
		--json="$res/kunit.json") >"$res/kunit.log" 2>&1 || true
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
		# shellcheck disable=SC2086 # the killers are words
		kunit_lines "$res/summary.all" ${KILLERS[$name]} >"$res/summary"
		killed "$res/summary" "${EXPECT[$name]}" "$res/kunit.log" &&
			verdict=killed || verdict=survived
	fi
	restore
	record "$name" "$verdict" $((SECONDS - start)) UML
}

# judge NAME RES: killed or survived, on NAME's killers in boot RES
judge() {
	local name=$1 res=$2 p ktaps=("$2/splats") mine=$out/$1
	mkdir -p "$mine"
	{
		for p in $(progs_of "$name"); do
			grep -E "^[A-Z]+ ${p#*:}:" "$res/summary" || true
		done
		# shellcheck disable=SC2086 # the killers are words
		kunit_lines "$res/summary" ${KILLERS[$name]}
		[[ " ${KILLERS[$name]} " != *" console "* ]] ||
			grep -E "^[A-Z]+ console" "$res/summary" || true
	} >"$mine/summary.killers"
	for p in $(progs_of "$name"); do
		ktaps+=("$res/ktap/${p//[:\/]/_}".ktap "$res/ktap/${p//[:\/]/_}".retry.ktap)
	done
	killed "$mine/summary.killers" "${EXPECT[$name]}" "${ktaps[@]}" &&
		echo killed || echo survived
}

# run_boot BOOT NAME...: the mutants applied together, one build, their
# programs in one VM boot
run_boot() {
	local boot=$1 res=$out/$1 start=$SECONDS name progs=() ok=() secs
	shift
	step "mutants:$boot ($*)"
	for name; do
		echo "$name breaks: $(header "$dir/$name.diff" breaks)"
		apply "$name" "$res" || continue
		ok+=("$name")
		mapfile -t -O "${#progs[@]}" progs < <(progs_of "$name")
	done
	[ ${#ok[@]} -gt 0 ] || return 0
	if ! "$TOP"/scripts/build-kernel.sh >"$res/build.log" 2>&1; then
		restore
		for name in "${ok[@]}"; do
			record "$name" build-broken $((SECONDS - start)) "$boot"
		done
		return 0
	fi
	RESULTS=$res VM_ONLY=1 PROGRAMS="${progs[*]}" REQUIRED_PROGRAMS="${progs[*]}" \
		NO_RETRY="${progs[*]}" VM_TIMEOUT="${MUTANT_TIMEOUT:-2400}" \
		"$TOP"/scripts/check.sh >"$res/check.log" 2>&1 || true
	restore
	secs=$((SECONDS - start))
	for name in "${ok[@]}"; do
		if grep -q "VM timed out" "$res/check.log"; then
			record "$name" timeout "$secs" "$boot"
		else
			record "$name" "$(judge "$name" "$res")" "$secs" "$boot"
		fi
	done
}

# can_join "NAME..." NAME: may NAME share the boot of the mutants listed?
can_join() {
	local group=$1 name=$2 m k
	[ "${SHARES[$name]}" = yes ] && [ -n "${EXPECT[$name]}" ] || return 1
	[ "$(wc -w <<<"$group")" -lt "${MUTANT_GROUP:-4}" ] || return 1
	for m in $group; do
		[ "${SHARES[$m]}" = yes ] && [ -n "${EXPECT[$m]}" ] || return 1
		for k in ${KILLERS[$name]}; do
			[[ " ${KILLERS[$m]} " != *" $k "* ]] || return 1
		done
		for k in ${FILES[$name]}; do
			[[ " ${FILES[$m]} " != *" $k "* ]] || return 1
		done
	done
}

uml=() groups=()
for name in "${names[@]}"; do
	if [ -z "$(progs_of "$name")" ]; then
		uml+=("$name")
		continue
	fi
	for i in "${!groups[@]}"; do
		if can_join "${groups[i]}" "$name"; then
			groups[i]+=" $name"
			continue 2
		fi
	done
	groups+=("$name")
done
step plan
echo "UML: ${uml[*]:-none}"
for i in "${!groups[@]}"; do
	echo "boot$((i + 1)): ${groups[i]}"
done
echo "${#names[@]} mutants: ${#uml[@]} under UML, ${#groups[@]} VM boots"
[ "${MUTANT_PLAN:-0}" = 0 ] || exit 0

for name in "${uml[@]}"; do
	run_uml "$name"
done
for i in "${!groups[@]}"; do
	# shellcheck disable=SC2086 # the group is words
	run_boot "boot$((i + 1))" ${groups[i]}
done

step rebuild
"$TOP"/scripts/build-kernel.sh >"$out/rebuild.log" 2>&1 ||
	die "the unmutated kernel does not build (see ${out#"$TOP"/}/rebuild.log)"

step report
printf '%-30s %-12s %6s %-6s  %s\n' mutant result time boot "expected killers"
while IFS=$'\t' read -r name killers verdict secs boot; do
	printf '%-30s %-12s %5ss %-6s  %s\n' "$name" "$verdict" "$secs" "$boot" "$killers"
done <"$table"
total=$(wc -l <"$table")
nkilled=$(awk -F'\t' '$3 == "killed"' "$table" | wc -l)
nsurv=$(awk -F'\t' '$3 == "survived"' "$table" | wc -l)
echo "$nkilled killed, $nsurv survived, $((total - nkilled - nsurv)) other, of $total mutants in $((SECONDS / 60)) min"
[ "$nkilled" -eq "$total" ]
