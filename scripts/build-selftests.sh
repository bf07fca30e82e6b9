#!/bin/bash
# Build and install the drv-net selftests (drivers/net and drivers/net/hw:
# ncdevmem, iou-zcrx, the python libraries) into build/kselftest.
# iou-zcrx needs liburing >= 2.10; the Makefile's probe uses 'echo -e',
# which dash does not know, so it is answered here (HAS_IOURING_ZCRX=y) and
# liburing 2.15 from build/tools is linked statically.
. "$(dirname "$0")/lib.sh"

step selftests
kmake headers >/dev/null
log=$BUILD/selftests.log
ksft() {
	make -C "$TREE/tools/testing/selftests" O="$KOUT" -j"$JOBS" \
		KSFT_INSTALL_PATH="$BUILD/kselftest" "$@" install >>"$log" 2>&1 ||
		{ tail -n 30 "$log"; die "selftest build failed (see build/selftests.log)"; }
}
: >"$log"
ksft TARGETS=drivers/net
# liburing's headers want the new uapi (linux/blkdev.h): give the kernel's
# own headers to the test programs, not to libbpf (USERCFLAGS).
CPATH=$TOOLS/uring/usr/include LIBRARY_PATH=$TOOLS/uring/static \
	ksft TARGETS=drivers/net/hw HAS_IOURING_ZCRX=y \
	USERCFLAGS="-isystem $KOUT/usr/include"
for bin in ncdevmem iou-zcrx; do
	[ -x "$BUILD/kselftest/drivers/net/hw/$bin" ] || die "$bin was not built"
done
echo "selftests: installed in build/kselftest (ncdevmem, iou-zcrx)"
