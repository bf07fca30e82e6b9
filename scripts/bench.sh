#!/bin/bash
# make bench: build the baseline kernel (the base plus the patches before
# the first one measured, i.e. netdevsim's and the benchmark itself) and
# the series kernel from the one work tree, boot each in the same
# invocation, run the same workloads, and print the figures side by side.
#
# Workloads:
#  devmem_alloc  KUnit devmem_bench: per-net_iov allocate+free cost and the
#                worst single allocation, 1 GiB binding as 1/1024/262144
#                scatterlist entries, 4096 net_iovs held.
. "$(dirname "$0")/lib.sh"

# Last patch of the baseline: the workload lands before what it measures.
BASELINE_SUBJECT="net: devmem: add KUnit tests and an allocation benchmark for bindings"

step bench-build
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes"
head=$(git -C "$TREE" rev-parse HEAD)
baseline=$(git -C "$TREE" log --format='%H %s' base..HEAD |
	   awk -v s="$BASELINE_SUBJECT" 'substr($0, 42) == s { print $1 }')
[ -n "$baseline" ] || die "no commit \"$BASELINE_SUBJECT\" in base..HEAD"
out=$BUILD/bench
mkdir -p "$out"
trap 'git -C "$TREE" checkout -q -B series "$head"' EXIT
"$TOP"/scripts/configure-kernel.sh >/dev/null
for k in baseline:"$baseline" series:"$head"; do
	name=${k%%:*} rev=${k#*:}
	git -C "$TREE" checkout -q --detach "$rev"
	kmake bzImage >"$out/$name.build.log" 2>&1 ||
		die "$name kernel does not build (see build/bench/$name.build.log)"
	cp "$KOUT/arch/x86/boot/bzImage" "$out/$name.bzImage"
	echo "$name: $(git -C "$TREE" log -1 --format='%h %s' "$rev")"
done
git -C "$TREE" checkout -q -B series "$head"
trap - EXIT

step bench-run
for name in baseline series; do
	VM_KERNEL=$out/$name.bzImage VM_APPEND="kunit.filter_glob=devmem_bench" \
		"$TOP"/scripts/vm-run.sh "bench-$name" 1200 true >/dev/null
	grep -o 'bench: devmem_alloc .*' "$RESULTS/bench-$name.console" >"$out/$name.alloc" ||
		die "no devmem_bench figures from the $name kernel"
done

step report
val() {	# val FILE ENTRIES FIELD
	sed -n "s/.*entries=$2 .*$3=\([0-9]*\).*/\1/p" "$1" | head -n1
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", b ? a / b : 0 }'; }
printf '\ndevmem_alloc (ns; ratio = baseline / series)\n'
printf '%-10s %16s %14s %9s %16s %14s %9s\n' entries "alloc+free base" series ratio \
	"worst alloc base" series ratio
for e in 1 1024 262144; do
	b=$(val "$out/baseline.alloc" $e alloc_free_ns)
	s=$(val "$out/series.alloc" $e alloc_free_ns)
	bw=$(val "$out/baseline.alloc" $e worst_alloc_ns)
	sw=$(val "$out/series.alloc" $e worst_alloc_ns)
	printf '%-10s %16s %14s %9s %16s %14s %9s\n' $e "$b" "$s" "$(ratio "$b" "$s")" \
		"$bw" "$sw" "$(ratio "$bw" "$sw")"
done
s1=$(val "$out/series.alloc" 1 alloc_free_ns)
s262=$(val "$out/series.alloc" 262144 alloc_free_ns)
b262=$(val "$out/baseline.alloc" 262144 alloc_free_ns)
flat=$(awk -v a="$s262" -v b="$s1" 'BEGIN { printf "%.2f", a / b }')
gain=$(awk -v a="$b262" -v b="$s262" 'BEGIN { printf "%.0f", a / b }')
echo "series cost at 262144 vs 1 entry: ${flat}x (target <= 1.2x):" \
     "$(awk -v f="$flat" 'BEGIN { print (f <= 1.2) ? "met" : "MISSED" }')"
echo "gen_pool / freelist at 262144 entries: ${gain}x (target >= 10x):" \
     "$(awk -v g="$gain" 'BEGIN { print (g >= 10) ? "met" : "MISSED" }')"
