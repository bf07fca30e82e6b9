#!/bin/bash
# Configure and build the VM kernel (bzImage; everything the tests need is
# built in) in build/kbuild (build/kbuild-7.3 for BASE=7.3) with ccache.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

"$TOP"/scripts/configure-kernel.sh
step build
start=$(date +%s)
log=$BUILD/kernel-build$SFX.log
with_progress build kbuild_progress "$log" kmake bzImage ||
	{ grep -E "error|Error" "$log" | head -n 20; die "kernel build failed (see ${log#"$TOP"/})"; }
kbuild_done
grep -E "warning:" "$log" | sort -u | head -n 20 || true
echo "kernel: $(kmake -s kernelrelease) built in $(($(date +%s) - start))s," \
     "$(stat -c %s "$KOUT/arch/x86/boot/bzImage") bytes"
