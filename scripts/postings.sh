# The layout of patches/ and how it maps to build/linux; sourced by the
# scripts that read or write patches/, after lib.sh.
#
#   patches/series                  the postings, in the order they apply
#   patches/NN-name/series          the posting's patches, in order
#   patches/NN-name/0000-cover-letter.patch
#   patches/NN-name/NNNN-*.patch    git format-patch output
#
# In build/linux a posting is an empty commit carrying its cover letter
# (subject, text, then the trailers "Posting: NN-name" and "Tree: net" or
# "Tree: net-next"), followed by its patches.
# shellcheck shell=bash

# shellcheck disable=SC2153 # TREE comes from lib.sh
STAMP=$TREE/.git/harness-patches	# what patches/ and HEAD were when in sync

# posting_commits: "<commit> <posting>" for each commit of base..HEAD, the
# posting being the folder of the last cover commit before it ("-" for
# the cover commits themselves).
posting_commits() {
	local c cur=""
	for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
		local p
		p=$(git -C "$TREE" log -1 --format='%(trailers:key=Posting,valueonly)' "$c" |
		    head -n1)
		if [ -n "$p" ] && [ "$(git -C "$TREE" rev-parse "$c^{tree}")" = \
		     "$(git -C "$TREE" rev-parse "$c^^{tree}")" ]; then
			cur=$p
			echo "$c -"
			continue
		fi
		[ -n "$cur" ] || die "commit $(git -C "$TREE" log -1 --format='%h %s' "$c")" \
			"comes before any posting's cover commit"
		echo "$c $cur"
	done
}

# series_commits: the patches of base..HEAD, cover commits left out.
series_commits() {
	posting_commits | awk '$2 != "-" { print $1 }'
}

# export_postings DIR: write the patches/ layout for base..HEAD into DIR.
export_postings() {
	local out=$1 c p cover="" tree n folder all
	all=$(posting_commits)
	: >"$out/series"
	while read -r c p; do
		[ "$p" = - ] || continue
		cover=$c
		folder=$(git -C "$TREE" log -1 --format='%(trailers:key=Posting,valueonly)' "$c" | head -n1)
		tree=$(git -C "$TREE" log -1 --format='%(trailers:key=Tree,valueonly)' "$c" | head -n1)
		case $tree in net|net-next) ;; *) die "posting $folder: Tree: is '$tree', not net or net-next" ;; esac
		echo "$folder" >>"$out/series"
		mkdir -p "$out/$folder"
		# The posting's patches: after its cover, up to the next cover.
		local range
		range=$(awk -v f="$folder" '$2 == f { print $1 }' <<<"$all")
		n=$(grep -c . <<<"$range" || true)
		[ "$n" -gt 0 ] || die "posting $folder has no patches"
		local first last
		first=$(head -n1 <<<"$range")
		last=$(tail -n1 <<<"$range")
		git -C "$TREE" -c core.abbrev=12 format-patch -q --zero-commit \
			--no-signature --numbered --start-number 1 \
			--subject-prefix="PATCH $tree" -o "$out/$folder" "$first^..$last"
		(cd "$out/$folder" && ls -1 [0-9]*.patch) >"$out/$folder/series"
		{
			echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
			echo "From: $PROJECT_NAME <$PROJECT_EMAIL>"
			echo "Date: $(git -C "$TREE" log -1 --format=%aD "$last")"
			echo "Subject: [PATCH $tree 0/$n] $(git -C "$TREE" log -1 --format=%s "$cover")"
			echo
			git -C "$TREE" log -1 --format=%b "$cover" | cover_text
			echo "---"
			git -C "$TREE" shortlog "$first^..$last"
			git -C "$TREE" diff --stat=72 --summary "$first^..$last"
		} >"$out/$folder/0000-cover-letter.patch"
	done <<<"$all"
	[ -s "$out/series" ] || die "no posting in build/linux (base..HEAD has no cover commit)"
}

# cover_text: a cover commit's body without its trailers and their blank line
cover_text() {
	sed -e '/^Posting: /d' -e '/^Tree: /d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# patches_hash: one hash of everything in patches/
patches_hash() {
	(cd "$PATCHES" && find . -type f -print0 | sort -z | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

# tree_stamp: record that build/linux's HEAD and patches/ are in sync now.
tree_stamp() {
	echo "$(git -C "$TREE" rev-parse HEAD) $(patches_hash)" >"$STAMP"
}

# tree_matches_patches: build/linux base..HEAD exports to exactly patches/.
tree_matches_patches() {
	local tmp rc=0
	tmp=$(mktemp -d)
	(export_postings "$tmp") >/dev/null 2>&1 || rc=1
	[ $rc -ne 0 ] || diff -r -q "$tmp" "$PATCHES" >/dev/null 2>&1 || rc=1
	rm -rf "$tmp"
	return $rc
}

# apply_postings: reset build/linux to base and apply patches/ with git am,
# each posting after an empty commit with its cover letter.
apply_postings() {
	local folder p n=0 hdr subj tree
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f -B series base
	[ -s "$PATCHES/series" ] || return 0
	while read -r folder; do
		case $folder in ''|'#'*) continue ;; esac
		local cl=$PATCHES/$folder/0000-cover-letter.patch
		[ -f "$cl" ] || die "patches/$folder has no 0000-cover-letter.patch"
		subj=$(sed -n 's/^Subject: //p' "$cl" | head -n1)
		hdr=${subj%%]*}
		tree=${hdr#\[PATCH }; tree=${tree%% *}
		subj=${subj#*] }
		{
			echo "$subj"
			echo
			sed -e '1,/^$/d' -e '/^---$/,$d' "$cl"
			echo
			echo "Posting: $folder"
			echo "Tree: $tree"
		} >"$BUILD/cover.msg"
		GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$cl" | head -n1) \
		GIT_COMMITTER_DATE=$(sed -n 's/^Date: //p' "$cl" | head -n1) \
			git -C "$TREE" commit -q --allow-empty --cleanup=verbatim -F "$BUILD/cover.msg"
		while read -r p; do
			case $p in ''|'#'*) continue ;; esac
			git -C "$TREE" am -q --keep-cr "$PATCHES/$folder/$p" ||
				die "patch $folder/$p does not apply (git am left in progress in build/linux)"
			n=$((n + 1))
		done <"$PATCHES/$folder/series"
	done <"$PATCHES/series"
	rm -f "$BUILD/cover.msg"
	echo "$n"
}

# patch_files: every patch of patches/, as folder/file, in order
patch_files() {
	local folder p
	while read -r folder; do
		case $folder in ''|'#'*) continue ;; esac
		while read -r p; do
			case $p in ''|'#'*) continue ;; esac
			echo "$folder/$p"
		done <"$PATCHES/$folder/series"
	done <"$PATCHES/series"
}

# without_generated: a patch on stdin, on stdout without the diffs of
# files the netlink generator writes ("YNL-GEN" on their first line).
# Their style is the generator's, not the patch author's: the ynl
# regeneration check covers them.
without_generated() {
	local gen
	gen=$(git -C "$TREE" grep -l '^/\* YNL-GEN' | tr '\n' ' ')
	awk -v gen=" $gen " '
	/^diff --git / {
		f = $3; sub(/^a\//, "", f)
		skip = index(gen, " " f " ") > 0
	}
	/^-- $/ { skip = 0 }
	!skip'
}
