#!/bin/bash
# Print the versions the harness uses, and keep them in
# build/results/versions: the .debs in build/dl (the newest of each, as
# make-tree.sh and install-deps.sh take them), the base bases.pin names
# and the one build/linux was unpacked from, and the installed qemu.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

step versions
shopt -s nullglob
mkdir -p "$RESULTS"
out=$RESULTS/versions
{
	for p in "linux-source-$BASE" "linux-config-$BASE" virtme-ng liburing-dev liburing2 \
		 ethtool iproute2 bpftool; do
		debs=("$DL/${p}_"*.deb)
		[ ${#debs[@]} -gt 0 ] || die "no $p in build/dl: run 'make deps'"
		deb=$(printf '%s\n' "${debs[@]}" | sort -V | tail -n1)
		echo "$p $(dpkg-deb -f "$deb" Version)"
	done
	pinned=$(awk -v p="linux-source-$BASE" '$2 == p { print $3 }' "$TOP/bases.pin")
	if [ -s "$DL/unpinned-$BASE" ]; then
		echo "pinned linux-source-$BASE $pinned (not in the archive: $(cat "$DL/unpinned-$BASE") taken)"
	else
		echo "pinned linux-source-$BASE $pinned"
	fi
	echo "unpacked $(git -C "$TREE" log -1 --format=%s base 2>/dev/null || echo "(no ${TREE#"$TOP"/} yet)")"
	echo "qemu-system-x86 $(dpkg-query -W -f='${Version}' qemu-system-x86)"
	q=$(qemu-system-x86_64 --version)
	echo "qemu-system-x86_64 ${q%%$'\n'*}"
} >"$out.tmp"
mv "$out.tmp" "$out"
sed 's/^/  /' "$out"
