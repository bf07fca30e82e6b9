#!/bin/bash
# Install the host packages the harness needs (Debian bookworm), and unpack
# the sid-only tools (virtme-ng, liburing 2.15) fetched by fetch-base.sh into
# build/tools without installing them system-wide.
. "$(dirname "$0")/lib.sh"

step deps
pkgs=(build-essential flex bison bc libelf-dev libssl-dev dwarves cpio rsync
      ccache kmod git python3 python3-yaml python3-jsonschema python3-requests
      python3-argcomplete
      qemu-system-x86 udev busybox-static ethtool socat iputils-ping iproute2
      libmnl-dev pkg-config xz-utils clang llvm)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >"$BUILD/apt-update.log" 2>&1 ||
		die "apt-get update failed (see build/apt-update.log)"
	apt-get install -y -q --no-install-recommends "${missing[@]}" \
		>"$BUILD/apt-install.log" 2>&1 ||
		die "apt-get install ${missing[*]} failed (see build/apt-install.log)"
fi

"$TOP"/scripts/fetch-base.sh >/dev/null
for p in virtme-ng liburing-dev liburing2; do
	deb=$(ls "$DL/${p}_"*.deb | tail -n1)
	stamp=$TOOLS/.$(basename "$deb").unpacked
	[ -f "$stamp" ] && continue
	case $p in virtme-ng) dest=$TOOLS/vng ;; *) dest=$TOOLS/uring ;; esac
	mkdir -p "$dest"
	dpkg -x "$deb" "$dest"
	touch "$stamp"
done
# Link iou-zcrx statically: a directory holding only liburing.a.
mkdir -p "$TOOLS/uring/static"
cp -u "$TOOLS"/uring/usr/lib/x86_64-linux-gnu/liburing.a "$TOOLS/uring/static/"
echo "deps: ok (virtme-ng $(ls "$DL"/virtme-ng_*.deb | sed 's/.*_\(.*\)_all.deb/\1/'), liburing $(ls "$DL"/liburing-dev_*.deb | sed 's/.*_\(.*\)_amd64.deb/\1/'))"
