#!/bin/bash
# Install the host packages the harness needs (Debian bookworm), and unpack
# the sid-only tools (virtme-ng, liburing 2.15) fetched by fetch-base.sh into
# build/tools without installing them system-wide.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
mkdir -p "$BUILD"
with_apt_lock "$@"

step deps
pkgs=(build-essential flex bison bc libelf-dev libssl-dev dwarves cpio rsync
      ccache kmod git python3 python3-yaml python3-jsonschema python3-requests
      python3-argcomplete
      qemu-system-x86 udev busybox-static ethtool socat iputils-ping iproute2
      libmnl-dev pkg-config xz-utils clang llvm iperf3 bpftrace procps
      systemd-sysv)	# poweroff, which virtme-ng's init runs in the guest
apt_install "$BUILD/apt-install.log" "${pkgs[@]}"
"$PYTHON" -c 'import yaml, jsonschema, requests, argcomplete' ||
	die "$PYTHON lacks the modules of python3-yaml/-jsonschema/-requests/-argcomplete"

"$TOP"/scripts/fetch-base.sh

step unpack
shopt -s nullglob
for p in virtme-ng liburing-dev liburing2 ethtool iproute2 bpftool; do
	debs=("$DL/${p}_"*.deb)
	[ ${#debs[@]} -gt 0 ] || die "no $p in build/dl"
	deb=$(printf '%s\n' "${debs[@]}" | sort -V | tail -n1)
	stamp=$TOOLS/.$(basename "$deb").unpacked
	[ -f "$stamp" ] && continue
	case $p in
	virtme-ng) dest=$TOOLS/vng ;;
	liburing*) dest=$TOOLS/uring ;;
	*) dest=$TOOLS/userspace ;;	# put first in the guest's PATH
	esac
	mkdir -p "$dest"
	dpkg -x "$deb" "$dest"
	touch "$stamp"
done
# Link iou-zcrx statically: a directory holding only liburing.a.
mkdir -p "$TOOLS/uring/static"
cp -u "$TOOLS"/uring/usr/lib/x86_64-linux-gnu/liburing.a "$TOOLS/uring/static/"

# The guest's userspace must run on this host's C library.
for t in "usr/sbin/ethtool --version" "bin/ip -V" "usr/sbin/bpftool version"; do
	read -ra cmd <<<"$t"
	"$TOOLS/userspace/${cmd[0]}" "${cmd[@]:1}" >/dev/null 2>&1 ||
		die "build/tools/userspace/${cmd[0]} does not run here:" \
		    "$("$TOOLS/userspace/${cmd[0]}" "${cmd[@]:1}" 2>&1 | head -n1)"
done

"$TOP"/scripts/versions.sh
echo "deps: ok (versions in ${RESULTS#"$TOP"/}/versions)"
