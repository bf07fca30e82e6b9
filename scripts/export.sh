#!/bin/bash
# Regenerate patches/ from base..HEAD of build/linux (BASE=7.3: patches-7.3/
# from build/linux-7.3): one folder per
# posting. A posting starts with an empty commit whose message is its cover
# letter (subject, blank line, text) ending in the trailers
# "Posting: <folder>" and "Tree: net|net-next"; the commits after it, up
# to the next one, are its patches. patches/series lists the folders in
# the order make tree applies them; each folder has its own series, its
# cover letter (0000-cover-letter.patch) and its patches, numbered from 1.
# Output is a pure function of the commits (zeroed commit ids, no version
# signature): exporting an unchanged tree leaves patches/ byte-identical.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=postings.sh
. "$(dirname "$0")/postings.sh"

step export
tn=${TREE#"$TOP"/} pn=${PATCHES#"$TOP"/}	# for messages: build/linux, patches
git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null ||
	die "no $tn with a 'base' tag: run 'make tree'"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$tn has uncommitted changes"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export_postings "$tmp"

rm -rf "$PATCHES"/[0-9][0-9]-*/ "$PATCHES/series"
mkdir -p "$PATCHES"
cp -r "$tmp"/. "$PATCHES"/
tree_stamp
echo "exported $(grep -c . "$PATCHES/series") postings," \
     "$(cat "$PATCHES"/*/series | grep -c .) patches to $pn/"
