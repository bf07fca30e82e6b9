#!/bin/bash
# Runs inside the VM (make check-netif-skip): the devmem programs that
# need a netkit namespace, with NETIF naming a device (one of a netdevsim
# pair set up by hand, its peer in a namespace, as a NIC and its remote
# would be) and no LOCAL_PREFIX_V6, as a runner with a NIC would start
# them without it: each must skip, saying why (the runner's "ok ... #
# SKIP"), not fail. Exits 1 if one did not.
top=$(cd "$(dirname "$0")/.." && pwd)
user=$top/build/tools/userspace
export PATH=$user/usr/sbin:$user/usr/bin:$user/sbin:$user/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
ip netns add remote
echo "11 1 2" >/sys/bus/netdevsim/new_device
echo "12 1 2" >/sys/bus/netdevsim/new_device
udevadm settle 2>/dev/null
local=$(ls /sys/bus/netdevsim/devices/netdevsim11/net/)
peer=$(ls /sys/bus/netdevsim/devices/netdevsim12/net/)
ip link set "$peer" netns remote
exec 3</proc/self/ns/net 4</var/run/netns/remote
echo "3:$(cat "/sys/class/net/$local/ifindex") 4:$(ip netns exec remote cat "/sys/class/net/$peer/ifindex")" \
	>/sys/bus/netdevsim/link_device
ip addr add 192.0.2.1/24 dev "$local"
ip -6 addr add 2001:db8::1/64 dev "$local" nodad
ip link set "$local" up
ip -n remote addr add 192.0.2.2/24 dev "$peer"
ip -n remote -6 addr add 2001:db8::2/64 dev "$peer" nodad
ip -n remote link set "$peer" up
export NETIF=$local LOCAL_V4=192.0.2.1 REMOTE_V4=192.0.2.2 \
       LOCAL_V6=2001:db8::1 REMOTE_V6=2001:db8::2 REMOTE_TYPE=netns REMOTE_ARGS=remote
cd "${KSELFTEST:-$top/build/kselftest}" || exit 1
rc=0
for t in drivers/net:nk_devmem.py drivers/net:userns_devmem.py; do
	out=$(./run_kselftest.sh -o 300 -t "$t" 2>&1)
	echo "$out"
	if echo "$out" | grep -qE "^ok [0-9]+ selftests: .* # SKIP"; then
		echo "### $t: skipped cleanly"
	else
		echo "### $t: did not skip"
		rc=1
	fi
done
exit $rc
