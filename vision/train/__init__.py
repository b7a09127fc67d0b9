"""Training the die-face classifier on rendered dice (optional extra: pip install .[train]).

Run `python -m vision.train --help`. TensorFlow is imported only by vision.train.model.
"""
