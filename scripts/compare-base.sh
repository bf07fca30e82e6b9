#!/bin/bash
# make compare-base: does the series change any result of the drivers/net
# suite? Builds the pristine base (build/linux-base, a worktree at the
# "base" tag) with the series kernel's config, and its selftests, runs its
# drivers/net programs the way make check does (NETIF unset: netdevsim),
# and compares the results case by case with make check's last run.
# Programs the series adds or moves (devmem, zcrx) exist on one side only.
# Not in CI: a second kernel build and VM run (about 30 minutes).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

series=$RESULTS/summary
kernel=$KOUT/arch/x86/boot/bzImage
{ [ -s "$series" ] && [ "$series" -nt "$kernel" ]; } ||
	die "no make check results for the current kernel: run 'make check' first"

step base-tree
wt=$BUILD/linux-base$SFX
if [ ! -d "$wt" ]; then
	git -C "$TREE" worktree add -q --detach "$wt" base
fi
[ "$(git -C "$wt" rev-parse HEAD)" = "$(git -C "$TREE" rev-parse base)" ] ||
	git -C "$wt" checkout -q --detach base

step base-build
config=$KOUT/.config
export TREE=$wt KOUT=$BUILD/kbuild-base$SFX KSELFTEST=$BUILD/kselftest-base$SFX
export KSELFTEST_HW=$BUILD/kselftest-hw-base$SFX
export RESULTS=$BUILD/results-base$SFX
mkdir -p "$KOUT"
cp "$config" "$KOUT/.config"
kmake olddefconfig >/dev/null
start=$SECONDS
kmake bzImage >"$BUILD/kernel-base-build.log" 2>&1 ||
	die "base kernel build failed (see build/kernel-base-build.log)"
echo "base kernel built in $((SECONDS - start))s"
SELFTEST_BINS="drivers/net/hw/ncdevmem drivers/net/hw/iou-zcrx" \
	"$TOP"/scripts/build-selftests.sh

step base-check
# Nothing is required of the base: its devmem tests are in hw/.
rc=0
VM_ONLY=1 REQUIRED_PROGRAMS="" "$TOP"/scripts/check.sh >"$BUILD/check-base.log" 2>&1 || rc=$?
tail -n 1 "$BUILD/check-base.log"
[ -s "$RESULTS/summary" ] || die "no results from the base (see build/check-base.log)"

step compare
"$TOP"/scripts/compare-results.sh "$RESULTS/summary" "$series"
