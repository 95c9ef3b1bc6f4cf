# jfi — `make` sets up and runs the main job on the bundled example; `make test` runs the suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
JFI := $(VENV)/bin/jfi
EXAMPLE := corpus/example-project
SITE := corpus/example-site
EXPORTS := exports

.PHONY: all run test bench clean report-screenshot

all: run

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

# Chromium for Playwright: Playwright's own download where it can reach it, else Debian's package.
$(VENV)/.browser: $(VENV)/.installed
	@$(PY) -m jfi.browser >/dev/null 2>&1 || $(PY) -m playwright install chromium >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null && { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } ; } || true
	@$(PY) -m jfi.browser
	touch $@

# Validate exits 1 while the example corpus is short of its goal: that is a report, not a failure.
run: $(VENV)/.installed $(VENV)/.browser
	$(JFI) --project $(EXAMPLE) corpus validate; status=$$?; test $$status -le 1
	$(JFI) --project $(EXAMPLE) corpus export --out $(CURDIR)/$(EXPORTS)
	$(JFI) audit inventory --urls-file $(SITE)/views.txt --serve $(SITE) --out $(EXPORTS)/audit --settle 300 --replace
	cp $(SITE)/audit.toml $(EXPORTS)/audit/audit.toml
	$(JFI) audit build --inventory $(EXPORTS)/audit
	$(JFI) audit judge-kit --inventory $(EXPORTS)/audit
	cp $(SITE)/returns/harbor-title-01.judged.jsonl $(EXPORTS)/audit/batches/
	cp $(SITE)/returns/ratifications.jsonl $(EXPORTS)/audit/ratifications.jsonl
	$(JFI) audit sample --inventory $(EXPORTS)/audit
	$(JFI) audit merge --inventory $(EXPORTS)/audit
	$(JFI) audit worklist --inventory $(EXPORTS)/audit
	$(JFI) audit receipts --inventory $(EXPORTS)/audit
	$(JFI) audit eval --inventory $(EXPORTS)/audit --expectations $(SITE)/eval/expectations.yaml \
	  --run example/1=$(SITE)/eval/runs/example-1 --run example/2=$(SITE)/eval/runs/example-2; status=$$?; test $$status -le 1
	$(JFI) audit report --inventory $(EXPORTS)/audit
	@echo "Look at $(EXPORTS)/audit/report.html (open it in a browser), $(EXPORTS)/audit/draft-judgments.xlsx and $(EXPORTS)/audit/worklist.md"

# The README's picture of the report, taken by Chromium from the bundled example.
report-screenshot: run
	$(JFI) audit report --inventory $(EXPORTS)/audit --screenshot docs/report.png

test: $(VENV)/.installed $(VENV)/.browser
	$(PY) -m pytest -q -n 2

bench: $(VENV)/.installed $(VENV)/.browser
	$(PY) -m jfi.bench

clean:
	rm -rf $(VENV) $(EXPORTS)
