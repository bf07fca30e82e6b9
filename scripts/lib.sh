# Shared settings for the harness scripts; sourced, never run.
# shellcheck shell=bash

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=$BUILD/linux		# kernel work tree: base + series, git
KOUT=${KOUT:-$BUILD/kbuild}	# kbuild output (O=) for the VM kernel
DL=$BUILD/dl			# downloaded .deb packages
TOOLS=$BUILD/tools		# unpacked sid packages (virtme-ng, liburing)
RESULTS=${RESULTS:-$BUILD/results}	# KTAP, console logs, summaries
PATCHES=$TOP/patches
JOBS=${JOBS:-$(nproc)}
export PATH=$TOOLS/vng/usr/bin:$PATH

# The project's identity for commits in the work tree.
PROJECT_NAME="Seed b9697186 maintainers"
PROJECT_EMAIL="maintainers@users.noreply.a-seed-b9697186.example"

export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export KBUILD_BUILD_USER=devmem KBUILD_BUILD_HOST=vm
export KBUILD_BUILD_TIMESTAMP="2026-01-01"

# step NAME: name the current step, so a failure can say where it happened.
# Each step prints how long the previous one of the same script took.
STEP=setup
STEP_START=$SECONDS
step() {
	[ "$STEP" = setup ] || printf '    (%s: %ds)\n' "$STEP" $((SECONDS - STEP_START))
	STEP=$1
	STEP_START=$SECONDS
	printf '==> %s\n' "$STEP"
}

die() {
	printf 'FAILED [%s]: %s\n' "$STEP" "$*" >&2
	exit 1
}

trap 'rc=$?; [ $rc -eq 0 ] || printf "FAILED [%s]: exit %d at %s:%d\n" "$STEP" "$rc" "${BASH_SOURCE[0]##*/}" "$LINENO" >&2' ERR

kmake() {
	make -C "$TREE" O="$KOUT" -j"$JOBS" CC="ccache gcc" "$@"
}
