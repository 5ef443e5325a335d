# rocewatch: the two-command quick start is `make run` and `make test` (see README.md).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local
DESTDIR ?=
# Ninja schedules the build's ~500 steps tighter than make on 2 cores (docs/reliability.md,
# "CI budget"). A tree configured earlier keeps the generator it was made with.
export CMAKE_GENERATOR ?= Ninja

.PHONY: all deps build build-asan build-tsan run test test-unit test-integration test-e2e test-kernel test-image image bench test-asan \
        test-tsan sanitizer-deps fuzz soak install format check-format clean

all: build

deps:
	@scripts/install-deps.sh build

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Diagnose this host, then a bundled example node (an 8-rail RoCE host with a drifted GID).
# Builds only what the demo runs: the daemon and the fixture writer (no test binary).
run: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target rocewatch rocewatch-fixture
	@scripts/demo.sh $(BUILD)

# The image smoke test (label image) builds the whole image: it runs in `make test-image`. The
# kernel tier (label kernel) boots a qemu guest: it runs in `make test-kernel`, not yet in CI.
test: build
	@scripts/install-deps.sh build e2e
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --timeout 900 -LE "image|kernel"

test-unit: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L unit

test-integration: build
	ctest --test-dir $(BUILD) --output-on-failure -L integration

# The e2e tests run side by side: each builds a world of its own (tests/CMakeLists.txt).
test-e2e: build
	@scripts/install-deps.sh build e2e
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L e2e

# The kernel tier: the real binary against soft-RoCE in a qemu guest (tests/kernel/,
# docs/kernel-tier.md). Builds the daemon only; the guest is built from Debian packages.
test-kernel: deps
	@scripts/install-deps.sh build kernel
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target rocewatch
	ctest --test-dir $(BUILD) --output-on-failure -L kernel

# The OCI image with podman (deploy/container/Dockerfile; base image: scripts/build-image.sh).
# IMAGE names it (default localhost/rocewatch:<version>); BASE_IMAGE overrides the base.
image:
	@scripts/install-deps.sh image
	scripts/build-image.sh $(IMAGE)

# Builds the image and runs its binary from the mounted image (tests/image; docs/deploy.md).
# IMAGE_BINARIES=tree packs the binary of $(BUILD), installed stripped into $(BUILD)/image-root:
# the one `make test` tested (CI does so); unset, the image's build stage compiles the sources.
IMAGE_BINARIES ?=
image_root = $(abspath $(BUILD))/image-root
test-image: build
	@scripts/install-deps.sh build image
ifeq ($(IMAGE_BINARIES),tree)
	@rm -rf $(image_root)
	@DESTDIR=$(image_root) cmake --install $(BUILD) --prefix /usr/local --strip >/dev/null
	ROCEWATCH_IMAGE_BINARIES=$(image_root) ctest --test-dir $(BUILD) --output-on-failure -L image
else ifeq ($(IMAGE_BINARIES),)
	ctest --test-dir $(BUILD) --output-on-failure -L image
else
	@echo "make test-image: IMAGE_BINARIES is 'tree' or empty, not '$(IMAGE_BINARIES)'" >&2; exit 2
endif

# Sanitizer builds (clang) run the unit and integration tests. Suppressions, each justified in
# its file: tests/sanitizers/. TSAN_LABELS narrows the TSan run (CI: see .ci/run).
# Line tables only (-gline-tables-only): a sanitizer report still names file and line of every
# frame, and the trees compile about a fifth faster than with full -g. SANITIZER_DEBUG_FLAGS=-g
# gives a tree for a debugger.
SANITIZER_DEBUG_FLAGS ?= -gline-tables-only
SANITIZER_CMAKE = -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_DEBUG="$(SANITIZER_DEBUG_FLAGS)"
# One ASan+UBSan tree, build-asan/, serves the tests (test-asan) and the libFuzzer targets (fuzz):
# the library is compiled once, with the coverage instrumentation libFuzzer needs.
ASAN_CMAKE = $(SANITIZER_CMAKE) -DROCEWATCH_SANITIZE=address,undefined -DROCEWATCH_BUILD_FUZZ=ON
TSAN_CMAKE = $(SANITIZER_CMAKE) -DROCEWATCH_SANITIZE=thread
TSAN_LABELS ?= unit|integration
FUZZ_SECONDS ?= 60

sanitizer-deps:
	@scripts/install-deps.sh build fuzz

# build-asan and build-tsan compile only; test-asan and test-tsan build, then run the tests (.ci/run
# compiles the next tree while the previous one's tests run).
build-asan: sanitizer-deps
	cmake -S . -B build-asan $(ASAN_CMAKE) >/dev/null
	cmake --build build-asan -j $(JOBS)

build-tsan: sanitizer-deps
	cmake -S . -B build-tsan $(TSAN_CMAKE) >/dev/null
	cmake --build build-tsan -j $(JOBS)

test-asan: build-asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizers/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir build-asan --output-on-failure -j $(JOBS) -L 'unit|integration' --timeout 600

test-tsan: build-tsan
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/sanitizers/tsan.supp \
	  ctest --test-dir build-tsan --output-on-failure -j $(JOBS) -L '$(TSAN_LABELS)' --timeout 600

# libFuzzer targets (fuzz/), each run FUZZ_SECONDS from its seed corpus, FUZZ_JOBS at a time
# (default JOBS), built in the ASan tree (only the fuzz targets, when the tests are not wanted).
FUZZ_JOBS ?= $(JOBS)
fuzz: sanitizer-deps
	cmake -S . -B build-asan $(ASAN_CMAKE) >/dev/null
	cmake --build build-asan -j $(JOBS) --target fuzzers
	FUZZ_JOBS=$(FUZZ_JOBS) scripts/run-fuzzers.sh build-asan $(FUZZ_SECONDS)

# 10 minutes of flaps and address churn against `rocewatch run`, RSS sampled (needs root).
SOAK_SECONDS ?= 600
soak: build
	scripts/soak.sh $(BUILD) $(SOAK_SECONDS)

bench: deps
	@scripts/install-deps.sh build bench
	cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DROCEWATCH_BUILD_BENCH=ON
	cmake --build build-bench -j $(JOBS) --target bench_all
	bench/run.sh build-bench

install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

format:
	@scripts/install-deps.sh format
	find lib daemon tests bench fuzz -name '*.h' -o -name '*.cc' | xargs clang-format -i

# Fails listing the C++ files clang-format would change (CI runs it first).
check-format:
	@scripts/install-deps.sh format
	@scripts/check-format.sh

clean:
	rm -rf $(BUILD) build-asan build-tsan build-bench build-fuzz
