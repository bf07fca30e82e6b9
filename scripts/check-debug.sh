#!/bin/bash
# make check-debug: the same series and tests as make check, on a second
# kernel (build/kbuild-debug) with KASAN, lockdep, kmemleak, KFENCE,
# DEBUG_OBJECTS, DEBUG_NET, DMA API debugging and fault injection. Any
# report in the VM console fails the run (check.sh's console scan).
# Then the devmem and zcrx programs once more on that kernel, booted with
# swiotlb=force: every DMA mapping bounces. Each case must pass, or skip
# because the buffer could not be mapped, with the extack (or the zcrx
# error) that says so; nothing else may skip, and the console must stay
# clean. A udmabuf's segments are longer than swiotlb can bounce
# (256 KiB), so the core's mapping of the attachment fails ("Failed to
# map dmabuf attachment"); for the same reason io_uring cannot map a zcrx
# area backed by huge pages (EIO). netdevsim resolves the DMA addresses
# that do map (bounce slots) to the memory they were mapped from.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

export KOUT=$BUILD/kbuild-debug$SFX
"$TOP"/scripts/configure-kernel.sh "$TOP"/configs/debug.config
step build-debug
start=$SECONDS
log=$BUILD/kernel-debug-build$SFX.log
with_progress build-debug kbuild_progress "$log" kmake bzImage ||
	die "debug kernel build failed (see ${log#"$TOP"/})"
kbuild_done
echo "debug kernel built in $((SECONDS - start))s"

# KASAN and lockdep slow the guest down several times: a longer limit for
# the VM (the programs keep the timeouts of their settings file, as in CI)
export VM_MEM=${VM_MEM:-6G} VM_TIMEOUT=${VM_TIMEOUT:-6000}
step check
rc=0
RESULTS=$BUILD/results-debug$SFX "$TOP"/scripts/check.sh || rc=$?

step check-swiotlb
RESULTS=$BUILD/results-swiotlb$SFX VM_ONLY=1 VM_APPEND="swiotlb=force" \
PROGRAMS="drivers/net:devmem.py drivers/net:devmem_nsim.py drivers/net:devmem_stress.py drivers/net:iou-zcrx.py drivers/net:nk_devmem.py drivers/net:userns_devmem.py" \
REFUSED="Failed to map dmabuf attachment|io_uring_register_ifq\\(\\): Input/output error: cannot DMA-map the area" \
	"$TOP"/scripts/check.sh || rc=$?
exit $rc
