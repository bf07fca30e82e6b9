#!/bin/bash
# Regenerate patches/ from base..HEAD of build/linux.  Output is a pure
# function of the commits: zeroed commit ids, no version signature, and a
# cover letter built from patches/cover-letter.txt (first line: subject).
# Exporting an unchanged series leaves patches/ byte-identical.
. "$(dirname "$0")/lib.sh"

step export
git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null ||
	die "no build/linux with a 'base' tag: run 'make tree'"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes"

mkdir -p "$PATCHES"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=$(git -C "$TREE" rev-list --count base..HEAD)
prefix="PATCH net-next"
if [ "$n" -gt 0 ]; then
	git -C "$TREE" -c core.abbrev=12 format-patch -q --zero-commit \
		--no-signature --numbered --start-number 1 \
		--subject-prefix="$prefix" -o "$tmp" base..HEAD
fi

cover=$PATCHES/cover-letter.txt
[ -f "$cover" ] || die "patches/cover-letter.txt is missing"
{
	echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
	echo "From: $PROJECT_NAME <$PROJECT_EMAIL>"
	if [ "$n" -gt 0 ]; then
		echo "Date: $(git -C "$TREE" log -1 --format=%aD HEAD)"
	fi
	echo "Subject: [$prefix 00/$(printf '%02d' "$n")] $(head -n1 "$cover")"
	echo
	tail -n +3 "$cover"
	echo
	git -C "$TREE" shortlog base..HEAD
	git -C "$TREE" diff --stat=72 --summary base..HEAD
} >"$tmp/0000-cover-letter.patch"

(cd "$tmp" && ls -1 [0-9]*.patch | grep -v "^0000-") >"$tmp/series" || true
rm -f "$PATCHES"/[0-9]*.patch
cp "$tmp"/[0-9]*.patch "$tmp/series" "$PATCHES/"
echo "exported $n patches to patches/"
