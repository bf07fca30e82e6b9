#!/bin/bash
# Print "kvm" when /dev/kvm really runs a guest to its init, "tcg" otherwise.
# /dev/kvm can exist and still not boot an ordinary guest (kvm-pvm hangs at
# "Decompressing Linux..."), so a short probe boot decides.  The answer is
# cached per host boot.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cache=$BUILD/accel.$(cat /proc/sys/kernel/random/boot_id)
if [ -n "${VM_ACCEL:-}" ]; then
	echo "$VM_ACCEL"; exit 0
fi
if [ -f "$cache" ]; then
	cat "$cache"; exit 0
fi
rm -f "$BUILD"/accel.*
accel=tcg why="no usable /dev/kvm"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	out=$(timeout -k 5 40 "${VNG[@]}" \
	      --run "$KOUT/arch/x86/boot/bzImage" --user root --disable-microvm \
	      --force-9p --exec 'echo accel-probe-ok' </dev/null 2>&1 || true)
	if grep -q accel-probe-ok <<<"$out"; then
		accel=kvm why="a KVM guest reached its init"
	else
		why="/dev/kvm present but a KVM guest did not reach init in 40s"
	fi
fi
echo "accel: $accel ($why)" >&2
echo "$accel" >"$cache"
echo "$accel"
