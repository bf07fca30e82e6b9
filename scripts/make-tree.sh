#!/bin/bash
# (Re)create build/linux: the pristine base as the first commit, tagged
# 'base', with patches/ applied on top by git am.  The unpacked base is kept
# as that git repository, so a second run only resets and re-applies.
. "$(dirname "$0")/lib.sh"

"$TOP"/scripts/fetch-base.sh

if ! git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	step unpack
	deb=$(ls "$DL"/linux-source-7.2_7.2.*.deb | sort -V | tail -n1)
	rm -rf "$TREE" "$BUILD/unpack"
	mkdir -p "$BUILD/unpack"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-source-7.2.tar.xz' |
		tar -xJ -C "$BUILD/unpack"
	mv "$BUILD/unpack/linux-source-7.2" "$TREE"
	rmdir "$BUILD/unpack"
	ver=${deb##*/linux-source-7.2_}; ver=${ver%_all.deb}
	git -C "$TREE" init -q -b series
	git -C "$TREE" config gc.auto 0
	# Debian's top-level .gitignore ignores everything ("/*"): force-add
	# so that the base commit is exactly the tarball.
	git -C "$TREE" add -A -f
	GIT_AUTHOR_NAME=$PROJECT_NAME GIT_AUTHOR_EMAIL=$PROJECT_EMAIL \
	GIT_COMMITTER_NAME=$PROJECT_NAME GIT_COMMITTER_EMAIL=$PROJECT_EMAIL \
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git -C "$TREE" commit -q -m "Linux $ver (Debian linux-source-7.2)"
	git -C "$TREE" tag base
fi
git -C "$TREE" config user.name "$PROJECT_NAME"
git -C "$TREE" config user.email "$PROJECT_EMAIL"

step apply
# Refuse to throw away work that was never exported.
if [ "${FORCE:-0}" != 1 ] && [ "$(git -C "$TREE" rev-parse HEAD)" != "$(git -C "$TREE" rev-parse base)" ]; then
	"$TOP"/scripts/series-matches-tree.sh ||
		die "build/linux has commits not in patches/: run 'make export' first, or FORCE=1 make tree"
fi
git -C "$TREE" am --abort >/dev/null 2>&1 || true
git -C "$TREE" checkout -q -f -B series base
n=0
if [ -s "$PATCHES/series" ]; then
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		git -C "$TREE" am -q --keep-cr "$PATCHES/$p" ||
			die "patch $p does not apply (git am left in progress in build/linux)"
		n=$((n + 1))
	done <"$PATCHES/series"
fi
echo "tree: base $(git -C "$TREE" log -1 --format=%s base | sed 's/^Linux //') + $n patches"
