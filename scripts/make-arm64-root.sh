#!/bin/bash
# make-arm64-root.sh: what an arm64 guest needs to run the drivers/net
# selftests (check-arm64.sh boots it), made on this x86 host without
# running any arm64 code (no binfmt, no qemu-user):
#
#  - build/arm64-root (ARM64_ROOT): the guest's / (virtme-ng --root, read
#    only over 9p): arm64 packages of this machine's release ($CODENAME),
#    with the newer ethtool (sid), iproute2 and bpftool
#    ($CODENAME-backports) that the x86 guest takes from
#    build/tools/userspace (fetch-base.sh), here in the root's own /usr,
#    and liburing2 (sid). Fetched through a private apt configuration in
#    build/apt-arm64 (APT::Architecture=arm64, an empty dpkg status: the
#    whole dependency closure) from the archive this machine's apt sources
#    name (apt-archive.sh), as install-check-tools.sh does; unpacked into
#    a merged /usr (bin, sbin and lib are links into usr/, as on a
#    bookworm system) without documentation. No maintainer script runs:
#    what they would make (/etc/passwd, /bin/sh, awk, poweroff from
#    busybox: virtme-init ends with "poweroff -f") is made here.
#  - build/tools/arm64-dev: the arm64 headers and libraries the
#    cross-build needs beyond Debian's cross toolchain: liburing-dev (sid,
#    >= 2.10: iou-zcrx, linked statically as on x86), libelf and zlib
#    (libbpf, built for the netkit BPF programs, as a shared library too);
#    link/ holds what the build links with, nothing else.
#  - build/wt-arm64 (ARM64_TREE): a worktree of build/linux at its HEAD
#    (the committed series: edits not committed there are not in it), for
#    the cross-build, which writes into its source tree (tools/net/ynl):
#    build/linux is other targets' tree.
#  - build/kselftest-arm64 and build/kselftest-hw-arm64 (ARM64_KSELFTEST,
#    ARM64_KSELFTEST_HW): drivers/net and drivers/net/hw installed with
#    their kselftest runner, as build-selftests.sh installs them for x86,
#    cross-built with aarch64-linux-gnu-gcc, objects in build/kbuild-arm64
#    (ARM64_KOUT, where check-arm64.sh builds the kernel). BASE=7.3: the
#    same with the suffix -7.3; the root is shared.
#
# Then checks, since nothing arm64 can run here: every ELF file of the
# installed selftests and of the tools the tests run (python3, ip,
# ethtool, socat ...) is an AArch64 one, its interpreter and every library
# it needs (NEEDED, through RUNPATH too, transitively) are in the root;
# every module the installed Python files import (and guest-state.py's)
# is in the root's Python: its standard library, lib-dynload, dist-packages
# or built into the interpreter.
#
# The root is unpacked again only when the package list changes (its first
# line of build/arm64-root/.unpacked); a second run stays offline, syncs
# the worktree and rebuilds the selftests (incremental). Holds build/apt.lock
# while it fetches.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ROOT=${ARM64_ROOT:-$BUILD/arm64-root}
WT=${ARM64_TREE:-$BUILD/wt-arm64$SFX}
AKOUT=${ARM64_KOUT:-$BUILD/kbuild-arm64$SFX}
AKSFT=${ARM64_KSELFTEST:-$BUILD/kselftest-arm64$SFX}
AKSFT_HW=${ARM64_KSELFTEST_HW:-$BUILD/kselftest-hw-arm64$SFX}
DEV=$TOOLS/arm64-dev
CROSS=aarch64-linux-gnu-

# The guest's packages: what virtme-init runs (bash, mount, udev for the
# /dev/virtio-ports links of the script's I/O, busybox's poweroff), the
# kselftest runner (perl's prefix.pl, timeout), guest-tests.sh and
# guest-state.py, and the tests: python3 with yaml (ynl), iproute2 (ip,
# tc, ss, devlink), ethtool, socat, ping, taskset, udevadm, modprobe,
# bpftool. usr-is-merged stands for usrmerge (which would bring perl).
pkgs=(base-files base-passwd usr-is-merged bash dash coreutils util-linux mount
      grep sed mawk findutils diffutils gzip tar hostname debianutils procps
      kmod udev libc-bin perl-base netbase busybox iputils-ping socat
      python3 python3-yaml)
# The newer userspace, from the suites fetch-base.sh takes it from for the
# x86 guest: suite:package
newer=(sid:ethtool sid:liburing2 "$CODENAME-backports:iproute2" "$CODENAME-backports:bpftool")
# Build-only (headers and libraries): suite:package
devpkgs=(sid:liburing-dev "$CODENAME:libelf-dev" "$CODENAME:zlib1g-dev" "$CODENAME:libelf1"
	 "$CODENAME:zlib1g")

stamp=$ROOT/.unpacked
want="arm64-root ${pkgs[*]} ${newer[*]} ${devpkgs[*]} $ROOT $DEV"
fresh=0
[ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$want" ] && [ -f "$DEV/link/liburing.a" ] || fresh=1
[ $fresh = 0 ] || with_apt_lock "$@"

step arm64-deps
apt_install "$BUILD/apt-install-arm64.log" gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu \
	libc6-dev-arm64-cross qemu-system-arm file clang

if [ $fresh = 1 ]; then
	step arm64-fetch
	uri=$("$TOP"/scripts/apt-archive.sh) || exit 1	# it said why
	apt=$BUILD/apt-arm64
	rm -rf "$apt"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/state" "$apt/dev"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	for s in "$CODENAME" "$CODENAME-backports" sid; do
		echo "deb [signed-by=$key] $uri $s main"
	done >"$apt/sources.list"
	# An empty dpkg status: apt resolves the whole dependency closure, as
	# for an empty arm64 system, and downloads it (nothing is installed).
	: >"$apt/status"
	opts=(-o Dir::Etc::SourceList="$apt/sources.list"
	      -o Dir::Etc::SourceParts=/dev/null
	      -o Dir::Etc::Preferences=/dev/null
	      -o Dir::Etc::PreferencesParts=/dev/null
	      -o Dir::State="$apt/state"
	      -o Dir::State::Lists="$apt/lists"
	      -o Dir::State::status="$apt/status"
	      -o Dir::Cache="$apt/cache"
	      -o APT::Architecture=arm64
	      -o APT::Architectures=arm64
	      -o APT::Default-Release="$CODENAME"
	      -o APT::Install-Recommends=false
	      -o Acquire::Languages=none
	      -o APT::Sandbox::User=root -q)
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		die "apt-get update of $CODENAME, $CODENAME-backports and sid for arm64 from $uri failed (see build/apt-arm64/update.log)"
	# newest SUITE PKG: the highest version of PKG in SUITE
	newest() {
		apt-cache "${opts[@]}" madison "$2" |
			awk -F'|' -v s=" $1/" 'index($3, s) { gsub(/ /, "", $2); print $2 }' | sort -V | tail -n1
	}
	# Each newer package at its version (pkg=version, not pkg/suite, which
	# would take its dependencies from that suite too: sid's libc6)
	sel=()
	for n in "${newer[@]}"; do
		v=$(newest "${n%%:*}" "${n#*:}")
		[ -n "$v" ] || die "no arm64 ${n#*:} in ${n%%:*} of $uri"
		sel+=("${n#*:}=$v")
	done
	apt-get "${opts[@]}" install -y -d "${pkgs[@]}" "${sel[@]}" >"$apt/download.log" 2>&1 ||
		die "could not download ${pkgs[*]} ${sel[*]} and their dependencies for arm64 from $uri (see build/apt-arm64/download.log)"
	for d in "${devpkgs[@]}"; do
		v=$(newest "${d%%:*}" "${d#*:}")
		[ -n "$v" ] || die "no arm64 ${d#*:} in ${d%%:*} of $uri"
		(cd "$apt/dev" && apt-get "${opts[@]}" download "${d#*:}=$v") >>"$apt/download.log" 2>&1 ||
			die "could not download ${d#*:} $v for arm64 from $uri (see build/apt-arm64/download.log)"
	done
	v=$(dpkg-deb -f "$apt"/dev/liburing-dev_*.deb Version)
	dpkg --compare-versions "$v" ge 2.10 || die "liburing-dev in sid of $uri is $v: iou-zcrx needs >= 2.10"
	[ "$v" = "$(dpkg-deb -f "$apt"/cache/archives/liburing2_*.deb Version)" ] ||
		die "liburing-dev $v but liburing2 $(dpkg-deb -f "$apt"/cache/archives/liburing2_*.deb Version)"

	step arm64-unpack
	rm -rf "$ROOT" "$DEV"
	# A merged /usr: the links first, kept by tar (--keep-directory-symlink;
	# dpkg -x would replace them with directories)
	mkdir -p "$ROOT"/usr/bin "$ROOT"/usr/sbin "$ROOT"/usr/lib
	for d in bin sbin lib; do ln -s "usr/$d" "$ROOT/$d"; done
	echo "$want" >"$stamp.new"
	for deb in "$apt"/cache/archives/*.deb; do
		[ "$(dpkg-deb -f "$deb" Architecture)" != amd64 ] || die "$(basename "$deb") is amd64"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$ROOT" --keep-directory-symlink --no-same-owner \
				--exclude=./usr/share/doc --exclude=./usr/share/man \
				--exclude=./usr/share/info --exclude=./usr/share/locale
		echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >>"$stamp.new"
	done
	for deb in "$apt"/dev/*.deb; do
		dpkg -x "$deb" "$DEV"
		echo "build-only: $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >>"$stamp.new"
	done
	# What the build links with: liburing.a only (iou-zcrx links it
	# statically, as on x86), libelf and libz (libbpf.so)
	mkdir -p "$DEV/link"
	cp "$DEV"/usr/lib/aarch64-linux-gnu/liburing.a "$DEV/link/"
	for l in libelf libz; do
		so=$(find "$DEV"/usr/lib/aarch64-linux-gnu "$DEV"/lib/aarch64-linux-gnu -name "$l.so.1" 2>/dev/null | head -n1)
		[ -n "$so" ] || die "no arm64 $l.so.1 unpacked in ${DEV#"$TOP"/}"
		ln -s "$so" "$DEV/link/$l.so"
	done

	# What the maintainer scripts would have made
	r=$ROOT
	cp "$r"/usr/share/base-passwd/passwd.master "$r"/etc/passwd
	cp "$r"/usr/share/base-passwd/group.master "$r"/etc/group
	# (virtme-init bind-mounts its own shadow over this one)
	sed 's/^\([^:]*\):.*/\1:*:::::::/' "$r"/etc/passwd >"$r"/etc/shadow
	chmod 640 "$r"/etc/shadow
	[ ! -f "$r"/usr/share/libc-bin/nsswitch.conf ] || cp "$r"/usr/share/libc-bin/nsswitch.conf "$r"/etc/
	printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$r"/etc/hosts
	: >"$r"/etc/fstab
	ln -sfn ../proc/self/mounts "$r"/etc/mtab
	[ -e "$r"/usr/bin/sh ] || ln -s dash "$r"/usr/bin/sh
	[ -e "$r"/usr/bin/awk ] || ln -s mawk "$r"/usr/bin/awk
	[ -e "$r"/usr/sbin/poweroff ] || ln -s ../bin/busybox "$r"/usr/sbin/poweroff
	for d in run:/run lock:/run/lock; do	# base-files' postinst does it
		rmdir "$r/var/${d%%:*}" 2>/dev/null || true
		[ -e "$r/var/${d%%:*}" ] || ln -s "${d#*:}" "$r/var/${d%%:*}"
	done
	# Mount points: virtme-init mounts these, the root is read only
	mkdir -p "$r"/proc "$r"/sys "$r"/dev "$r"/run "$r"/tmp "$r"/root "$r"/home "$r"/opt \
		 "$r"/srv "$r"/mnt "$r"/var/tmp "$r"/var/log "$r"/etc/lvm
	chmod 1777 "$r"/tmp "$r"/var/tmp
	# .debs: unpacked
	rm -rf "$apt/cache/archives" "${apt:?}/dev"
	mv "$stamp.new" "$stamp"
fi

step arm64-tree
head=$(git -C "$TREE" rev-parse HEAD)
# (as check-series.sh keeps its worktree: made again when build/linux was)
if ! [ -e "$WT/.git" ] ||
   [ "$(cd "$WT" && realpath "$(git rev-parse --git-common-dir)" 2>/dev/null)" != \
     "$(git -C "$TREE" rev-parse --absolute-git-dir)" ]; then
	rm -rf "$WT"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$WT" "$head"
fi
git -C "$WT" checkout -q -f --detach "$head"
echo "worktree ${WT#"$TOP"/} at $(git -C "$WT" log -1 --format='%h %s')"

step arm64-selftests
export ARCH=arm64 CROSS_COMPILE=$CROSS
TREE=$WT KOUT=$AKOUT kmake CC="ccache ${CROSS}gcc" headers >/dev/null
# CC on the command line reaches the ynl and libbpf builds (whose
# Makefiles say CC=gcc); -L: a cross gcc ignores LIBRARY_PATH, and the
# Makefile's liburing probe links with $(CC) alone. CPATH: liburing,
# libelf and zlib headers. The kernel's own uapi for the test programs
# (USERCFLAGS), as on x86.
for target in drivers/net drivers/net/hw; do
	dest=$AKSFT log=$BUILD/selftests-arm64$SFX.log
	[ "$target" = drivers/net ] || dest=$AKSFT_HW log=$BUILD/selftests-hw-arm64$SFX.log
	rm -rf "$dest"
	with_progress "selftests $target (arm64)" log_progress "$log" \
		env CPATH="$DEV/usr/include:$DEV/usr/include/aarch64-linux-gnu" \
		make -C "$WT/tools/testing/selftests" O="$AKOUT" -j"$JOBS" \
		CC="${CROSS}gcc -L$DEV/link" AR="${CROSS}ar" \
		KSFT_INSTALL_PATH="$dest" TARGETS="$target" \
		USERCFLAGS="-isystem $AKOUT/usr/include" install ||
		{ tail -n 30 "$log"; die "arm64 $target selftest build failed (see ${log#"$TOP"/})"; }
done
for bin in drivers/net/ncdevmem drivers/net/iou-zcrx drivers/net/nk_forward.bpf.o drivers/net/hw/toeplitz; do
	dest=$AKSFT
	[ "${bin#drivers/net/hw/}" = "$bin" ] || dest=$AKSFT_HW
	[ -e "$dest/$bin" ] || die "$bin was not built for arm64"
done

step arm64-verify
for bin in "$AKSFT"/drivers/net/ncdevmem "$AKSFT"/drivers/net/iou-zcrx; do
	echo "  ${bin#"$TOP"/}: $(file -b "$bin" | cut -d, -f1-2,4)"
	file -b "$bin" | grep -q 'ARM aarch64' || die "${bin#"$TOP"/} is not an aarch64 program"
done
# Tools the tests and virtme-init run, by their path in the root
tools=(usr/bin/bash usr/bin/dash usr/bin/mount usr/bin/python3 usr/bin/perl usr/bin/socat
       usr/bin/busybox usr/bin/ping usr/bin/udevadm usr/bin/taskset usr/bin/setsid
       usr/bin/timeout usr/bin/stdbuf usr/bin/sha256sum usr/bin/kmod usr/bin/ps
       usr/bin/mountpoint usr/bin/seq usr/bin/base64 usr/bin/grep usr/bin/sed usr/bin/awk
       usr/sbin/ethtool usr/sbin/bpftool usr/bin/ip usr/sbin/tc usr/bin/ss usr/sbin/devlink
       usr/lib/systemd/systemd-udevd)
"$PYTHON" - "$ROOT" "$CROSS" "$AKSFT" "$AKSFT_HW" "$TOP/scripts/guest-state.py" "${tools[@]}" <<'PY' ||
"""ELF files: aarch64, interpreter and NEEDED libraries in the root.
Python files: their imports in the root's Python."""
import ast, glob, os, re, subprocess, sys

root, cross, ksft, ksft_hw, state = sys.argv[1:6]
tools = sys.argv[6:]
bad = []

def in_root(path):
    """PATH (absolute, in the guest) resolved in the root, links
    followed as the guest follows them; None if it does not exist."""
    parts = [p for p in path.split("/") if p]
    cur, hops = [], 0
    while parts:
        p = parts.pop(0)
        if p == "..":
            cur = cur[:-1]
            continue
        host = os.path.join(root, *cur, p)
        if os.path.islink(host):
            hops += 1
            if hops > 40:
                return None
            t = os.readlink(host)
            if t.startswith("/"):
                cur = []
            parts = [x for x in t.split("/") if x] + parts
            continue
        if not os.path.lexists(host):
            return None
        cur.append(p)
    return os.path.join(root, *cur)

LIBDIRS = ["/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib", "/usr/lib"]
seen = {}
with open(in_root("/lib/aarch64-linux-gnu/libc.so.6"), "rb") as f:
    glibc = int(re.search(rb"release version 2\.(\d+)", f.read()).group(1))

def check_elf(host, name):
    if host in seen:
        return
    seen[host] = True
    with open(host, "rb") as f:
        h = f.read(20)
    if h[:4] != b"\x7fELF":
        return
    if h[18] != 183:	# e_machine EM_AARCH64
        bad.append(f"{name}: not AArch64 (e_machine {h[18]})")
        return
    out = subprocess.run([cross + "readelf", "-d", "-l", "-V", "-W", host],
                         capture_output=True, text=True, check=False).stdout
    want = max([int(v) for v in re.findall(r"Name: GLIBC_2\.(\d+)", out)] or [0])
    if want > glibc:
        bad.append(f"{name}: needs GLIBC_2.{want}, the root has 2.{glibc}")
    m = re.search(r"\[Requesting program interpreter: (.*)\]", out)
    if m and not in_root(m.group(1)):
        bad.append(f"{name}: no interpreter {m.group(1)}")
    runpath = []
    for r in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]", out):
        guest = "/" + os.path.relpath(host, root)
        runpath += [d.replace("$ORIGIN", os.path.dirname(guest)) for d in r.split(":")]
    for lib in re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", out):
        for d in runpath + LIBDIRS:
            found = in_root(f"{d}/{lib}")
            if found:
                check_elf(found, lib)
                break
        else:
            bad.append(f"{name}: needs {lib}, not in the root")

n = 0
for top in (ksft, ksft_hw):
    for dirpath, _, files in os.walk(top):
        for f in files:
            p = os.path.join(dirpath, f)
            if os.path.isfile(p) and not f.endswith(".o"):	# .o: BPF objects
                with open(p, "rb") as fh:
                    if fh.read(4) == b"\x7fELF":
                        n += 1
                        check_elf(p, os.path.relpath(p, top))
for t in tools:
    p = in_root("/" + t)
    if not p:
        bad.append(f"/{t}: not in the root")
    else:
        check_elf(p, "/" + t)
print(f"  ELF: {n} selftest programs, {len(tools)} tools, {len(seen)} files with their libraries"
      f" checked (aarch64, in the root, glibc <= 2.{glibc})")

# Python: the modules the installed files import
pyver = sorted(glob.glob(os.path.join(root, "usr/lib/python3.*")))
pyver = [p for p in pyver if re.search(r"python3\.\d+$", p)]
if not pyver:
    bad.append("no python3.X in the root")
else:
    stdlib = pyver[-1]
    ver = os.path.basename(stdlib)[len("python"):].replace(".", "")
    interp = in_root("/usr/bin/python3")
    with open(interp, "rb") as f:
        builtin = set(m.decode() for m in re.findall(rb"PyInit_(\w+)", f.read()))
    places = [stdlib, os.path.join(stdlib, "lib-dynload"), os.path.join(root, "usr/lib/python3/dist-packages")]
    def present(mod):
        if mod in builtin or mod in ("sys", "builtins"):
            return True
        for d in places:
            if os.path.exists(os.path.join(d, mod + ".py")) or \
               os.path.exists(os.path.join(d, mod, "__init__.py")) or \
               glob.glob(os.path.join(d, f"{mod}.cpython-{ver}-aarch64-linux-gnu.so")) or \
               glob.glob(os.path.join(d, f"{mod}.abi3.so")):
                return True
        return False
    pyfiles = [state]
    for top in (ksft, ksft_hw):
        for dirpath, _, files in os.walk(top):
            pyfiles += [os.path.join(dirpath, f) for f in files if f.endswith(".py")]
    local = set()
    for p in pyfiles:	# the tests' own modules and packages
        local.add(os.path.basename(p)[:-3])
        for part in os.path.relpath(p, "/").split("/")[:-1]:
            local.add(part)
    need, optional = {}, {}
    for p in pyfiles:
        try:
            tree = ast.parse(open(p, encoding="utf-8").read())
        except (SyntaxError, UnicodeDecodeError):
            continue
        guarded = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Try):
                for sub in node.body:
                    for x in ast.walk(sub):
                        guarded.add(id(x))
        for node in ast.walk(tree):
            mods = []
            if isinstance(node, ast.Import):
                mods = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods = [node.module.split(".")[0]]
            for m in mods:
                if m in local or m == "__future__":
                    continue
                (optional if id(node) in guarded else need).setdefault(m, set()).add(os.path.basename(p))
    missing = sorted(m for m in need if not present(m))
    opt_missing = sorted(m for m in optional if m not in need and not present(m))
    for m in missing:
        bad.append(f"python module {m} (imported by {', '.join(sorted(need[m]))}) not in the root")
    if not missing:
        print(f"  python {os.path.basename(stdlib)}: the {len(need)} modules {len(pyfiles)} files import are there")
    if opt_missing:
        print(f"  python: optional (imported in a try block) and absent: {', '.join(opt_missing)}")

for b in bad:
    print("  MISSING " + b)
sys.exit(1 if bad else 0)
PY
	die "the arm64 root lacks what the selftests need (above)"

echo "arm64 root: ${ROOT#"$TOP"/}, $(du -sh "$ROOT" | cut -f1), $(($(wc -l <"$stamp") - 1)) packages" \
     "($(awk '$1 ~ /^(ethtool|iproute2|bpftool|python3|liburing2|libc6|udev)$/ { printf "%s%s %s", s, $1, $2; s = ", " }' "$stamp"))"
echo "arm64 selftests: $(grep -c '^drivers/net:' "$AKSFT/kselftest-list.txt") drivers/net programs in ${AKSFT#"$TOP"/}," \
     "$(grep -c . "$AKSFT_HW/kselftest-list.txt") of drivers/net/hw in ${AKSFT_HW#"$TOP"/}"
