"""The house plan's structure: a package's __init__ only re-exports, and no module of the app
imports a module that imports it back (the import circles a third game would make worse)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    """The project modules `path` imports, at any depth (function-level imports included)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0]
        base = package
    else:
        base = package.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")
                prefix = ".".join(parts[:len(parts) - node.level + 1])
                module = f"{prefix}.{node.module}" if node.module else prefix
            else:
                module = node.module or ""
            found.add(module)
            found |= {f"{module}.{a.name}" for a in node.names}
    return {m for m in found if m.split(".")[0] in ("companion", "vision", "hardware")}


def _modules() -> dict[str, Path]:
    out = {}
    for top in ("companion", "vision", "hardware"):
        for path in (ROOT / top).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def test_the_table_package_init_holds_nothing_but_imports():
    tree = ast.parse((ROOT / "companion/table/__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        all_list = isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__all__"]
        assert isinstance(node, (ast.Import, ast.ImportFrom)) or docstring or all_list, (
            f"companion/table/__init__.py line {node.lineno}: {type(node).__name__} is logic; "
            "it belongs in a module of the package")


def test_no_import_circle_in_the_ui():
    modules = _modules()
    graph = {name: {m for m in _imports(path) if m in modules and m != name}
             for name, path in modules.items() if name.startswith("companion.ui")}

    def reaches(start: str, goal: str, seen: set) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                if reaches(nxt, goal, seen):
                    return True
        return False

    circles = sorted(f"{a} -> {b}" for a in graph for b in graph[a]
                     if not b.startswith(a + ".") and not a.startswith(b + ".") and reaches(b, a, set()))
    assert not circles, "import circles: " + "; ".join(circles)
