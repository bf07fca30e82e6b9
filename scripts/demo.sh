#!/bin/bash
# The main job's end-to-end demo: boot the kernel once and show what the
# series changes for devmem TCP between two netdevsim peers (see
# guest-demo.sh): TX frags from huge pages with and without netdevsim's
# default frag limit, RX at rx-page-size 4 KiB and 64 KiB.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

"$TOP"/scripts/vm-run.sh demo "${VM_TIMEOUT:-900}" \
	"DEMO_BYTES=${DEMO_BYTES:-$((256 << 20))} KSELFTEST=$KSELFTEST $TOP/scripts/guest-demo.sh" || true
step demo
log=$RESULTS/demo.console
sed -n '/^TX, /,/^demo: /p' "$log" | grep -v '^\[' | grep -v '^demo: ok' || true
grep -q '^demo: ok' "$log" || die "the demo failed (see ${log#"$TOP"/})"
