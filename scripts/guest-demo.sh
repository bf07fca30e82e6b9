#!/bin/bash
# Runs inside the VM (see demo.sh): what the series changes, side by side in
# one boot, between two netdevsim peers, DEMO_BYTES (256 MiB) per run,
# payload verified in each:
#  - devmem TX from a udmabuf of 2 MiB huge pages at netdevsim's default
#    netmem TX frag limit (PAGE_SIZE: the frags every device got before the
#    series) and with the limit lifted;
#  - devmem RX at rx-page-size 4 KiB (PAGE_SIZE, as before the series) and
#    64 KiB.
# Prints a line per run and a table at the end.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ncdevmem=${KSELFTEST:-$top/build/kselftest}/drivers/net/ncdevmem
bytes=${DEMO_BYTES:-$((256 << 20))}
mib=$((bytes >> 20))
. "$top"/scripts/guest-nsim-pair.sh

knob=$(dirname "$dfs")/netmem_tx_max_frag
page=$(getconf PAGESIZE)
tx_rows=() rx_rows=()
row() { printf '  %-24s %12s %13s %14s' "$@"; }

# TX: 4 MiB lines of a byte pattern, one sendmsg() each; the peer hashes
# what it receives.
line=$((4 << 20))
gen="import sys
b = bytes(range(11, 256)) * ($line // 245 + 1)
for _ in range($bytes // $line):
    sys.stdout.buffer.write(b[:$line - 1] + bytes([10]))"
want=$(python3 -c "$gen" | sha256sum | cut -d' ' -f1)
port=5200
for limit in "$page" 4294967295; do
	port=$((port + 1))
	echo "$limit" >"$knob"
	echo 0 >"$dfs"		# zero the counters
	ip netns exec peer bash -c "socat -u TCP6-LISTEN:$port - | sha256sum >/tmp/demo-tx.sum" &
	sink=$!
	wait_listen $port peer || { echo "demo tx: no listener"; exit 1; }
	start=$(now_ms)
	python3 -c "$gen" | "$ncdevmem" -f "$lo" -s 2001:db8::2 -p $port -H \
		2>/tmp/demo-tx.log ||
		{ tail -n 5 /tmp/demo-tx.log; echo "demo tx at limit $limit: FAILED"; exit 1; }
	wait $sink
	ms=$(($(now_ms) - start))
	got=$(cut -d' ' -f1 /tmp/demo-tx.sum)
	[ "$got" = "$want" ] || { echo "demo tx at limit $limit: payload differs"; exit 1; }
	skbs=$(counter tx_skbs) frags=$(counter tx_frags) maxf=$(counter tx_max_frag)
	fpp=$(awk -v f="$frags" -v s="$skbs" 'BEGIN { printf "%.2f", f / s }')
	name="frag limit lifted"
	[ "$limit" != "$page" ] || name="frag limit PAGE_SIZE"
	echo "TX, $name: $mib MiB, payload verified, $skbs packets," \
	     "$fpp netmem frags per packet, largest $maxf bytes, $(rate "$bytes" "$ms")"
	tx_rows+=("$(row "$name" "$fpp" "$maxf" "$(rate "$bytes" "$ms")")")
done
echo "$page" >"$knob"

# RX: the peer sends the pattern ncdevmem -v 7 verifies.
ethtool -G "$lo" tcp-data-split on hds-thresh 0
port=5300
for size in "$page" 65536; do
	port=$((port + 1))
	echo 0 >"$dfs"
	rx_run "$size" $port "$bytes" /tmp/demo-rx.log || exit 1
	niovs=$(counter rx_niovs)
	per=$(awk -v n="$niovs" -v m="$mib" 'BEGIN { printf "%.1f", n / m }')
	size_seen=$(counter rx_max_niov_size)
	echo "RX, rx-page-size $size: $mib MiB, payload verified, $niovs net_iovs" \
	     "($per per MiB) of $size_seen bytes, $(rate "$bytes" "$ms")"
	rx_rows+=("$(row "rx-page-size $size" "$per" "$size_seen" "$(rate "$bytes" "$ms")")")
done

echo
echo "devmem TCP between two netdevsim peers, $mib MiB per run, payload verified"
printf '%-26s %12s %13s %14s\n' "TX from 2 MiB huge pages" "frags/packet" "largest frag" "throughput"
printf '%s\n' "${tx_rows[@]}"
printf '%-26s %12s %13s %14s\n' "RX" "net_iovs/MiB" "net_iov size" "throughput"
printf '%s\n' "${rx_rows[@]}"
echo "demo: ok"
