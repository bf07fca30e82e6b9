#!/bin/bash
# Runs inside the VM (see bench.sh): devmem RX over two netdevsim peers at
# each rx-page-size in BENCH_RX_SIZES, BENCH_RX_BYTES each, into a udmabuf
# backed by 2 MiB huge pages, payload verified (ncdevmem -v 7); the sizes
# in turn, BENCH_REPEATS times. Prints one line per run: the net_iovs
# netdevsim filled and the receiver's (ncdevmem's, the whole process)
# system and user CPU time; then "bench rx: ok". BENCH_NCDEVMEM is the
# ncdevmem to run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ncdevmem=${BENCH_NCDEVMEM:-$top/build/kselftest/drivers/net/ncdevmem}
bytes=${BENCH_RX_BYTES:-$((256 << 20))}
. "$top"/scripts/guest-nsim-pair.sh
trap nsim_pair_remove EXIT

echo 128 >/proc/sys/vm/nr_hugepages
ethtool -G "$lo" tcp-data-split on hds-thresh 0 2>/dev/null || true
port=5300
for size in $(for _ in $(seq "${BENCH_REPEATS:-1}"); do echo "${BENCH_RX_SIZES:-4096 16384 65536}"; done); do
	port=$((port + 1))
	before=$(counter rx_niovs)
	with_rusage "$ncdevmem" -l -f "$lo" -s 2001:db8::1 -c 2001:db8::2 \
		-p $port -v 7 -Q -H -b "$size" 2>/tmp/bench-rx.log &
	rx=$!
	wait_listen $port || { cat /tmp/bench-rx.log; echo "bench rx: no listener"; exit 1; }
	start=$(now_ms)
	ip netns exec peer bash -c "yes \$(echo -e '\\x01\\x02\\x03\\x04\\x05\\x06') |
		head -c $bytes | socat -u - TCP6:[2001:db8::1]:$port,bind=[2001:db8::2]:$port"
	wait $rx || { tail -n 5 /tmp/bench-rx.log; echo "bench rx $size: FAILED"; exit 1; }
	ms=$(($(now_ms) - start))
	got=$(sed -n 's/^total_received=//p' /tmp/bench-rx.log | tail -n1)
	[ "$got" = "$bytes" ] || { echo "bench rx $size: received $got of $bytes"; exit 1; }
	stime=$(sed -n 's/^stime_us=\([0-9]*\) .*/\1/p' /tmp/bench-rx.log)
	utime=$(sed -n 's/^stime_us=[0-9]* utime_us=\([0-9]*\)$/\1/p' /tmp/bench-rx.log)
	echo "bench: devmem_rx rx_page_size=$size bytes=$got niovs=$(($(counter rx_niovs) - before))" \
	     "stime_us=$stime utime_us=$utime ms=$ms"
done
echo "bench rx: ok"
