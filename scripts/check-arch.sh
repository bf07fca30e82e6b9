#!/bin/bash
# make check-arch: the series on other page and word sizes.
#  - the devmem and netdevsim KUnit suites (net/core/.kunitconfig,
#    drivers/net/netdevsim/.kunitconfig) with kunit.py on UML, its default
#    architecture;
#  - the same on arm64 with 64 KiB pages, cross-built with Debian's
#    gcc-aarch64-linux-gnu and run under qemu-system-aarch64;
#  - the objects the series touches, built for i386 with W=1: no warning.
# Prints PASS/FAIL per check with the KUnit counts, and the closing line.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=postings.sh
. "$(dirname "$0")/postings.sh"

step arch-deps
apt_install "$BUILD/apt-arch.log" gcc-aarch64-linux-gnu qemu-system-arm

out=$RESULTS/arch
mkdir -p "$out"
pass=0 fail=0
result() {	# result NAME OK DETAIL
	if [ "$2" = 0 ]; then
		echo "PASS $1: $3"; pass=$((pass + 1))
	else
		echo "FAIL $1: $3"; fail=$((fail + 1))
	fi
}

# kunit NAME ARGS...: kunit.py run of the series' .kunitconfig files
kunit() {
	local name=$1 rc=0 counts
	shift
	step "kunit-$name"
	(cd "$TREE" && "$PYTHON" tools/testing/kunit/kunit.py run \
		"${KUNITCONFIGS[@]}" --build_dir="$BUILD/kunit-$name$SFX" \
		--jobs="$JOBS" --timeout=900 "$@") >"$out/kunit-$name.log" 2>&1 || rc=$?
	counts=$(grep -E "^\[[0-9:]+\] Testing complete\." "$out/kunit-$name.log" |
		 sed 's/^\[[0-9:]*\] //' | tail -n1)
	result "kunit-$name" $rc "${counts:-no results} (${out#"$TOP"/}/kunit-$name.log)"
}

kunit um --make_options="CC=ccache gcc"
kunit arm64-64k --arch=arm64 --cross_compile=aarch64-linux-gnu- \
	--make_options="CC=ccache aarch64-linux-gnu-gcc" \
	--kconfig_add CONFIG_ARM64_64K_PAGES=y

# i386: allnoconfig with the VM's fragments (64BIT off), COMPILE_TEST for
# the NIC drivers that are 64-bit only otherwise.
step i386
"$TOP"/scripts/configure-kernel.sh >/dev/null
dir=$BUILD/kbuild-i386$SFX
mkdir -p "$dir"
{ grep -v '^CONFIG_64BIT=' "$KOUT/fragment.config"; echo CONFIG_COMPILE_TEST=y; } >"$dir/arch.fragment"
KCONFIG_ALLCONFIG="$dir/arch.fragment" make -C "$TREE" O="$dir" ARCH=i386 allnoconfig \
	>"$out/i386-config.log" 2>&1 || die "i386 allnoconfig failed (see ${out#"$TOP"/}/i386-config.log)"
mapfile -t files < <(git -C "$TREE" diff --name-only --diff-filter=AM base..HEAD -- '*.c' \
	':!tools' ':!scripts' ':!samples')
objs=()
for f in "${files[@]}"; do own_object "$TREE" "$f" && objs+=("${f%.c}.o"); done
for o in "${objs[@]}"; do rm -f "$dir/$o"; done
make -C "$TREE" O="$dir" ARCH=i386 -j"$JOBS" CC="ccache gcc" W=1 -k "${objs[@]}" \
	>"$out/i386.log" 2>&1 || true
built=0 absent=()
for o in "${objs[@]}"; do
	if [ -f "$dir/$o" ]; then built=$((built + 1)); else absent+=("$o"); fi
done
# findings FILE TREE: the warnings of a build log, without the tree's path
# and line numbers, sorted
findings() {
	grep -E ': (warning|error): ' "$1" | sed -E "s|^$2/||; s|:[0-9]+:[0-9]+:|:|" | sort
}
warn=$(grep -cE ': (warning|error): ' "$out/i386.log" || true)
errs=$(grep -cE '\*\*\* \[.*Error' "$out/i386.log" || true)
new=$warn
if [ "$warn" -gt 0 ]; then
	# Warnings the base has too are not the series': build the same
	# objects on the pristine base (a worktree at "base") and count only
	# the others.
	bwt=$BUILD/linux-base$SFX
	[ -d "$bwt" ] || git -C "$TREE" worktree add -q --detach "$bwt" base
	git -C "$bwt" checkout -q --detach base
	bdir=$BUILD/kbuild-i386-base$SFX
	mkdir -p "$bdir"
	KCONFIG_ALLCONFIG="$dir/arch.fragment" make -C "$bwt" O="$bdir" ARCH=i386 allnoconfig \
		>"$out/i386-base-config.log" 2>&1 || die "i386 allnoconfig of the base failed"
	for o in "${objs[@]}"; do rm -f "$bdir/$o"; done
	make -C "$bwt" O="$bdir" ARCH=i386 -j"$JOBS" CC="ccache gcc" W=1 -k "${objs[@]}" \
		>"$out/i386-base.log" 2>&1 || true
	comm -23 <(findings "$out/i386.log" "$TREE") <(findings "$out/i386-base.log" "$bwt") \
		>"$out/i386.new"
	new=$(wc -l <"$out/i386.new")
fi
rc=0
[ "$new" -eq 0 ] && [ "$errs" -eq 0 ] || rc=1
result i386-w1 $rc "$built objects built with W=1, $warn warnings, $new not on the base${absent:+; not in the i386 config: ${absent[*]}} (${out#"$TOP"/}/i386.log$([ "$warn" -gt 0 ] && echo ", i386.new"))"

echo "$pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
