"""The rulebook holds language and layout, never an edition: no name, card text or amount
of any spec in its Python, and no amount in its phrase tables (they say {money_salary}, not 4000)."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULEBOOK = REPO / "rulebook"
# The board's layout constants (module-level, upper case, in board.py) are SVG sizes, not amounts.
LAYOUT = re.compile(r"^[A-Z_]+ = ")


def edition_facts():
    """The same facts tests/test_editions.py forbids in the engine (loaded from it, not copied)."""
    spec = importlib.util.spec_from_file_location("editions_facts", REPO / "tests" / "test_editions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._edition_facts()


def test_no_edition_fact_in_the_rulebook():
    texts, ints = edition_facts()
    number = re.compile(r"(?<![\d.#])\b\d[\d_]*\b(?!\.\d)")
    hits = []
    for path in sorted(RULEBOOK.rglob("*.py")) + sorted(RULEBOOK.rglob("*.yaml")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(REPO)}:{lineno}: {line.strip()}"
            if path.name == "board.py" and LAYOUT.match(line):
                continue
            if path.suffix == ".py":
                hits += [f"{where} ({name!r})" for name in texts
                         if re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", line)]
            hits += [f"{where} ({m.group(0)})" for m in number.finditer(line)
                     if int(m.group(0).replace("_", "")) in ints]
    assert not hits, "edition facts in the rulebook:\n" + "\n".join(hits)
