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

ethtool -G "$lo" tcp-data-split on hds-thresh 0 2>/dev/null || true
port=5300
for size in $(for _ in $(seq "${BENCH_REPEATS:-1}"); do echo "${BENCH_RX_SIZES:-4096 16384 65536}"; done); do
	port=$((port + 1))
	before=$(counter rx_niovs)
	rx_run "$size" $port "$bytes" /tmp/bench-rx.log with_rusage || exit 1
	stime=$(sed -n 's/^stime_us=\([0-9]*\) .*/\1/p' /tmp/bench-rx.log)
	utime=$(sed -n 's/^stime_us=[0-9]* utime_us=\([0-9]*\)$/\1/p' /tmp/bench-rx.log)
	echo "bench: devmem_rx rx_page_size=$size bytes=$got niovs=$(($(counter rx_niovs) - before))" \
	     "stime_us=$stime utime_us=$utime ms=$ms"
done
echo "bench rx: ok"
