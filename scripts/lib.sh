# Shared settings for the harness scripts; sourced, never run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the settings are for the scripts that source this

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# The Debian kernel the series applies to (make BASE=7.3 ...): 7.2, the
# default, is patches/ in build/linux; any other base has its own stack
# and outputs, named with the suffix SFX ("-7.3"). Downloads, tools and
# ccache are shared.
export BASE=${BASE:-7.2}
case $BASE in
7.2) SFX= ;;
7.3) SFX=-$BASE ;;
*) echo "BASE=$BASE: the series has a stack for 7.2 and 7.3 only" >&2; exit 1 ;;
esac
TREE=${TREE:-$BUILD/linux$SFX}	# kernel work tree: base + series, git
KOUT=${KOUT:-$BUILD/kbuild$SFX}	# kbuild output (O=) for the VM kernel
DL=$BUILD/dl			# downloaded .deb packages
TOOLS=$BUILD/tools		# unpacked sid packages (virtme-ng, liburing)
RESULTS=${RESULTS:-$BUILD/results$SFX}	# KTAP, console logs, summaries
KSELFTEST=${KSELFTEST:-$BUILD/kselftest$SFX}	# installed selftests
KSELFTEST_HW=${KSELFTEST_HW:-$BUILD/kselftest-hw$SFX}	# drivers/net/hw's
PATCHES=$TOP/patches$SFX
JOBS=${JOBS:-$(nproc)}
# The python that Debian's python3-* packages install for: PATH may have
# another python3 first (pyenv), so the system's directories go first,
# for scripts run through "#!/usr/bin/env python3" (ynl, kunit.py) too.
export PYTHON=/usr/bin/python3
export PATH=$TOOLS/vng/usr/bin:/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin:$PATH
# The release this machine runs (bookworm): its archive entry is the one
# fetch-base.sh extends, and its backports suite is added there.
CODENAME=${CODENAME:-$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release | tr -d '"')}

# What a kernel prints when something went wrong (splats, and what only
# prints a line: RCU stalls, hung tasks, page pools that never drain), as
# grep -E finds it in a VM console.
KERNEL_REPORTS="WARNING:|BUG:|KASAN|KFENCE|UBSAN|ODEBUG|possible circular locking|inconsistent lock state|unreferenced object|Kernel panic|Oops:|rcu: INFO: rcu_|self-detected stall|rcu_.*detected stalls|blocked for more than [0-9]+ seconds|stalled pool shutdown|page_pool_release_retry|DMA-API: .*(out of memory|ENOMEM|disabl)"

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

# shellcheck disable=SC2154 # rc is set by the trap itself
trap 'rc=$?; [ $rc -eq 0 ] || printf "FAILED [%s]: exit %d at %s:%d\n" "$STEP" "$rc" "${BASH_SOURCE[0]##*/}" "$LINENO" >&2' ERR

# "${VNG[@]}" ARGS: virtme-ng, from the sid package fetch-base.sh unpacked
VNG=(env "PYTHONPATH=$TOOLS/vng/usr/lib/python3/dist-packages" "$PYTHON" "$TOOLS/vng/usr/bin/vng")

# own_object DIR FILE.c: whether FILE.c is compiled on its own, not
# #included by another .c of its directory (netdevsim's rss_kunit.c is
# included by rss.c): only those have a FILE.o to build.
own_object() {
	! grep -qsF "#include \"${2##*/}\"" "$1/${2%/*}"/*.c
}

# The series' KUnit suites as kunit.py runs them (UML, other architectures)
KUNITCONFIGS=(--kunitconfig=net/core --kunitconfig=drivers/net/netdevsim)

kmake() {
	make -C "$TREE" O="$KOUT" -j"$JOBS" CC="ccache gcc" "$@"
}

# with_progress LABEL REPORT LOG CMD...: run CMD with its output (stdout
# and stderr) in the file LOG, printing "LABEL: <seconds>s, <what the
# function REPORT prints given LOG>" every PROGRESS_SECS (30) seconds until it ends,
# so that a long step is not silence; CMD's exit status is returned.
with_progress() {
	local label=$1 report=$2 out=$3 start=$SECONDS pid rc=0
	shift 3
	while sleep "${PROGRESS_SECS:-30}" >/dev/null 2>&1; do
		printf '    %s: %ds, %s\n' "$label" $((SECONDS - start)) "$("$report" "$out")"
	done &
	pid=$!
	"$@" >"$out" 2>&1 || rc=$?
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	return $rc
}

# kbuild_progress LOG: with_progress's REPORT for a kernel build in $KOUT
# with its output in LOG: the objects built so far, and of about how many
# (the count a finished build left, this base's or the other's).
kbuild_progress() {
	local have total
	have=$(find "$KOUT" -name '*.o' 2>/dev/null | wc -l || true)
	total=$(cat "$KOUT/.objects" 2>/dev/null || cat "$BUILD"/kbuild*/.objects 2>/dev/null | head -n 1 || true)
	printf '%s objects built%s, %s compiled in this build' "$have" \
		"${total:+ of about $total}" "$(grep -c '^  CC ' "$1" || true)"
}

# log_progress LOG: with_progress's REPORT for any step: LOG's length
log_progress() {
	echo "$(wc -l <"$1" || true) lines of output"
}

# kbuild_done: after a kernel build, keep its object count for
# kbuild_progress.
kbuild_done() {
	find "$KOUT" -name '*.o' | wc -l >"$KOUT/.objects"
}

# with_apt_lock "$@": re-run the calling script holding build/apt.lock, so
# that two apt runs of the harness (make -j, make-tree.sh next to
# install-deps.sh) never overlap. The lock stays with flock (-o): a daemon
# that a package's postinst starts must not inherit it.
with_apt_lock() {
	[ -z "${HARNESS_APT_LOCKED:-}" ] || return 0
	mkdir -p "$BUILD"
	flock -n "$BUILD/apt.lock" true ||
		echo "waiting for build/apt.lock (another apt run of the harness)" >&2
	export HARNESS_APT_LOCKED=1
	exec flock -o "$BUILD/apt.lock" "$BASH" "$0" "$@"
}

# apt_install LOG PACKAGE...: install the packages with apt-get, output in
# LOG. Always the whole list, so that the install path runs everywhere,
# not only where something is missing; --no-upgrade: a no-op when all is
# there (no upgrades of the host's packages as a side effect). If that
# fails (package lists stale or absent: a fresh machine), the lists are
# updated once and it tries again. Holds build/apt.lock, unless the
# script already does (with_apt_lock); apt never inherits the lock.
apt_install() {
	local log=$1
	shift
	if [ -z "${HARNESS_APT_LOCKED:-}" ]; then
		mkdir -p "$BUILD"
		(exec 9>"$BUILD/apt.lock" && flock 9 && HARNESS_APT_LOCKED=1 apt_install "$log" "$@")
		return
	fi
	export DEBIAN_FRONTEND=noninteractive
	: >"$log"
	local try
	for try in install update-and-install; do
		apt-get install -y -q --no-install-recommends --no-upgrade \
			-o DPkg::Lock::Timeout=300 "$@" >>"$log" 2>&1 9>&- && return 0
		[ $try = install ] || break
		echo "apt-get install failed: updating the package lists and trying again"
		apt-get update -q >"$BUILD/apt-update.log" 2>&1 9>&- ||
			{ tail -n 5 "$BUILD/apt-update.log" >&2; die "apt-get update failed (see build/apt-update.log)"; }
	done
	tail -n 5 "$log" >&2
	die "apt-get install $* failed (see ${log#"$TOP"/}, build/apt-update.log)"
}
