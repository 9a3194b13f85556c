# BufferLab. The two commands a user needs:
#   make run    build the browser version and serve the lessons on http://127.0.0.1:8080/
#   make test   run every test
SHELL := /bin/bash
GO ?= go
WASM_EXEC_DIR = $(shell $(GO) env GOROOT)/lib/wasm
FUZZTIME ?=
FUZZMINTIME ?= 2s
BENCHTIME ?= 1s

ADDR ?= 127.0.0.1:8080

.PHONY: run class demo wasm desktop test test-race race lessons-check check-deps check-desktop-deps fmt-check vet test-native test-short test-wasm fuzz bench hooks-cost build

run: wasm
	@echo "Starting bufferlab serve on $(ADDR) (go run compiles it first: a minute or more the first time, longer on a busy machine)"
	$(GO) run ./cmd/bufferlab serve --addr $(ADDR) --dir web

# A class: the lessons and the classroom on this machine's local-network
# address (docs/classroom.md); CLASS_FLAGS for more (--save results.csv).
class: wasm
	@echo "Starting bufferlab serve --classroom --lan (go run compiles it first)"
	$(GO) run ./cmd/bufferlab serve --classroom --lan --addr $(ADDR) --dir web $(CLASS_FLAGS)

# The narrated demo in the terminal.
demo:
	$(GO) run ./cmd/bufferlab demo

# The browser build: web/bufferlab.wasm and Go's wasm_exec.js beside the
# page, and the wasm's compressed copies (bufferlab.wasm.br, .gz) that
# `bufferlab serve` sends, so that it need not compress at start-up.
wasm:
	@echo "Building the browser version, web/bufferlab.wasm (go run ./cmd/wasmbuild: GOOS=js GOARCH=wasm go build ./cmd/wasm with Ebitengine's built-in shaders expanded at build time, about 21 MB, 3.6 MB as served with brotli: docs/wasm-size.md): the first time a few minutes (about 3-4 on an idle machine: Go's standard library, Ebitengine and the engine compiled for WebAssembly), later seconds from Go's build cache"
	$(GO) run ./cmd/wasmbuild -o web/bufferlab.wasm
	cp "$(WASM_EXEC_DIR)/wasm_exec.js" web/wasm_exec.js
	@echo "Compressing it for bufferlab serve: web/bufferlab.wasm.br (brotli level 11) and .gz, 1-2 minutes after each change of the wasm (more on a busy machine), nothing when they are up to date"
	$(GO) run ./cmd/precompress web/bufferlab.wasm

# The desktop app needs cgo and the X11/OpenGL headers.
desktop: check-desktop-deps
	$(GO) build -o bin/desktop ./cmd/desktop

build:
	$(GO) build -o bin/bufferlab ./cmd/bufferlab

# Debian packages the tests need: node runs the engine tests compiled to
# WebAssembly; Chromium the browser tests; Xvfb, Mesa and the X11 headers
# (with gcc for cgo) the desktop window tests; PostgreSQL 15 (with its
# contrib modules, in the same Debian package) the checks of
# `bufferlab verify`. Installed when missing and running as root;
# otherwise need.sh prints the apt-get line.
check-deps: check-desktop-deps
	@scripts/need.sh node:nodejs chromium:chromium xvfb-run:xvfb xauth:xauth libgl1-mesa-dri fonts-dejavu-core postgresql-15

# The desktop app's build: cgo and the X11/OpenGL headers.
check-desktop-deps:
	@scripts/need.sh gcc:gcc pkg-config:pkg-config libgl1-mesa-dev libxrandr-dev libxcursor-dev libxi-dev libxinerama-dev libxxf86vm-dev libasound2-dev

test: check-deps fmt-check vet test-native test-short test-race lessons-check test-wasm fuzz

# The native pin loop (real goroutines, real atomics) under the race detector.
test-race:
	$(GO) test -race ./fastmode/exp/pin -run Pin
	$(GO) test -race ./engine/slru ./engine/fsm

# Every package's tests under the race detector, at their -short sizes
# (the long randomised tests also shrink under -race: race_on_test.go in
# engine/bufmgr and engine/slru), and the browser and window tests
# skipped. It takes several minutes on two cores, so `make test` does not
# run it: CI's budget is 40 minutes and test-race above covers the code
# with real goroutines (the native pin loop, the SLRU and FSM). Run it
# before merging a change to shared state or goroutines.
race:
	$(GO) test -race -short ./...

# Every lesson parsed, run headless, every expect checked.
lessons-check:
	$(GO) run ./cmd/bufferlab lessons check

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@missing=$$($(GO) list -f '{{.Dir}}' ./... | while read d; do [ -f "$$d/doc.go" ] || echo "$$d"; done); \
	if [ -n "$$missing" ]; then echo "packages without a doc.go (house style: one in every package):"; echo "$$missing"; exit 1; fi

vet:
	$(GO) vet ./...
	$(GO) vet -tags bufferlab_nohooks ./engine/...
	GOOS=js GOARCH=wasm $(GO) vet ./...

test-native:
	$(GO) test -timeout 30m ./...

# The same tests with -short: the scaled-down workloads (fewer random
# operations, shorter streams) that a quick run and `make race` use, run
# here so that their checks keep matching their sizes. -short skips the
# browser and window tests, which test-native runs.
test-short:
	$(GO) test -short ./...

# The engine and the pure-Go player packages under js/wasm (Node): same
# results, same trace hashes as natively.
test-wasm:
	PATH="$$PATH:$(WASM_EXEC_DIR)" GOOS=js GOARCH=wasm $(GO) test ./engine/... ./internal/goldentest ./viz/poolview ./viz/timeline ./viz/player ./viz/a11y ./lessons

# A short coverage-guided run of each fuzz target on top of its corpus,
# about 15 s each on this project's machine (75 s in all): the SLRU's
# configurations and operations, the scenario language (with its SLRU and
# FSM scripts), lesson Markdown played headless, the browser's links
# (internal/permalink: anything in a page address decodes to one thing to
# open, with notices) and the saved progress (lessons/progress). Each
# runs a count of inputs, not a duration: a duration's deadline races the
# fuzzing coordinator's shutdown (golang/go#75804, unfixed in Go 1.26) and
# fails a run that found nothing with "context deadline exceeded" on a
# loaded machine. An input that finds new code is minimized for at most
# FUZZMINTIME (Go's default is a minute): a lesson runs for tens of
# milliseconds, so a longer minimization would leave a short run no time
# to fuzz. `make fuzz FUZZTIME=10m` runs each for a duration instead.
fuzztime = $(if $(FUZZTIME),$(FUZZTIME),$(1))
fuzz:
	$(GO) test ./engine/slru -run '^$$' -fuzz '^FuzzConfigAndOps$$' -fuzztime $(call fuzztime,120000x) -fuzzminimizetime $(FUZZMINTIME)
	$(GO) test ./engine/scenario -run '^$$' -fuzz '^FuzzScenario$$' -fuzztime $(call fuzztime,110000x) -fuzzminimizetime $(FUZZMINTIME)
	$(GO) test ./lessons -run '^$$' -fuzz '^FuzzLesson$$' -fuzztime $(call fuzztime,50000x) -fuzzminimizetime $(FUZZMINTIME)
	$(GO) test ./internal/permalink -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(call fuzztime,250000x) -fuzzminimizetime $(FUZZMINTIME)
	$(GO) test ./lessons/progress -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(call fuzztime,250000x) -fuzzminimizetime $(FUZZMINTIME)

bench:
	$(GO) test ./engine/... -run '^$$' -bench . -benchtime $(BENCHTIME)

# What the nil-log and scheduler hooks cost: the same benchmarks with the
# hooks compiled out (build tag bufferlab_nohooks), in interleaved rounds so
# that the machine's noise hits both alike, compared by benchstat.
HOOKS_BENCH = ReadHitRelease/shared_buffers=(128MB|1GB)/log=off|ReadMissSweep/shared_buffers=(128MB|1GB)/log=off
HOOKS_ROUNDS ?= 10
hooks-cost:
	$(GO) test -c -o /tmp/bufferlab-hooks-on.test ./engine/bufmgr
	$(GO) test -c -tags bufferlab_nohooks -o /tmp/bufferlab-hooks-off.test ./engine/bufmgr
	rm -f /tmp/bufferlab-hooks-on.txt /tmp/bufferlab-hooks-off.txt
	for i in $$(seq $(HOOKS_ROUNDS)); do \
		/tmp/bufferlab-hooks-off.test -test.run '^$$' -test.bench '$(HOOKS_BENCH)' -test.benchtime 300000x >> /tmp/bufferlab-hooks-off.txt; \
		/tmp/bufferlab-hooks-on.test -test.run '^$$' -test.bench '$(HOOKS_BENCH)' -test.benchtime 300000x >> /tmp/bufferlab-hooks-on.txt; \
	done
	$(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da -filter .unit:sec/op /tmp/bufferlab-hooks-off.txt /tmp/bufferlab-hooks-on.txt
