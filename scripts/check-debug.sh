#!/bin/bash
# make check-debug: the same series and tests as make check, on a second
# kernel (build/kbuild-debug) with KASAN, lockdep, kmemleak, KFENCE,
# DEBUG_OBJECTS, DEBUG_NET and fault injection. Any report in the VM
# console fails the run (check.sh's console scan).
. "$(dirname "$0")/lib.sh"

export KOUT=$BUILD/kbuild-debug
export RESULTS=$BUILD/results-debug
"$TOP"/scripts/configure-kernel.sh "$TOP"/configs/debug.config
step build-debug
start=$SECONDS
kmake bzImage >"$BUILD/kernel-debug-build.log" 2>&1 ||
	die "debug kernel build failed (see build/kernel-debug-build.log)"
echo "debug kernel built in $((SECONDS - start))s"
step check
# KASAN and lockdep slow the guest down several times: longer time limits
VM_MEM=${VM_MEM:-6G} VM_TIMEOUT=${VM_TIMEOUT:-6000} TEST_TIMEOUT=${TEST_TIMEOUT:-2400} \
	"$TOP"/scripts/check.sh
