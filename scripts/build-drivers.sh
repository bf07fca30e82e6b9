#!/bin/bash
# Compile-test the four NIC drivers the series touches (mlx5 core with en,
# bnxt_en, fbnic, gve) with W=1: each driver's main object, plus every
# object of theirs that the series changes.  Warnings go to
# build/results/drivers-w1.txt.
. "$(dirname "$0")/lib.sh"

step drivers
dirs=(drivers/net/ethernet/mellanox/mlx5/core drivers/net/ethernet/broadcom/bnxt
      drivers/net/ethernet/meta/fbnic drivers/net/ethernet/google/gve)
objs=(drivers/net/ethernet/mellanox/mlx5/core/en_main.o
      drivers/net/ethernet/broadcom/bnxt/bnxt.o
      drivers/net/ethernet/meta/fbnic/fbnic_txrx.o
      drivers/net/ethernet/google/gve/gve_main.o)
while read -r f; do
	case $f in *.c) objs+=("${f%.c}.o") ;; esac
done < <(git -C "$TREE" diff --name-only --diff-filter=AM base..HEAD -- "${dirs[@]}")
mapfile -t objs < <(printf '%s\n' "${objs[@]}" | sort -u)
mkdir -p "$RESULTS"
log=$RESULTS/drivers-w1.txt
kmake W=1 "${objs[@]}" >"$log" 2>&1 ||
	{ grep -E "error" "$log" | head -n 20; die "driver compile test failed (see ${log#$TOP/})"; }
echo "drivers: ${#objs[@]} objects built with W=1, $(grep -c 'warning:' "$log" || true) warnings"
