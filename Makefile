# devmem TCP / netmem patch series on Debian's Linux 7.2: see README.md.
# Every target is one script in scripts/; build/ holds everything generated.

S := scripts

.PHONY: all deps tree export build kernel drivers selftests demo check \
	check-series check-debug bench clean

all: build demo

deps:
	@$(S)/install-deps.sh

# (Re)create build/linux: base + patches/ (refuses to drop unexported work).
tree: deps
	@$(S)/make-tree.sh

# Regenerate patches/ from build/linux base..HEAD.
export:
	@$(S)/export.sh

build/linux/.git:
	@$(S)/make-tree.sh

build: deps build/linux/.git
	@$(S)/build-kernel.sh
	@$(S)/build-drivers.sh
	@$(S)/build-selftests.sh

demo:
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
