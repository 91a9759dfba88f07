# medviz — two entry points (see README): `make lab` and `make test`.
# Needs only Python >= 3.11, pip and make. Everything goes into ./.venv.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.medviz-installed
MAIN_NOTEBOOK := notebooks/vespers-1282.ipynb
LAB_PORT ?= 8888
# JupyterLab refuses to run as root unless told; containers and CI often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: lab test setup bench classroom docs clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "medviz needs Python >= 3.11; found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lab,docs]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name 'Python 3 (medviz)' >/dev/null
	@touch $(STAMP)

setup: $(STAMP)

## Main job: JupyterLab on localhost, opened on the main notebook; prints its URL; no browser needed.
## Notebooks are saved without dead widget views (medviz/apps/saved.py): no "model not found" when reopened.
lab: $(STAMP)
	$(BIN)/python -m medviz.apps.saved $(MAIN_NOTEBOOK)
	$(BIN)/jupyter lab --no-browser $(ROOT_FLAG) --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) \
		--ServerApp.root_dir=$(CURDIR) --ContentsManager.pre_save_hook=medviz.apps.saved.drop_widget_views \
		$(MAIN_NOTEBOOK)

## The no-code classroom app (Voilà): the replay, the dice lab and the play table, no code cells.
## Listens on every interface so students on the school network can open it; CLASSROOM_IP=127.0.0.1
## keeps it to this machine. Kernels are started ahead (CLASSROOM_POOL) so a student's page opens fast.
CLASSROOM_IP ?= 0.0.0.0
CLASSROOM_PORT ?= 8866
CLASSROOM_POOL ?= 2
classroom: $(STAMP)
	@echo "Students open http://<this computer's address>:$(CLASSROOM_PORT)/ (this computer: $$(hostname -I 2>/dev/null || hostname))"
	JUPYTER_PATH=$(CURDIR)/classroom $(BIN)/voila notebooks/classroom.ipynb --template=medviz-classroom \
		--no-browser --Voila.ip=$(CLASSROOM_IP) --port=$(CLASSROOM_PORT) --preheat_kernel=True --pool_size=$(CLASSROOM_POOL)

## The documentation site, built offline into site/ (--strict: a broken link or a missing page fails).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "Built site/index.html (open it in a browser; it loads nothing from the network)"

## Whole test suite: unit, property, golden, notebooks (nbval), on TEST_WORKERS processes (pytest-xdist;
## --dist loadfile keeps each file, and so each notebook's kernel, on one worker). TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
test: $(STAMP)
	$(BIN)/python -m pytest --nbval-lax -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

## Benchmarks print rates and ratios measured side by side in one run.
bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis site .cache
