#!/bin/bash
# Runs inside the VM (make check-netif-skip): the devmem and zcrx
# programs with NETIF naming a device, its peer in a namespace as a
# NIC's remote would be, as a runner with a NIC starts them. Each must
# skip, saying why, not fail (the runner's "ok", no case "not ok", the
# program or its devmem and zcrx cases "# SKIP"):
#  - on a netdevsim pair set up by hand (devmem-capable) with no
#    LOCAL_PREFIX_V6, the two that need a netkit namespace for it;
#  - on a veth pair, a NIC without devmem or zcrx (no queue management
#    ops, no header split), every devmem and zcrx program.
# Exits 1 if one did not.
top=$(cd "$(dirname "$0")/.." && pwd)
user=$top/build/tools/userspace
export PATH=$user/usr/sbin:$user/usr/bin:$user/sbin:$user/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
ip netns add remote
exec 4</var/run/netns/remote

# set_env LOCAL PEER: addresses on LOCAL and PEER (in "remote"), the
# drv-net environment naming them
set_env() {
	ip addr add 192.0.2.1/24 dev "$1"
	ip -6 addr add 2001:db8::1/64 dev "$1" nodad
	ip link set "$1" up
	ip -n remote addr add 192.0.2.2/24 dev "$2"
	ip -n remote -6 addr add 2001:db8::2/64 dev "$2" nodad
	ip -n remote link set "$2" up
	export NETIF=$1 LOCAL_V4=192.0.2.1 REMOTE_V4=192.0.2.2 \
	       LOCAL_V6=2001:db8::1 REMOTE_V6=2001:db8::2 \
	       REMOTE_TYPE=netns REMOTE_ARGS=remote
}

rc=0
# must_skip DEVICE PROGRAM...: each program skipped cleanly
must_skip() {
	local dev=$1 t out
	shift
	for t in "$@"; do
		# the program's output in a log of its own, as guest-tests.sh
		rm -rf /tmp/ksft-log
		out=$(cd "${KSELFTEST:-$top/build/kselftest}" &&
		      ./run_kselftest.sh -p /tmp/ksft-log -o 300 \
			-t "drivers/net:$t" 2>&1; cat /tmp/ksft-log/*)
		echo "$out"
		# The runner's "ok", no case failed, and it skipped (as a whole
		# or the cases that need devmem or zcrx)
		if echo "$out" | grep -qE "^ok [0-9]+ selftests: " &&
		   ! echo "$out" | grep -qE "^# not ok " &&
		   echo "$out" | grep -qE "# SKIP"; then
			echo "### $t on $dev: skipped cleanly"
		else
			echo "### $t on $dev: did not skip"
			rc=1
		fi
	done
}

echo "11 1 2" >/sys/bus/netdevsim/new_device
echo "12 1 2" >/sys/bus/netdevsim/new_device
udevadm settle 2>/dev/null
nsim=$(ls /sys/bus/netdevsim/devices/netdevsim11/net/)
peer=$(ls /sys/bus/netdevsim/devices/netdevsim12/net/)
ip link set "$peer" netns remote
exec 3</proc/self/ns/net
echo "3:$(cat "/sys/class/net/$nsim/ifindex") 4:$(ip netns exec remote cat "/sys/class/net/$peer/ifindex")" \
	>/sys/bus/netdevsim/link_device
set_env "$nsim" "$peer"
must_skip netdevsim nk_devmem.py userns_devmem.py
echo 11 >/sys/bus/netdevsim/del_device
echo 12 >/sys/bus/netdevsim/del_device

ip link add veth0 numtxqueues 2 numrxqueues 2 type veth peer name veth1 \
	numtxqueues 2 numrxqueues 2 netns remote
set_env veth0 veth1
must_skip veth devmem.py devmem_nsim.py devmem_stress.py iou-zcrx.py \
	nk_devmem.py userns_devmem.py
exit $rc
