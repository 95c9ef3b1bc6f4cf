# jfi — `make` sets up and runs the main job on the bundled example; `make test` runs the suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
JFI := $(VENV)/bin/jfi
EXAMPLE := corpus/example-project
EXPORTS := exports

.PHONY: all run test bench clean

all: run

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

# Validate exits 1 while the example corpus is short of its goal: that is a report, not a failure.
run: $(VENV)/.installed
	$(JFI) --project $(EXAMPLE) corpus validate; status=$$?; test $$status -le 1
	$(JFI) --project $(EXAMPLE) corpus export --out $(CURDIR)/$(EXPORTS)

test: $(VENV)/.installed
	$(PY) -m pytest -q

bench: $(VENV)/.installed
	$(PY) -m jfi.bench

clean:
	rm -rf $(VENV) $(EXPORTS)
