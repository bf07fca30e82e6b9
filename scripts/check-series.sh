#!/bin/bash
# make check-series: every patch of base..HEAD, one at a time:
#  - the kernel builds incrementally with it applied, and the C files it
#    touches compile with W=1 with no warning that the parent did not have;
#  - kernel-doc finds nothing new in the files it touches;
#  - checkpatch --strict is clean.
# Then the objects the whole series touches compile under Debian's own
# amd64 config (linux-config-7.2).  The work tree is restored at the end.
# SINCE=<commit> checks only the patches after it (the Debian config step
# still covers the whole series).
. "$(dirname "$0")/lib.sh"

step check-series
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes"
head=$(git -C "$TREE" rev-parse HEAD)
restore() { git -C "$TREE" checkout -q -B series "$head"; }
trap restore EXIT
"$TOP"/scripts/configure-kernel.sh >/dev/null

out=$RESULTS/series
rm -rf "$out"; mkdir -p "$out"
fail=0
pass=0
since=${SINCE:-base}
n=$(git -C "$TREE" rev-list --count "base..$since")
w1() {	# w1 TAG FILES...: W=1 build of the objects for FILES, warnings to $out/TAG
	local objs=() f
	for f in "${@:2}"; do
		case $f in
		tools/*|scripts/*|samples/*) ;;	# not kbuild objects
		*.c) [ -f "$TREE/$f" ] && objs+=("${f%.c}.o") ;;
		esac
	done
	: >"$out/$1"
	[ ${#objs[@]} -eq 0 ] && return 0
	# Objects not in this config (other arches, options off) are skipped.
	local o
	for o in "${objs[@]}"; do
		kmake W=1 "$o" >>"$out/$1" 2>&1 ||
			grep -q "No rule to make target" "$out/$1" || return 1
	done
}
docs() {	# docs TAG FILES...
	local f files=()
	for f in "${@:2}"; do
		case $f in *.c|*.h) [ -f "$TREE/$f" ] && files+=("$TREE/$f") ;; esac
	done
	: >"$out/$1"
	[ ${#files[@]} -eq 0 ] || "$TREE/scripts/kernel-doc" -none -Wall "${files[@]}" \
		2>&1 | sed "s|$TREE/||" | sort >"$out/$1"
}

for c in $(git -C "$TREE" rev-list --reverse "$since..HEAD"); do
	n=$((n + 1))
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	mapfile -t files < <(git -C "$TREE" diff --name-only --diff-filter=AM "$c^" "$c")
	tag=$(printf '%02d' $n)
	problems=()

	git -C "$TREE" checkout -q --detach "$c^"
	w1 "$tag.before.w1" "${files[@]}" || true
	docs "$tag.before.doc" "${files[@]}"
	git -C "$TREE" checkout -q --detach "$c"
	kmake bzImage >"$out/$tag.build" 2>&1 || problems+=("does not build")
	w1 "$tag.after.w1" "${files[@]}" || problems+=("touched objects do not build")
	docs "$tag.after.doc" "${files[@]}"
	new_w=$(comm -13 <(grep 'warning:' "$out/$tag.before.w1" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u) \
	                 <(grep 'warning:' "$out/$tag.after.w1" | sed 's/:[0-9]*:[0-9]*:/:/' | sort -u))
	[ -z "$new_w" ] || { problems+=("new W=1 warnings"); echo "$new_w" >"$out/$tag.new-w1"; }
	new_d=$(comm -13 <(sed 's/:[0-9][0-9]*//' "$out/$tag.before.doc" | sort -u) \
	                 <(sed 's/:[0-9][0-9]*//' "$out/$tag.after.doc" | sort -u))
	[ -z "$new_d" ] || { problems+=("new kernel-doc warnings"); echo "$new_d" >"$out/$tag.new-doc"; }
	git -C "$TREE" format-patch -1 --stdout "$c" |
		"$TREE/scripts/checkpatch.pl" --strict --quiet --no-tree --show-types \
		--ignore FILE_PATH_CHANGES - \
		>"$out/$tag.checkpatch" 2>&1 || problems+=("checkpatch")
	if [ ${#problems[@]} -eq 0 ]; then
		echo "PASS $tag $subj"
		pass=$((pass + 1))
	else
		echo "FAIL $tag $subj: ${problems[*]} (build/results/series/$tag.*)"
		fail=$((fail + 1))
	fi
done
restore
trap - EXIT

# Debian's own amd64 config: the objects the series touches must compile.
step debian-config
mapfile -t files < <(git -C "$TREE" diff --name-only --diff-filter=AM base..HEAD -- '*.c' ':!tools' ':!scripts' ':!samples')
if [ ${#files[@]} -gt 0 ]; then
	dkout=$BUILD/kbuild-debian
	mkdir -p "$dkout"
	deb=$(ls "$DL"/linux-config-7.2_*.deb | tail -n1)
	tmp=$(mktemp -d)
	dpkg -x "$deb" "$tmp"
	cfg=$(find "$tmp" -name 'config.amd64_none_amd64.xz' | head -n1)
	[ -n "$cfg" ] || die "no amd64 config in $deb"
	xz -dc "$cfg" >"$dkout/.config.debian"
	rm -rf "$tmp"
	cmp -s "$dkout/.config.debian" "$dkout/.config.src" || {
		cp "$dkout/.config.debian" "$dkout/.config"
		cp "$dkout/.config.debian" "$dkout/.config.src"
		# No module signing keys or BTF here: builds only objects.
		make -C "$TREE" O="$dkout" olddefconfig >/dev/null
		"$TREE/scripts/config" --file "$dkout/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" -d MODULE_SIG_ALL -d DEBUG_INFO_BTF \
			-d DEBUG_INFO -e DEBUG_INFO_NONE
		make -C "$TREE" O="$dkout" olddefconfig >/dev/null
	}
	# Objects whose Makefile line is conditional on an option Debian
	# leaves off (the KUnit suite) are not built there: skip them.
	objs=() off=()
	for f in "${files[@]}"; do
		o=${f##*/}; o=${o%.c}.o
		sym=$(grep -wF "$o" "$TREE/${f%/*}/Makefile" 2>/dev/null |
		      grep -o 'CONFIG_[A-Z0-9_]*' | head -n1 || true)
		if [ -n "$sym" ] && ! grep -qE "^$sym=[ym]" "$dkout/.config"; then
			off+=("${f%.c}.o ($sym off)")
		else
			objs+=("${f%.c}.o")
		fi
	done
	[ ${#off[@]} -eq 0 ] || echo "not in Debian's config: ${off[*]}"
	if KOUT=$dkout kmake "${objs[@]}" >"$out/debian-config.log" 2>&1; then
		echo "PASS debian-config: ${#objs[@]} objects"
		pass=$((pass + 1))
	else
		echo "FAIL debian-config: see build/results/series/debian-config.log"
		fail=$((fail + 1))
	fi
fi
echo "$pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
