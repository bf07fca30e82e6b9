#!/bin/bash
# Runs inside the VM (see demo.sh): two linked netdevsim devices, the peer
# in its own network namespace, and devmem TCP between them with ncdevmem:
# DEMO_BYTES (1 GiB) received into a udmabuf, payload verified, then the
# same amount sent from a udmabuf. Prints throughput and netdevsim's netmem
# counters.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ncdevmem=$top/build/kselftest/drivers/net/ncdevmem
bytes=${DEMO_BYTES:-$((1 << 30))}
mib=$((bytes >> 20))
. "$top"/scripts/guest-nsim-pair.sh

echo "devmem RX: $mib MiB from the peer into a udmabuf bound to $lo queue 1"
before_niovs=$(counter rx_niovs)
before_skbs=$(counter rx_hds_skbs)
"$ncdevmem" -l -f "$lo" -s 2001:db8::1 -c 2001:db8::2 -p 5201 -v 7 -Q \
	2>/tmp/ncdevmem-rx.log &
rx=$!
wait_listen 5201
start=$(now_ms)
ip netns exec peer bash -c "yes \$(echo -e '\\x01\\x02\\x03\\x04\\x05\\x06') |
	head -c $bytes | socat -u - TCP6:[2001:db8::1]:5201,bind=[2001:db8::2]:5201"
wait $rx || { tail -n 5 /tmp/ncdevmem-rx.log; echo "devmem RX FAILED"; exit 1; }
ms=$(($(now_ms) - start))
got=$(sed -n 's/^total_received=//p' /tmp/ncdevmem-rx.log | tail -n1)
[ "$got" = "$bytes" ] || { echo "devmem RX FAILED: received $got of $bytes bytes"; exit 1; }
niovs=$(($(counter rx_niovs) - before_niovs))
skbs=$(($(counter rx_hds_skbs) - before_skbs))
echo "  received $got bytes, payload verified, in $((ms / 1000)).$((ms % 1000 / 100)) s: $(rate "$got" "$ms")"
echo "  netdevsim wrote them to $niovs net_iovs in $skbs packets"

echo "devmem TX: $mib MiB from a udmabuf on $lo to the peer"
before_skbs=$(counter tx_skbs)
before_frags=$(counter tx_frags)
ip netns exec peer bash -c "socat -u TCP6-LISTEN:5202 - | wc -c >/tmp/socat-tx.count" &
rxpeer=$!
wait_listen 5202 peer
start=$(now_ms)
python3 -c "
import sys
line = b'x' * ((4 << 20) - 1) + b'\n'
for _ in range($bytes >> 22):
    sys.stdout.buffer.write(line)
" | "$ncdevmem" -f "$lo" -s 2001:db8::2 -p 5202 2>/tmp/ncdevmem-tx.log ||
	{ tail -n 5 /tmp/ncdevmem-tx.log; echo "devmem TX FAILED"; exit 1; }
wait $rxpeer
ms=$(($(now_ms) - start))
got=$(cat /tmp/socat-tx.count)
[ "$got" = "$bytes" ] || { echo "devmem TX FAILED: peer got $got of $bytes bytes"; exit 1; }
skbs=$(($(counter tx_skbs) - before_skbs))
frags=$(($(counter tx_frags) - before_frags))
echo "  peer received $got bytes in $((ms / 1000)).$((ms % 1000 / 100)) s: $(rate "$got" "$ms")"
echo "  $skbs packets with netmem frags, $frags frags" \
     "($(awk -v f="$frags" -v s="$skbs" 'BEGIN { printf "%.2f", f / s }') per packet)," \
     "largest frag $(counter tx_max_frag) bytes"
echo "demo: ok"
