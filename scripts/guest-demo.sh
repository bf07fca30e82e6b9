#!/bin/bash
# Runs inside the VM (see demo.sh): two linked netdevsim devices, the peer
# in its own network namespace, and devmem TCP between them with ncdevmem:
# DEMO_BYTES (1 GiB) received into a udmabuf, payload verified, then the
# same amount sent from a udmabuf. Prints throughput and netdevsim's netmem
# counters.
set -eu
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
top=$(cd "$(dirname "$0")/.." && pwd)
ncdevmem=$top/build/kselftest/drivers/net/hw/ncdevmem
bytes=${DEMO_BYTES:-$((1 << 30))}
mib=$((bytes >> 20))

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# Two netdevsim devices with 2 queues each; the second goes to netns "peer".
echo "1 1 2" >/sys/bus/netdevsim/new_device
echo "2 1 2" >/sys/bus/netdevsim/new_device
udevadm settle 2>/dev/null || sleep 1
lo=$(ls /sys/bus/netdevsim/devices/netdevsim1/net/)
pe=$(ls /sys/bus/netdevsim/devices/netdevsim2/net/)
ip netns add peer
ip link set "$pe" netns peer
exec 3</proc/self/ns/net 4</run/netns/peer
echo "3:$(cat /sys/class/net/"$lo"/ifindex) 4:$(ip netns exec peer cat /sys/class/net/"$pe"/ifindex)" \
	>/sys/bus/netdevsim/link_device
ip -6 addr add 2001:db8::1/64 dev "$lo" nodad
ip link set "$lo" up
ip netns exec peer ip -6 addr add 2001:db8::2/64 dev "$pe" nodad
ip netns exec peer ip link set "$pe" up
dfs=/sys/kernel/debug/netdevsim/netdevsim1/ports/0/netmem
counter() { awk -v k="$1" '$1 == k { print $2 }' "$dfs"; }
rate() { awk -v b="$1" -v ms="$2" 'BEGIN { printf "%.1f MiB/s", b / 1048576 / (ms / 1000) }'; }
now_ms() { date +%s%3N; }

echo "devmem RX: $mib MiB from the peer into a udmabuf bound to $lo queue 1"
before_niovs=$(counter rx_niovs)
before_skbs=$(counter rx_hds_skbs)
"$ncdevmem" -l -f "$lo" -s 2001:db8::1 -c 2001:db8::2 -p 5201 -v 7 -Q \
	2>/tmp/ncdevmem-rx.log &
rx=$!
for _ in $(seq 100); do
	ss -Htln 'sport = :5201' | grep -q . && break
	sleep 0.1
done
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
for _ in $(seq 100); do
	ip netns exec peer ss -Htln 'sport = :5202' | grep -q . && break
	sleep 0.1
done
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
