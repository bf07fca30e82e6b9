#!/bin/bash
# Exit 0 when base..HEAD in build/linux carries the same changes as
# patches/ (compared by git patch-id, so messages may differ).
. "$(dirname "$0")/lib.sh"

tree_ids() {
	git -C "$TREE" rev-list --reverse base..HEAD | while read -r c; do
		git -C "$TREE" show --format= "$c" | git patch-id --stable | cut -d' ' -f1
	done
}
patch_ids() {
	[ -s "$PATCHES/series" ] || return 0
	grep -v '^#' "$PATCHES/series" | while read -r p; do
		[ -n "$p" ] && git patch-id --stable <"$PATCHES/$p" | cut -d' ' -f1
	done
}
[ "$(tree_ids)" = "$(patch_ids)" ]
