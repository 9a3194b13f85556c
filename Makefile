# BufferLab. The two commands a user needs:
#   make run    start BufferLab (for now the narrated clock-sweep demo in the terminal)
#   make test   run every test
SHELL := /bin/bash
GO ?= go
WASM_EXEC_DIR = $(shell $(GO) env GOROOT)/lib/wasm
FUZZTIME ?= 15s
BENCHTIME ?= 1s

.PHONY: run test check-deps fmt-check vet test-native test-wasm fuzz bench hooks-cost build

run:
	$(GO) run ./cmd/bufferlab demo

build:
	$(GO) build -o bin/bufferlab ./cmd/bufferlab

# Debian packages the tests need: node runs the engine tests compiled to
# WebAssembly.
check-deps:
	@scripts/need.sh node:nodejs

test: check-deps fmt-check vet test-native test-wasm fuzz

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	$(GO) vet -tags bufferlab_nohooks ./engine/...
	GOOS=js GOARCH=wasm $(GO) vet ./...

test-native:
	$(GO) test ./...

# The engine under js/wasm (Node): same results, same trace hashes.
test-wasm:
	PATH="$$PATH:$(WASM_EXEC_DIR)" GOOS=js GOARCH=wasm $(GO) test ./engine/...

# A short coverage-guided run of the scenario fuzzer on top of its corpus.
fuzz:
	$(GO) test ./engine/scenario -run '^$$' -fuzz FuzzScenario -fuzztime $(FUZZTIME)

bench:
	$(GO) test ./engine/... -run '^$$' -bench . -benchtime $(BENCHTIME)

# What the nil-log and scheduler hooks cost: the same benchmarks with the
# hooks compiled out (build tag bufferlab_nohooks), side by side.
hooks-cost:
	$(GO) test ./engine/bufmgr -run '^$$' -bench 'ReadHitRelease|ReadMissSweep' -benchtime $(BENCHTIME) -count 5 > /tmp/bufferlab-hooks-on.txt
	$(GO) test ./engine/bufmgr -tags bufferlab_nohooks -run '^$$' -bench 'ReadHitRelease|ReadMissSweep' -benchtime $(BENCHTIME) -count 5 > /tmp/bufferlab-hooks-off.txt
	$(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da /tmp/bufferlab-hooks-off.txt /tmp/bufferlab-hooks-on.txt
