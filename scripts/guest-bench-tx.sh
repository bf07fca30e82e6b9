#!/bin/bash
# Runs inside the VM (see bench.sh): devmem TX over two netdevsim peers,
# BENCH_TX_BYTES at each netmem TX frag limit in BENCH_TX_LIMITS
# (netdevsim's debugfs knob; a kernel without it runs at "none"), the
# limits in turn, BENCH_REPEATS times.
# The sender (ncdevmem -r, BENCH_NCDEVMEM) writes its payload into a
# udmabuf of 2 MiB huge pages once and sends from it, with no pipe and no
# copy per message; the peer counts what arrives. Prints one line per
# run: packets and frags (netdevsim's counters), the sender's system CPU
# time, of the whole process and of its send loop, and its CPU time in
# sendmsg(); then "bench tx: ok".
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ncdevmem=${BENCH_NCDEVMEM:-$top/build/kselftest/drivers/net/ncdevmem}
bytes=${BENCH_TX_BYTES:-$((256 << 20))}
. "$top"/scripts/guest-nsim-pair.sh

knob=$(dirname "$dfs")/netmem_tx_max_frag
limits=${BENCH_TX_LIMITS:-4096 32768 4294967295}
[ -e "$knob" ] || limits=none
port=5400
# send LIMIT PORT: one run at the knob's LIMIT, to PORT; prints its
# "bench: devmem_tx" line, or the reason it failed and returns non-zero
send() {
	local limit=$1 port=$2 sink start ms got ok stime
	[ "$limit" = none ] || echo "$limit" >"$knob"
	echo 0 >"$dfs"
	ip netns exec peer bash -c "socat -u TCP6-LISTEN:$port - | wc -c >/tmp/bench-tx.count" &
	sink=$!
	wait_listen "$port" peer || { echo "no listener"; return 1; }
	start=$(now_ms)
	with_rusage "$ncdevmem" -f "$lo" -s 2001:db8::2 -p "$port" -H -r "$bytes" \
		2>/tmp/bench-tx.log ||
		{ kill $sink 2>/dev/null; wait $sink 2>/dev/null
		  grep -v '^stime_us=' /tmp/bench-tx.log | tail -n 1; return 1; }
	wait $sink
	ms=$(($(now_ms) - start))
	got=$(cat /tmp/bench-tx.count)
	[ "$got" = "$bytes" ] || { echo "peer got $got of $bytes"; return 1; }
	# "ncdevmem: tx ok, sendmsg_cpu_us=N tx_bytes=N loop_stime_us=N loop_utime_us=N"
	ok=$(grep -o 'tx ok, sendmsg_cpu_us=.*' /tmp/bench-tx.log) ||
		{ echo "no tx ok line: $(tail -n 1 /tmp/bench-tx.log)"; return 1; }
	val() { sed -n "s/.*[ ,]$1=\([0-9]*\).*/\1/p" <<<"$2"; }
	stime=$(sed -n 's/^stime_us=\([0-9]*\) .*/\1/p' /tmp/bench-tx.log)
	echo "bench: devmem_tx limit=$limit bytes=$got skbs=$(counter tx_skbs)" \
	     "frags=$(counter tx_frags) max_skb_frags=$(counter tx_max_skb_frags)" \
	     "max_frag=$(counter tx_max_frag) stime_us=$stime" \
	     "loop_stime_us=$(val loop_stime_us "$ok") loop_utime_us=$(val loop_utime_us "$ok")" \
	     "sendmsg_us=$(val sendmsg_cpu_us "$ok") ms=$ms"
}

# A run that fails is run once more, and says so ("bench tx retry:",
# which bench.sh reports): under TCG a stall of the guest can outlast
# ncdevmem's 500 ms wait for a zerocopy completion. A second failure
# ends the boot.
for limit in $(for _ in $(seq "${BENCH_REPEATS:-1}"); do echo "$limits"; done); do
	port=$((port + 1))
	why=$(send "$limit" "$port") || {
		echo "bench tx retry: limit=$limit: $why"
		port=$((port + 1))
		why=$(send "$limit" "$port") || { echo "bench tx $limit: FAILED: $why"; exit 1; }
	}
	echo "$why"
done
echo "bench tx: ok"
