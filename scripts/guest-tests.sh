#!/bin/bash
# Runs inside the VM (see vm-run.sh): the selftest programs named on the
# command line (collection:program, as in kselftest-list.txt), each
# through the kselftest runner as netdev's CI runs them: one program at a
# time, with the timeout from its collection's settings, NETIF unset so
# that the drv-net library creates a pair of netdevsim devices, and no
# other environment of ours. A program that fails is run once more, as
# the CI does; after each run, guest-state.py compares the network state
# with the state before (netdev's CI's optional check): a program that
# changed it is not run again, and the differences go to .state. The
# runner's output of each run goes to
# build/results/ktap/<collection>_<program>.ktap (and .retry.ktap), its
# exit code to .rc (and .retry.rc). drivers/net/hw's programs run from
# KSELFTEST_HW, where that target is installed on its own.
# TIMEOUT_SCALE (check.sh sets it for a TCG guest) multiplies the timeout
# from the collection's settings; NO_RETRY names programs that are not run
# again (those known to fail for want of a fast guest).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
user=$top/build/tools/userspace
# Newer ethtool, iproute2 and bpftool than the host's (see fetch-base.sh)
export PATH=$user/usr/sbin:$user/usr/bin:$user/sbin:$user/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
out=${RESULTS:-$top/build/results}/ktap
mkdir -p "$out"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

ksft=${KSELFTEST:-$top/build/kselftest}
cd "$ksft" || exit 1
# The state check after each program (guest-state.py): the state before
# the first one
state=/tmp/guest-state.json
rm -f "$state"
[ "${STATE_CHECK:-1}" = 0 ] || KSELFTEST=$ksft "$top"/scripts/guest-state.py "$state" >/dev/null 2>&1
n=0
for t in "$@"; do
	n=$((n + 1))
	name=${t//[:\/]/_}
	# drivers/net/hw is installed on its own (build-selftests.sh)
	dir=$ksft
	[ "${t%%:*}" != drivers/net/hw ] || dir=${KSELFTEST_HW:-$top/build/kselftest-hw}
	# the runner's default, or the collection's settings
	limit=45
	settings=$dir/${t%%:*}/settings
	[ ! -f "$settings" ] || limit=$(sed -n 's/^timeout=//p' "$settings")
	limit=$((${limit:-45} * ${TIMEOUT_SCALE:-1}))
	tries=2
	case " ${NO_RETRY:-} " in *" $t "*) tries=1 ;; esac
	for try in $(seq "$tries"); do
		run=
		[ "$try" = 1 ] || run=.retry
		echo "### running $t${run:+ (again)} ($n of $#)"
		start=$(date +%s)
		# The runner appends the program's output to /dev/stdout,
		# which virtme-ng points at the console: have it write a log
		# of its own instead, then keep both.
		rm -rf /tmp/ksft-log
		mkdir -p /tmp/ksft-log
		"$dir"/run_kselftest.sh -p /tmp/ksft-log -o "$limit" -t "$t" >/tmp/ksft-runner.out 2>&1
		rc=$?
		cat /tmp/ksft-log/* /tmp/ksft-runner.out >"$out/$name$run.ktap" 2>/dev/null
		echo "### $t: exit $rc in $(( $(date +%s) - start ))s"
		echo "$rc" >"$out/$name$run.rc"
		# a program that changed the state fails, and is not run
		# again: what it left would fail the next run too
		if [ "${STATE_CHECK:-1}" != 0 ] &&
		   ! KSELFTEST=$ksft "$top"/scripts/guest-state.py "$state" >"$out/$name$run.state" 2>&1; then
			echo "### $t: left the state changed (${out##*/}/$name$run.state)"
			break
		fi
		rm -f "$out/$name$run.state"
		[ $rc -ne 0 ] || break
	done
done

# With kmemleak, look for leaks now that the tests are done; reports go to
# the console, where check.sh looks for them.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
