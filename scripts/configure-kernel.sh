#!/bin/bash
# Write $KOUT/.config: allnoconfig plus the guest's base (configs/vm.config,
# and configs/vm-$BASE.config for what has another name on each base),
# the config fragment of the selftest target the VM runs, as netdev's CI
# builds its guests from it (the tree's drivers/net/config, modules built
# in: the guest loads none), the harness's KUnit, NIC driver and fault
# injection fragments and any given on the command line; then verify
# that every requested option made it (Kconfig drops unmet ones
# silently). A fragment can override an earlier one: the last assignment
# of an option is the one Kconfig takes, and the one verified.
# TARGET_CONFIG is the selftest fragment (default: TREE's), so that make
# bench configures its baselines with the series' fragment.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

step configure
mkdir -p "$KOUT"
target=${TARGET_CONFIG:-$TREE/tools/testing/selftests/drivers/net/config}
[ -f "$target" ] || die "no selftest config fragment $target"
{
	cat "$TOP"/configs/vm.config "$TOP/configs/vm-$BASE.config"
	sed 's/=m$/=y/' "$target"
	cat "$TOP"/configs/kunit.config "$TOP"/configs/nic-drivers.config \
	    "$TOP"/configs/fault-injection.config "$@"
} >"$KOUT/fragment.config"

new=$KOUT/.config.new
# (Options set twice, by the guest's base and by the target, are expected:
# the warnings go to the log.)
KCONFIG_ALLCONFIG="$KOUT/fragment.config" \
	make -C "$TREE" O="$KOUT" KCONFIG_CONFIG=.config.new allnoconfig \
	>"$KOUT/configure.log" 2>&1 || { cat "$KOUT/configure.log"; die "allnoconfig failed"; }
if [ -f "$KOUT/.config" ] && cmp -s "$new" "$KOUT/.config"; then
	rm -f "$new"	# unchanged: keep the timestamp, nothing to rebuild
else
	mv "$new" "$KOUT/.config"
fi

# The last assignment of each option, in the order they were first given
# ("# CONFIG_X is not set" is CONFIG_X=n)
last_assignments() {
	sed -n -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' \
	       -e '/^CONFIG_[A-Za-z0-9_]*=/p' "$1" |
		awk -F= '!($1 in v) { order[++n] = $1 } { v[$1] = $0 }
			 END { for (i = 1; i <= n; i++) print v[order[i]] }'
}
missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) opt=${line%%=*}
		grep -q "^$opt=" "$KOUT/.config" && { echo "set but asked off: $line"; missing=1; } ;;
	CONFIG_*=*)
		grep -qx "$line" "$KOUT/.config" || { echo "not set: $line"; missing=1; } ;;
	esac
done < <(last_assignments "$KOUT/fragment.config")
[ $missing -eq 0 ] || die "config options above did not stick (unmet Kconfig dependencies)"
echo "config: $(grep -c '=y' "$KOUT/.config") built-in, $(grep -c '=m' "$KOUT/.config") modules"
