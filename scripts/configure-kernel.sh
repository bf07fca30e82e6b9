#!/bin/bash
# Write $KOUT/.config: allnoconfig plus the fragments in configs/, then
# verify every requested option made it (Kconfig drops unmet ones silently).
. "$(dirname "$0")/lib.sh"

step configure
mkdir -p "$KOUT"
frags=("$TOP"/configs/vm.config "$TOP"/configs/devmem.config
       "$TOP"/configs/nic-drivers.config "$@")
cat "${frags[@]}" >"$KOUT/fragment.config"

new=$KOUT/.config.new
KCONFIG_ALLCONFIG="$KOUT/fragment.config" \
	make -C "$TREE" O="$KOUT" KCONFIG_CONFIG=.config.new allnoconfig >/dev/null
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
