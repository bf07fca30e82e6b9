#!/bin/bash
# Runs inside the VM (see bench.sh): devmem TX over two netdevsim peers from
# a udmabuf backed by 2 MiB huge pages, BENCH_TX_BYTES at each netmem TX
# frag limit in BENCH_TX_LIMITS (netdevsim's debugfs knob; a kernel without
# it runs once, as "none"). Prints one line per run: packets, frags, the
# sender's (ncdevmem's) system CPU and the CPU time it spent in sendmsg().
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ncdevmem=$top/build/kselftest/drivers/net/ncdevmem
bytes=${BENCH_TX_BYTES:-$((256 << 20))}
. "$top"/scripts/guest-nsim-pair.sh

echo 128 >/proc/sys/vm/nr_hugepages
knob=$(dirname "$dfs")/netmem_tx_max_frag
limits=${BENCH_TX_LIMITS:-4096 32768 4294967295}
[ -e "$knob" ] || limits=none
port=5400
for limit in $limits; do
	port=$((port + 1))
	[ "$limit" = none ] || echo "$limit" >"$knob"
	echo 0 >"$dfs"
	ip netns exec peer bash -c "socat -u TCP6-LISTEN:$port - | wc -c >/tmp/bench-tx.count" &
	sink=$!
	wait_listen $port peer || { echo "bench tx: no listener"; exit 1; }
	start=$(now_ms)
	python3 -c "
import sys
line = b'x' * ((4 << 20) - 1) + b'\n'
for _ in range($bytes >> 22):
    sys.stdout.buffer.write(line)
" | python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"stime_us={u.ru_stime * 1e6:.0f} utime_us={u.ru_utime * 1e6:.0f}",
      file=sys.stderr)
sys.exit(r.returncode)' "$ncdevmem" -f "$lo" -s 2001:db8::2 -p $port -H \
		2>/tmp/bench-tx.log ||
		{ tail -n 5 /tmp/bench-tx.log; echo "bench tx $limit: FAILED"; exit 1; }
	wait $sink
	ms=$(($(now_ms) - start))
	got=$(cat /tmp/bench-tx.count)
	[ "$got" = "$bytes" ] || { echo "bench tx $limit: peer got $got of $bytes"; exit 1; }
	stime=$(sed -n 's/.*stime_us=\([0-9]*\).*/\1/p' /tmp/bench-tx.log)
	sendmsg=$(sed -n 's/.*sendmsg_cpu_us=\([0-9]*\).*/\1/p' /tmp/bench-tx.log)
	echo "bench: devmem_tx limit=$limit bytes=$got skbs=$(counter tx_skbs)" \
	     "frags=$(counter tx_frags) max_skb_frags=$(counter tx_max_skb_frags)" \
	     "max_frag=$(counter tx_max_frag) stime_us=$stime sendmsg_us=$sendmsg ms=$ms"
done
echo "bench tx: ok"
