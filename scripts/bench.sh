#!/bin/bash
# make bench: the series and its baselines (the series up to just before
# what a workload measures), each built in its own worktree of build/linux
# (build/bench/<kernel>, detached at the kernel's commit; kbuild output in
# build/bench/<kernel>/kbuild, ccache, no debug info: configs/bench.config),
# all configured with the series' selftest fragment. Then BENCH_ROUNDS
# rounds (default 5), each booting every baseline and the series, so
# that a drift of the host shows as a drift across rounds, not as a
# difference between kernels; each boot runs its workloads BENCH_REPEATS
# times (default 3; the KUnit suites again through debugfs), so that each
# figure has rounds x repeats samples, and its range is the range of that
# many. bench-report.sh turns the runs into build/results/bench.txt. A run
# that fails is reported and left out of the figures; make bench then
# fails. A TX run that fails is run once more in the same boot, and the
# report lists it under "retried runs".
#
# The clock. Under KVM each guest has 2 vCPUs, the boots run one at a
# time, and their times are the host CPU's. Under TCG a guest's time
# follows the host's clock, so every figure moves with the host's speed,
# which drifts by 20% and more between runs on a shared host; there the
# guests run on QEMU's instruction counter instead (-icount
# shift=0,sleep=off): guest time advances 1 ns per guest instruction and
# skips idle waits, so a figure counts the instructions a workload
# executes, whatever the host does. Times are then instruction counts,
# not hardware times: memory stalls cost nothing. Such a guest runs on
# one host thread, so each has 1 vCPU (with 2, the vCPUs share one
# instruction clock and a process is charged for the other's work), and
# BENCH_JOBS boots (default: the host's cores) run side by side.
#
# Kernels and boots (the series' workloads in three boots, so that they
# spread over the jobs), and what each runs:
#  alloc-base   up to ALLOC_BASE (gen_pool): KUnit devmem_bench, allocation
#               through net_devmem_alloc_dmabuf() and through the page pool
#               refill path (mp_dmabuf_devmem_alloc_netmems()), 1 GiB
#               binding as 1/1024/262144 scatterlist entries
#  refill-base  up to just before REFILL_FIX: KUnit devmem_bench_refill,
#               a 4 MiB binding of 64 KiB net_iovs shared by 4 page pools
#  tx-base      up to TX_BASE (PAGE_SIZE TX net_iovs): devmem TX on netdevsim
#  series       HEAD of build/linux: all of the above (boots series-kunit,
#               series-tx), and devmem RX on netdevsim at rx-page-size
#               4/16/64 KiB (series-rx; 4 KiB is what every kernel before
#               the series does), TX at netdevsim's netmem TX frag limits
#               4 KiB, 32 KiB and none
# BENCH_RX_BYTES (128 MiB) and BENCH_TX_BYTES (256 MiB) are moved per run.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ALLOC_BASE="net: devmem: add KUnit tests and an allocation benchmark for bindings"
REFILL_FIX="net: devmem: give each bound queue its share of a binding"
TX_BASE="netdevsim: count the most netmem frags in a packet, zero the counters"
# the boots of a round, the longest first: the jobs start in this order
BOOTS=(series-rx alloc-base series-tx series-kunit tx-base refill-base)

rounds=${BENCH_ROUNDS:-5}
reps=${BENCH_REPEATS:-3}
rx_bytes=${BENCH_RX_BYTES:-$((128 << 20))}
tx_bytes=${BENCH_TX_BYTES:-$((256 << 20))}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS=$rounds is no number of rounds"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "BENCH_REPEATS=$reps is no number of repeats"
[ "$rounds" -ge 5 ] || echo "note: $rounds rounds, fewer than the 5 the figures are meant to have"
out=$BUILD/bench$SFX	# build/bench-7.3 for BASE=7.3
runs=$out/runs
started=$SECONDS

step bench-kernels
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	echo "note: build/linux has uncommitted changes: the bench measures its HEAD"
commit_of() {
	git -C "$TREE" log --format='%H %s' base..HEAD |
		awk -v s="$1" 'substr($0, 42) == s { print $1 }'
}
declare -A rev
rev[series]=$(git -C "$TREE" rev-parse HEAD)
rev[alloc-base]=$(commit_of "$ALLOC_BASE")
refill_fix=$(commit_of "$REFILL_FIX")
tx_base=$(commit_of "$TX_BASE")
[ -n "${rev[alloc-base]}" ] || die "no commit \"$ALLOC_BASE\" in base..HEAD"
[ -n "$refill_fix" ] || die "no commit \"$REFILL_FIX\" in base..HEAD"
[ -n "$tx_base" ] || die "no commit \"$TX_BASE\" in base..HEAD"
rev[refill-base]=$(git -C "$TREE" rev-parse "$refill_fix^")
rev[tx-base]=$tx_base

# worktree DIR COMMIT: DIR, a worktree of build/linux, detached at COMMIT. Only
# the files that differ are rewritten, so that kbuild rebuilds what
# changed. One that no longer belongs to build/linux (make tree made it
# again) is attached to it anew, its files and kbuild output kept.
worktree() {
	local dir=$1 at=$2 tmp common
	common=$(git -C "$dir" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	if [ -n "$common" ] && [ "$common" -ef "$TREE/.git" ]; then
		git -C "$dir" checkout -q -f --detach "$at"
		return
	fi
	git -C "$TREE" worktree prune
	mkdir -p "$dir"
	tmp=$(mktemp -u "$out/worktree-XXXXXX")
	git -C "$TREE" worktree add -q --no-checkout --detach "$tmp" "$at"
	rm -rf "$dir/.git"
	mv "$tmp/.git" "$dir/.git"
	rmdir "$tmp"
	git -C "$TREE" worktree repair "$dir" >/dev/null 2>&1
	git -C "$dir" reset -q			# the index, files untouched
	git -C "$dir" update-index -q --refresh >/dev/null || true
	git -C "$dir" reset -q --hard "$at"	# rewrites the files that differ
}

# build NAME: configure and build NAME's bzImage (TREE and KOUT are
# NAME's within: kmake builds there)
build() {
	local name=$1 dir=$out/$1 t=$SECONDS
	worktree "$dir" "${rev[$name]}"
	local TREE=$dir KOUT=$dir/kbuild
	TREE=$TREE KOUT=$KOUT TARGET_CONFIG=$out/series/tools/testing/selftests/drivers/net/config \
		"$TOP"/scripts/configure-kernel.sh "$TOP"/configs/bench.config \
		>"$out/$name.config.log" 2>&1 ||
		{ tail -n 20 "$out/$name.config.log"; die "$name: configuration failed (see ${out#"$TOP"/}/$name.config.log)"; }
	kmake bzImage >"$out/$name.build.log" 2>&1 ||
		{ grep -E "error|Error" "$out/$name.build.log" | head -n 20
		  die "$name kernel does not build (see ${out#"$TOP"/}/$name.build.log)"; }
	t=$((SECONDS - t))
	echo "kernel=$(printf '%-12s' "$name") $(git -C "$dir" log -1 --format='%h %s') (build ${t}s)" >>"$meta"
	builds="$builds $name ${t}s,"
	echo "$name: $(git -C "$dir" log -1 --format='%h %s') (${t}s)"
}

mkdir -p "$runs"
rm -f "$runs"/*
meta=$runs/meta
builds=
{
	echo "run_id=$(date +%s)-$$"
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "rounds=$rounds"
	echo "repeats=$reps"
	echo "order=${BOOTS[*]}"
	echo "host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
	echo "host_cores=$(nproc)"
	echo "vm_mem=${VM_MEM:-4G}"
	echo "rx_mib=$((rx_bytes >> 20))"
	echo "tx_mib=$((tx_bytes >> 20))"
} >"$meta"
# the series first: its selftest fragment configures every kernel, and
# its headers build ncdevmem
for name in series alloc-base refill-base tx-base; do
	build "$name"
done
echo "release=$(TREE=$out/series KOUT=$out/series/kbuild kmake -s kernelrelease)" >>"$meta"
src=$(find "$DL" -maxdepth 1 -name "linux-source-${BASE}_*.deb" 2>/dev/null | sort -V | tail -n1)
echo "source=${src:+Debian linux-source-$BASE $(dpkg-deb -f "$src" Version)}" >>"$meta"

step bench-ncdevmem
# The series' ncdevmem runs on every kernel: the same sender and receiver.
t=$SECONDS
TREE=$out/series KOUT=$out/series/kbuild kmake headers >"$out/ncdevmem.build.log" 2>&1 ||
	die "headers for ncdevmem (see ${out#"$TOP"/}/ncdevmem.build.log)"
mkdir -p "$out/selftests"
make -C "$out/series/tools/testing/selftests/drivers/net" OUTPUT="$out/selftests" \
	KHDR_INCLUDES="-isystem $out/series/kbuild/usr/include" HAS_IOURING_ZCRX=n \
	"$out/selftests/ncdevmem" >>"$out/ncdevmem.build.log" 2>&1 ||
	{ tail -n 20 "$out/ncdevmem.build.log"; die "ncdevmem does not build (see ${out#"$TOP"/}/ncdevmem.build.log)"; }
builds="$builds ncdevmem $((SECONDS - t))s"
echo "ncdevmem: built in $((SECONDS - t))s"
build_secs=$((SECONDS - started))

step bench-run
# (probed with the series' kernel if not known yet; vm-run.sh asks again)
accel=$(KOUT=$out/series/kbuild "$TOP"/scripts/detect-accel.sh)
if [ "$accel" = tcg ]; then
	export VM_QEMU_OPTS="-icount shift=0,sleep=off" VM_CPUS=${VM_CPUS:-1}
	njobs=${BENCH_JOBS:-$(nproc)}
	clock="icount: 1 ns per guest instruction"
else
	export VM_CPUS=${VM_CPUS:-2}
	njobs=${BENCH_JOBS:-1}
	clock="host"
fi
[[ $njobs =~ ^[1-9][0-9]*$ ]] || die "BENCH_JOBS=$njobs is no number of jobs"
{
	echo "accel=$accel"
	echo "clock=$clock"
	echo "vm_cpus=$VM_CPUS"
	echo "jobs=$njobs"
} >>"$meta"
ncdevmem=$out/selftests/ncdevmem
guest_env="BENCH_NCDEVMEM=$ncdevmem BENCH_RX_BYTES=$rx_bytes BENCH_TX_BYTES=$tx_bytes BENCH_REPEATS=$reps"
kunit="$guest_env $TOP/scripts/guest-bench-kunit.sh"
rx="$guest_env $TOP/scripts/guest-bench-rx.sh"
tx="$guest_env $TOP/scripts/guest-bench-tx.sh"
# (boots run side by side: each writes only its own files, and appends
# one line at a time to the shared ones)
fail() { echo "$*" >>"$runs/failures"; echo "FAILED: $*"; }

# boot ROUND BOOT: boot BOOT's kernel for its workloads; its "bench:"
# lines go to build/bench/runs/ROUND-BOOT, each with the repeat it
# belongs to (the Nth line of a workload and selector is of repeat N)
# and its kernel, whatever is missing to failures
boot() {
	local r=$1 name=$2 kernel=$2 vm=bench-r$1-$2 append cmd limit need markers w
	case $name in
	alloc-base)
		append="kunit.filter_glob=devmem_bench" cmd=$kunit limit=$((900 * reps)) markers=kunit
		need="devmem_alloc:3 devmem_pool:3" ;;
	refill-base)
		append="kunit.filter_glob=devmem_bench.devmem_bench_refill" cmd=$kunit
		limit=$((300 * reps)) markers=kunit need="devmem_refill:1" ;;
	tx-base)
		append="kunit.enable=0" cmd=$tx limit=$((600 * reps)) markers=tx
		need="devmem_tx:1" ;;
	series-kunit)
		kernel=series append="kunit.filter_glob=devmem_bench" cmd=$kunit limit=$((900 * reps)) markers=kunit
		need="devmem_alloc:3 devmem_pool:3 devmem_refill:1" ;;
	series-rx)
		kernel=series append="kunit.enable=0" cmd=$rx limit=$((1200 * reps)) markers=rx
		need="devmem_rx:3" ;;
	series-tx)
		kernel=series append="kunit.enable=0" cmd=$tx limit=$((900 * reps)) markers=tx
		need="devmem_tx:3" ;;
	esac
	local console=$RESULTS/$vm.console
	rm -f "$console"
	VM_KERNEL=$out/$kernel/kbuild/arch/x86/boot/bzImage VM_APPEND=$append \
		"$TOP"/scripts/vm-run.sh "$vm" "$limit" "$cmd" >"$runs/$vm.log" 2>&1 ||
		fail "round $r $name: the VM run failed: $(grep -m1 FAILED "$runs/$vm.log" ||
			tail -n1 "$runs/$vm.log") (see ${console#"$TOP"/})"
	[ -f "$console" ] || return 0
	# (the serial console ends its lines with CR LF)
	tr -d '\r' <"$console" | grep -o "bench: devmem_.*" |
		awk -v r="$r" -v k="$kernel" '{ print "round=" r, "rep=" ++n[$2 " " $3], "kernel=" k, $0 }' \
		>"$runs/$r-$name" || true
	# a TX run that failed and passed when run again (guest-bench-tx.sh)
	tr -d '\r' <"$console" | sed -n "s/^bench tx retry: /round $r $name: /p" >>"$runs/retries"
	for w in $need; do
		[ "$(grep -c "bench: ${w%:*} " "$runs/$r-$name")" -ge $((${w#*:} * reps)) ] ||
			fail "round $r $name: fewer than $((${w#*:} * reps)) ${w%:*} figures (see ${console#"$TOP"/})"
	done
	for w in $markers; do
		grep -q "^bench $w: ok" "$console" ||
			fail "round $r $name: $w did not finish: $(grep -m1 "^bench $w" "$console" || echo "no result line")"
	done
	# a KUnit case that failed, or a kernel splat, fails the run
	! grep -qE "^[[:space:]]*not ok [0-9]" "$console" ||
		fail "round $r $name: KUnit: $(grep -m1 -E "^[[:space:]]*not ok [0-9]" "$console" | sed 's/^[[:space:]]*//')"
	! grep -qE "$KERNEL_REPORTS" "$console" ||
		fail "round $r $name: kernel report: $(grep -m1 -E "$KERNEL_REPORTS" "$console" | cut -c1-120)"
}

# The rounds in turn; within one, up to $njobs boots at a time (each
# wait -n reaps one boot, whether it ended before or ends now)
t=$SECONDS
for r in $(seq "$rounds"); do
	running=0
	for name in "${BOOTS[@]}"; do
		if [ "$running" -ge "$njobs" ]; then
			wait -n || true
			running=$((running - 1))
		fi
		{ s=$SECONDS; boot "$r" "$name"; echo "round $r/$rounds $name: $((SECONDS - s))s"; } &
		running=$((running + 1))
	done
	wait
done
run_secs=$((SECONDS - t))

step report
echo "durations=builds${builds} (${build_secs}s); VM rounds ${run_secs}s; make bench $((SECONDS - started))s" >>"$meta"
"$TOP"/scripts/bench-report.sh
