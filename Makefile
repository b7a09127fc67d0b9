# Two commands for a newcomer: `make run` and `make test`. Both set themselves up first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# On a Raspberry Pi, picamera2 comes from apt: the venv must see system site packages.
VENV_FLAGS := $(shell test -f /etc/rpi-issue && echo --system-site-packages)

.PHONY: setup run test fuzz pi-check bench train train-classifier train-embedding clean-venv

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

# The property tests of every reader (store on damaged files, game logs, state files, board
# corrections, config, images, checked reads, checked photos), run far longer than in `make test`: FUZZ_EXAMPLES inputs each
# (images a fifth of that). Ends with the table of bad inputs per interface and how they ended.
FUZZ_EXAMPLES ?= 3000
FUZZ_TESTS := tests/test_store_fuzz.py tests/engine/test_log_fuzz.py \
  tests/engine/centerville/test_statefile_fuzz.py tests/engine/centerville/test_statefile_properties.py \
  tests/hardware/test_config_fuzz.py tests/vision/test_image_fuzz.py tests/vision/test_checked_reads_fuzz.py \
  tests/test_checked_photos_fuzz.py tests/test_waiting_rolls_fuzz.py
fuzz: $(STAMP)
	COMPANION_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -p no:randomly $(FUZZ_TESTS) $(PYTEST_ARGS)

# The project on the Pi's architecture under emulation (needs root; not part of `make test`):
# an arm64 Bookworm root cached in PI_ROOT (default /work/pi-root), the engine and vision tests
# there, and `python -m vision read` on the shared real photos compared with this machine's.
pi-check: $(STAMP)
	tools/pi-check

bench: $(STAMP)
	tools/with-display $(PY) bench/run_all.py

# Retrain the dice detector from scratch (optional: TensorFlow CPU in its own venv, never needed
# by the app; about 75 minutes on 2 cores, niced so other work on the machine still runs).
# TRAIN_ARGS=--resume continues a stopped run; TRAIN_ARGS="--init models/dice_detector.weights.h5
# --steps 1500" fine-tunes the shipped one. `make train-classifier` retrains the crop classifier (dice_faces.tflite).
train: .venv-train/.installed-stamp
	nice -n 10 .venv-train/bin/python -m vision.train.learn_detector $(TRAIN_ARGS)

train-classifier: .venv-train/.installed-stamp
	.venv-train/bin/python -m vision.train $(TRAIN_ARGS)

# Retrain the few-shot face embedding of taught dice (about 75 minutes on 2 cores; stopped,
# `make train-embedding TRAIN_ARGS=--resume` continues). Alone it makes session 20's recipe; the
# shipped models/dice_embedding.tflite is its second stage (TRAIN_ARGS in models/EMBEDDING_CARD.md,
# "Data and recipe": --init models/candidates/embedding-r9 --width 24 --symbol-sets 1200 ...; the rounds that made
# it: models/EMBEDDING_ROUNDS.md, "Round 14" and "Round 15").
train-embedding: .venv-train/.installed-stamp
	nice -n 10 .venv-train/bin/python -m vision.train.learn_embedding $(TRAIN_ARGS)

.venv-train/.installed-stamp: pyproject.toml
	@test -x .venv-train/bin/python || $(PYTHON) -m venv .venv-train
	.venv-train/bin/python -m pip install --quiet -e '.[train,test]'
	@touch $@

clean-venv:
	rm -rf $(VENV)
