"""ARCHITECTURE.md's boundaries: the engine is pure; vision and hardware never reach into the UI."""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_ENGINE = ("kivy", "cv2", "gpiozero", "serial", "picamera2", "sqlite3",
                       "companion.ui", "vision", "hardware", "random", "time", "datetime",
                       "os", "socket", "subprocess", "threading")


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def offending(paths, forbidden, allowed=()):
    bad = []
    for path in paths:
        for line, module in imported_modules(path):
            if any(module == f or module.startswith(f + ".") for f in forbidden) and module not in allowed:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return bad


def test_engine_source_imports_nothing_impure():
    # `random` is allowed only as a type for a Random handed in; the engine never calls the module.
    files = sorted((ROOT / "companion" / "engine").rglob("*.py"))
    assert files
    bad = offending(files, FORBIDDEN_IN_ENGINE)
    bad = [b for b in bad if not b.endswith("imports random")]  # checked below instead
    assert bad == []


def test_engine_never_uses_the_global_random():
    for path in sorted((ROOT / "companion" / "engine").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for call in ("random.random(", "random.randint(", "random.choice(", "random.shuffle(",
                     "random.sample(", "random.seed(", "random.uniform(", "random.randrange("):
            assert call not in text, f"{path.relative_to(ROOT)} calls the global {call}"


def test_importing_every_game_loads_no_forbidden_module():
    code = (
        "import sys\n"
        "from companion.engine import all_games\n"
        "games = all_games()\n"
        "import companion.engine.log, companion.engine.dice\n"
        "bad = [m for m in ('kivy', 'cv2', 'gpiozero', 'serial', 'picamera2', 'sqlite3', 'numpy')"
        " if m in sys.modules]\n"
        "print(len(games), bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_vision_and_hardware_never_import_the_ui():
    files = sorted((ROOT / "vision").rglob("*.py")) + sorted((ROOT / "hardware").rglob("*.py"))
    assert offending(files, ("companion.ui",)) == []


def test_only_model_imports_tflite_and_only_sources_imports_picamera2():
    everything = [p for top in ("companion", "vision", "hardware", "bench") for p in (ROOT / top).rglob("*.py")]
    tflite = offending([p for p in everything if p != ROOT / "vision" / "model.py"],
                       ("ai_edge_litert", "tflite_runtime", "tensorflow.lite"))
    # training (the optional extra) uses TensorFlow itself, not the interpreter runtime
    tflite = [b for b in tflite if not b.startswith("vision/train")]
    assert tflite == []
    assert offending([p for p in everything if p != ROOT / "vision" / "sources.py"], ("picamera2",)) == []
