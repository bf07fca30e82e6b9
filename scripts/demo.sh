#!/bin/bash
# The main job's end-to-end demo: boot the kernel and move DEMO_BYTES
# (1 GiB) through devmem TCP RX and TX between two netdevsim peers.
. "$(dirname "$0")/lib.sh"

"$TOP"/scripts/vm-run.sh demo "${VM_TIMEOUT:-1800}" \
	"DEMO_BYTES=${DEMO_BYTES:-$((1 << 30))} $TOP/scripts/guest-demo.sh" || true
step demo
log=$RESULTS/demo.console
sed -n '/^devmem RX:/,/^demo: ok/p' "$log" | grep -v '^\[' || true
grep -q '^demo: ok' "$log" || die "the demo failed (see build/results/demo.console)"
