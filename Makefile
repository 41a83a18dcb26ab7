PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
STAMP_NOTEBOOK := $(VENV)/.installed-notebook
SAMPLE := data/botzone/sample.txt
DATASET := data/datasets/main

.PHONY: report notebooks test test-pure test-all test-compiled compiled lint bench clean venv dev samples

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

## The whole (fast) test suite, plus ruff, then the compiled build's tests. Property tests run
## derandomized (the `ci` hypothesis profile of tests/conftest.py); `pytest` by hand draws anew.
## Tests run in one process per core (pytest-xdist; a test file's tests stay in one process, so a
## module's fixtures are built once); `make test WORKERS=0` runs them in this one process.
## The compiled build is made while the pure tests run (its C compiler keeps one core busy for a
## minute or more), then its own tests run on it.
HYPOTHESIS := --hypothesis-profile=ci
WORKERS := auto
PARALLEL = $(if $(filter 0,$(WORKERS)),-p no:xdist,-n $(WORKERS) --dist loadfile)
test: $(STAMP_DEV)
	$(BIN)/ruff check mjstats tests bench
	@$(MAKE) --no-print-directory -j2 test-pure compiled
	$(MAKE) --no-print-directory test-compiled
test-pure: $(STAMP_DEV)
	$(BIN)/python -m pytest $(HYPOTHESIS) $(PARALLEL)

## The compiled build (docs/compiled.md): a copy of the package under build/compiled with the
## modules named by mjstats/compiled.py (the core's and each ruleset spec's `compiled`) compiled by mypyc;
## the source tree never holds a built module. The modules left as Python are byte-compiled in the
## build, as a wheel install does: a process started with PYTHONDONTWRITEBYTECODE (or on a
## read-only disk) would otherwise parse and compile them at every start (~0.1 s a command).
## Use it with PYTHONPATH=build/compiled (python -P keeps the source tree off sys.path).
## build/compiled is a symlink to a versioned folder, build/compiled-<UTC time>-<pid>: a rebuild
## compiles into a new one, then renames a new link over the old (atomic: a process importing
## meanwhile finds one build or the other, never none), then removes the versions that are
## neither the current one nor mapped by a running process (an extension loaded from it).
## The stamp .built is dated from before the copy: a file edited while building is newer, so
## the next `make compiled` builds again (the link makes the stamp visible only once built).
COMPILED := build/compiled
PACKAGE_FILES := $(shell find mjstats -type f ! -path '*/__pycache__/*')
## One build at a time: a second `make compiled` (or test-compiled, bench) waits on the lock, then
## finds the build made.
compiled: $(STAMP_DEV)
	@mkdir -p build
	@flock build/.compiled.lock $(MAKE) --no-print-directory $(COMPILED)/.built
$(COMPILED)/.built: $(STAMP_DEV) $(PACKAGE_FILES)
	@set -e; version=compiled-$$(date -u +%Y%m%dT%H%M%SZ)-$$$$; new=build/$$version; \
	echo "building $$new"; \
	rm -rf $(COMPILED).tmp $$new && mkdir -p $$new; \
	touch $$new/.built; \
	cp -r mjstats $$new/; \
	find $$new -name __pycache__ -prune -exec rm -rf {} +; \
	if ! (cd $$new && $(abspath $(BIN))/mypyc --follow-imports=silent --ignore-missing-imports \
		$$($(abspath $(BIN))/python -m mjstats.compiled) >build.log 2>&1); then \
		tail -30 $$new/build.log; mv $$new/build.log build/compiled-failed.log; rm -rf $$new; \
		echo "build failed (build/compiled-failed.log); $(COMPILED) is unchanged"; exit 1; \
	fi; \
	rm -rf $$new/build $$new/build.log build/compiled-failed.log; \
	$(abspath $(BIN))/python -m compileall -q -j0 $$new/mjstats >/dev/null; \
	if [ -d $(COMPILED) ] && [ ! -L $(COMPILED) ]; then mv $(COMPILED) build/compiled-unversioned-$$$$; fi; \
	ln -s $$version $(COMPILED).next && mv -T $(COMPILED).next $(COMPILED); \
	for old in build/compiled-*; do \
		[ -d "$$old" ] && [ "$$old" != "$$new" ] || continue; \
		if grep -qsF "$$(cd "$$old" && pwd -P)/" /proc/[0-9]*/maps; then echo "kept $$old: in use"; \
		else rm -rf "$$old"; fi; \
	done; \
	echo "$(COMPILED) -> $$version"
## A run that must keep one build throughout resolves the link once, at its start.
COMPILED_NOW = $$(readlink -f $(COMPILED))

## The tests of the compiled modules, run on the compiled build (it must be the one imported).
COMPILED_TESTS := tests/test_guobiao_fans.py tests/test_guobiao_differential.py tests/test_guobiao_seeds.py \
	tests/test_sichuan_settle.py tests/test_sichuan_settle_variants.py tests/test_sichuan_fan.py \
	tests/test_sichuan_win.py tests/test_sichuan_speed.py tests/test_compiled.py \
	tests/test_replay_checks.py tests/test_replay_faults.py tests/test_replay_fuzhou.py tests/test_replay_golden.py \
	tests/test_replay_last_tile.py tests/test_replay_oracle.py tests/test_replay_simulated.py \
	tests/test_audit_dataset.py tests/test_audit_tables_pinned.py tests/test_decisions.py tests/test_decision_speed.py \
	tests/test_decisions_sichuan.py tests/test_decisions_compiled.py tests/test_sichuan_replay.py tests/test_sichuan_plain_run.py \
	tests/test_sichuan_cli.py tests/test_sichuan_profiles.py tests/test_store.py tests/test_multiwin.py \
	tests/test_store_readback.py tests/test_replay_walls.py tests/test_event_columns.py \
	tests/test_guobiao_waits.py tests/test_guobiao_waits_oracle.py tests/test_decisions_pinned.py \
	tests/test_guobiao_fans_pinned.py tests/test_slot_setters.py tests/test_decision_legal_wins.py \
	tests/test_decision_judge_parts.py
test-compiled: compiled
	MJSTATS_REQUIRE_COMPILED=1 PYTHONSAFEPATH=1 PYTHONPATH=$(COMPILED_NOW):$(CURDIR) $(BIN)/python -P -m pytest \
		--import-mode=append -p no:cacheprovider $(HYPOTHESIS) $(PARALLEL) $(COMPILED_TESTS)

## Everything, slow tests included.
test-all: $(STAMP_DEV)
	$(BIN)/python -m pytest $(HYPOTHESIS) $(PARALLEL) -m ''

lint: $(STAMP_DEV)
	$(BIN)/ruff check mjstats tests bench

## Benchmarks (not part of the tests): each prints throughput and a ratio against a reference
## measured in the same run. Run them on an otherwise idle machine.
BENCHES := startup ingest canonical fans shanten fuzhou sichuan replay_fuzhou audit decisions simulate stats scale viewer
## Those of COMPILED_BENCHES run again on the compiled build (make compiled), each naming its build.
COMPILED_BENCHES := fans audit sichuan decisions worker_threshold
bench: $(STAMP_DEV) compiled
	@for b in $(BENCHES); do echo "== bench/$$b.py"; $(BIN)/python bench/$$b.py || exit 1; done
	@for b in $(COMPILED_BENCHES); do echo "== bench/$$b.py (compiled build)"; \
		PYTHONPATH=$(COMPILED_NOW) $(BIN)/python -P bench/$$b.py || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
