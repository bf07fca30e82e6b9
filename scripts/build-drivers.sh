#!/bin/bash
# Compile-test the four NIC drivers the series touches (mlx5 core with en,
# bnxt_en, fbnic, gve) with W=1: each driver's main object, plus every
# object of theirs that the series changes.  Warnings go to
# build/results/drivers-w1.txt.
# shellcheck source-path=SCRIPTDIR source=lib.sh
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
out=$RESULTS/drivers-w1.new
kmake W=1 "${objs[@]}" >"$out" 2>&1 ||
	{ grep -E "error" "$out" | head -n 20; mv "$out" "$log"
	  die "driver compile test failed (see ${log#"$TOP"/})"; }
# kbuild compiles only what changed: when it compiled none of the
# objects, their warnings are those of the build before, kept in the log
if grep -qE '^ +CC( \[M\])? +drivers/net/ethernet/' "$out" || [ ! -f "$log" ]; then
	mv "$out" "$log"
	when=
else
	rm -f "$out"
	when=" (unchanged since they were last built)"
fi
n=$(grep -c 'warning:' "$log" || true)
see=
[ "$n" = 0 ] || see=": see ${log#"$TOP"/}"
echo "drivers: ${#objs[@]} objects built with W=1, $n warnings$when$see"
