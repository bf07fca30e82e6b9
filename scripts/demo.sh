#!/bin/bash
# The main job's end-to-end demo: boot the kernel and run devmem TCP on
# netdevsim.  Until netdevsim speaks devmem, this reports what the devmem
# selftest reports.
. "$(dirname "$0")/lib.sh"

rm -rf "$RESULTS/ktap"
"$TOP"/scripts/vm-run.sh demo "${VM_TIMEOUT:-900}" \
	"$TOP/scripts/guest-tests.sh hw/devmem.py" || true
step demo
f=$RESULTS/ktap/hw_devmem.py.ktap
[ -s "$f" ] || die "devmem.py did not run (see build/results/demo.console)"
echo "devmem.py on netdevsim:"
grep -E '^(not )?ok |^# Totals' "$f" | sed 's/^/  /'
