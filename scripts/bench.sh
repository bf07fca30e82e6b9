#!/bin/bash
# make bench: build each kernel a workload compares (the series, and the
# series up to just before the patches a workload measures) from the one
# work tree, boot each, run the workloads, print the figures side by side.
#
# Workloads:
#  devmem_alloc  KUnit devmem_bench: per-net_iov allocate+free cost and the
#                worst single allocation, 1 GiB binding as 1/1024/262144
#                scatterlist entries, 4096 net_iovs held.
#                alloc-base (gen_pool) vs series.
#  devmem_rx     devmem RX over netdevsim at rx-page-size 4/16/64 KiB,
#                256 MiB each from a hugepage udmabuf: net_iovs per MiB
#                and the receiver's system CPU per GiB. Series only (4 KiB
#                is what the baseline does).
#  devmem_tx     devmem TX over netdevsim, 256 MiB from a hugepage udmabuf:
#                frags per packet, the sender's CPU time in sendmsg() and
#                its whole system time per GiB,
#                tx-base (PAGE_SIZE net_iovs) vs series at netdevsim's
#                netmem TX frag limit of 4 KiB, 32 KiB and none.
. "$(dirname "$0")/lib.sh"

# The last patch of each baseline: the workload lands before what it measures.
ALLOC_BASE="net: devmem: add KUnit tests and an allocation benchmark for bindings"
TX_BASE="netdevsim: count the most netmem frags in a packet, zero the counters"

step bench-build
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes"
head=$(git -C "$TREE" rev-parse HEAD)
commit_of() {
	git -C "$TREE" log --format='%H %s' base..HEAD |
		awk -v s="$1" 'substr($0, 42) == s { print $1 }'
}
alloc_base=$(commit_of "$ALLOC_BASE")
tx_base=$(commit_of "$TX_BASE")
[ -n "$alloc_base" ] || die "no commit \"$ALLOC_BASE\" in base..HEAD"
[ -n "$tx_base" ] || die "no commit \"$TX_BASE\" in base..HEAD"
out=$BUILD/bench
mkdir -p "$out"
trap 'git -C "$TREE" checkout -q -B series "$head"' EXIT
"$TOP"/scripts/configure-kernel.sh >/dev/null
for k in alloc-base:"$alloc_base" tx-base:"$tx_base" series:"$head"; do
	name=${k%%:*} rev=${k#*:}
	git -C "$TREE" checkout -q --detach "$rev"
	start=$(date +%s)
	kmake bzImage >"$out/$name.build.log" 2>&1 ||
		die "$name kernel does not build (see build/bench/$name.build.log)"
	cp "$KOUT/arch/x86/boot/bzImage" "$out/$name.bzImage"
	echo "$name: $(git -C "$TREE" log -1 --format='%h %s' "$rev") ($(($(date +%s) - start)) s)"
done
git -C "$TREE" checkout -q -B series "$head"
trap - EXIT

step bench-run
# run NAME KERNEL GUEST-CMD PATTERN: boot, keep the lines matching PATTERN
run() {
	VM_KERNEL=$out/$2.bzImage VM_APPEND=${VM_APPEND:-kunit.enable=0} \
		"$TOP"/scripts/vm-run.sh "bench-$1" 1800 "$3" >/dev/null || true
	grep -o "bench: $4 .*" "$RESULTS/bench-$1.console" >"$out/$1" ||
		die "no $4 figures from $1 (see build/results/bench-$1.console)"
}
VM_APPEND="kunit.filter_glob=devmem_bench" run alloc-base alloc-base true devmem_alloc
VM_APPEND="kunit.filter_glob=devmem_bench" run alloc-series series true devmem_alloc
run rx-series series "$TOP/scripts/guest-bench-rx.sh" devmem_rx
run tx-base tx-base "$TOP/scripts/guest-bench-tx.sh" devmem_tx
run tx-series series "$TOP/scripts/guest-bench-tx.sh" devmem_tx
for f in rx-series tx-base tx-series; do
	grep -q "^bench ${f%-*}: ok" "$RESULTS/bench-$f.console" ||
		die "$f did not finish (see build/results/bench-$f.console)"
done

step report
calc() { awk "BEGIN { $1 }"; }
# field FILE SELECTOR FIELD: FIELD=N of the first line containing SELECTOR
field() { grep -F -- "$2 " "$1" | head -n1 | sed -n "s/.* $3=\([0-9]*\).*/\1/p"; }

printf '\ndevmem_alloc (KUnit, ns; ratio = gen_pool / freelist)\n'
printf '%-10s %16s %14s %9s %16s %14s %9s\n' entries "alloc+free base" series ratio \
	"worst alloc base" series ratio
for e in 1 1024 262144; do
	b=$(field "$out/alloc-base" "entries=$e" alloc_free_ns)
	s=$(field "$out/alloc-series" "entries=$e" alloc_free_ns)
	bw=$(field "$out/alloc-base" "entries=$e" worst_alloc_ns)
	sw=$(field "$out/alloc-series" "entries=$e" worst_alloc_ns)
	printf '%-10s %16s %14s %8.2fx %16s %14s %8.2fx\n' $e "$b" "$s" \
		"$(calc "print $b / $s")" "$bw" "$sw" "$(calc "print $bw / $sw")"
done
s1=$(field "$out/alloc-series" entries=1 alloc_free_ns)
s262=$(field "$out/alloc-series" entries=262144 alloc_free_ns)
b262=$(field "$out/alloc-base" entries=262144 alloc_free_ns)
echo "series cost at 262144 vs 1 entry: $(calc "printf \"%.2fx\", $s262 / $s1")" \
     "(target <= 1.2x): $(calc "print ($s262 / $s1 <= 1.2) ? \"met\" : \"MISSED\"")"
echo "gen_pool / freelist at 262144 entries: $(calc "printf \"%.0fx\", $b262 / $s262")" \
     "(target >= 10x): $(calc "print ($b262 / $s262 >= 10) ? \"met\" : \"MISSED\"")"

printf '\ndevmem_rx (series; netdevsim under QEMU; CPU = receiver system time)\n'
printf '%-12s %12s %10s %14s %10s\n' rx-page-size "net_iovs/MiB" "vs 4 KiB" \
	"sys ms/GiB" "vs 4 KiB"
rx() {	# rx SIZE: net_iovs per MiB and system ms per GiB
	local b n t
	b=$(field "$out/rx-series" "rx_page_size=$1" bytes)
	n=$(field "$out/rx-series" "rx_page_size=$1" niovs)
	t=$(field "$out/rx-series" "rx_page_size=$1" stime_us)
	calc "print $n / ($b / 1048576), $t / 1000 / ($b / 1073741824)"
}
read -r n4 c4 < <(rx 4096)
for size in 4096 16384 65536; do
	read -r n c < <(rx $size)
	printf '%-12s %12.1f %9.1fx %14.0f %+9.0f%%\n' $size "$n" \
		"$(calc "print $n4 / $n")" "$c" "$(calc "print ($c - $c4) / $c4 * 100")"
done
read -r n64 c64 < <(rx 65536)
echo "net_iovs per MiB, 4 KiB / 64 KiB: $(calc "printf \"%.1fx\", $n4 / $n64")" \
     "(target 16x): $(calc "print ($n4 / $n64 >= 15.9) ? \"met\" : \"MISSED\"")"
echo "receiver system CPU per GiB, 64 KiB vs 4 KiB:" \
     "$(calc "printf \"%+.0f%%\", ($c64 - $c4) / $c4 * 100") (target: falls):" \
     "$(calc "print ($c64 < $c4) ? \"met\" : \"MISSED\"")"

printf '\ndevmem_tx (netdevsim under QEMU, 2 MiB hugepage udmabuf; ms of sender CPU per GiB)\n'
printf '%-7s %-11s %12s %13s %9s %12s %8s %12s %8s\n' kernel "frag limit" "frags/packet" \
	"max frags/pkt" "max frag" "sendmsg ms" "vs base" "all sys ms" "vs base"
tx() {	# tx FILE LIMIT: mean frags, max frags, max frag, sendmsg and system ms per GiB
	local b k f m x t s
	b=$(field "$1" "limit=$2" bytes); k=$(field "$1" "limit=$2" skbs)
	f=$(field "$1" "limit=$2" frags); m=$(field "$1" "limit=$2" max_skb_frags)
	x=$(field "$1" "limit=$2" max_frag); t=$(field "$1" "limit=$2" stime_us)
	s=$(field "$1" "limit=$2" sendmsg_us)
	calc "g = $b / 1073741824; print $f / $k, $m, $x, $s / 1000 / g, $t / 1000 / g"
}
read -r fb mb xb sb cb < <(tx "$out/tx-base" none)
printf '%-7s %-11s %12.2f %13s %9s %12.0f %8s %12.0f %8s\n' base "(PAGE_SIZE)" \
	"$fb" "$mb" "$xb" "$sb" - "$cb" -
for limit in 4096 32768 4294967295; do
	read -r f m x s c < <(tx "$out/tx-series" $limit)
	printf '%-7s %-11s %12.2f %13s %9s %12.0f %+7.0f%% %12.0f %+7.0f%%\n' series "$limit" \
		"$f" "$m" "$x" "$s" "$(calc "print ($s - $sb) / $sb * 100")" \
		"$c" "$(calc "print ($c - $cb) / $cb * 100")"
done
read -r fu mu xu su cu < <(tx "$out/tx-series" 4294967295)
echo "frags per 64 KiB packet, no limit: $(calc "printf \"%.2f\", $fu") (target <= 1.2):" \
     "$(calc "print ($fu <= 1.2) ? \"met\" : \"MISSED\"")"
echo "sender CPU in sendmsg() per GiB, no limit vs base: $(calc "printf \"%+.0f%%\", ($su - $sb) / $sb * 100")" \
     "(target <= -40%): $(calc "print (($su - $sb) / $sb <= -0.4) ? \"met\" : \"MISSED\"")"
echo "sender system CPU per GiB (whole process), no limit vs base:" \
     "$(calc "printf \"%+.0f%%\", ($cu - $cb) / $cb * 100")" \
     "(target <= -40%): $(calc "print (($cu - $cb) / $cb <= -0.4) ? \"met\" : \"MISSED\"")"
