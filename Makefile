# Strata — every command a contributor needs. Toolchain only: swift, swift format.
SWIFT        ?= swift
STRICT       := -Xswiftc -warnings-as-errors
SOURCES      := Package.swift Sources Tests

.PHONY: all build test demo bench format lint clean

all: build

## build: debug build of every target, warnings are errors
build:
	$(SWIFT) build $(STRICT)

## test: warning-free build of everything (tests and executables), then the whole suite
test:
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test --skip-build

## demo: the tour — every layer, live, against the embedded sandbox (no network needed)
demo:
	$(SWIFT) build $(STRICT) --product strata-demo
	$(SWIFT) run --skip-build strata-demo tour

## bench: release-build benchmarks; prints a table (JSON with BENCH_JSON=file)
bench:
	$(SWIFT) build -c release --product strata-bench
	$(SWIFT) run -c release --skip-build strata-bench $(if $(BENCH_JSON),--json $(BENCH_JSON),)

## format: rewrite sources with the toolchain's swift format and .swift-format
format:
	$(SWIFT) format --in-place --recursive --parallel $(SOURCES)

## lint: check formatting and the style rules without changing files
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SOURCES)

clean:
	rm -rf .build
