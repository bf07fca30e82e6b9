#!/bin/bash
# install-check-tools.sh: the tools that only make check-series uses (the
# offline part of netdev's CI), installed from Debian's archive.
#
#  - From this machine's release, with apt-get: codespell (checkpatch
#    --codespell), yamllint, shellcheck.
#  - From trixie, unpacked with dpkg -x into build/tools/check/root and
#    never installed: clang, lld and llvm (LLVM_VERSION, 19), with every
#    library they depend on, trixie's libc6 included: Linux 7.2 needs
#    clang >= 17.0.1 (scripts/min-tool-version.sh) and bookworm has 14
#    (bookworm-backports none newer than 16). Trixie's binaries need
#    trixie's glibc (2.41; bookworm has 2.36), so build/tools/check/bin has
#    one wrapper per tool that runs it through trixie's dynamic loader with
#    trixie's libraries (--library-path: the tools' children, such as
#    the host's ld, run with the host's). LLVM=<that bin>/ builds with them.
#  - sparse from sid, the same way: Linux 7.2 uses __typeof_unqual__, and
#    the kernel turns C=1 off (scripts/checker-valid.sh) with a sparse that
#    does not know it; bookworm's 0.6.4 and trixie's 0.6.4 do not,
#    0.6.5~rc1 does.
#  - pylint from trixie (3.3, pure Python, run by this machine's python3
#    with build/tools/check/pylint on its path): bookworm's 2.16 flags
#    every name shorter than 3 characters (invalid-name), pylint 3 and so
#    netdev's CI do not.
#  - ruff from sid (Debian has it there only, not in bookworm or trixie),
#    the same way (a Rust binary: it needs libc, libm and libgcc_s). If the
#    archive has none, build/tools/check/ruff.missing says so and
#    check-series reports ruff as skipped.
#
# The archive is the one this machine's apt sources name (apt-archive.sh),
# through a private apt configuration in build/apt-check. Once unpacked,
# a second run stays offline; each run ends with a self-test of every tool
# on small files (clang, ld.lld, the llvm tools, sparse).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
mkdir -p "$BUILD"
with_apt_lock "$@"

LLVM_VERSION=${LLVM_VERSION:-19}
CT=$TOOLS/check			# root/ (unpacked .debs), bin/ (wrappers)
ROOT=$CT/root
BIN=$CT/bin

step check-tools
pkgs=(codespell yamllint shellcheck)
apt_install "$BUILD/apt-install-check.log" "${pkgs[@]}"
"$PYTHON" -c 'import codespell_lib' 2>/dev/null || die "$PYTHON has no codespell_lib (package codespell)"

# What is unpacked: one line per .deb, with the path it was unpacked to (the
# wrappers hold absolute paths: a moved build/ unpacks again).
stamp=$CT/unpacked
want="llvm-$LLVM_VERSION sparse-sid pylint-trixie $CT"
if [ ! -f "$stamp" ] || [ "$(head -n1 "$stamp")" != "$want" ]; then
	step check-tools-fetch
	uri=$("$TOP"/scripts/apt-archive.sh) || exit 1	# it said why
	apt=$BUILD/apt-check
	rm -rf "$apt"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/state"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	for s in trixie sid; do
		echo "deb [signed-by=$key] $uri $s main"
	done >"$apt/sources.list"
	# An empty dpkg status: apt resolves the whole dependency closure, as
	# for an empty system, and downloads it (nothing is installed).
	: >"$apt/status"
	opts=(-o Dir::Etc::SourceList="$apt/sources.list"
	      -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::Etc::Preferences=/dev/null
	      -o Dir::Etc::PreferencesParts=/dev/null
	      -o Dir::State="$apt/state"
	      -o Dir::State::Lists="$apt/lists"
	      -o Dir::State::status="$apt/status"
	      -o Dir::Cache="$apt/cache"
	      -o APT::Default-Release=trixie
	      -o APT::Install-Recommends=false
	      -o Acquire::Languages=none
	      -o APT::Sandbox::User=root -q)
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of trixie and sid from $uri failed (see build/apt-check/update.log)"
	llvm=("clang-$LLVM_VERSION" "lld-$LLVM_VERSION" "llvm-$LLVM_VERSION")
	apt-get "${opts[@]}" install -y -d "${llvm[@]}" >"$apt/download.log" 2>&1 ||
		die "could not download ${llvm[*]} and their dependencies from trixie of $uri (see build/apt-check/download.log)"
	# sparse alone (its binary needs only libc >= 2.38): its package also
	# depends on sid's gcc, for cgcc, which is not used here.
	(cd "$apt/cache/archives" && apt-get "${opts[@]}" download sparse/sid) >>"$apt/download.log" 2>&1 ||
		die "could not download sparse from sid of $uri (see build/apt-check/download.log)"
	sv=$(dpkg-deb -f "$apt"/cache/archives/sparse_*.deb Version)
	dpkg --compare-versions "$sv" ge 0.6.5~ ||
		die "sparse in sid is $sv: Linux 7.2 needs one that knows __typeof_unqual__ (0.6.5~rc1 or later)"
	# pylint and the Python modules it needs, without the interpreter
	# (trixie's python3.13): they must be pure Python (Architecture all).
	mapfile -t py < <(apt-get "${opts[@]}" -s install pylint |
		awk '$1 == "Inst" && ($2 == "pylint" || $2 ~ /^python3-/) && $2 != "python3-minimal" { print $2 }')
	[ ${#py[@]} -gt 0 ] || die "no pylint in trixie of $uri"
	mkdir -p "$apt/pylint"
	(cd "$apt/pylint" && apt-get "${opts[@]}" download "${py[@]}") >>"$apt/download.log" 2>&1 ||
		die "could not download ${py[*]} from trixie of $uri (see build/apt-check/download.log)"
	ruff=$(apt-cache "${opts[@]}" policy ruff | awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }')
	if [ -n "$ruff" ]; then
		(cd "$apt/cache/archives" && apt-get "${opts[@]}" download ruff) >>"$apt/download.log" 2>&1 ||
			die "could not download ruff $ruff from $uri (see build/apt-check/download.log)"
	fi

	step check-tools-unpack
	rm -rf "$CT"
	mkdir -p "$ROOT"
	echo "$want" >"$stamp.new"
	for deb in "$apt"/cache/archives/*.deb; do
		dpkg -x "$deb" "$ROOT"
		echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >>"$stamp.new"
	done
	for deb in "$apt"/pylint/*.deb; do
		[ "$(dpkg-deb -f "$deb" Architecture)" = all ] ||
			die "$(basename "$deb") is not pure Python (Architecture all): cannot run it with this machine's python"
		dpkg -x "$deb" "$CT/pylint"
		echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >>"$stamp.new"
	done
	[ -n "$ruff" ] || echo "Debian has no ruff package (looked in trixie and sid)" >"$CT/ruff.missing"
	rm -rf "$apt/cache/archives" "$apt/pylint"	# 118 MB of .debs, unpacked
	mv "$stamp.new" "$stamp"
fi

# The wrappers (rewritten each run: cheap). The loader is trixie's
# ld-linux; --argv0 gives each tool its wrapper's path as argv[0], which
# clang and lld use to pick their mode (clang++, ld.lld, llvm-strip).
# clang finds its resource directory and the tools it runs (ld.lld for
# -fuse-ld=lld, itself for -cc1) from its own path, which through a
# loader is the loader's: -no-canonical-prefixes makes that path argv[0],
# so clang runs the wrappers next to it and takes the resource directory
# ../lib/clang/<major> from bin/, a link to the real one. Its -cc1 runs
# (the driver re-running itself) get no extra option.
step check-tools-wrappers
ld=$ROOT/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
[ -x "$ld" ] || die "no dynamic loader in $ROOT (libc6 from trixie not unpacked?)"
libs=$ROOT/usr/lib/x86_64-linux-gnu:$ROOT/lib/x86_64-linux-gnu:$ROOT/usr/lib/llvm-$LLVM_VERSION/lib
lbin=$ROOT/usr/lib/llvm-$LLVM_VERSION/bin
# A wrapper is rewritten only when it changes: ccache knows a compiler by
# its mtime, and it holds the version of the package, so that a new clang
# is a new compiler to ccache.
rm -rf "${CT:?}/lib" "$BIN.new"
mkdir -p "$BIN" "$BIN.new" "$CT/lib/clang"
ln -s "../../root/usr/lib/llvm-$LLVM_VERSION/lib/clang/$LLVM_VERSION" "$CT/lib/clang/$LLVM_VERSION"
pkgver() { awk -v p="$1" 'NR > 1 && $1 == p { print $2 }' "$stamp"; }
wrap() {	# wrap NAME REAL PACKAGE [SHELL-CODE]
	{
		echo '#!/bin/sh'
		echo "# $1 of Debian's $3 $(pkgver "$3"), through trixie's loader (install-check-tools.sh)"
		[ -z "${4:-}" ] || echo "$4"
		echo "exec '$ld' --library-path '$libs' --argv0 '$BIN/$1' '$2' \"\$@\""
	} >"$BIN.new/$1"
	chmod +x "$BIN.new/$1"
}
for t in clang clang++; do
	# shellcheck disable=SC2016 # for the wrapper, not expanded here
	wrap "$t" "$lbin/$t" "clang-$LLVM_VERSION" 'case $1 in -cc1*) ;; *) set -- -no-canonical-prefixes "$@" ;; esac'
done
for t in ld.lld llvm-ar llvm-nm llvm-objcopy llvm-objdump llvm-readelf llvm-strip \
	 llvm-ranlib llvm-link llvm-config; do
	[ -e "$lbin/$t" ] || die "$lbin/$t missing: llvm-$LLVM_VERSION/lld-$LLVM_VERSION not unpacked whole"
	case $t in ld.lld) p=lld-$LLVM_VERSION ;; *) p=llvm-$LLVM_VERSION ;; esac
	wrap "$t" "$lbin/$t" "$p"
done
wrap sparse "$ROOT/usr/bin/sparse" sparse
{
	echo '#!/bin/sh'
	echo "# Debian trixie's pylint $(pkgver pylint), run by $PYTHON (install-check-tools.sh)"
	echo "PYTHONPATH='$CT/pylint/usr/lib/python3/dist-packages'\${PYTHONPATH:+:\$PYTHONPATH}"
	echo 'export PYTHONPATH'
	echo "exec '$PYTHON' -m pylint \"\$@\""
} >"$BIN.new/pylint"
chmod +x "$BIN.new/pylint"
[ ! -e "$ROOT/usr/bin/ruff" ] || wrap ruff "$ROOT/usr/bin/ruff" ruff
for f in "$BIN"/*; do [ -e "$BIN.new/${f##*/}" ] || rm -f "$f"; done
for f in "$BIN.new"/*; do
	cmp -s "$f" "$BIN/${f##*/}" || mv "$f" "$BIN/"
done
rm -rf "$BIN.new"

# Self-test on small files: what a kernel build with LLVM=1 and C=1 does
# with each tool, in miniature.
step check-tools-test
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
min=$(SRCARCH=x86 ARCH=x86_64 sh "$TREE/scripts/min-tool-version.sh" llvm 2>/dev/null || echo 17.0.1)
ver=$("$BIN/clang" -dM -E -x c /dev/null |
      awk '$2 ~ /^__clang_(major|minor|patchlevel)__$/ { v[$2] = $3 }
           END { print v["__clang_major__"] "." v["__clang_minor__"] "." v["__clang_patchlevel__"] }')
printf '%s\n%s\n' "$min" "$ver" | sort -V -C || die "clang is $ver, the kernel wants >= $min"
rd=$("$BIN/clang" -print-resource-dir)
[ -f "$rd/include/stdarg.h" ] || die "clang's resource directory $rd has no stdarg.h"
[ "$("$BIN/clang" -print-file-name=include)" = "$rd/include" ] ||
	die "clang -print-file-name=include is not $rd/include (the kernel's -isystem)"
# Kernel style: freestanding, compiler headers only, warnings as errors.
cat >"$t/k.c" <<'EOF'
#include <stdarg.h>
#include <stddef.h>
static int first(int n, ...)
{
	va_list ap;
	int r;

	va_start(ap, n);
	r = va_arg(ap, int);
	va_end(ap);
	return r;
}
struct s { int a; long b; };
int k(void) { return first(1, 2) + (int)offsetof(struct s, b); }
EOF
"$BIN/clang" --target=x86_64-linux-gnu -nostdinc -isystem "$rd/include" -ffreestanding \
	-Wall -Wextra -Werror -Werror=unused-command-line-argument -O2 -c "$t/k.c" -o "$t/k.o"
"$BIN/clang" --target=i386-linux-gnu -nostdinc -isystem "$rd/include" -ffreestanding \
	-Werror -O2 -c "$t/k.c" -o "$t/k32.o"
"$BIN/ld.lld" -r "$t/k.o" -o "$t/kr.o"
"$BIN/llvm-ar" cr "$t/k.a" "$t/kr.o"
[[ $("$BIN/llvm-nm" "$t/k.a") == *" T k"* ]] || die "llvm-nm does not list k()"
"$BIN/llvm-objcopy" --remove-section=.comment "$t/k.o" "$t/k2.o"
[[ $("$BIN/llvm-objdump" -d "$t/k2.o") == *"<k>:"* ]] || die "llvm-objdump does not disassemble k()"
[[ $("$BIN/llvm-readelf" -h "$t/k32.o") == *ELF32* ]] || die "llvm-readelf: k32.o is not ELF32"
"$BIN/llvm-strip" -o "$t/k3.o" "$t/k.o"
[[ $("$BIN/llvm-nm" "$t/k3.o" 2>&1) != *" T k"* ]] || die "llvm-strip left the symbols"
# A host program (HOSTCC=clang, -fuse-ld=lld) linked against this machine's
# libc, and run; compiled and linked in one step, so that clang runs -cc1
# as a child process.
printf '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n' >"$t/h.c"
"$BIN/clang" -Wall -Werror -O2 -fuse-ld=lld "$t/h.c" -o "$t/h"
[ "$("$t/h")" = ok ] || die "a host program built by clang does not run"
printf 'int main() { return 0; }\n' >"$t/h.cc"
"$BIN/clang++" -fuse-ld=lld "$t/h.cc" -o "$t/hxx"
"$t/hxx"
# sparse: the kernel's own probe (__typeof_unqual__), then a real warning.
printf 'static inline int u(const int *q)\n{\n\t__typeof_unqual__(*q) v = *q;\n\treturn v;\n}\n' >"$t/u.c"
[[ $("$BIN/sparse" -m64 "$t/u.c" 2>&1) != *error* ]] || die "sparse does not know __typeof_unqual__"
printf '#define __user __attribute__((noderef, address_space(__user)))\nint f(int __user *p);\nint g(int *p) { return f(p); }\n' >"$t/s.c"
[[ $("$BIN/sparse" "$t/s.c" 2>&1) == *"incorrect type"* ]] || die "sparse does not warn about an address space mismatch"
printf '"""A module."""\nimport os\n' >"$t/p.py"
[[ $(cd "$t" && "$BIN/pylint" --score=n --persistent=n p.py 2>&1) == *W0611* ]] ||
	die "pylint does not report an unused import"
if [ -e "$BIN/ruff" ]; then
	printf 'import os\n' >"$t/r.py"
	[[ $("$BIN/ruff" check --no-cache --isolated "$t/r.py" 2>&1) == *F401* ]] ||
		die "ruff does not report an unused import"
fi

{
	echo "clang $ver ($("$BIN/clang" --version | sed -n 1p))"
	echo "ld.lld $("$BIN/ld.lld" --version)"
	echo "sparse $("$BIN/sparse" --version)"
	if [ -e "$BIN/ruff" ]; then echo "ruff $("$BIN/ruff" --version)"; else echo "ruff: none ($(cat "$CT/ruff.missing"))"; fi
	echo "codespell $(codespell --version)"
	echo "pylint $("$BIN/pylint" --version | sed -n 1p) (python $("$PYTHON" -c 'import platform; print(platform.python_version())'))"
	echo "yamllint $(yamllint --version)"
	echo "shellcheck $(shellcheck --version | sed -n 's/^version: //p')"
} >"$CT/versions"
sed 's/^/  /' "$CT/versions"
echo "check tools: ok (build/tools/check)"
