# Kestrel: `make run` starts the product, `make test` runs every test.
SHELL := /bin/bash
GO_FILES := $(shell find . -name '*.go' -not -path './web/node_modules/*' -not -path './e2e/node_modules/*')
# node_modules can hold stray Go files; they are not ours.
GO_PKGS = $(shell go list ./... | grep -v /node_modules/)
WEB_SRC := $(shell find web/src web/public web/index.html web/vite.config.ts web/package.json -type f 2>/dev/null)
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
BUILD_TIME ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.buildTime=$(BUILD_TIME)

.PHONY: run build test test-go test-fuzz test-web test-e2e lint vulncheck bench clean

## run: install front-end packages, build the app and the binary, serve on 127.0.0.1:8080
run: build
	./bin/kestrel serve

## build: the web app (web/dist) embedded into bin/kestrel
build: bin/kestrel

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

e2e/node_modules/.package-lock.json: e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SRC)
	cd web && npm run build

bin/kestrel: web/dist/index.html $(GO_FILES) go.mod go.sum
	# Static (no cgo: the standard library's pure-Go resolver and user lookup): no dynamic loader at start.
	CGO_ENABLED=0 go build -trimpath -ldflags "$(LDFLAGS)" -o bin/kestrel ./cmd/kestrel

# The fake Coinbase exchange the end-to-end tests run the binary against.
bin/coinbasefake: $(GO_FILES) go.mod go.sum
	go build -trimpath -o bin/coinbasefake ./exchange/coinbase/coinbasefake/cmd/coinbasefake

## test: lint, Go tests (SQLite and PostgreSQL), bounded fuzzing, front-end unit tests, end-to-end browser tests
# The fake OpenAI-compatible model (a configurable delay per answer) for live-model backtests.
bin/aifake: $(GO_FILES) go.mod go.sum
	go build -trimpath -o bin/aifake ./ai/aifake/cmd/aifake

test: lint test-go test-fuzz test-web test-e2e

# Packages with concurrency (engine loop, sandbox, strategies, hub, gateway, ops loops, cluster forwarding, jobs runner) also run under the race detector.
RACE_PKGS := ./exchange/... ./trading/... ./strategy/... ./httpapi/ws/... ./events/... ./ops/... ./cluster/... ./jobs/...

# The cluster package starts real instances in a dozen fault tests (about 9 minutes on a loaded
# 2-core machine) and app starts a whole server in each of several hundred (14-15 minutes while
# other packages run), both past go test's default 10-minute limit per package.
# .ci/services says, before and after, whether the PostgreSQL and NATS servers answer: tests that
# need an absent one skip, and a passing package hides its skips. In CI an absent one fails the run.
test-go: web/dist/index.html
	@.ci/services
	go test -count=1 -timeout 30m $(GO_PKGS)
	go test -race -count=1 -timeout 20m $(RACE_PKGS)
	@.ci/services

## test-fuzz: every Go fuzz target (found by name) for FUZZTIME each (FUZZTIME_HTTP for the
## FuzzHTTP* targets, which start a whole server per worker first); seeds and the committed corpora
## (testdata/fuzz) also run as plain tests in test-go. Longer runs: docs/RELIABILITY.md.
## Go before 1.27 can fail a duration-bounded target with a bare "context deadline exceeded" when
## its time runs out (a race in the fuzzing coordinator, go.dev/issue/75804): such a run, which
## wrote no failing input, is run again, up to three times. Execution counts (-fuzztime Nx) avoid
## the race but take as long as the machine needs: minutes for the slower targets when it is loaded.
FUZZTIME ?= 3s
FUZZTIME_HTTP ?= 8s
test-fuzz: web/dist/index.html
	@targets=$$(go test -list '^Fuzz' $(GO_PKGS) | awk '/^Fuzz/{n[++c]=$$1} /^ok /{for(i=1;i<=c;i++) print $$2 ":" n[i]; c=0}'); \
	[ -n "$$targets" ] || { echo "test-fuzz: no fuzz targets found"; exit 1; }; \
	log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	for t in $$targets; do \
	  name=$${t#*:}; ft=$(FUZZTIME); case $$name in FuzzHTTP*) ft=$(FUZZTIME_HTTP);; esac; \
	  for try in 1 2 3; do \
	    if go test -run '^$$' -fuzz "^$$name\$$" -fuzztime $$ft "$${t%%:*}" >"$$log" 2>&1; then break; fi; \
	    if [ $$try -lt 3 ] && grep -q 'context deadline exceeded' "$$log" && ! grep -q 'Failing input written to' "$$log"; then \
	      echo "fuzz $$t: the coordinator's deadline race (no failing input); again"; continue; fi; \
	    cat "$$log"; exit 1; \
	  done; \
	  echo "fuzz $$t ($$ft): $$(grep -oE 'execs: [0-9]+' "$$log" | tail -1)"; \
	done

test-web: web/node_modules/.package-lock.json
	cd web && npm test

test-e2e: bin/kestrel bin/coinbasefake bin/aifake e2e/node_modules/.package-lock.json
	rm -rf e2e/answers
	cd e2e && KESTREL_E2E_ANSWERS=$(CURDIR)/e2e/answers npm test
	KESTREL_E2E_ANSWERS=$(CURDIR)/e2e/answers go test -count=1 -run TestRecordedAnswers -v ./httpapi/openapi/openapitest/

# Pinned analysers, fetched from the Go module registry on first use and cached.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOVULNCHECK := golang.org/x/vuln/cmd/govulncheck@v1.9.0

## lint: gofmt, go vet, staticcheck, TypeScript strict, ESLint
lint: web/dist/index.html
	@out=$$(gofmt -l $(GO_FILES)); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	go vet $(GO_PKGS)
	go run $(STATICCHECK) $(GO_PKGS)
	cd web && npm run typecheck && npm run lint

## vulncheck: govulncheck; it needs the Go vulnerability database, online by default, so it is
## not part of lint; VULNDB=file:///dir points it at a local copy (docs/RELIABILITY.md)
VULNDB ?=
vulncheck:
	go run $(GOVULNCHECK) $(if $(VULNDB),-db $(VULNDB)) $(GO_PKGS)

## bench: Go benchmarks (figures go into docs/PERFORMANCE.md)
bench:
	go test -run '^$$' -bench . -benchmem $(GO_PKGS)

clean:
	rm -rf bin web/dist
