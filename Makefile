# Every target creates .venv and installs bolib on first use (and again when pyproject.toml or
# requirements.lock changes), with the exact versions pinned in requirements.lock.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PROFILE ?= quick

# `make lock` regenerates requirements.lock from pyproject.toml (dependencies + the dev extra) with uv,
# installed in its own scratch venv (not into .venv's runtime packages). Pins already in the lock are
# kept where pyproject.toml still allows them; `make lock LOCK_ARGS=--upgrade` moves all to the newest.
LOCK        := requirements.lock
LOCK_VENV   := $(VENV)/.lock-tools
UV_VERSION  := 0.13.9
LOCK_PYTHON := 3.11.7
LOCK_ARGS   ?=

export OMP_NUM_THREADS := 1
export OPENBLAS_NUM_THREADS := 1
export MKL_NUM_THREADS := 1

.PHONY: install dragonfly-env browser lock reproduce test test-fast lab bench clean-smoke

install: $(STAMP)

# dragonfly-opt 0.1.7 (paper 002's external reference, bolib.algorithms.dragonfly_add_ucb) needs numpy < 1.24
# and builds with numpy.distutils, so it gets its own environment: the pins of requirements-dragonfly.txt
# first, then dragonfly-opt without build isolation so that it builds against them.
DRAGONFLY_VENV  := .venv-dragonfly
DRAGONFLY_STAMP := $(DRAGONFLY_VENV)/.installed

dragonfly-env: $(DRAGONFLY_STAMP)

$(DRAGONFLY_STAMP): requirements-dragonfly.txt
	$(PYTHON) -m venv $(DRAGONFLY_VENV)
	$(DRAGONFLY_VENV)/bin/python -m pip install --quiet -r requirements-dragonfly.txt
	$(DRAGONFLY_VENV)/bin/python -m pip install --quiet --no-deps --no-build-isolation dragonfly-opt==0.1.7
	$(DRAGONFLY_VENV)/bin/python -m pip check
	touch $(DRAGONFLY_STAMP)

$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r $(LOCK)
	$(PY) -m pip install --quiet -e . --no-deps
	$(PY) -m pip check
	$(PY) -m bolib kernel >/dev/null
	touch $(STAMP)

# torch resolves against the local CPU wheel (torch-2.13.0+cpu in /opt/wheels, which pip also finds through
# its global find-links); --upgrade-package torch stops the old pin from steering uv to the CUDA build on
# PyPI. The lock records it as torch==2.13.0, the same as pyproject.toml, and must hold no CUDA package.
lock:
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet uv==$(UV_VERSION)
	if [ -f $(LOCK) ]; then cp $(LOCK) $(LOCK_VENV)/lock.txt; else rm -f $(LOCK_VENV)/lock.txt; fi
	$(LOCK_VENV)/bin/uv pip compile pyproject.toml --extra dev \
	    --python-version $(LOCK_PYTHON) --python-platform x86_64-manylinux_2_28 \
	    --find-links /opt/wheels --upgrade-package torch --no-header $(LOCK_ARGS) \
	    --output-file $(LOCK_VENV)/lock.txt
	sed -i -E 's/^torch==([^+ ]+)\+cpu$$/torch==\1/' $(LOCK_VENV)/lock.txt
	if grep -inE '^(nvidia|cuda|triton)' $(LOCK_VENV)/lock.txt; then echo "CUDA packages in the lock" >&2; exit 1; fi
	{ printf '%s\n' \
	    '# Exact versions of every runtime and dev dependency of bolib (transitively), for Python $(LOCK_PYTHON)' \
	    '# on linux x86_64. Generated from pyproject.toml (dependencies + the dev extra) by `make lock`:' \
	    '#   uv $(UV_VERSION): uv pip compile pyproject.toml --extra dev --python-version $(LOCK_PYTHON)' \
	    '#     --python-platform x86_64-manylinux_2_28 --find-links /opt/wheels --upgrade-package torch' \
	    '#   then torch==2.13.0+cpu is written as torch==2.13.0 (pip takes the CPU wheel from /opt/wheels).' \
	    '# Regenerate: make lock (keeps current pins where allowed); make lock LOCK_ARGS=--upgrade (newest).' \
	    '# Install: pip install -r requirements.lock && pip install -e . --no-deps (what make install does).' \
	    '# tests/test_packaging.py checks it against pyproject.toml and environment.yml.' ''; \
	  cat $(LOCK_VENV)/lock.txt; } > $(LOCK)

reproduce: $(STAMP) $(DRAGONFLY_STAMP)
	$(PY) -m bolib reproduce --profile $(PROFILE)

# The report (experiments/<run>/report.html) is checked in a real headless browser: Chromium from Debian's
# packages, installed when missing (as root, or through sudo).
browser:
	@command -v chromium >/dev/null || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

test: $(STAMP) $(DRAGONFLY_STAMP) browser
	$(PY) -m pytest

test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow" -n 2

lab: $(STAMP)
	$(PY) -m bolib kernel >/dev/null
	$(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/

bench: $(STAMP)
	$(PY) -m bolib bench
