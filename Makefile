# devmem TCP / netmem patch series on Debian's Linux 7.2: see README.md.
# Every target is one script in scripts/; build/ holds everything generated.
# BASE=7.3 (make BASE=7.3 check) runs any target on Linux 7.3 instead, with
# the stack of patches-7.3/ in build/linux-7.3 (see scripts/lib.sh).

S := scripts

.PHONY: all deps tree export build kernel drivers selftests demo check \
	check-series check-debug check-arch check-arm64 check-mutants check-netif-skip compare-base \
	check-fragments bench debian-patches clean

# make -j N: every target that needs the kernel depends on build, build
# on tree and tree on deps, so the steps run in order whatever N is.
all: build demo

deps:
	@$(S)/install-deps.sh

# build/linux = base + patches/: (re)applied when patches/ changed, never
# dropping work that was not exported (FORCE=1 does).
tree: deps
	@$(S)/make-tree.sh

# Regenerate patches/ from build/linux base..HEAD.
export:
	@$(S)/export.sh

# Everything that builds or tests goes through tree: what it tests is
# always what patches/ holds.
build: tree
	@$(S)/build-kernel.sh
	@$(S)/build-drivers.sh
	@$(S)/build-selftests.sh

# On an existing build, the build step is incremental (a no-op when
# nothing changed), as for check: the demo runs the tree's kernel.
demo: build
	@$(S)/demo.sh

check: build
	@$(S)/check.sh

check-series: tree
	@$(S)/check-series.sh

# The same tests on a kernel with KASAN, lockdep, kmemleak and friends.
check-debug: build
	@$(S)/check-debug.sh

# Small breaks of the stack (mutants/*.diff), one at a time: the checks
# named for each must fail. Outside CI.
check-mutants: build
	@$(S)/check-mutants.sh

# The devmem and zcrx programs with NETIF set, as on a NIC runner: the
# netkit ones without LOCAL_PREFIX_V6, and all of them on a NIC without
# devmem (veth), must skip, saying why.
check-netif-skip: build
	@$(S)/vm-run.sh netif-skip 900 "KSELFTEST=$(CURDIR)/build/kselftest$(if $(filter 7.3,$(BASE)),-7.3) $(CURDIR)/$(S)/guest-netif-skip.sh"

# The base kernel's drivers/net results next to make check's last run.
compare-base: build
	@$(S)/compare-base.sh

# drivers/net on a kernel built from its config fragment alone, as CI does.
check-fragments: build
	@$(S)/check-fragments.sh

# The devmem KUnit suites on UML and arm64 with 64 KiB pages, i386 W=1.
check-arch: tree
	@$(S)/check-arch.sh

# devmem.py, devmem_nsim.py and iou-zcrx.py in an arm64 guest (TCG).
check-arm64: tree
	@$(S)/check-arm64.sh

# Baseline and series kernels, same workloads, rounds of alternate boots,
# figures side by side in build/results/bench.txt. The kernels and ncdevmem
# are built in build/bench, so this needs the tree only.
bench: tree
	@$(S)/bench.sh

# The stack as a folder for a Debian kernel package's debian/patches
# (flat quilt series, DEP-3 fields), tested by quilt on the pristine source.
debian-patches: tree
	@$(S)/debian-patches.sh

# Everything generated but the work trees, the downloads, the tools and
# ccache.
clean:
	rm -rf build/kbuild* build/kunit-um* build/kselftest* build/results* build/bench \
		build/debian-patches* \
		build/*.log
