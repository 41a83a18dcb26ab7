PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
STAMP_NOTEBOOK := $(VENV)/.installed-notebook
SAMPLE := data/botzone/sample.txt
DATASET := data/datasets/main

.PHONY: report notebooks test test-all lint bench clean venv dev samples

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[report]'
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,report]'
	touch $@ $(STAMP_RUN)

$(STAMP_NOTEBOOK): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[report,notebook]'
	touch $@ $(STAMP_RUN)

venv: $(STAMP_RUN)
dev: $(STAMP_DEV)

## The main job: every stage that exists, on the bundled sample data.
report: $(STAMP_RUN)
	$(BIN)/mjstats ingest --format botzone $(SAMPLE) --out $(DATASET)
	$(BIN)/mjstats ingest --format canonical data/sim/guobiao.jsonl.gz data/sim/fuzhou.jsonl.gz data/sim/sichuan.jsonl.gz --out $(DATASET)
	$(BIN)/mjstats ingest -q data/real --out $(DATASET)
	$(BIN)/mjstats audit -q $(DATASET)
	$(BIN)/mjstats decisions -q $(DATASET)
	$(BIN)/mjstats report $(DATASET) --all-periods --out reports -q

## JupyterLab on notebooks/ (the notebook extra installed into .venv); the notebooks read the
## dataset the main job builds, so it runs first when that dataset is missing. Not run by tests.
notebooks: $(STAMP_NOTEBOOK)
	test -f $(DATASET)/CURRENT || $(MAKE) report
	$(BIN)/jupyter lab --notebook-dir=notebooks

## Regenerate the bundled simulated samples (byte-identical for the same seed).
SIM_HANDS := 2000
samples: $(STAMP_RUN)
	for r in guobiao fuzhou sichuan; do $(BIN)/mjstats simulate --rules $$r --hands $(SIM_HANDS) --seed 1 --out data/sim/$$r.jsonl.gz --force -q; done

## The whole (fast) test suite, plus ruff.
test: $(STAMP_DEV)
	$(BIN)/ruff check mjstats tests bench
	$(BIN)/python -m pytest

## Everything, slow tests included.
test-all: $(STAMP_DEV)
	$(BIN)/python -m pytest -m ''

lint: $(STAMP_DEV)
	$(BIN)/ruff check mjstats tests bench

## Benchmarks (not part of the tests): each prints throughput and a ratio against a reference
## measured in the same run. Run them on an otherwise idle machine.
BENCHES := startup ingest canonical fans shanten fuzhou sichuan replay_fuzhou audit decisions simulate stats scale viewer
bench: $(STAMP_DEV)
	@for b in $(BENCHES); do echo "== bench/$$b.py"; $(BIN)/python bench/$$b.py || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
