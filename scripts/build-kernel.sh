#!/bin/bash
# Configure and build the VM kernel (bzImage; everything the tests need is
# built in) in build/kbuild with ccache.
. "$(dirname "$0")/lib.sh"

"$TOP"/scripts/configure-kernel.sh
step build
start=$(date +%s)
kmake bzImage >"$BUILD/kernel-build.log" 2>&1 ||
	{ grep -E "error|Error" "$BUILD/kernel-build.log" | head -n 20; die "kernel build failed (see build/kernel-build.log)"; }
grep -E "warning:" "$BUILD/kernel-build.log" | sort -u | head -n 20 || true
echo "kernel: $(kmake -s kernelrelease) built in $(($(date +%s) - start))s," \
     "$(stat -c %s "$KOUT/arch/x86/boot/bzImage") bytes"
