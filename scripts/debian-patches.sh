#!/bin/bash
# make debian-patches: the stack in the form a Debian kernel package takes
# it, in build/debian-patches/ (BASE=7.3: build/debian-patches-7.3/):
#
#   series                          the patches, one path a line, in order,
#                                   relative to debian/patches
#   features/all/devmem-netmem/NN-posting/NNNN-*.patch
#   covers/NN-posting.txt           the cover letters, not in series
#
# Copy features/ into debian/patches and append series to its series.
# Each patch is git format-patch output without rename diffs (older quilt
# and patch(1) do not apply them), "[PATCH]" not added to its subject,
# with DEP-3 fields after its Subject:
#   Origin: backport, commit:<id>   net-next merged the same change as <id>
#                                   (the patch says "net-next has this
#                                   change as <id>"): ours is written for
#                                   this base, so its text differs
#   Origin: other, <url>            the patch follows a posting still under
#                                   review (its Link: to lore.kernel.org)
#   (no Origin)                     our own change: From: is its author
#   Forwarded: not-needed | <url> | no
#                                   merged upstream | the posting it
#                                   follows | not posted yet
#
# Then the folder is tested: the pristine source (the linux-source
# tarball make tree unpacked) gets "quilt push -a", and the result must be
# the tree of build/linux's HEAD, file for file, modes included.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=postings.sh
. "$(dirname "$0")/postings.sh"

OUT=$BUILD/debian-patches$SFX
SUB=features/all/devmem-netmem
tn=${TREE#"$TOP"/}

step check
git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null ||
	die "no $tn with a 'base' tag: run 'make tree'"
tree_matches_patches ||
	die "$tn does not export to ${PATCHES#"$TOP"/}: run 'make tree' (or 'make export')"
command -v quilt >/dev/null || apt_install "$BUILD/apt-install-quilt.log" quilt

# dep3 COMMIT: the DEP-3 lines for COMMIT's patch
dep3() {
	local body sha link
	body=$(git -C "$TREE" log -1 --format=%B "$1")
	sha=$(tr '\n' ' ' <<<"$body" | grep -o 'net-next has this change as [0-9a-f]\{12,40\}' |
	      head -n1 | awk '{ print $NF }')
	link=$(sed -n 's/^Link: \(https:\/\/lore\.kernel\.org\/[^ ]*\)$/\1/p' <<<"$body" | head -n1)
	if [ -n "$sha" ]; then
		echo "Origin: backport, commit:$sha"
		echo "Forwarded: not-needed"
	elif [ -n "$link" ]; then
		echo "Origin: other, $link"
		echo "Forwarded: $link"
	else
		echo "Forwarded: no"
	fi
}

# with_dep3 FILE LINES: insert LINES after FILE's Subject: header (and its
# folded continuation lines), inside the mail header
with_dep3() {
	awk -v add="$2" '
	done { print; next }
	insub && !/^[ \t]/ { print add; done = 1; print; next }
	/^Subject: / { insub = 1 }
	{ print }' "$1" >"$1.new"
	mv "$1.new" "$1"
}

step write
rm -rf "$OUT"
mkdir -p "$OUT/$SUB" "$OUT/covers"
: >"$OUT/series"
n=0
while read -r c p; do
	if [ "$p" = - ]; then
		folder=$(git -C "$TREE" log -1 --format='%(trailers:key=Posting,valueonly)' "$c" | head -n1)
		cp "$PATCHES/$folder/0000-cover-letter.patch" "$OUT/covers/$folder.txt"
		mkdir -p "$OUT/$SUB/$folder"
		i=0
		continue
	fi
	i=$((i + 1)) n=$((n + 1))
	f=$(git -C "$TREE" -c core.abbrev=12 format-patch --zero-commit \
		--no-signature --no-renames --keep-subject --start-number "$i" \
		-o "$OUT/$SUB/$p" -1 "$c")
	with_dep3 "$f" "$(dep3 "$c")"
	echo "$SUB/$p/${f##*/}" >>"$OUT/series"
done < <(posting_commits)
grep -l '^rename from \|^GIT binary patch' "$OUT/$SUB"/*/*.patch >/dev/null &&
	die "a patch in ${OUT#"$TOP"/} has a rename or binary diff"
echo "$n patches in ${OUT#"$TOP"/} ($(grep -c '^Origin: backport' "$OUT/$SUB"/*/*.patch | awk -F: '{ s += $2 } END { print s }') backports of net-next commits," \
     "$(grep -c '^Origin: other' "$OUT/$SUB"/*/*.patch | awk -F: '{ s += $2 } END { print s }') following postings)"

step quilt
deb=$(find "$DL" -maxdepth 1 -name "linux-source-${BASE}_*.deb" | sort -V | tail -n1)
ver=$(git -C "$TREE" log -1 --format=%s base)
[ -n "$deb" ] || die "no linux-source-$BASE .deb in build/dl: run 'make tree'"
grep -qF "$(dpkg-deb -f "$deb" Version)" <<<"$ver" ||
	die "build/dl's $(basename "$deb") is not the base of $tn ($ver)"
test=$BUILD/debian-patches-test$SFX
rm -rf "$test"
mkdir -p "$test"
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO --wildcards "./usr/src/linux-source-$BASE.tar.xz" | tar -xJ -C "$test"
src=$test/linux-source-$BASE
(cd "$src" && QUILT_PATCHES=$OUT QUILT_SERIES=$OUT/series \
	quilt push -a -q --fuzz=0 >"$test/quilt.log" 2>&1) ||
	{ tail -n 20 "$test/quilt.log" >&2; die "quilt push -a failed (see ${test#"$TOP"/}/quilt.log)"; }
echo "quilt push -a: $(grep -c '^Applying patch' "$test/quilt.log") patches applied, no fuzz"

step compare
rm -rf "$src/.pc"
git -C "$src" init -q
git -C "$src" add -A -f
got=$(git -C "$src" write-tree)
want=$(git -C "$TREE" rev-parse 'HEAD^{tree}')
if [ "$got" != "$want" ]; then
	echo "$TREE/.git/objects" >"$src/.git/objects/info/alternates"
	git -C "$src" diff --stat "$want" "$got" >&2 || true
	die "the quilt-patched source differs from $tn's HEAD"
fi
echo "the quilt-patched source is $tn's HEAD: tree $got"
rm -rf "$test"
