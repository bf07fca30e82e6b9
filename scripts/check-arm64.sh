#!/bin/bash
# check-arm64.sh: devmem.py, devmem_nsim.py and iou-zcrx.py (PROGRAMS) on
# netdevsim in an arm64 guest (QEMU's virt machine under TCG, on this x86
# host), with the built-in KUnit suites at boot, as make check runs them
# on x86 (make check-arm64).
#
#  1. make-arm64-root.sh: the guest's root (build/arm64-root, fetched
#     once), the worktree build/wt-arm64 at build/linux's HEAD, drivers/net
#     and drivers/net/hw cross-built into build/kselftest-arm64 and
#     build/kselftest-hw-arm64, and its checks of them (aarch64, libraries
#     and Python modules in the root).
#  2. The kernel, in build/kbuild-arm64 from the worktree (build/linux is
#     not written): configure-kernel.sh with ARCH=arm64, i.e. allnoconfig
#     and the x86 check's fragments (vm.config, vm-$BASE.config, the
#     tree's drivers/net/config, kunit.config, nic-drivers.config,
#     fault-injection.config), then configs/arm64.config (virtio-mmio, the
#     PL011 console, vm.config's x86-only options off); Image cross-built
#     with aarch64-linux-gnu-gcc and ccache.
#  3. check.sh, as check-debug.sh runs it: VM_ONLY=1 (checkpatch and the
#     ynl check are make check's), results in build/results-arm64,
#     VM_KERNEL the Image, KSELFTEST the arm64 selftests, VM_ACCEL=tcg (no
#     probe boot: an arm64 guest here is always TCG, and
#     detect-accel.sh's cache is the x86 guests'), TCG_TIMEOUT_SCALE 4
#     (each program 4x its 360 s, x86's TCG guests get 3x) and
#     VM_TIMEOUT 7200 s (check.sh's default: 5400). VM_ROOT and VM_ARCH
#     make vm-run.sh boot vng with --arch arm64 --root build/arm64-root
#     and mount what the guest needs of the host at its own path
#     (VM_RODIRS: scripts/ and the two selftest trees, read-only; the
#     results read-write). build/tools/userspace (x86 ethtool, ip and
#     bpftool, first in guest-tests.sh's PATH) is not mounted, so the
#     guest runs the root's arm64 ones, taken from the same suites (today
#     the same versions).
# Prints check.sh's report and its closing line
# "N passed, N failed, N skipped".
#
# Time, measured on this 2-core host: the root 142 s the first time (5 s
# after), the arm64 kernel from scratch 837 s, the VM 197 s (devmem.py
# 52 s, devmem_nsim.py 95 s, iou-zcrx.py 16 s: about x86's TCG guest's).
# Nothing describes netdevsim's bus device to arm64 as DMA-coherent (by
# reading), so its mappings take arm64's non-coherent paths (cache
# maintenance), which x86 never takes.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

export ARM64_ROOT=${ARM64_ROOT:-$BUILD/arm64-root}
export ARM64_TREE=${ARM64_TREE:-$BUILD/wt-arm64$SFX}
export ARM64_KOUT=${ARM64_KOUT:-$BUILD/kbuild-arm64$SFX}
export ARM64_KSELFTEST=${ARM64_KSELFTEST:-$BUILD/kselftest-arm64$SFX}
export ARM64_KSELFTEST_HW=${ARM64_KSELFTEST_HW:-$BUILD/kselftest-hw-arm64$SFX}
# (before TREE and the others are the arm64 ones: it takes build/linux's HEAD)
"$TOP"/scripts/make-arm64-root.sh

export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
export TREE=$ARM64_TREE KOUT=$ARM64_KOUT KSELFTEST=$ARM64_KSELFTEST KSELFTEST_HW=$ARM64_KSELFTEST_HW
"$TOP"/scripts/configure-kernel.sh "$TOP"/configs/arm64.config
step build-arm64
start=$SECONDS
log=$BUILD/kernel-arm64-build$SFX.log
# kmake's CC is the host's gcc: the later CC wins
with_progress build-arm64 kbuild_progress "$log" kmake CC="ccache ${CROSS_COMPILE}gcc" Image ||
	{ grep -E "error|Error" "$log" | head -n 20; die "arm64 kernel build failed (see ${log#"$TOP"/})"; }
kbuild_done
image=$KOUT/arch/arm64/boot/Image
echo "arm64 kernel: $(kmake CC="ccache ${CROSS_COMPILE}gcc" -s kernelrelease) built in" \
     "$((SECONDS - start))s, $(stat -c %s "$image") bytes"

step check-arm64
res=${ARM64_RESULTS:-$BUILD/results-arm64$SFX}
VM_ACCEL=tcg VM_ARCH=arm64 VM_ROOT=$ARM64_ROOT VM_RODIRS="$TOP/scripts $KSELFTEST $KSELFTEST_HW" \
VM_KERNEL=$image RESULTS=$res VM_ONLY=1 \
TCG_TIMEOUT_SCALE=${TCG_TIMEOUT_SCALE:-4} VM_TIMEOUT=${VM_TIMEOUT:-7200} \
PROGRAMS=${PROGRAMS:-"drivers/net:devmem.py drivers/net:devmem_nsim.py drivers/net:iou-zcrx.py"} \
	exec "$TOP"/scripts/check.sh
