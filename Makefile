# rocewatch: the two-command quick start is `make run` and `make test` (see README.md).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all deps build run test test-unit test-integration test-e2e bench test-asan test-tsan \
        fuzz soak install format clean

all: build

deps:
	@scripts/install-deps.sh build

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) -- --no-print-directory

# Diagnose this host, then a bundled example node (an 8-rail RoCE host with a drifted GID).
run: build
	@scripts/demo.sh $(BUILD)

test: build
	@scripts/install-deps.sh build e2e
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --timeout 900

test-unit: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L unit

test-integration: build
	ctest --test-dir $(BUILD) --output-on-failure -L integration

test-e2e: build
	@scripts/install-deps.sh build e2e
	ctest --test-dir $(BUILD) --output-on-failure -L e2e

# Sanitizer builds run the unit and integration tests.
test-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DROCEWATCH_SANITIZE=address,undefined
	cmake --build build-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir build-asan --output-on-failure -j $(JOBS) -L 'unit|integration'

test-tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DROCEWATCH_SANITIZE=thread
	cmake --build build-tsan -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -j $(JOBS) -L 'unit|integration'

bench: deps
	@scripts/install-deps.sh build bench
	cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DROCEWATCH_BUILD_BENCH=ON
	cmake --build build-bench -j $(JOBS) --target bench_all
	bench/run.sh build-bench

install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

format:
	find lib daemon tests bench -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf $(BUILD) build-asan build-tsan build-bench build-fuzz
