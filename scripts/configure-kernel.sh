#!/bin/bash
# Write $KOUT/.config: allnoconfig plus the guest's base (configs/vm.config),
# the config fragment of the selftest target the VM runs, as netdev's CI
# builds its guests from it (the tree's drivers/net/config, modules built
# in: the guest loads none), the harness's KUnit and NIC driver fragments
# and any given on the command line; then verify that every requested
# option made it (Kconfig drops unmet ones silently).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

step configure
mkdir -p "$KOUT"
target=$TREE/tools/testing/selftests/drivers/net/config
[ -f "$target" ] || die "no $target in build/linux"
{
	cat "$TOP"/configs/vm.config
	sed 's/=m$/=y/' "$target"
	cat "$TOP"/configs/kunit.config "$TOP"/configs/nic-drivers.config "$@"
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

missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) opt=${line%%=*}
		grep -q "^$opt=" "$KOUT/.config" && { echo "set but asked off: $line"; missing=1; } ;;
	CONFIG_*=*)
		grep -qx "$line" "$KOUT/.config" || { echo "not set: $line"; missing=1; } ;;
	esac
done <"$KOUT/fragment.config"
[ $missing -eq 0 ] || die "config options above did not stick (unmet Kconfig dependencies)"
echo "config: $(grep -c '=y' "$KOUT/.config") built-in, $(grep -c '=m' "$KOUT/.config") modules"
