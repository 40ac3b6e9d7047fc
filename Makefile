# Strata — every command a contributor needs. Toolchain only: swift, swift format.
SWIFT        ?= swift
STRICT       := -Xswiftc -warnings-as-errors
SOURCES      := Package.swift Sources Tests Snippets

.PHONY: all build test outside api api-check test-load demo install bench bench-check bench-swinject contract contract-httpbin leaks docs \
  format lint clean

all: build

## build: debug build of every target, warnings are errors
build:
	$(SWIFT) build $(STRICT)

# Swift Testing starts every test at once unless told otherwise; then a test's hang guard
# runs while it waits behind the whole suite, and on a loaded machine (load 14 on 2 cores)
# guards of two minutes fired in tests that were only queued. Eight at a time: a guard
# measures the test's own work, and the suite is no slower (43 s vs 49 s on this machine).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH ?= 8
# The suite reads the English sentences: a developer's own locale must not change them (the
# tests of localized text ask for their language themselves).
export LC_ALL := C.UTF-8

## test: warning-free build of everything (tests and executables), the demo app built from
## outside, the public API checked against its reviewed dump, then the whole suite
test:
	$(SWIFT) build --build-tests $(STRICT)
	$(MAKE) --no-print-directory outside api-check
	$(SWIFT) test --skip-build

## outside: DemoKit, DemoKitTesting, strata-demo and the docs' samples built as a package of their
## own (Tests/OutsideUser) that links Strata, StrataTesting and StrataSandbox by path — so any use
## of a declaration the library does not make public fails the build — and its tests run
outside:
	@# SwiftPM re-plans only when a root manifest changes: without this, a source file added
	@# to the library (a path dependency here) is missing from the outside build.
	touch Tests/OutsideUser/Package.swift
	STRATA_LIBRARY_ONLY=1 $(SWIFT) build --package-path Tests/OutsideUser \
	  --scratch-path .build-outside --build-tests $(STRICT)
	STRATA_LIBRARY_ONLY=1 $(SWIFT) test --package-path Tests/OutsideUser \
	  --scratch-path .build-outside --skip-build

## api: write the public API of Strata, one declaration per line, to Tests/PublicAPI/Strata.txt
## (and of StrataTesting and StrataSandbox, the other shipped products, beside it)
## (from the symbol graph of the debug build); api-check fails when the surface differs from it.
## What exists only on Apple platforms (os.Logger's sink, the Keychain store) is listed in
## Strata+Darwin.txt: on macOS the dump must be both files together, and `make api` there
## rewrites the Darwin file only (the SDK and target are given to the extractor).
API_FILE   := Tests/PublicAPI/Strata.txt
API_DARWIN := Tests/PublicAPI/Strata+Darwin.txt
API_GRAPHS := .build-api
API_MODULES := StrataTesting StrataSandbox
SYMBOLGRAPH_EXTRACT ?= $(shell command -v swift-symbolgraph-extract || echo xcrun swift-symbolgraph-extract)
ifeq ($(shell uname -s),Darwin)
  API_PLATFORM := -sdk "$$(xcrun --show-sdk-path --sdk macosx)" -target "$$(uname -m)-apple-macosx14.0"
endif
api:
	$(SWIFT) build $(STRICT) --target Strata
	$(SWIFT) build $(STRICT) --product strata-api-dump
	rm -rf $(API_GRAPHS) && mkdir -p $(API_GRAPHS)
	bin=$$($(SWIFT) build --show-bin-path) && $(SYMBOLGRAPH_EXTRACT) -module-name Strata \
	  -minimum-access-level public -skip-synthesized-members -I "$$bin/Modules" $(API_PLATFORM) \
	  -Xcc -fmodule-map-file="$$bin/CStrataAtomics.build/module.modulemap" -output-dir $(API_GRAPHS)
	$(SWIFT) run --skip-build strata-api-dump $(API_GRAPHS) Strata > $(API_GRAPHS)/Strata.txt
	@# The test kit and the sandbox ship as products too: their surfaces are checked the same way.
	@for module in $(API_MODULES); do \
	  $(SWIFT) build $(STRICT) --target $$module >/dev/null || exit 1; \
	  mkdir -p $(API_GRAPHS)/$$module; \
	  bin=$$($(SWIFT) build --show-bin-path) && $(SYMBOLGRAPH_EXTRACT) -module-name $$module \
	    -minimum-access-level public -skip-synthesized-members -I "$$bin/Modules" $(API_PLATFORM) \
	    -Xcc -fmodule-map-file="$$bin/CStrataAtomics.build/module.modulemap" \
	    -output-dir $(API_GRAPHS)/$$module || exit 1; \
	  $(SWIFT) run --skip-build strata-api-dump $(API_GRAPHS)/$$module $$module \
	    > $(API_GRAPHS)/$$module.txt || exit 1; \
	  if [ "$(CHECK)" = 1 ]; then \
	    diff -u Tests/PublicAPI/$$module.txt $(API_GRAPHS)/$$module.txt || { echo "api-check:" \
	      "$$module's public API changed; review the diff, run make api, commit" \
	      "Tests/PublicAPI/$$module.txt"; exit 1; }; \
	  else cp $(API_GRAPHS)/$$module.txt Tests/PublicAPI/$$module.txt; \
	    echo "api: Tests/PublicAPI/$$module.txt ($$(wc -l < $(API_GRAPHS)/$$module.txt) lines)"; fi; \
	done
	@if [ "$$(uname -s)" = Darwin ]; then cat $(API_FILE) $(API_DARWIN); else cat $(API_FILE); fi \
	  | LC_ALL=C sort > $(API_GRAPHS)/expected.txt
	@LC_ALL=C sort $(API_GRAPHS)/Strata.txt > $(API_GRAPHS)/dumped.txt
	@if [ "$(CHECK)" = 1 ]; then \
	  diff -u $(API_GRAPHS)/expected.txt $(API_GRAPHS)/dumped.txt || { echo "api-check: the public" \
	    "API changed; review the diff above, then run make api and commit $(API_FILE)" \
	    "(on macOS: $(API_DARWIN))"; exit 1; }; \
	elif [ "$$(uname -s)" = Darwin ]; then \
	  LC_ALL=C sort $(API_FILE) > $(API_GRAPHS)/common.txt; \
	  LC_ALL=C comm -13 $(API_GRAPHS)/common.txt $(API_GRAPHS)/dumped.txt > $(API_DARWIN); \
	  missing=$$(LC_ALL=C comm -23 $(API_GRAPHS)/common.txt $(API_GRAPHS)/dumped.txt); \
	  if [ -n "$$missing" ]; then echo "api: not on Darwin (change $(API_FILE) on Linux):"; \
	    echo "$$missing"; exit 1; fi; echo "api: $(API_DARWIN) ($$(wc -l < $(API_DARWIN)) lines)"; \
	else cp $(API_GRAPHS)/Strata.txt $(API_FILE); echo "api: $(API_FILE) ($$(wc -l < $(API_FILE)) lines)"; fi

api-check:
	@$(MAKE) --no-print-directory api CHECK=1

## test-load: the whole suite three times in a row while six busy loops compete for the
## cores (RUNS=, LOAD= change that); a verdict must never depend on the machine being quiet
test-load:
	SWIFT=$(SWIFT) scripts/test-under-load

## install: strata-demo on your PATH — the binary and its strings, in $(PREFIX)/bin
## (default ~/.local/bin); `make install PREFIX=/usr/local` elsewhere
PREFIX ?= $(HOME)/.local
install:
	$(SWIFT) build $(STRICT) --product strata-demo
	bin=$$($(SWIFT) build --show-bin-path) && install -d "$(PREFIX)/bin" \
	  && install -m 0755 "$$bin/strata-demo" "$(PREFIX)/bin/strata-demo" \
	  && rm -rf "$(PREFIX)/bin/Strata_DemoKit.resources" \
	  && cp -R "$$bin/Strata_DemoKit.resources" "$(PREFIX)/bin/"
	@echo "installed $(PREFIX)/bin/strata-demo (on your PATH if $(PREFIX)/bin is)"

## demo: the tour — every layer, live, against the embedded sandbox (no network needed; the
## CLI's built-in defaults: it reads a config file only from --config or STRATA_CONFIG)
demo:
	$(SWIFT) build $(STRICT) --product strata-demo
	$(SWIFT) run --skip-build strata-demo tour

## bench: release-build benchmarks; prints a table (JSON with BENCH_JSON=file)
bench:
	$(SWIFT) build -c release --product strata-bench
	$(SWIFT) build -c release --product strata-demo
	$(SWIFT) run -c release --skip-build strata-bench $(if $(BENCH_JSON),--json $(BENCH_JSON),)

## bench-check: a short subset of the benchmarks; fails when a ratio passes its limit
bench-check:
	$(SWIFT) build -c release --product strata-bench
	$(SWIFT) build -c release --product strata-demo
	$(SWIFT) run -c release --skip-build strata-bench --check

## bench-swinject: DependencyContainer against the real Swinject's synchronized resolver, in a
## throwaway package (.build-swinject); SWINJECT=/path/to/checkout, or it clones from GitHub
bench-swinject:
	scripts/bench-swinject

## contract: DemoKit's contract suite against any DummyJSON deployment (needs the network
## for a remote one; never run by CI): STRATA_CONTRACT_API=https://dummyjson.com make contract
## (offline: scripts/dummyjson-local runs DummyJSON's own code on loopback)
contract:
	@test -n "$(STRATA_CONTRACT_API)" || { \
	  echo "usage: STRATA_CONTRACT_API=https://dummyjson.com make contract"; exit 2; }
	$(SWIFT) build --build-tests $(STRICT)
	STRATA_CONTRACT_API='$(STRATA_CONTRACT_API)' $(SWIFT) test --skip-build --filter ContractTests

## contract-httpbin: NetworkService.stream against httpbin (postmanlabs/httpbin), a server no one
## here wrote; never run by CI. On loopback: python3 -m venv .build-httpbin &&
## .build-httpbin/bin/pip install httpbin gunicorn && .build-httpbin/bin/gunicorn -b 127.0.0.1:8898
## -w 4 httpbin:app &   then   STRATA_HTTPBIN=http://127.0.0.1:8898 make contract-httpbin
contract-httpbin:
	@test -n "$(STRATA_HTTPBIN)" || { \
	  echo "usage: STRATA_HTTPBIN=http://127.0.0.1:8898 make contract-httpbin"; exit 2; }
	$(SWIFT) build --build-tests $(STRICT)
	STRATA_HTTPBIN='$(STRATA_HTTPBIN)' $(SWIFT) test --skip-build --filter HTTPBinStreamContractTests

## leaks: the integration and reliability suites under AddressSanitizer + LeakSanitizer.
## Fails on a test failure or on any leak whose stack has a frame in Strata's own modules
## (libcurl / FoundationNetworking / XCTest leaks are reported, not ours to fix).
LEAK_SUITES := Integration|FaultMatrix|AuthLoad|Sandbox|HostileServer|SessionSafety
leaks:
	$(SWIFT) build --build-tests --scratch-path .build-asan -Xswiftc -sanitize=address
	ASAN_OPTIONS=detect_leaks=1 $(SWIFT) test --skip-build --scratch-path .build-asan \
	  --filter '$(LEAK_SUITES)' > .build-asan/leaks.log 2>&1 || true
	@grep -E 'Test run with|SUMMARY: AddressSanitizer' .build-asan/leaks.log
	@grep -q 'Test run with .* passed' .build-asan/leaks.log
	@awk '/leak of/ { inblock = 1; ours = 0 } \
	  inblock && /\$$s(6Strata|13StrataSandbox|13StrataTesting|7DemoKit)[0-9A-Z]/ { ours = 1 } \
	  /^$$/ { if (inblock && ours) found++; inblock = 0 } \
	  END { print (found + 0) " leak(s) with a Strata frame (log: .build-asan/leaks.log)"; exit (found > 0) }' \
	  .build-asan/leaks.log

## docs: the core's DocC archive (.build-docs/Strata.doccarchive), built by the toolchain's own
## docc from the symbol graph the compiler writes — no plugin package; warnings are errors
DOCC ?= $(shell command -v docc || echo xcrun docc)
DOCS := .build-docs
docs:
	$(SWIFT) build --scratch-path $(DOCS) --target Strata -Xswiftc -emit-symbol-graph \
	  -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(DOCS)/graphs-all
	rm -rf $(DOCS)/graphs $(DOCS)/Strata.doccarchive && mkdir -p $(DOCS)/graphs
	cp $(DOCS)/graphs-all/Strata.symbols.json $(DOCS)/graphs/
	for graph in $(DOCS)/graphs-all/Strata@*.symbols.json; do \
	  if [ -e "$$graph" ]; then cp "$$graph" $(DOCS)/graphs/; fi; done
	$(DOCC) convert Sources/Strata/Strata.docc --additional-symbol-graph-dir $(DOCS)/graphs \
	  --fallback-display-name Strata --fallback-bundle-identifier dev.strata.Strata \
	  --output-path $(DOCS)/Strata.doccarchive --warnings-as-errors
	@echo "docs: $(DOCS)/Strata.doccarchive"

## format: rewrite sources with the toolchain's swift format and .swift-format
format:
	$(SWIFT) format --in-place --recursive --parallel $(SOURCES)

## lint: check formatting and the style rules without changing files
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SOURCES)

clean:
	rm -rf .build .build-outside .build-api
