#!/bin/bash
# Build and install the drv-net selftests as netdev's CI builds them, one
# target on its own: drivers/net (the devmem and zcrx tests with ncdevmem,
# iou-zcrx and the netkit BPF programs, the python libraries) into
# build/kselftest (KSELFTEST; build/kselftest-7.3 for BASE=7.3), then
# drivers/net/hw (toeplitz.py, which make check runs on netdevsim too)
# into build/kselftest-hw (KSELFTEST_HW), each with its kselftest runner.
# iou-zcrx needs liburing >= 2.10: the Makefiles' probe (run by dash, as
# make runs it on Debian) finds liburing 2.15 from build/tools, linked
# statically, and the build fails below if it did not.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

step selftests
kmake headers >/dev/null
for target in drivers/net drivers/net/hw; do
	dest=$KSELFTEST log=$BUILD/selftests$SFX.log
	[ "$target" = drivers/net ] || dest=$KSELFTEST_HW log=$BUILD/selftests-hw$SFX.log
	rm -rf "$dest"
	# liburing's headers want the new uapi (linux/blkdev.h): give the
	# kernel's own headers to the test programs, not to libbpf
	# (USERCFLAGS).
	with_progress "selftests $target" log_progress "$log" \
		env CPATH="$TOOLS/uring/usr/include" LIBRARY_PATH="$TOOLS/uring/static" \
		make -C "$TREE/tools/testing/selftests" O="$KOUT" -j"$JOBS" \
		KSFT_INSTALL_PATH="$dest" TARGETS="$target" \
		USERCFLAGS="-isystem $KOUT/usr/include" install ||
		{ tail -n 30 "$log"; die "$target selftest build failed (see ${log#"$TOP"/})"; }
done
# SELFTEST_BINS: the programs that must have been built (compare-base
# builds the base's, where ncdevmem and iou-zcrx are still in hw/).
for bin in ${SELFTEST_BINS:-drivers/net/ncdevmem drivers/net/iou-zcrx drivers/net/nk_forward.bpf.o drivers/net/hw/toeplitz}; do
	dest=$KSELFTEST
	[ "${bin#drivers/net/hw/}" = "$bin" ] || dest=$KSELFTEST_HW
	[ -e "$dest/$bin" ] || die "$bin was not built"
done
echo "selftests: $(grep -c '^drivers/net:' "$KSELFTEST/kselftest-list.txt") drivers/net programs installed in ${KSELFTEST#"$TOP"/}," \
     "$(grep -c . "$KSELFTEST_HW/kselftest-list.txt") of drivers/net/hw in ${KSELFTEST_HW#"$TOP"/}"
