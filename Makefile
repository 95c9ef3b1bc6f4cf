# jfi — `make` sets up and runs the main job on the bundled example; `make test` runs the suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
JFI := $(VENV)/bin/jfi
EXAMPLE := corpus/example-project
SITE := corpus/example-site
EXPORTS := exports

.PHONY: all run test bench clean report-screenshot format

all: run

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	$(COMPILE)
	touch $@

# jfi's own modules compiled ahead: where PYTHONDONTWRITEBYTECODE is set, every command would compile them anew (about
# 0.06 s a command); a module changed since is compiled again by the next `make test` or `make bench`
COMPILE = $(PY) -m compileall -q jfi >/dev/null

# Chromium for Playwright: Playwright's own download where it can reach it, else Debian's package.
$(VENV)/.browser: $(VENV)/.installed
	@$(PY) -m jfi.browser >/dev/null 2>&1 || $(PY) -m playwright install chromium >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null && { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } ; } || true
	@$(PY) -m jfi.browser
	touch $@

# The main job is a chain of file targets: each output depends on the inputs it reads (and the rulebook, sql/), so
# a second `make` runs no jfi command, a changed input reruns only what reads it, and `make -n` says what would run.
A := $(EXPORTS)/audit
RULES := $(shell find sql -name '*.sql')
TOOL := $(VENV)/.installed $(VENV)/.browser
SITE_FILES := $(SITE)/views.txt $(wildcard $(SITE)/*.html $(SITE)/img/* $(SITE)/files/*)
JUDGED := $(A)/batches/harbor-title-01.judged.jsonl
LEDGER := $(A)/ratifications.jsonl
DECIDED := $(A)/judgment-units.json $(JUDGED) $(LEDGER) $(wildcard $(A)/spot-checks.jsonl $(A)/standards.jsonl) $(RULES)

run: $(EXPORTS)/jfi.duckdb $(A)/judgment-rubric.md $(A)/spot-check-sample.jsonl $(A)/receipts.csv $(A)/eval.md $(A)/report.html
	@echo "Look at $(A)/report.html (open it in a browser), $(A)/draft-judgments.xlsx and $(A)/worklist.md"

# Validate exits 1 while the example corpus is short of its goal: that is a report, not a failure.
$(EXPORTS)/jfi.duckdb: $(shell find $(EXAMPLE) -type f) $(RULES) | $(TOOL)
	$(JFI) --project $(EXAMPLE) corpus validate; status=$$?; test $$status -le 1
	$(JFI) --project $(EXAMPLE) corpus export --out $(CURDIR)/$(EXPORTS)

$(A)/inventory.jsonl: $(SITE_FILES) | $(TOOL)
	$(JFI) audit inventory --urls-file $(SITE)/views.txt --serve $(SITE) --out $(A) --settle 300 --replace

$(A)/audit.toml: $(SITE)/audit.toml | $(A)/inventory.jsonl
	cp $< $@

$(A)/judgment-units.json: $(A)/inventory.jsonl $(A)/audit.toml $(RULES)
	$(JFI) audit build --inventory $(A)

$(A)/judgment-rubric.md: $(A)/judgment-units.json $(A)/audit.toml
	$(JFI) audit judge-kit --inventory $(A)

$(JUDGED): $(SITE)/returns/harbor-title-01.judged.jsonl | $(A)/judgment-units.json
	cp $< $@

$(LEDGER): $(SITE)/returns/ratifications.jsonl | $(A)/judgment-units.json
	cp $< $@

$(A)/spot-check-sample.jsonl: $(A)/judgment-units.json $(JUDGED) $(RULES)
	$(JFI) audit sample --inventory $(A)

$(A)/draft-judgments.json: $(DECIDED)
	$(JFI) audit merge --inventory $(A)

$(A)/worklist.md: $(DECIDED)
	$(JFI) audit worklist --inventory $(A)

$(A)/receipts.csv: $(DECIDED)
	$(JFI) audit receipts --inventory $(A)

# eval exits 1 while a tier is not promoted: a verdict, not a failure.
$(A)/eval.md: $(A)/judgment-units.json $(shell find $(SITE)/eval -type f) $(RULES)
	$(JFI) audit eval --inventory $(A) --expectations $(SITE)/eval/expectations.yaml \
	  --run example/1=$(SITE)/eval/runs/example-1 --run example/2=$(SITE)/eval/runs/example-2; status=$$?; test $$status -le 1

$(A)/report.html: $(DECIDED) $(A)/inventory.jsonl $(A)/draft-judgments.json $(A)/worklist.md
	$(JFI) audit report --inventory $(A)

# The README's picture of the report, taken by Chromium from the bundled example.
report-screenshot: $(A)/report.html
	$(JFI) audit report --inventory $(EXPORTS)/audit --screenshot docs/report.png

# DuckDB 1.4 LTS in an environment of its own: the tests open the exported .duckdb stores with it
$(VENV)/duckdb-1.4/.installed: | $(VENV)/.installed
	$(PYTHON) -m venv $(VENV)/duckdb-1.4
	$(VENV)/duckdb-1.4/bin/python -m pip install --quiet 'duckdb>=1.4,<1.5'
	touch $@

# Microsoft's SARIF Multitool from npm: the tests validate audit.sarif with its SARIF and GitHub rules
$(VENV)/sarif-multitool/.installed: | $(VENV)/.installed
	mkdir -p $(VENV)/sarif-multitool
	cd $(VENV)/sarif-multitool && npm install --silent --no-audit --no-fund @microsoft/sarif-multitool@5.7.0 >/dev/null
	touch $@

test: $(VENV)/.installed $(VENV)/.browser $(VENV)/duckdb-1.4/.installed $(VENV)/sarif-multitool/.installed
	$(COMPILE)
	$(PY) -m pytest -q -n 2 --dist loadscope --no-loadscope-reorder --durations=15

# Python as ruff lays it out (the suite checks it, and the SQL files' layout: tests/test_layout.py)
format: $(VENV)/.installed
	$(PY) -m ruff format jfi tests
	$(PY) -m ruff check --fix jfi tests

bench: $(VENV)/.installed $(VENV)/.browser
	$(COMPILE)
	$(PY) -m jfi.bench

clean:
	rm -rf $(VENV) $(EXPORTS)
