# devmem TCP / netmem patch series on Debian's Linux 7.2: see README.md.
# Every target is one script in scripts/; build/ holds everything generated.

S := scripts

.PHONY: all deps tree export build kernel drivers selftests demo check \
	check-series check-debug bench clean

# make -j N: every target that needs the kernel depends on build, and
# build/linux on deps, so the steps run in order whatever N is.
all: build demo

deps:
	@$(S)/install-deps.sh

# (Re)create build/linux: base + patches/ (refuses to drop unexported work).
tree: deps
	@$(S)/make-tree.sh

# Regenerate patches/ from build/linux base..HEAD.
export:
	@$(S)/export.sh

# Order-only: deps (phony) must run first, but must not make an existing
# tree out of date (make-tree.sh would re-apply patches/ every time).
build/linux/.git: | deps
	@$(S)/make-tree.sh

build: deps build/linux/.git
	@$(S)/build-kernel.sh
	@$(S)/build-drivers.sh
	@$(S)/build-selftests.sh

# On an existing build, the build step is incremental (a no-op when
# nothing changed), as for check: the demo runs the tree's kernel.
demo: build
	@$(S)/demo.sh

check: build
	@$(S)/check.sh

check-series: deps build/linux/.git
	@$(S)/check-series.sh

# The same tests on a kernel with KASAN, lockdep, kmemleak and friends.
check-debug: build
	@$(S)/check-debug.sh

# Baseline and series kernels, same workloads, figures side by side.
bench: build
	@$(S)/bench.sh

clean:
	rm -rf build/kbuild build/kbuild-debug build/kbuild-debian build/kselftest \
		build/results build/results-debug build/bench
