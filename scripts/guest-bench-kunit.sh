#!/bin/bash
# Runs inside the VM (see bench.sh): the KUnit suites the kernel ran at
# boot (those kunit.filter_glob let through) once more for each of
# BENCH_REPEATS after the first, through their debugfs "run" files
# (CONFIG_KUNIT_DEBUGFS): each run prints its "bench:" lines to the kernel
# log, as the run at boot did. Then "bench kunit: ok".
set -eu
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
shopt -s nullglob
suites=(/sys/kernel/debug/kunit/*/run)
[ ${#suites[@]} -gt 0 ] ||
	{ echo "bench kunit: no KUnit suite in /sys/kernel/debug/kunit"; exit 1; }
for _ in $(seq 2 "${BENCH_REPEATS:-3}"); do
	for run in "${suites[@]}"; do
		echo run >"$run"
	done
done
echo "bench kunit: ok"
