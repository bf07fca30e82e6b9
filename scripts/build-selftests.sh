#!/bin/bash
# Build and install the drv-net selftests (drivers/net: the devmem and
# zcrx tests with ncdevmem and iou-zcrx, the python libraries; and
# drivers/net/hw, for the netkit BPF programs the nk_*.py tests load) into
# build/kselftest (KSELFTEST; build/kselftest-7.3 for BASE=7.3), with its
# kselftest runner.
# iou-zcrx needs liburing >= 2.10: the Makefiles' probe (run by dash, as
# make runs it on Debian) finds liburing 2.15 from build/tools, linked
# statically, and the build fails below if it did not.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

step selftests
kmake headers >/dev/null
log=$BUILD/selftests$SFX.log
rm -rf "$KSELFTEST"
# liburing's headers want the new uapi (linux/blkdev.h): give the kernel's
# own headers to the test programs, not to libbpf (USERCFLAGS).
with_progress selftests log_progress "$log" \
	env CPATH="$TOOLS/uring/usr/include" LIBRARY_PATH="$TOOLS/uring/static" \
	make -C "$TREE/tools/testing/selftests" O="$KOUT" -j"$JOBS" \
	KSFT_INSTALL_PATH="$KSELFTEST" TARGETS="drivers/net drivers/net/hw" \
	USERCFLAGS="-isystem $KOUT/usr/include" install ||
	{ tail -n 30 "$log"; die "selftest build failed (see ${log#"$TOP"/})"; }
# SELFTEST_BINS: the programs that must have been built (compare-base
# builds the base's, where ncdevmem and iou-zcrx are still in hw/).
for bin in ${SELFTEST_BINS:-drivers/net/ncdevmem drivers/net/iou-zcrx drivers/net/hw/nk_forward.bpf.o drivers/net/hw/toeplitz}; do
	[ -e "$KSELFTEST/$bin" ] || die "$bin was not built"
done
echo "selftests: $(grep -c '^drivers/net:' "$KSELFTEST/kselftest-list.txt") drivers/net programs installed in ${KSELFTEST#"$TOP"/}"
