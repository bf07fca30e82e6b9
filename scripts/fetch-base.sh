#!/bin/bash
# Download into build/dl Debian's linux-source-$BASE and linux-config-
# $BASE (BASE=7.2 or 7.3, see lib.sh; 7.3 is in trixie-backports) at the
# version bases.pin names, checked against its sha256, or, once the
# archive has dropped that version, at the highest $BASE.y it has (said
# in the first lines and kept in build/dl/unpinned-$BASE, which
# versions.sh reports); the sid-only test tools (virtme-ng, liburing >=
# 2.10); and the userspace the drv-net tests want newer than bookworm's
# (ethtool from sid, iproute2 and bpftool from <codename>-backports:
# built for an older C library than sid's). Through a private apt
# configuration in build/apt that adds sid, trixie-backports and
# <codename>-backports from the archive this machine's apt sources name
# (apt-archive.sh). What is already in build/dl is not fetched again: a
# second run stays offline.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
with_apt_lock "$@"

step fetch
shopt -s nullglob
mkdir -p "$DL"
# cached PKG [VERSION]: the newest .deb of PKG in build/dl (at VERSION)
cached() {
	local v=${2:-*}
	v=${v//:/%3a}	# an epoch's colon, as apt-get download names the file
	# shellcheck disable=SC2206 # unquoted on purpose: VERSION may be a glob
	local debs=("$DL/$1"_${v}_*.deb)
	[ ${#debs[@]} -gt 0 ] || return 1
	printf '%s\n' "${debs[@]}" | sort -V | tail -n1
}
version() { dpkg-deb -f "$1" Version; }
# pin PKG FIELD: bases.pin's version (3) or sha256 (4) of PKG
pin() { awk -v p="$1" -v f="$2" '$1 !~ /^#/ && $2 == p { print $f }' "$TOP/bases.pin"; }
pinned=$(pin "linux-source-$BASE" 3)
if [ -z "$pinned" ] || [ "$(pin "linux-config-$BASE" 3)" != "$pinned" ]; then
	die "bases.pin names no linux-source-$BASE and linux-config-$BASE of one version"
fi
# The version to use: the pinned one, or the one taken when the archive
# no longer had it (build/dl/unpinned-$BASE)
want=$pinned
if [ -s "$DL/unpinned-$BASE" ]; then
	want=$(cat "$DL/unpinned-$BASE")
	[ "$want" != "$pinned" ] || rm -f "$DL/unpinned-$BASE"
fi

# Userspace for the guest: package, and the suite it comes from
userspace=(ethtool:sid "iproute2:$CODENAME-backports" "bpftool:$CODENAME-backports")

# What is missing: the kernel pair at one version, virtme-ng, liburing,
# the guest's userspace.
need_kernel=1 need_vng=1 need_uring=1 need_user=0
if cached "linux-source-$BASE" "$want" >/dev/null &&
   cached "linux-config-$BASE" "$want" >/dev/null; then
	need_kernel=0
fi
cached virtme-ng >/dev/null && need_vng=0
if dev=$(cached liburing-dev) && cached liburing2 "$(version "$dev")" >/dev/null; then
	need_uring=0
fi
for u in "${userspace[@]}"; do
	cached "${u%%:*}" >/dev/null || need_user=1
done

if [ $need_kernel$need_vng$need_uring$need_user != 0000 ]; then
	step apt
	uri=$("$TOP"/scripts/apt-archive.sh) || exit 1	# it said why
	suites=(sid trixie-backports)
	[ "$CODENAME" = trixie ] || suites+=("$CODENAME-backports")
	apt=$BUILD/apt
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	for s in "${suites[@]}"; do
		echo "deb [signed-by=$key] $uri $s main"
	done >"$apt/sources.list"
	opts=(-o Dir::Etc::SourceList="$apt/sources.list"
	      -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::State::Lists="$apt/lists"
	      -o Dir::Cache="$apt/cache"
	      -o Acquire::Languages=none
	      -o APT::Sandbox::User=root -q)
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of ${suites[*]} from $uri failed (see build/apt/update.log)"
	# versions PKG: the versions the private apt offers, one a line
	versions() {
		apt-cache "${opts[@]}" madison "$1" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }'
	}
	candidate() {
		apt-cache "${opts[@]}" policy "$1" | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'
	}
	get=()
	if [ $need_kernel = 1 ]; then
		kver=$(versions "linux-source-$BASE" | grep -xF "$pinned" ||
		       versions "linux-source-$BASE" | awk -v b="$BASE." 'index($0, b) == 1' |
		       sort -V | tail -n1)
		if [ -z "$kver" ]; then
			found=$(apt-cache "${opts[@]}" pkgnames linux-source- | sort |
				xargs -r apt-cache "${opts[@]}" madison |
				awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); split($3, w, " ");
					printf " %s %s (%s)", $1, $2, w[2] }')
			die "no linux-source-$BASE (any $BASE.y) in ${suites[*]} of $uri;" \
				"linux-source-* found:${found:- none}"
		fi
		cfg=$(versions "linux-config-$BASE")
		grep -qxF "$kver" <<<"$cfg" ||
			die "linux-source-$BASE $kver but no linux-config-$BASE $kver in ${suites[*]} of $uri"
		get+=("linux-source-$BASE=$kver" "linux-config-$BASE=$kver")
		want=$kver
		if [ "$kver" = "$pinned" ]; then
			rm -f "$DL/unpinned-$BASE"
		else
			echo "base: the pinned linux-source-$BASE $pinned is no longer in" \
			     "$uri: taking $kver (README's figures are $pinned's)"
			echo "$kver" >"$DL/unpinned-$BASE"
		fi
	fi
	if [ $need_vng = 1 ]; then
		v=$(candidate virtme-ng)
		[ -n "$v" ] || die "no virtme-ng in ${suites[*]} of $uri"
		get+=(virtme-ng="$v")
	fi
	if [ $need_uring = 1 ]; then
		v=$(candidate liburing-dev)
		[ -n "$v" ] || die "no liburing-dev in ${suites[*]} of $uri"
		dpkg --compare-versions "$v" ge 2.10 ||
			die "liburing-dev in ${suites[*]} of $uri is $v: iou-zcrx needs >= 2.10"
		get+=(liburing-dev="$v" liburing2="$v")
	fi
	for u in "${userspace[@]}"; do
		pkg=${u%%:*} suite=${u#*:}
		v=$(apt-cache "${opts[@]}" madison "$pkg" |
		    awk -F'|' -v s=" $suite/" 'index($3, s) { gsub(/ /, "", $2); print $2 }' |
		    sort -V | tail -n1)
		[ -n "$v" ] || die "no $pkg in $suite of $uri"
		get+=("$pkg=$v")
	done

	step download
	# Into partial/ first: a .deb in build/dl is always a whole one.
	rm -rf "$DL/partial"
	mkdir -p "$DL/partial"
	: >"$apt/download.log"
	for p in "${get[@]}"; do
		cached "${p%%=*}" "${p#*=}" >/dev/null && continue
		echo "downloading $p"
		(cd "$DL/partial" && apt-get "${opts[@]}" download "$p" >>"$apt/download.log" 2>&1) ||
			die "could not download $p from $uri (see build/apt/download.log)"
		# One version of each package, so that every script's glob (some
		# take the newest, some the last in ls order) finds the same .deb.
		rm -f "$DL/${p%%=*}"_*.deb
		mv "$DL"/partial/*.deb "$DL"/
	done
	rmdir "$DL/partial"
fi

step verify
src=$(cached "linux-source-$BASE" "$want") ||
	die "no linux-source-$BASE $want in build/dl"
if [ "$want" = "$pinned" ]; then
	for p in "linux-source-$BASE" "linux-config-$BASE"; do
		deb=$(cached "$p" "$pinned")
		sum=$(sha256sum "$deb")
		[ "${sum%% *}" = "$(pin "$p" 4)" ] ||
			die "${deb#"$TOP"/}: sha256 ${sum%% *}, bases.pin says $(pin "$p" 4)"
	done
	note="pinned in bases.pin, sha256 checked"
else
	note="NOT the pinned $pinned, which the archive no longer has"
fi
dev=$(cached liburing-dev)
uver=$(version "$dev")
dpkg --compare-versions "$uver" ge 2.10 ||
	die "liburing $uver in build/dl: iou-zcrx needs >= 2.10 (rm build/dl/liburing* to fetch again)"
echo "base: linux-source-$BASE $(version "$src") ($note)"
