#!/bin/bash
# make check-fragments: the drivers/net suite as netdev's CI runs it, on a
# kernel built only from the target's config fragment the way its runner
# builds one (vng --kconfig -f tools/testing/selftests/drivers/net/config:
# virtme-ng's defaults plus the fragment, in tree, modules and all), not
# from this harness's configs/. The devmem and zcrx programs must pass as
# in make check; then every case is compared with make check's last run.
# Not in CI: a second kernel build and VM run.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

series=$RESULTS/summary
[ -s "$series" ] || die "no make check results to compare with: run 'make check' first"

step fragments-tree
# vng builds in the source tree: a worktree of build/linux at its HEAD
wt=$BUILD/linux-fragments$SFX
head=$(git -C "$TREE" rev-parse HEAD)
[ -d "$wt" ] || git -C "$TREE" worktree add -q --detach "$wt" "$head"
git -C "$wt" checkout -q --detach "$head"

step fragments-config
(cd "$wt" && "${VNG[@]}" --kconfig -f tools/testing/selftests/drivers/net/config) \
	>"$BUILD/kernel-fragments-config.log" 2>&1 ||
	die "vng --kconfig failed (see build/kernel-fragments-config.log)"
# What the fragment asks for and the kernel did not get
missing=()
while IFS= read -r opt; do
	case $opt in CONFIG_*=*) ;; *) continue ;; esac
	grep -qxF "$opt" "$wt/.config" ||
		{ [ "${opt#*=}" = m ] && grep -qxF "${opt%=m}=y" "$wt/.config"; } ||
		{ [ "${opt#*=}" = n ] && ! grep -q "^${opt%=n}=" "$wt/.config"; } ||
		missing+=("$opt")
done <"$wt/tools/testing/selftests/drivers/net/config"
[ ${#missing[@]} -eq 0 ] || echo "not in the kernel: ${missing[*]}"

step fragments-build
start=$SECONDS
make -C "$wt" -j"$JOBS" CC="ccache gcc" >"$BUILD/kernel-fragments-build.log" 2>&1 ||
	die "kernel build failed (see build/kernel-fragments-build.log)"
echo "kernel and modules built in $((SECONDS - start))s"

step fragments-check
# The selftests of make build (the same sources); vng finds the kernel
# and its modules in the tree.
rc=0
VM_KERNEL=$wt KUNIT=0 VM_ONLY=1 RESULTS=$BUILD/results-fragments$SFX \
	"$TOP"/scripts/check.sh >"$BUILD/check-fragments.log" 2>&1 || rc=$?
sed -n '/^---- results/,$p' "$BUILD/check-fragments.log"

step compare
"$TOP"/scripts/compare-results.sh "$series" "$BUILD/results-fragments$SFX/summary" || rc=1
exit $rc
