#!/bin/bash
# make check-series: the checks of netdev's CI (NIPA) that run offline, on
# every patch of base..HEAD and on every posting, each patch compared with
# its parent: a check fails only on problems the patch adds (findings
# compared without line numbers, counts kept; the parent is built or
# linted only when the patch's own state found something).
#
# Per patch (the postings' empty cover commits are not patches):
#   build          the kernel (bzImage, build/kbuild) builds incrementally
#   w1             the objects of the touched .c files, W=1 (gcc): no new
#                  warning
#   sparse         the same objects through sparse (C=2): no new warning
#   i386           the same objects, ARCH=i386 W=1 (build/kbuild-i386),
#                  and none calls libgcc's 64-bit division (__umoddi3...)
#   clang          the same objects, LLVM=1 W=1 with clang 19 (>= 17.0.1,
#                  which Linux 7.2 needs; build/kbuild-clang)
#   headers        make headers, when the patch touches include/ or tools/
#   selftests      the touched selftest directories build, no new warning
#   tools-clean    that build leaves no new untracked file in build/linux
#   checkpatch     checkpatch --strict --codespell --max-line-length=80
#   kdoc           kernel-doc -Wall -none on the touched .c/.h: nothing new
#   inline         no static non-inline function added to a header, no
#                  inline added to a kernel .c file
#   deprecated-api no module_param, dev_hold/dev_put, get_net/put_net,
#                  init_dummy_netdev added; no __free() under drivers/net
#   tags           Signed-off-by of the author; Fixes: tags well formed
#   new-selftests  a new selftest is in its Makefile (and .gitignore)
#   selftest-fmt   the touched selftest config, .gitignore and Makefile:
#                  entries sorted, Makefile lists one item a line
#   pylint ruff shellcheck yamllint
#                  on the touched files of their type: no new finding
# Per posting (patches/<posting>, the exported form):
#   series         at most 15 patches, a cover letter from 3 up, every
#                  subject [PATCH <tree> n/m] with the posting's Tree and
#                  consistent numbering; a net posting carries a Fixes: tag
#   ynl-regen      tools/net/ynl/ynl-regen.sh -f leaves the tree clean
#   ynl-build      make -C tools/net/ynl builds without new warnings (run
#                  when the posting changes something that build reads)
# Once: patches/ is what build/linux exports (patches-export), and the
# objects the series touches compile under Debian's amd64 config
# (debian-config).
#
# The three kernel configurations are allnoconfig plus the VM's fragments
# (configs/, as configure-kernel.sh), made again at a patch that changes a
# Kconfig file; i386's without CONFIG_64BIT and with COMPILE_TEST.
#
# Each check prints "PASS <check> <patch>", "FAIL <check> <patch> (<log>)"
# or "SKIP <check> <patch> (<why>)", where <patch> is <posting>/<NNNN>;
# then "N passed, N failed, N skipped". Logs are in build/results/series/
# (<posting>/<NNNN>.<check>.*: .new is what the patch added). A check with
# nothing to look at in a patch (pylint without .py files) passes.
#
# SINCE=<commit> checks only the patches after it (and the postings they
# are in; the Debian config step still covers the whole series).
# CHECKS=static runs only the checks that need no kernel build: build/linux
# is then neither checked out nor built, and the build checks are SKIPs.
#
# The kernel builds run in build/linux, checked out at each patch (and
# restored at the end, with the VM config); the other checks run in a
# worktree of build/linux (build/series-wt, kept between runs; SERIES_WT
# overrides). Tools: install-check-tools.sh.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=postings.sh
. "$(dirname "$0")/postings.sh"

CHECKS=${CHECKS:-all}
case $CHECKS in all|static) ;; *) die "CHECKS=$CHECKS: 'all' or 'static'" ;; esac
WT=${SERIES_WT:-$BUILD/series-wt$SFX}
CT=$TOOLS/check/bin		# clang, ld.lld, llvm-*, sparse, pylint, ruff
KOUT_I386=$BUILD/kbuild-i386$SFX
KOUT_CLANG=$BUILD/kbuild-clang$SFX
# NIPA's checkpatch options and ignore list. UNKNOWN_COMMIT_ID too: the
# Fixes: tags name upstream commits, and the Debian tarball that is our
# base has no history to find them in.
CHECKPATCH_IGNORE=COMMIT_LOG_LONG_LINE,MACRO_ARG_REUSE,ALLOC_SIZEOF_STRUCT,NO_AUTHOR_SIGN_OFF,GIT_COMMIT_ID,CAMELCASE,FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID

step check-tools
"$TOP"/scripts/install-check-tools.sh >"$BUILD/check-tools.log" 2>&1 ||
	{ tail -n 20 "$BUILD/check-tools.log" >&2; die "install-check-tools.sh failed (see build/check-tools.log)"; }
sed -n 's/^  //p' "$TOOLS/check/versions"
CODESPELL_DICT=$("$PYTHON" -c 'import codespell_lib, os; print(os.path.join(os.path.dirname(codespell_lib.__file__), "data", "dictionary.txt"))')
[ -f "$CODESPELL_DICT" ] || die "no codespell dictionary at $CODESPELL_DICT"

step check-series
git -C "$TREE" rev-parse -q --verify refs/tags/base >/dev/null ||
	die "no build/linux with a 'base' tag: run 'make tree'"
if [ "$CHECKS" = all ]; then
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes"
fi
head=$(git -C "$TREE" rev-parse HEAD)
since=$(git -C "$TREE" rev-parse -q --verify "${SINCE:-base}^{commit}") ||
	die "SINCE=${SINCE:-} is not a commit of build/linux"
if ! git -C "$TREE" merge-base --is-ancestor "$(git -C "$TREE" rev-parse base)" "$since" ||
   ! git -C "$TREE" merge-base --is-ancestor "$since" "$head"; then
	die "SINCE=${SINCE:-} is not in base..HEAD"
fi

out=$RESULTS/series
rm -rf "$out"
mkdir -p "$out"
summary=$out/summary
: >"$summary"
pass=0 fail=0 skip=0
result() {	# result PASS|FAIL|SKIP CHECK WHAT [LOG|REASON]
	local line
	case $1 in
	PASS) line="PASS $2 $3"; pass=$((pass + 1)) ;;
	FAIL) line="FAIL $2 $3 (${4#"$TOP"/})"; fail=$((fail + 1)) ;;
	SKIP) line="SKIP $2 $3 ($4)"; skip=$((skip + 1)) ;;
	esac
	echo "$line"
	echo "$line" >>"$summary"
}
# verdict CHECK WHAT NEWFILE [LOG]: FAIL when NEWFILE is not empty.
verdict() {
	if [ -s "$3" ]; then
		result FAIL "$1" "$2" "$3"
	else
		result PASS "$1" "$2"
	fi
}
# norm FILE...: findings without line and column numbers, sorted (moved
# code is no new finding), counts kept (one more of the same is).
norm() {
	sed -E -e 's/:[0-9]+(:[0-9]+)?([: ])/\2/' -e 's/ \([0-9]+\/[0-9]+\)//' "$@" | sort
}
# new_findings BEFORE AFTER OUT: what AFTER has more of than BEFORE.
new_findings() {
	comm -13 <(norm "$1") <(norm "$2") >"$3" || true
}

# The commits to check, with their posting and number in it, and the
# postings' last commits. posting_commits reads HEAD: done before any
# checkout.
mapfile -t todo < <(git -C "$TREE" rev-list --reverse "$since..$head")
declare -A post_of=() num_of=() last_of=() tree_of=() cover_of=()
postings=()
n=0 cur=
while read -r c p; do
	if [ "$p" = - ]; then
		cur=$(git -C "$TREE" log -1 --format='%(trailers:key=Posting,valueonly)' "$c" | head -n1)
		postings+=("$cur")
		cover_of[$cur]=$c
		tree_of[$cur]=$(git -C "$TREE" log -1 --format='%(trailers:key=Tree,valueonly)' "$c" | head -n1)
		n=0
		continue
	fi
	n=$((n + 1))
	post_of[$c]=$p
	num_of[$c]=$(printf '%04d' "$n")
	last_of[$p]=$c
done < <(posting_commits)

# patches/ must be what build/linux exports: both are the series.
step patches-export
if tree_matches_patches; then
	result PASS patches-export patches
else
	tmp=$(mktemp -d)
	(export_postings "$tmp") >/dev/null 2>&1 || true
	diff -r "$tmp" "$PATCHES" >"$out/patches-export.diff" 2>&1 || true
	rm -rf "$tmp"
	result FAIL patches-export patches "$out/patches-export.diff"
fi

# ---- the worktree for the checks that read files ----
step worktree
git -C "$TREE" worktree prune
if [ -e "$WT/.git" ] &&
   [ "$(cd "$WT" && realpath "$(git rev-parse --git-common-dir)" 2>/dev/null)" = \
     "$(git -C "$TREE" rev-parse --absolute-git-dir)" ]; then
	git -C "$WT" reset -q --hard
	git -C "$WT" clean -fdxq
else
	rm -rf "$WT"
	git -C "$TREE" worktree add -q --detach "$WT" "$head"
fi
wt_at() { git -C "$WT" checkout -q -f --detach "$1"; }

# ---- the static checks of one patch ----

# files_of C [PATTERN...]: the files C adds or modifies (renames as a
# delete and an add).
files_of() {
	git -C "$TREE" diff --no-renames --name-only --diff-filter=AM "$1^" "$1" -- "${@:2}"
}

check_checkpatch() {	# C ID LOG
	# On stdin: given the path of a file git tracks, checkpatch checks it
	# as a source file, not as a patch (check.sh). --no-tree: it then
	# needs no kernel tree around it (the patch is all it reads). Generated
	# netlink code is the generator's style: the ynl check covers it.
	if git -C "$TREE" -c core.abbrev=12 format-patch -1 --stdout --zero-commit "$1" | without_generated |
	   "$WT/scripts/checkpatch.pl" --strict --codespell --codespellfile "$CODESPELL_DICT" \
		--max-line-length=80 --quiet --no-tree --show-types \
		--ignore "$CHECKPATCH_IGNORE" - >"$3.log" 2>&1; then
		result PASS checkpatch "$2"
	else
		result FAIL checkpatch "$2" "$3.log"
	fi
}

# The linters, run in the worktree on the files given (those that exist
# at its commit), findings on stdout.
lint_kdoc() {
	local f files=()
	for f; do [ -f "$WT/$f" ] && files+=("$f"); done
	[ ${#files[@]} -eq 0 ] || (cd "$WT" && scripts/kernel-doc -none -Wall "${files[@]}" 2>&1) || true
}
lint_pylint() {
	local f d rc=
	[ -f "$WT/.pylintrc" ] && rc=$WT/.pylintrc
	for f; do
		[ -f "$WT/$f" ] || continue
		d=$(dirname "$f")
		# From the file's directory, as the selftests run, and with it
		# on the path: "from lib.py import ..." is the directory's lib/.
		# Not tools/testing/selftests: its lib/ would hide that one.
		# The kernel's .pylintrc (there is no pylintrc of the selftests'
		# own) adds tools/lib/python, relative to the top: given here.
		(cd "$WT/$d" && PYTHONPATH=".:$WT/tools/lib/python" \
			"$CT/pylint" ${rc:+--rcfile="$rc"} --score=n --persistent=n \
			--msg-template='{path}:{line}:{column}: {msg_id}: {msg} ({symbol})' \
			"$(basename "$f")" 2>&1 |
			grep -E '^[^ ]+:[0-9]+:[0-9]+: [A-Z][0-9]{4}: ' | sed "s|^|$d/|") || true
	done
}
lint_ruff() {
	local f files=()
	for f; do [ -f "$WT/$f" ] && files+=("$f"); done
	# --isolated: no configuration file (the kernel has none; one above
	# the worktree is not the kernel's).
	[ ${#files[@]} -eq 0 ] || (cd "$WT" && "$CT/ruff" check --no-cache --isolated \
		--output-format=concise "${files[@]}" 2>&1 | grep -E '^[^ ]+:[0-9]+:[0-9]+: ') || true
}
lint_shellcheck() {
	local f d
	for f; do
		[ -f "$WT/$f" ] || continue
		d=$(dirname "$f")
		# From the script's directory, so that -x finds what it sources.
		(cd "$WT/$d" && shellcheck -x -e SC2317 -e SC2329 -f gcc "$(basename "$f")" 2>&1 |
			sed "s|^|$d/|") || true
	done
}
lint_yamllint() {
	local f files=()
	for f; do [ -f "$WT/$f" ] && files+=("$f"); done
	[ ${#files[@]} -eq 0 ] || (cd "$WT" && yamllint -f parsable "${files[@]}" 2>&1) || true
}

# added_code REGEX: the lines a diff on stdin adds whose code (comments
# left out) matches the perl REGEX.
added_code() {
	R=$1 perl -ne 'next unless /^\+(?!\+\+ )/; my $l = $_;
		s{/\*.*?\*/}{}g; s{//.*}{}; s{/\*.*}{}; next if /^\+\s*\*/;
		print $l if /$ENV{R}/;'
}

# inline C ID LOG: NIPA's header_inline (a static function in a header
# that is not inline), and no new inline in the kernel's .c files (the
# compiler decides; __always_inline is for where it must).
check_inline() {
	git -C "$TREE" show --format= --no-renames "$1" -- '*.h' |
		grep -P '^\+static (?!(__always_)?inline\b).*\(' >"$3.new" || true
	git -C "$TREE" show --format= --no-renames "$1" -- '*.c' ':!tools' ':!scripts' ':!samples' |
		added_code '(?<!\w)(inline|__inline__|__inline)\b' >>"$3.new"
	verdict inline "$2" "$3.new"
}

# deprecated-api C ID LOG: NIPA's deprecated_api (module_param is an
# error there, the others warnings; none is added by this series, so any
# is a failure here), on the added lines of kernel C code; __free() (a
# warning there too) only in drivers/net.
check_deprecated() {
	{
		git -C "$TREE" show --format= --no-renames "$1" -- '*.c' '*.h' ':!tools' ':!Documentation' |
			added_code '\bmodule_param\w*\s*\(|(?<!\w)(dev_hold|dev_put|get_net|put_net|init_dummy_netdev)\s*\('
		git -C "$TREE" show --format= --no-renames "$1" -- 'drivers/net/*.[ch]' |
			added_code '(?<!\w)__free\s*\('
	} >"$3.new"
	verdict deprecated-api "$2" "$3.new"
}

# tags C ID LOG: the author signed off (NIPA verify_signedoff); every
# Fixes: tag is "Fixes: <12+ hex> ("<subject>")" (NIPA verify_fixes; that
# the commit exists and has that subject needs upstream history).
check_tags() {
	local msg author
	msg=$(git -C "$TREE" log -1 --format=%B "$1")
	author=$(git -C "$TREE" log -1 --format='%an <%ae>' "$1")
	: >"$3.new"
	grep -qxF "Signed-off-by: $author" <<<"$msg" ||
		echo "no Signed-off-by: $author (the author)" >>"$3.new"
	grep -E '^Signed-off-by:' <<<"$msg" | grep -vE '^Signed-off-by: [^<>]+ <[^<>@ ]+@[^<> ]+>$' |
		sed 's/^/malformed: /' >>"$3.new" || true
	grep -iE '^Fixes:' <<<"$msg" | grep -vE '^Fixes: [0-9a-f]{12,40} \(".+"\)$' |
		sed 's/^/malformed: /' >>"$3.new" || true
	verdict tags "$2" "$3.new"
}

# selftest_dir FILE: the selftest directory (one with a Makefile) FILE is
# in, relative to tools/testing/selftests; nothing outside one.
selftest_dir() {	# selftest_dir REV FILE
	local d=${2#tools/testing/selftests/}
	[ "$d" != "$2" ] || return 0
	d=$(dirname "$d")
	while [ "$d" != . ]; do
		if git -C "$TREE" cat-file -e "$1:tools/testing/selftests/$d/Makefile" 2>/dev/null; then
			echo "$d"
			return 0
		fi
		d=$(dirname "$d")
	done
}

# makefile_words REV DIR: the words of the TEST_* (and *_GEN_FILES,
# *_PROGS, *_FILES) variables of DIR's Makefile, one a line.
makefile_words() {
	git -C "$TREE" show "$1:tools/testing/selftests/$2/Makefile" |
		sed -e :a -e '/\\$/N; s/\\\n/ /; ta' | sed 's/#.*//' |
		grep -E '^[[:space:]]*[A-Z_]*(TEST_[A-Z_]*|GEN_FILES|GEN_PROGS|_PROGS|_FILES|_INCLUDES)[[:space:]]*[:+?]?=' |
		sed -E 's/^[^=]*=//' | tr -s '[:blank:]' '\n' | grep . || true
}

# new-selftests C ID LOG: NIPA's check for new selftests: a new .py, .sh
# or .c (not a BPF program's .bpf.c) is in its directory's Makefile; a
# program built from a new .c is in its .gitignore.
check_new_selftests() {
	local f d rel w stem listed gen ign
	: >"$3.new"
	while read -r f; do
		d=$(selftest_dir "$1" "$f")
		[ -n "$d" ] || continue
		rel=${f#tools/testing/selftests/"$d"/}
		case $rel in
		*.bpf.c) continue ;;
		*.py|*.sh|*.c) ;;
		*) continue ;;
		esac
		stem=${rel%.c}
		listed=0 gen=0
		while read -r w; do
			# $(wildcard a/*.py b/*.py): the patterns are words
			case $w in "\$("*) continue ;; esac
			w=${w%%)*}
			[ -n "$w" ] || continue
			# shellcheck disable=SC2053 # a Makefile word may be a glob
			if [[ $rel == $w ]] || [ "$w" = "$stem" ]; then
				listed=1
				[ "$w" != "$stem" ] || gen=1
			fi
		done < <(makefile_words "$1" "$d")
		# A .c built into another program (a helper) is named somewhere
		# in the Makefile: enough.
		if [ $listed = 0 ] && [[ $rel == *.c ]] &&
		   git -C "$TREE" show "$1:tools/testing/selftests/$d/Makefile" | grep -qwF -- "${stem##*/}"; then
			listed=1
		fi
		[ $listed = 1 ] || echo "$f: not in tools/testing/selftests/$d/Makefile" >>"$3.new"
		if [ $gen = 1 ] && [[ $rel == *.c ]]; then
			ign=0
			while read -r w; do
				w=${w#/}
				# shellcheck disable=SC2053 # .gitignore lines are globs
				[ -n "$w" ] && [[ $stem == $w ]] && ign=1
			done < <(git -C "$TREE" show "$1:tools/testing/selftests/$d/.gitignore" 2>/dev/null | grep -v '^#' || true)
			[ $ign = 1 ] || echo "$f: $stem not in tools/testing/selftests/$d/.gitignore" >>"$3.new"
		fi
	done < <(git -C "$TREE" diff --no-renames --name-only --diff-filter=A "$1^" "$1" -- tools/testing/selftests)
	verdict new-selftests "$2" "$3.new"
}

# selftest_fmt REV FILE: NIPA check_selftest's format rules, on a selftest
# config fragment, .gitignore or Makefile as REV has it, a finding a line
# ("FILE:LINE: ..."; nothing when REV has no FILE).
#  config, .gitignore: the lines (comments and blank lines aside) are
#   sorted; config options as NIPA compares them, by the name without its
#   "_"s (CONFIG_NETKIT before CONFIG_NET_SCH_INGRESS), .gitignore lines
#   bytewise (NIPA's check passes any: it reads only lines with a "=").
#  Makefile: an upper-case variable's assignment (not *FLAGS*, *LIBS*,
#   names shorter than 3, nor a value that starts with "$") has one item
#   a line, indented with a tab, sorted ($... items aside; sorted too with
#   the items of fewer "/" first, case aside); over more lines, it ends in
#   a comment that names VAR ("# end of VAR"; or a bare "#", as NIPA lets
#   pass); a variable is assigned in one place.
selftest_fmt() {
	git -C "$TREE" cat-file -e "$1:$2" 2>/dev/null || return 0
	git -C "$TREE" show "$1:$2" | F=$2 perl -e '
	my $f = $ENV{F}; my @l = <STDIN>; chomp @l; my %seen;
	sub key { my $k = shift; return $k if $f =~ /gitignore$/; $k =~ s/=.*//; $k =~ s/[\s_]//g; $k }
	sub dkey { my $s = shift; sprintf "%03d %s", ($s =~ tr{/}{}), lc $s }
	if ($f !~ m{(^|/)Makefile$}) {
		my $p;
		for my $i (0 .. $#l) {
			next if $l[$i] =~ /^\s*(#|$)/;
			print "$f:", $i + 1, ": \"$l[$i]\" not in order (after \"$p\")\n"
				if defined $p && key($l[$i]) lt key($p);
			$p = $l[$i];
		}
		exit;
	}
	for (my $i = 0; $i < @l; $i++) {
		my @b = ([$l[$i], $i + 1]);
		while ($b[-1][0] =~ /\\$/ && $i < $#l) { $i++; push @b, [$l[$i], $i + 1]; }
		my ($v, $val) = $b[0][0] =~ /^([A-Z_][A-Z0-9_]*)\s*[+:]?=\s*(.*)$/ or next;
		next if $val =~ /^\$/ || length $v < 3 || $v =~ /FLAGS|LIBS/;
		my $at = "$f:$b[0][1]: $v";
		print "$at: assigned again (one list a variable)\n" if $seen{$v}++;
		my $multi = @b > 1;
		$b[0][0] = "\t$val";
		shift @b if $val eq "\\";
		if ($multi && $b[-1][0] =~ /^\s*#/) {
			my $e = pop @b;
			print "$f:$e->[1]: $v: the list ends in \"$e->[0]\", not \"# end of $v\"\n"
				unless $e->[0] =~ /^\s*#\s*$|\b\Q$v\E\b/;
		} elsif ($multi) {
			print "$at: the list does not end in a \"# end of $v\" line\n";
		}
		my $p;
		for (@b) {
			my ($it, $n) = @$_;
			$it =~ s/\s*\\$//;
			print "$f:$n: $v: not indented with a tab\n" unless $it =~ s/^\t//;
			$it =~ s/^\s+|\s+$//g;
			next if $it eq "";
			print "$f:$n: $v: more than one item on a line: \"$it\"\n"
				if $it =~ /\s/ && $it !~ /\$/;
			next if $it =~ /^\$/;
			print "$f:$n: $v: \"$it\" not in order (after \"$p\")\n"
				if defined $p && $p ge $it && dkey($p) gt dkey($it);
			$p = $it;
		}
	}'
}
# selftest-fmt C ID LOG: selftest_fmt on the selftest config fragments,
# .gitignore files and Makefiles the patch touches: no new finding.
check_selftest_fmt() {
	local f
	: >"$3.before"
	: >"$3.after"
	while read -r f; do
		selftest_fmt "$1" "$f" >>"$3.after"
		selftest_fmt "$1^" "$f" >>"$3.before"
	done < <(files_of "$1" 'tools/testing/selftests/*/config' \
		'tools/testing/selftests/*/.gitignore' 'tools/testing/selftests/*/Makefile')
	new_findings "$3.before" "$3.after" "$3.new"
	verdict selftest-fmt "$2" "$3.new"
}

# The linters: after the patch first; before it only for those that found
# something (what was there before is no new finding).
LINTERS=(kdoc pylint ruff shellcheck yamllint)
lint_files() {	# lint_files C LINTER
	case $2 in
	kdoc) files_of "$1" '*.c' '*.h' ;;
	pylint|ruff) files_of "$1" '*.py' ;;
	shellcheck) files_of "$1" '*.sh' ;;
	yamllint) files_of "$1" '*.yaml' '*.yml' ;;
	esac
}
check_linters() {	# C ID LOGPREFIX
	local l before=() f old new i sub
	declare -A lf=() was=()
	# A file the patch moves is linted before it at its old path, and
	# its findings there named by the new one: moving is not adding.
	while read -r _ old new; do
		[ -n "$new" ] && was[$new]=$old
	done < <(git -C "$TREE" diff -M --name-status --diff-filter=R "$1^" "$1")
	wt_at "$1"
	for l in "${LINTERS[@]}"; do
		lf[$l]=$(lint_files "$1" "$l")
		: >"$3.$l.after"
		: >"$3.$l.before"
		[ -n "${lf[$l]}" ] || continue
		[ "$l" != ruff ] || [ -x "$CT/ruff" ] || continue
		mapfile -t f <<<"${lf[$l]}"
		"lint_$l" "${f[@]}" >"$3.$l.after"
		[ ! -s "$3.$l.after" ] || before+=("$l")
	done
	if [ ${#before[@]} -gt 0 ]; then
		wt_at "$1^"
		for l in "${before[@]}"; do
			mapfile -t f <<<"${lf[$l]}"
			sub=()
			for i in "${!f[@]}"; do
				new=${f[$i]}
				[ -n "${was[$new]:-}" ] || continue
				f[i]=${was[$new]}
				sub+=(-e "s|${was[$new]}|$new|g")
			done
			if [ ${#sub[@]} -gt 0 ]; then
				"lint_$l" "${f[@]}" | sed "${sub[@]}" >"$3.$l.before"
			else
				"lint_$l" "${f[@]}" >"$3.$l.before"
			fi
		done
	fi
	for l in "${LINTERS[@]}"; do
		if [ "$l" = ruff ] && [ -n "${lf[$l]}" ] && [ ! -x "$CT/ruff" ]; then
			result SKIP ruff "$2" "$(cat "$TOOLS/check/ruff.missing" 2>/dev/null || echo "no ruff")"
			continue
		fi
		new_findings "$3.$l.before" "$3.$l.after" "$3.$l.new"
		verdict "$l" "$2" "$3.$l.new"
	done
}

# ---- the build checks of one patch (build/linux checked out at it) ----

mk() {	# mk O-DIR MAKE-ARGS...
	make -C "$TREE" O="$1" -j"$JOBS" "${@:2}"
}
# The configurations: allnoconfig plus the VM's fragments (written by
# configure-kernel.sh into build/kbuild/fragment.config), made at the
# commit checked out, again whenever a patch changes a Kconfig file (an
# option that a patch adds would be off otherwise: an unknown option is
# dropped from .config at the commits before it). i386 leaves CONFIG_64BIT
# out and adds COMPILE_TEST (as NIPA's allmodconfig has: fbnic is 64-bit
# only without it). Options that do not stick are listed, for information.
configure_o() {	# configure_o O-DIR FRAGMENT MAKE-ARGS...
	local dir=$1 frag=$2 new line opt
	mkdir -p "$dir"
	new=$dir/.config.new
	KCONFIG_ALLCONFIG=$frag mk "$dir" KCONFIG_CONFIG=.config.new "${@:3}" allnoconfig \
		>"$dir/configure.log" 2>&1 || { cat "$dir/configure.log" >&2; die "allnoconfig in ${dir#"$TOP"/} failed"; }
	if [ -f "$dir/.config" ] && cmp -s "$new" "$dir/.config"; then
		rm -f "$new"
	else
		mv "$new" "$dir/.config"
	fi
	: >"$dir/config.unmet"
	while IFS= read -r line; do
		case $line in
		CONFIG_*=n) opt=${line%%=*}
			grep -q "^$opt=" "$dir/.config" && echo "set but asked off: $line" >>"$dir/config.unmet" ;;
		CONFIG_*=*) grep -qx "$line" "$dir/.config" || echo "not set: $line" >>"$dir/config.unmet" ;;
		esac
	done <"$frag"
	git -C "$TREE" rev-parse HEAD >"$dir/.series-configured-at"
}
# config_sync C: (re)configure the three O= dirs when C's Kconfig files
# differ from those they were configured with.
KCONFIG_FILES=(':(glob)**/Kconfig*')
config_sync() {
	local dir at
	for dir in "$KOUT" "$KOUT_I386" "$KOUT_CLANG"; do
		at=$(cat "$dir/.series-configured-at" 2>/dev/null || true)
		if [ -n "$at" ] && [ -f "$dir/.config" ] &&
		   git -C "$TREE" cat-file -e "$at^{commit}" 2>/dev/null &&
		   git -C "$TREE" diff --quiet "$at" "$1" -- "${KCONFIG_FILES[@]}"; then
			continue
		fi
		case $dir in
		"$KOUT") configure_o "$dir" "$KOUT/fragment.config" CC="ccache gcc" ;;
		"$KOUT_I386")
			{ grep -v '^CONFIG_64BIT=' "$KOUT/fragment.config"; echo CONFIG_COMPILE_TEST=y; } \
				>"$KOUT_I386.fragment"
			configure_o "$dir" "$KOUT_I386.fragment" ARCH=i386 CC="ccache gcc" ;;
		"$KOUT_CLANG") configure_o "$dir" "$KOUT/fragment.config" LLVM="$CT/" CC="ccache $CT/clang" ;;
		esac
		[ ! -s "$dir/config.unmet" ] ||
			echo "  info: ${dir#"$TOP"/}: $(wc -l <"$dir/config.unmet") fragment options not set at $(git -C "$TREE" rev-parse --short HEAD) (${dir#"$TOP"/}/config.unmet)"
	done
}
# The make arguments of each object build.
declare -A OBJ_ARGS=(
	[w1]="W=1"
	[sparse]="W=1 C=2 CHECK=$CT/sparse"
	[i386]="ARCH=i386 W=1"
	[clang]="LLVM=$CT/ W=1"
)
declare -A OBJ_DIR=([w1]=$KOUT [sparse]=$KOUT [i386]=$KOUT_I386 [clang]=$KOUT_CLANG)
declare -A OBJ_CC=([w1]="ccache gcc" [sparse]="ccache gcc" [i386]="ccache gcc" [clang]="ccache $CT/clang")
# objbuild KIND LOG: build the objects in objs[] (one make, -k: an object
# outside the configuration does not stop the others); LOG.findings gets
# the warnings and errors, LOG.failed the objects that did not compile,
# LOG.absent those the configuration does not build.
objbuild() {
	local kind=$1 log=$2 dir=${OBJ_DIR[$1]} o args
	read -r -a args <<<"${OBJ_ARGS[$kind]}"
	: >"$log"; : >"$log.findings"; : >"$log.failed"; : >"$log.absent"
	[ ${#objs[@]} -gt 0 ] || return 0
	# Always compiled (sparse: always checked, C=2), so that every
	# warning shows, whatever was built before.
	[ "$kind" = sparse ] || for o in "${objs[@]}"; do rm -f "$dir/$o"; done
	mk "$dir" -k CC="${OBJ_CC[$kind]}" "${args[@]}" "${objs[@]}" >"$log" 2>&1 || true
	for o in "${objs[@]}"; do
		if grep -qF "No rule to make target '$o'" "$log"; then
			echo "$o" >>"$log.absent"
		elif grep -qE "\*\*\* \[[^]]*: $o\] Error" "$log"; then
			echo "$o" >>"$log.failed"
		elif [ ! -f "$dir/$o" ]; then
			echo "$o" >>"$log.absent"
		fi
	done
	if [ "$kind" = sparse ]; then
		# sparse's own lines (gcc's carry a [-W...] option)
		grep -E ': (warning|error): ' "$log" | grep -vE '\[-W[^]]*\]$' >"$log.findings" || true
	else
		grep -E ': (warning|error|fatal error): ' "$log" >"$log.findings" || true
	fi
	sed 's/^/object did not compile: /' "$log.failed" >>"$log.findings"
	# i386 has no 64-bit division: gcc calls libgcc, which the kernel
	# does not link, and modpost or the vmlinux link fails later
	[ "$kind" != i386 ] || for o in "${objs[@]}"; do
		[ -f "$dir/$o" ] || continue
		nm -u "$dir/$o" | awk -v o="$o" '$2 ~ /^__(u?(div|mod)di3|u?divmoddi4)$/ {
			print o ": calls " $2 " (64-bit division on 32-bit: div_u64() and friends)" }'
	done >>"$log.findings"
}
# untracked: the untracked files of build/linux that git status shows,
# sorted. Debian's top .gitignore ignores every top-level entry ("/*"):
# the directories are looked into again, under the other rules.
untracked() {
	git -C "$TREE" ls-files --others --exclude-standard --exclude='!/*/' | sort
}
# selftests_build LOG DIRS...: the selftest directories built into a
# fresh directory; findings as objbuild's. drivers/net/hw and drivers/net
# get liburing as build-selftests.sh gives it. LOG.untracked: the files
# the build left in build/linux (NIPA's build_tools counts them), removed
# then.
selftests_build() {
	local log=$1 d sdir=$BUILD/kselftest-series$SFX extra=() pre
	: >"$log"; : >"$log.findings"
	pre=$(untracked)
	kmake headers >>"$log" 2>&1 || { echo "make headers failed" >>"$log.findings"; return 0; }
	for d in "${@:2}"; do
		if [ ! -f "$TREE/tools/testing/selftests/$d/Makefile" ]; then
			echo "$d: not there" >>"$log.findings"
			continue
		fi
		rm -rf "$sdir"
		mkdir -p "$sdir"
		extra=()
		case $d in
		drivers/net|drivers/net/hw)
			extra=(HAS_IOURING_ZCRX=y USERCFLAGS="-isystem $KOUT/usr/include") ;;
		esac
		echo "== $d" >>"$log"
		CPATH=$TOOLS/uring/usr/include LIBRARY_PATH=$TOOLS/uring/static \
			make -C "$TREE/tools/testing/selftests" O="$KOUT" BUILD="$sdir" -j"$JOBS" \
			TARGETS="$d" "${extra[@]}" all >>"$log" 2>&1 ||
			echo "$d: the selftest build failed" >>"$log.findings"
	done
	rm -rf "$sdir"
	grep -E ': (warning|error|fatal error): ' "$log" >>"$log.findings" || true
	untracked | comm -13 <(echo "$pre") - >"$log.untracked"
	(cd "$TREE" && xargs -r -d '\n' rm -f -- <"$log.untracked")
}

# build_checks C ID LOGPREFIX: checks 1-5 and the tools build.
build_checks() {
	local c=$1 id=$2 L=$3 k st=() before=() f o
	git -C "$TREE" checkout -q --detach "$c"
	config_sync "$c"
	objs=()
	while read -r f; do
		[ -n "$f" ] && own_object "$TREE" "$f" && objs+=("${f%.c}.o")
	done < <(files_of "$c" '*.c' ':!tools' ':!scripts' ':!samples' ':!Documentation' ':!usr')
	# 1. the kernel
	if kmake bzImage >"$L.build.log" 2>&1; then
		result PASS build "$id"
	else
		result FAIL build "$id" "$L.build.log"
	fi
	# 2-5. the touched objects, W=1 / sparse / i386 / clang
	for k in w1 sparse i386 clang; do
		objbuild "$k" "$L.$k.after"
		[ ! -s "$L.$k.after.findings" ] || before+=("$k")
	done
	# the tools: make headers, then the touched selftest directories
	local tools=0
	[ -z "$(files_of "$c" include tools)" ] || tools=1
	while read -r f; do
		[ -n "$f" ] && st+=("$f")
	done < <(files_of "$c" tools/testing/selftests | while read -r f; do selftest_dir "$c" "$f"; done | sort -u)
	if [ $tools = 1 ]; then
		: >"$L.headers.new"
		kmake headers >"$L.headers.log" 2>&1 || echo "make headers failed" >"$L.headers.new"
	fi
	: >"$L.selftests.after.findings"
	: >"$L.selftests.after.untracked"
	[ ${#st[@]} -eq 0 ] || selftests_build "$L.selftests.after" "${st[@]}"
	[ ! -s "$L.selftests.after.findings" ] && [ ! -s "$L.selftests.after.untracked" ] ||
		before+=(selftests)
	# Before the patch, for what found something.
	if [ ${#before[@]} -gt 0 ]; then
		git -C "$TREE" checkout -q --detach "$c^"
		for k in "${before[@]}"; do
			case $k in
			selftests) selftests_build "$L.selftests.before" "${st[@]}" ;;
			*) objbuild "$k" "$L.$k.before" ;;
			esac
		done
		# make at the parent dropped the options this patch adds
		# from .config: configure again at the next patch.
		git -C "$TREE" diff --quiet "$c^" "$c" -- "${KCONFIG_FILES[@]}" ||
			rm -f "$KOUT/.series-configured-at" "$KOUT_I386/.series-configured-at" \
				"$KOUT_CLANG/.series-configured-at"
	fi
	for k in w1 sparse i386 clang selftests; do
		[ -f "$L.$k.before.findings" ] || : >"$L.$k.before.findings"
		new_findings "$L.$k.before.findings" "$L.$k.after.findings" "$L.$k.new"
		if [ "$k" != selftests ] && [ -s "$L.$k.after.absent" ]; then
			echo "$k: not in the configuration: $(tr '\n' ' ' <"$L.$k.after.absent")" >>"$L.notes"
		fi
		if [ "$k" = selftests ] && [ ${#st[@]} -eq 0 ]; then
			result PASS selftests "$id"
			continue
		fi
		verdict "$k" "$id" "$L.$k.new"
	done
	[ -f "$L.selftests.before.untracked" ] || : >"$L.selftests.before.untracked"
	new_findings "$L.selftests.before.untracked" "$L.selftests.after.untracked" "$L.tools-clean.new"
	verdict tools-clean "$id" "$L.tools-clean.new"
	if [ $tools = 1 ]; then
		verdict headers "$id" "$L.headers.new"
	else
		result PASS headers "$id"
	fi
}

# ---- per posting ----

# hdr FILE NAME: a mail header of FILE, continuation lines joined.
hdr() {
	sed -e '/^$/q' "$1" | sed -e :a -e '$!N; s/\n[ \t]\+/ /; ta' -e 'P; D' |
		sed -n "s/^$2: //p" | head -n1
}
check_series() {	# POSTING LOGPREFIX
	local p=$1 L=$2 dir=$PATCHES/$1 tree=${tree_of[$1]} n i=0 f subj re
	: >"$L.series.new"
	if [ ! -f "$dir/series" ]; then
		echo "no patches/$p/series" >"$L.series.new"
		verdict series "$p" "$L.series.new"
		return
	fi
	mapfile -t files < <(grep -vE '^(#|$)' "$dir/series")
	n=${#files[@]}
	[ "$n" -le 15 ] || echo "$n patches: netdev takes at most 15 in a series" >>"$L.series.new"
	case $tree in net|net-next) ;; *) echo "Tree: '$tree' (cover commit), not net or net-next" >>"$L.series.new" ;; esac
	if [ -f "$dir/0000-cover-letter.patch" ]; then
		subj=$(hdr "$dir/0000-cover-letter.patch" Subject)
		# format-patch pads the numbers from 10 patches up (01/14)
		re="^\[PATCH $tree 0*0/$n\] "
		[[ $subj =~ $re ]] ||
			echo "0000-cover-letter.patch: subject '$subj' is not [PATCH $tree 0/$n] ..." >>"$L.series.new"
	elif [ "$n" -ge 3 ]; then
		echo "$n patches and no cover letter (needed from 3 up)" >>"$L.series.new"
	fi
	for f in "${files[@]}"; do
		i=$((i + 1))
		[ -f "$dir/$f" ] || { echo "$f: listed in series, missing" >>"$L.series.new"; continue; }
		[[ $f == "$(printf '%04d' "$i")-"* ]] || echo "$f: is number $i in series" >>"$L.series.new"
		re="^\[PATCH $tree 0*$i/$n\] "
		# a single patch: [PATCH net] (or 1/1, as format-patch --numbered)
		[ "$n" -gt 1 ] || re="^\[PATCH $tree( 1/1)?\] "
		subj=$(hdr "$dir/$f" Subject)
		[[ $subj =~ $re ]] ||
			echo "$f: subject '$subj' is not [PATCH $tree $i/$n] ..." >>"$L.series.new"
	done
	# NIPA's fixes_present: a series for net carries Fixes: tags.
	# (grep reads the files itself: "cat | grep -q" fails under pipefail
	# when grep exits on its match before cat has written everything)
	if [ "$tree" = net ] && ! grep -qs '^Fixes: ' "${files[@]/#/$dir/}"; then
		echo "a net posting without any Fixes: tag" >>"$L.series.new"
	fi
	verdict series "$p" "$L.series.new"
}
check_ynl() {	# POSTING LOGPREFIX
	local p=$1 L=$2 last=${last_of[$1]} gen
	wt_at "$last"
	: >"$L.ynl-regen.new"
	if ! (cd "$WT" && PATH=/usr/bin:$PATH tools/net/ynl/ynl-regen.sh -f) >"$L.ynl-regen.log" 2>&1; then
		echo "ynl-regen.sh -f failed" >>"$L.ynl-regen.new"
	fi
	git -C "$WT" diff --stat >>"$L.ynl-regen.new"
	git -C "$WT" diff >>"$L.ynl-regen.log"
	gen=$(git -C "$WT" status --porcelain --untracked-files=normal | head -n 20)
	[ -z "$gen" ] || echo "$gen" >>"$L.ynl-regen.log"
	git -C "$WT" reset -q --hard
	git -C "$WT" clean -fdxq
	verdict ynl-regen "$p" "$L.ynl-regen.new"
	# What make -C tools/net/ynl reads: its code, the specs, the uapi
	# headers. A posting that changes none of them builds it as its base
	# does, and minutes are saved.
	if git -C "$TREE" diff --quiet "${cover_of[$p]}" "$last" -- \
		tools/net/ynl Documentation/netlink include/uapi tools/include; then
		echo "the posting changes nothing that make -C tools/net/ynl reads" >"$L.ynl-build.log"
		result PASS ynl-build "$p"
		return
	fi
	if [ "$CHECKS" = static ]; then
		result SKIP ynl-build "$p" "CHECKS=static"
		return
	fi
	ynl_build "$L.ynl-build.after"
	: >"$L.ynl-build.before.findings"
	if [ -s "$L.ynl-build.after.findings" ]; then
		wt_at "${cover_of[$p]}"
		ynl_build "$L.ynl-build.before"
	fi
	new_findings "$L.ynl-build.before.findings" "$L.ynl-build.after.findings" "$L.ynl-build.new"
	verdict ynl-build "$p" "$L.ynl-build.new"
}
ynl_build() {	# LOG: make -C tools/net/ynl in the worktree, then clean it
	: >"$1.findings"
	make -C "$WT/tools/net/ynl" -j"$JOBS" >"$1" 2>&1 || echo "make -C tools/net/ynl failed" >"$1.findings"
	grep -E ': (warning|error|fatal error): ' "$1" >>"$1.findings" || true
	git -C "$WT" reset -q --hard
	git -C "$WT" clean -fdxq
}

# ---- the run ----

if [ "$CHECKS" = all ]; then
	restore() {
		git -C "$TREE" checkout -q -B series "$head"
		# build/kbuild back to the VM's configuration, at HEAD.
		"$TOP"/scripts/configure-kernel.sh >/dev/null
	}
	trap restore EXIT
	"$TOP"/scripts/configure-kernel.sh >/dev/null
	# Configured at the first patch, whatever an earlier run left.
	rm -f "$KOUT/.series-configured-at" "$KOUT_I386/.series-configured-at" \
		"$KOUT_CLANG/.series-configured-at"
fi
BUILD_CHECKS=(build w1 sparse i386 clang selftests tools-clean headers)
for c in "${todo[@]}"; do
	post=${post_of[$c]:-}
	[ -n "$post" ] || continue	# a cover commit
	id=$post/${num_of[$c]}
	mkdir -p "$out/$post"
	L=$out/$post/${num_of[$c]}
	step "$id $(git -C "$TREE" log -1 --format=%s "$c")"
	if [ "$CHECKS" = all ]; then
		build_checks "$c" "$id" "$L"
	else
		for k in "${BUILD_CHECKS[@]}"; do result SKIP "$k" "$id" "CHECKS=static"; done
	fi
	check_checkpatch "$c" "$id" "$L.checkpatch"
	check_inline "$c" "$id" "$L.inline"
	check_deprecated "$c" "$id" "$L.deprecated-api"
	check_tags "$c" "$id" "$L.tags"
	check_new_selftests "$c" "$id" "$L.new-selftests"
	check_selftest_fmt "$c" "$id" "$L.selftest-fmt"
	check_linters "$c" "$id" "$L"
	# After a posting's last patch, the posting (todo is a suffix of the
	# series: a posting with a patch in it has its last one in it).
	if [ "${last_of[$post]}" = "$c" ]; then
		step "posting $post"
		check_series "$post" "$out/$post/posting"
		check_ynl "$post" "$out/$post/posting"
	fi
done

if [ "$CHECKS" = all ]; then
	restore
	trap - EXIT
fi

# Debian's own amd64 config: the objects the series touches must compile.
step debian-config
mapfile -t files < <(git -C "$TREE" diff --no-renames --name-only --diff-filter=AM "base..$head" -- '*.c' ':!tools' ':!scripts' ':!samples')
if [ "$CHECKS" = static ]; then
	result SKIP debian-config series "CHECKS=static"
elif [ ${#files[@]} -gt 0 ]; then
	dkout=$BUILD/kbuild-debian$SFX
	mkdir -p "$dkout"
	deb=$(printf '%s\n' "$DL/linux-config-${BASE}"_*.deb | sort -V | tail -n1)
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
		own_object "$TREE" "$f" || continue
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
		result PASS debian-config "series (${#objs[@]} objects)"
	else
		result FAIL debian-config series "$out/debian-config.log"
	fi
fi
step report
grep '^FAIL' "$summary" | sed 's/^/  /' >"$out/fails" || true
if [ -s "$out/fails" ]; then echo "FAILED:"; cat "$out/fails"; fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] || exit 1
