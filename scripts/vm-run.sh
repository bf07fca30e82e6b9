#!/bin/bash
# vm-run.sh NAME TIMEOUT 'COMMAND': boot build/kbuild's bzImage under
# virtme-ng (the host's root file system read-only over 9p, build/results
# writable) and run COMMAND as root.  The whole console, kernel log
# included, is kept in build/results/NAME.console; on a timeout, a panic or
# a VM that never reached the command, its tail is shown.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

name=$1 limit=$2 cmd=$3
step "vm:$name"
kernel=${VM_KERNEL:-$KOUT/arch/x86/boot/bzImage}
[ -e "$kernel" ] || die "no kernel at $kernel: run 'make'"
[ -x "$TOOLS/vng/usr/bin/vng" ] || die "virtme-ng missing: run 'make deps'"
mkdir -p "$RESULTS"
log=$RESULTS/$name.console
accel=$("$TOP"/scripts/detect-accel.sh)

# A kernel tree (check-fragments): vng takes the kernel and its modules
# from the kbuild directory it is pointed at.
run=(--run "$kernel")
[ ! -d "$kernel" ] || run=() VNG=(env "KBUILD_OUTPUT=$kernel" "${VNG[@]}")
# The host's root file system, or VM_ROOT: another architecture's
# (VM_ARCH, check-arm64.sh), where the host directories the guest needs
# (VM_RODIRS, and RESULTS writable) are mounted at their own paths.
mounts=(--rwdir "$RESULTS" --cwd "$TOP")
if [ -n "${VM_ROOT:-}" ]; then
	mounts=(--arch "${VM_ARCH:?VM_ROOT needs VM_ARCH}" --root "$VM_ROOT" --rwdir "$RESULTS=$RESULTS")
	for d in "$RESULTS" ${VM_RODIRS:-}; do
		mkdir -p "$VM_ROOT$d"
		[ "$d" = "$RESULTS" ] || mounts+=(--rodir "$d=$d")
	done
fi
args=("${run[@]}" --user root --cpus "${VM_CPUS:-2}" --memory "${VM_MEM:-4G}"
      --disable-microvm --force-9p --verbose "${mounts[@]}"
      --append "panic=-1 oops=panic ${VM_APPEND:-}" --exec "$cmd")
[ "$accel" = kvm ] || args=(--disable-kvm "${args[@]}")
# VM_QEMU_OPTS: more QEMU options (bench.sh: -icount under TCG); vng takes
# everything after --qemu-opts as one, so it goes last
[ -z "${VM_QEMU_OPTS:-}" ] || args+=(--qemu-opts "$VM_QEMU_OPTS")

# vm_progress CONSOLE: what the guest is at (with_progress's REPORT):
# guest-tests.sh's last "### running" line, or how much it has printed
# shellcheck disable=SC2317 # called by with_progress
vm_progress() {
	local at
	at=$(grep -ao '### running .*' "$1" | tail -n 1 | tr -d '\r' || true)
	echo "${at:-$(wc -l <"$1") console lines}"
}

start=$(date +%s)
rc=0
with_progress "vm:$name" vm_progress "$log" \
	timeout --foreground -k 10 "$limit" "${VNG[@]}" "${args[@]}" </dev/null || rc=$?
secs=$(($(date +%s) - start))
echo "vm:$name: exit $rc after ${secs}s ($accel), console in ${log#"$TOP"/}"

reason=
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	reason="VM timed out after ${limit}s"
elif grep -q "Kernel panic - not syncing" "$log"; then
	reason="kernel panic"
fi
if [ -n "$reason" ]; then
	echo "---- last 40 lines of $log ----"
	tail -n 40 "$log"
	die "$reason (step vm:$name)"
fi
exit $rc
