#!/bin/bash
# Bring build/linux in line with patches/ (for BASE=7.3: build/linux-7.3
# and patches-7.3/, see lib.sh): the pristine base as the first
# commit, tagged 'base', then every posting of patches/series (an empty
# commit with its cover letter, then its patches, applied by git am).
#
# Run before every build, so that what is built and tested is always what
# patches/ holds. When build/linux already matches patches/ nothing is
# done. When patches/ changed since the tree was last applied or exported
# and build/linux has no work of its own, patches/ is applied again.
# Work in build/linux (uncommitted edits, or commits not exported) is
# never thrown away: the script stops and says what to do, unless FORCE=1.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=postings.sh
. "$(dirname "$0")/postings.sh"

# The base to build: the version fetch-base.sh took (see bases.pin)
want=$("$TOP"/scripts/fetch-base.sh | sed -n "s/^base: linux-source-$BASE \([^ ]*\) .*/\1/p")
[ -n "$want" ] || die "fetch-base.sh named no linux-source-$BASE"

# A tree unpacked from another version is unpacked again, unless it holds
# work of its own.
if built=$(git -C "$TREE" log -1 --format=%s base 2>/dev/null) &&
   [ "$built" != "Linux $want (Debian linux-source-$BASE)" ]; then
	read -r stamp_head _ 2>/dev/null <"$STAMP" || stamp_head=''
	head=$(git -C "$TREE" rev-parse HEAD)
	{ [ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] &&
	  { [ "$head" = "$stamp_head" ] || [ "$head" = "$(git -C "$TREE" rev-parse base)" ]; }; } ||
	[ "${FORCE:-0}" = 1 ] ||
		die "${TREE#"$TOP"/} is ${built#Linux }, the base to build is $want," \
		    "and it has work not exported: make export, or FORCE=1 make tree"
	echo "tree: ${TREE#"$TOP"/} is ${built#Linux }: unpacking $want"
	git -C "$TREE" tag -d base >/dev/null
fi

if ! git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	step unpack
	deb=$(find "$DL" -maxdepth 1 -name "linux-source-${BASE}_${want//:/%3a}_*.deb")
	[ -n "$deb" ] || die "no linux-source-$BASE $want in build/dl"
	rm -rf "$TREE" "$BUILD/unpack"
	mkdir -p "$BUILD/unpack"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards "./usr/src/linux-source-$BASE.tar.xz" |
		tar -xJ -C "$BUILD/unpack"
	mv "$BUILD/unpack/linux-source-$BASE" "$TREE"
	rmdir "$BUILD/unpack"
	ver=$(dpkg-deb -f "$deb" Version)
	git -C "$TREE" init -q -b series
	git -C "$TREE" config gc.auto 0
	# Debian's top-level .gitignore ignores everything ("/*"): force-add
	# so that the base commit is exactly the tarball.
	git -C "$TREE" add -A -f
	GIT_AUTHOR_NAME=$PROJECT_NAME GIT_AUTHOR_EMAIL=$PROJECT_EMAIL \
	GIT_COMMITTER_NAME=$PROJECT_NAME GIT_COMMITTER_EMAIL=$PROJECT_EMAIL \
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git -C "$TREE" commit -q -m "Linux $ver (Debian linux-source-$BASE)"
	git -C "$TREE" tag base
	rm -f "$STAMP"
	"$TOP"/scripts/versions.sh >/dev/null	# now naming this tree's base
fi
git -C "$TREE" config user.name "$PROJECT_NAME"
git -C "$TREE" config user.email "$PROJECT_EMAIL"

step tree
tn=${TREE#"$TOP"/} pn=${PATCHES#"$TOP"/}	# for messages: build/linux, patches
head=$(git -C "$TREE" rev-parse HEAD)
base=$(git -C "$TREE" rev-parse base)
dirty=$(git -C "$TREE" status --porcelain --untracked-files=no)
read -r stamp_head stamp_patches 2>/dev/null <"$STAMP" || { stamp_head=''; stamp_patches=''; }
if [ "${FORCE:-0}" != 1 ]; then
	if [ -z "$dirty" ] && [ "$head" != "$base" ] && tree_matches_patches; then
		tree_stamp
		echo "tree: $tn matches $pn/ ($(series_commits | grep -c .) patches)"
		exit 0
	fi
	[ -z "$dirty" ] || die "$tn has uncommitted changes:" \
		"$(head -n 5 <<<"$dirty" | tr '\n' ' ')- commit and 'make export'," \
		"or FORCE=1 make tree to throw them away"
	# Commits made in build/linux since it was last applied or exported
	# are the only copy of that work.
	if [ "$head" != "$base" ] && [ "$head" != "$stamp_head" ]; then
		if [ "$stamp_patches" = "$(patches_hash)" ]; then
			die "$tn has commits that are not in $pn/:" \
			    "run 'make export' and commit $pn/ (FORCE=1 make tree throws them away)"
		fi
		die "both $tn (commits not exported) and $pn/ changed" \
		    "since the tree was last applied: export or drop one side" \
		    "(make export, or FORCE=1 make tree)"
	fi
fi
step apply
n=$(apply_postings)
tree_stamp
echo "tree: base $(git -C "$TREE" log -1 --format=%s base | sed 's/^Linux //') +" \
     "$(grep -c . "$PATCHES/series") postings, $n patches"
