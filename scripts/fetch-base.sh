#!/bin/bash
# Download Debian's linux-source-7.2 (any 7.2.y), linux-config-7.2, and the
# sid-only test tools (virtme-ng, liburing 2.15) into build/dl, through a
# private apt configuration that adds sid and trixie-backports using the
# archive address this machine's apt sources already name.
. "$(dirname "$0")/lib.sh"

step fetch
pkgs=(linux-source-7.2 linux-config-7.2 virtme-ng liburing-dev liburing2)
have=1
for p in "${pkgs[@]}"; do
	ls "$DL/${p}_"*.deb >/dev/null 2>&1 || have=0
done
if [ $have -eq 0 ]; then
	uri=$({ cat /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null || true; } |
	      grep -v '^[[:space:]]*#' | grep -v security |
	      grep -oE '(https?|file)://[^ ]*/debian/?( |$)' | head -n1 | tr -d ' ' || true)
	[ -n "$uri" ] || die "no Debian archive address in /etc/apt/sources*"
	apt=$BUILD/apt
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$DL"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "deb [signed-by=$key] $uri sid main"
		echo "deb [signed-by=$key] $uri trixie-backports main"
	} >"$apt/sources.list"
	opts=(-o Dir::Etc::SourceList="$apt/sources.list"
	      -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::State::Lists="$apt/lists"
	      -o Dir::Cache="$apt/cache"
	      -o APT::Sandbox::User=root -q)
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of sid/trixie-backports failed (see $apt/update.log)"
	(cd "$DL" && apt-get "${opts[@]}" download "${pkgs[@]}") ||
		die "could not download ${pkgs[*]}"
fi
deb=$(ls "$DL"/linux-source-7.2_7.2.*.deb | sort -V | tail -n1)
ver=${deb##*/linux-source-7.2_}
echo "base: linux-source-7.2 ${ver%_all.deb}"
