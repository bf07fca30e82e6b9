# shellcheck shell=bash
# Sourced inside the VM by the demo and the benchmarks: two linked
# netdevsim devices with 2 queues each, the second in network namespace
# "peer"; 2001:db8::1 on $lo, 2001:db8::2 on $pe. Provides $dfs (the local
# port's netmem counters), counter NAME, rate BYTES MS, now_ms,
# wait_listen, with_rusage and rx_run; 128 huge pages reserved; the pair
# removed when the sourcing script exits. The sourcing script sets $top,
# the harness's directory, and $ncdevmem, the ncdevmem to run.
# The newer ethtool, iproute2 and bpftool that install-deps.sh unpacks come
# first, as in guest-tests.sh: the host's ethtool may not know
# tcp-data-split.
# shellcheck disable=SC2154 # top is the sourcing script's
user=${top:?}/build/tools/userspace
export PATH=$user/usr/sbin:$user/usr/bin:$user/sbin:$user/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
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
exec 3<&- 4<&-
ip -6 addr add 2001:db8::1/64 dev "$lo" nodad
ip link set "$lo" up
ip netns exec peer ip -6 addr add 2001:db8::2/64 dev "$pe" nodad
ip netns exec peer ip link set "$pe" up
dfs=/sys/kernel/debug/netdevsim/netdevsim1/ports/0/netmem
echo 128 >/proc/sys/vm/nr_hugepages

counter() { awk -v k="$1" '$1 == k { print $2 }' "$dfs"; }
rate() { awk -v b="$1" -v ms="$2" 'BEGIN { printf "%.1f MiB/s", b / 1048576 / (ms / 1000) }'; }
now_ms() { date +%s%3N; }

# wait_listen PORT [NETNS]: until something listens on PORT
wait_listen() {
	local _
	for _ in $(seq 100); do
		${2:+ip netns exec "$2"} ss -Htln "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# with_rusage CMD...: run CMD; then print to stderr the system and user CPU
# time it took, children included, as "stime_us=N utime_us=N". Returns
# CMD's exit status.
with_rusage() {
	python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"stime_us={u.ru_stime * 1e6:.0f} utime_us={u.ru_utime * 1e6:.0f}",
      file=sys.stderr)
sys.exit(1 if r.returncode < 0 else r.returncode)' "$@"
}

# rx_run SIZE PORT BYTES LOG [WRAPPER]: devmem RX into a udmabuf of huge
# pages at rx-page-size SIZE, on PORT, the peer sending BYTES of the
# pattern that ncdevmem -v 7 verifies; ncdevmem's output in LOG, run
# through WRAPPER (with_rusage) if given. Sets $ms and $got (the bytes
# received), or says why it failed and returns 1.
rx_run() {
	local size=$1 port=$2 bytes=$3 log=$4 rx start
	shift 4
	"$@" "${ncdevmem:?}" -l -f "$lo" -s 2001:db8::1 -c 2001:db8::2 -p "$port" \
		-v 7 -Q -H -b "$size" 2>"$log" &
	rx=$!
	wait_listen "$port" || { cat "$log"; echo "rx: no listener"; return 1; }
	start=$(now_ms)
	ip netns exec peer bash -c "yes \$(echo -e '\\x01\\x02\\x03\\x04\\x05\\x06') |
		head -c $bytes | socat -u - TCP6:[2001:db8::1]:$port,bind=[2001:db8::2]:$port"
	wait $rx || { tail -n 5 "$log"; echo "rx at rx-page-size $size: FAILED"; return 1; }
	# shellcheck disable=SC2034 # for the sourcing script
	ms=$(($(now_ms) - start))
	got=$(sed -n 's/^total_received=//p' "$log" | tail -n1)
	[ "$got" = "$bytes" ] || { echo "rx at rx-page-size $size: received $got of $bytes"; return 1; }
}

# nsim_pair_remove: take the pair down, so that another script can set it
# up again in the same boot
nsim_pair_remove() {
	echo 1 >/sys/bus/netdevsim/del_device
	echo 2 >/sys/bus/netdevsim/del_device
	ip netns del peer
}
trap nsim_pair_remove EXIT
