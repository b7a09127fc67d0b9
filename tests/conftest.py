import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the test-only race game
os.environ.setdefault("KIVY_NO_ARGS", "1")
