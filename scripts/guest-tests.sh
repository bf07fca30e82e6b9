#!/bin/bash
# Runs inside the VM (see vm-run.sh): the drv-net selftests named on the
# command line, against netdevsim (no NETIF set), each with a time limit.
# Every test's KTAP goes to build/results/ktap/<test>.ktap.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
top=$(cd "$(dirname "$0")/.." && pwd)
out=${RESULTS:-$top/build/results}/ktap
mkdir -p "$out"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
echo 64 >/proc/sys/vm/nr_hugepages

cd "$top/build/kselftest/drivers/net"
for t in "$@"; do
	name=${t//\//_}
	echo "### running $t"
	start=$(date +%s)
	timeout -k 5 "${TEST_TIMEOUT:-600}" ./"$t" >"$out/$name.ktap" 2>&1
	rc=$?
	echo "### $t: exit $rc in $(( $(date +%s) - start ))s"
	echo "$rc" >"$out/$name.rc"
done

# With kmemleak, look for leaks now that the tests are done; reports go to
# the console, where check.sh looks for them.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
