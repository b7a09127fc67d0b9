# Two commands for a newcomer: `make run` and `make test`. Both set themselves up first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# On a Raspberry Pi, picamera2 comes from apt: the venv must see system site packages.
VENV_FLAGS := $(shell test -f /etc/rpi-issue && echo --system-site-packages)

.PHONY: setup run test bench train clean-venv

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "Python 3.11 or newer is needed (found: $$($(PYTHON) --version)). Set PYTHON=python3.11."; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/companion run

test: $(STAMP)
	tools/with-display $(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	tools/with-display $(PY) bench/run_all.py

# Retrain the dice model (optional: TensorFlow CPU in its own venv, never needed by the app).
train:
	@test -x .venv-train/bin/python || $(PYTHON) -m venv .venv-train
	.venv-train/bin/python -m pip install --quiet -e '.[train,test]'
	.venv-train/bin/python -m vision.train $(TRAIN_ARGS)

clean-venv:
	rm -rf $(VENV)
