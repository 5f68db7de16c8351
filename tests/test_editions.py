"""The bundled classic editions: their data against the reference files, and the
principle that no edition fact lives in Python.

The reference data (`tests/reference/*.yaml`, public board data with its sources) is in
the repository, so a fresh clone checks the editions against it.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import spec

yaml = pytest.importorskip("yaml", reason="PyYAML is needed to read the reference files")
grammar = pytest.importorskip("grammar", reason="the compiler (grammar package) is not installed")

REPO = Path(__file__).resolve().parents[1]
REFERENCE = Path(__file__).resolve().parent / "reference"     # public board data (its README says whence)

CONCRETE_CLASSIC = ["classic-us", "classic-se", "classic-nl"]


# ---- helpers ------------------------------------------------------------------------

def _is_abstract(path: Path) -> bool:
    """True when the file declares `abstract edition ...` (it cannot be played)."""
    text = path.read_text(encoding="utf-8")
    return re.search(r"^\s*abstract\s+edition\b", text, re.MULTILINE) is not None


def _compile(path: Path) -> dict:
    """Compile a spec to its IR as plain data."""
    ir = grammar.compile_file(str(path))
    if isinstance(ir, (str, bytes)):
        ir = json.loads(ir)
    elif not isinstance(ir, dict) and hasattr(ir, "to_dict"):
        ir = ir.to_dict()
    assert isinstance(ir, dict), f"compile_file({path.name}) returned {type(ir).__name__}, not the IR dict"
    return ir


_IR_CACHE: dict[str, dict] = {}


def compiled(edition: str) -> dict:
    """The IR of a bundled edition, compiled once per test session."""
    if edition not in _IR_CACHE:
        paths = spec.bundled()
        assert edition in paths, f"no bundled spec {edition}.rules in {spec.SPEC_DIR}"
        _IR_CACHE[edition] = _compile(paths[edition])
    return _IR_CACHE[edition]


def reference(edition: str) -> dict:
    """The reference YAML of an edition."""
    return yaml.safe_load((REFERENCE / f"{edition}.yaml").read_text(encoding="utf-8"))


def _squares_by_index(ir: dict) -> dict[int, dict]:
    return {sq["index"]: sq for sq in ir["squares"]}


# ---- (a) deed data against the reference files ---------------------------------------

def test_classic_us_deeds_match_reference():
    """Board data rule: every US deed amount (price, mortgage, house cost, rents) is the
    one in tests/reference/classic-us.yaml; station rents are its railroad_rent, utility
    multipliers its utility_multiplier."""
    ref = reference("classic-us")
    squares = _squares_by_index(compiled("classic-us"))
    problems = []
    for rsq in ref["squares"]:
        sq = squares.get(rsq["index"])
        if sq is None:
            problems.append(f"square {rsq['index']} missing")
            continue
        if sq["name"] != rsq["name"] and rsq["kind"] in ("street", "railroad", "utility"):
            problems.append(f"square {rsq['index']}: name {sq['name']!r} != reference {rsq['name']!r}")
        if rsq["kind"] not in ("street", "railroad", "utility"):
            continue
        deed = sq.get("deed")
        if not deed:
            problems.append(f"square {rsq['index']} {rsq['name']}: no deed")
            continue
        expected = {"price": rsq["price"], "mortgage": rsq["mortgage"]}
        if rsq["kind"] == "street":
            expected["house_cost"] = rsq["house_cost"]
            expected["rent"] = rsq["rent"]
        elif rsq["kind"] == "railroad":
            expected["rent"] = ref["rules"]["railroad_rent"]
        else:
            expected["rent"] = ref["rules"]["utility_multiplier"]
        for key, want in expected.items():
            if deed.get(key) != want:
                problems.append(f"{rsq['name']}: {key} {deed.get(key)!r} != reference {want!r}")
    assert not problems, "classic-us deeds differ from the reference:\n" + "\n".join(problems)


@pytest.mark.parametrize("edition", ["classic-se", "classic-nl"])
def test_names_and_prices_match_reference(edition):
    """Board data rule: every square name of the SE and NL boards, and every deed price,
    is the one in the edition's reference file (the names and prices are its solid part)."""
    ref = reference(edition)
    squares = _squares_by_index(compiled(edition))
    problems = []
    for rsq in ref["squares"]:
        sq = squares.get(rsq["index"])
        if sq is None:
            problems.append(f"square {rsq['index']} missing")
            continue
        if sq["name"] != rsq["name"]:
            problems.append(f"square {rsq['index']}: name {sq['name']!r} != reference {rsq['name']!r}")
        if "price" in rsq:
            price = (sq.get("deed") or {}).get("price")
            if price != rsq["price"]:
                problems.append(f"{rsq['name']}: price {price!r} != reference {rsq['price']!r}")
    assert not problems, f"{edition} differs from the reference:\n" + "\n".join(problems)


@pytest.mark.parametrize("edition", CONCRETE_CLASSIC)
def test_money_rules_match_reference(edition):
    """§2 money rows: start money, GO salary, jail fine and the utility multipliers are
    the rule-book figures the reference file repeats."""
    rules = reference(edition)["rules"]
    ir = compiled(edition)
    settings = ir["settings"]
    assert settings["money"]["start"] == rules["start_money"]
    assert settings["money"]["salary"] == rules["go_salary"]
    assert settings["jail"]["fine"] == rules["jail_fine"]
    notes = settings["money"]["notes"]
    assert sum(n["count"] * n["value"] for n in notes) == settings["money"]["start"], \
        "the starting notes must add up to the start money"
    for sq in ir["squares"]:
        if sq["kind"] == "utility":
            assert sq["deed"]["rent"] == rules["utility_multiplier"], sq["name"]


# ---- (b) every bundled concrete edition compiles ------------------------------------

def _concrete_bundled() -> list[str]:
    return [name for name, path in spec.bundled().items() if not _is_abstract(path)]


@pytest.mark.parametrize("edition", _concrete_bundled())
def test_bundled_edition_compiles(edition):
    """Language rule: a concrete edition compiles, with every contested rule decided, a
    40-square board (classic family) and the decks its board draws from."""
    ir = compiled(edition)
    assert ir["edition"]["key"] == edition
    for decision in ir.get("decisions", []):
        assert decision.get("choice") in decision.get("options", []), decision
    if "classic" in ir["edition"].get("lineage", []):
        assert len(ir["squares"]) == 40
        decks = {d["key"]: d for d in ir["decks"]}
        for deck_id in ("chance", "chest"):
            assert deck_id in decks, f"{edition}: the base board draws from deck {deck_id!r}"
            assert len(decks[deck_id]["cards"]) == 16, f"{edition}: deck {deck_id} must hold 16 cards"


def test_concrete_classic_editions_are_bundled():
    """The three classic editions the project promises (US, SE, NL) are bundled."""
    bundled = spec.bundled()
    for edition in CONCRETE_CLASSIC:
        assert edition in bundled, f"spec/{edition}.rules is missing"
        assert not _is_abstract(bundled[edition])


# ---- (c) no edition fact lives in Python ---------------------------------------------

MIN_INT = 10   # 0..9 are mechanism-level (indices, dice faces, counts): not checked
# Language constants that happen to equal an amount some spec states: allowed on their one
# defining line only, so a stray use elsewhere is still caught.
LANGUAGE_CONSTANTS = {("grammar/language.py", "PERCENT = 100"),
                      ("grammar/language.py", "MOST_DICE = 10"), ("grammar/language.py", "MOST_DIE_FACES = 100")}
# The limits of what an error report shows and how deep a spec may nest (issue #19).
LANGUAGE_CONSTANTS |= {("grammar/diagnostics.py", "SHOWN = 20"), ("grammar/diagnostics.py", "WHOLE = 160"),
                       ("grammar/diagnostics.py", "WIDEST = 100"), ("grammar/parse.py", "DEEPEST = 100")}
# The compiler's memory of expression shapes across compiles (issue 23's compile speed).
LANGUAGE_CONSTANTS |= {("grammar/bounds.py", "MOST_SHAPES = 200_000")}
# The engine's bound on a turn's moves (issue #19) and the heuristic player's shares: mechanism.
LANGUAGE_CONSTANTS |= {("interpreter/errors.py", "LIMIT = 50"),
                       ("interpreter/errors.py",
                        "TRAIL = 12          # the last moves and draws before the limit, to name the loop")}
LANGUAGE_CONSTANTS |= {("interpreter/strategies/heuristic.py", line) for line in (
    "BARGAIN = Fraction(9, 10)      # bid up to this share of the price for a deed of no special use",
    "RESERVE = Fraction(1, 10)      # keep at least this share of the starting money back (when houses cost less)",
    "UNPRICED = Fraction(1, 10)")}
# positions (in the spec, on the board, in a list) and board indices, not amounts
SKIP_KEYS = {"written_at", "position", "index", "squares", "ir_version", "square"}


def _walk_ints(node, origin: str, out: dict[int, set[str]]):
    """Collect every integer in an IR subtree (settings, deeds, expressions, statements)."""
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        out.setdefault(node, set()).add(origin)
    elif isinstance(node, dict):
        if node.get("expr") == "ratio":          # 10% is written 10 in the spec; its denominator is not
            _walk_ints(node.get("num"), origin, out)
            return
        for key, value in node.items():
            if key not in SKIP_KEYS:
                _walk_ints(value, origin, out)
    elif isinstance(node, list):
        for value in node:
            _walk_ints(value, origin, out)


def _bundled_irs():
    """Every bundled edition, and every bundled variant laid on each edition it fits."""
    for edition in spec.bundled():
        ir = compiled(edition)
        yield edition, ir
        if ir["edition"].get("abstract"):
            continue
        for variant, path in spec.bundled_variants().items():
            try:
                yield f"{edition} --variant {variant}", grammar.compile_file(spec.bundled()[edition], [path])
            except grammar.SpecError:
                continue        # a variant for another family


def _edition_facts() -> tuple[dict[str, set[str]], dict[int, set[str]]]:
    """Every name, card text and integer amount any bundled spec or variant states, with where from."""
    texts: dict[str, set[str]] = {}
    ints: dict[int, set[str]] = {}
    for edition, ir in _bundled_irs():
        for sq in ir.get("squares", []):
            if sq.get("name"):
                texts.setdefault(sq["name"], set()).add(f"{edition}: square {sq['key']}")
            _walk_ints(sq.get("deed"), f"{edition}: deed {sq['key']}", ints)
            _walk_ints(sq.get("on_land"), f"{edition}: {sq['key']} on_land", ints)
            _walk_ints(sq.get("on_pass"), f"{edition}: {sq['key']} on_pass", ints)
        for group in ir.get("groups", []):
            if group.get("name"):
                texts.setdefault(group["name"], set()).add(f"{edition}: group {group['key']}")
            _walk_ints(group, f"{edition}: group {group['key']}", ints)
        for deck in ir.get("decks", []):
            if deck.get("name"):
                texts.setdefault(deck["name"], set()).add(f"{edition}: deck {deck['key']}")
            for card in deck.get("cards", []):
                texts.setdefault(card["text"], set()).add(f"{edition}: card in {deck['key']}")
                _walk_ints(card.get("effect"), f"{edition}: card in {deck['key']}", ints)
        for section, values in ir.get("settings", {}).items():
            _walk_ints(values, f"{edition}: {section} settings", ints)
        _walk_ints(ir.get("formulas"), f"{edition}: formulas", ints)
        _walk_ints(ir.get("rent"), f"{edition}: rent formulas", ints)
        _walk_ints(ir.get("hooks"), f"{edition}: hooks", ints)
        _walk_ints(ir.get("setup"), f"{edition}: setup", ints)
        _walk_ints([i for i in ir.get("invariants", []) if i.get("origin") != "prelude"], f"{edition}: invariants",
                   ints)
        for pot in ir.get("pots", []):
            if pot.get("name"):
                texts.setdefault(pot["name"], set()).add(f"{edition}: pot {pot['key']}")
    ints = {n: where for n, where in ints.items() if n >= MIN_INT}
    return texts, ints


def _python_files() -> list[Path]:
    files = []
    for package in ("interpreter", "grammar"):
        files.extend(sorted((REPO / package).rglob("*.py")))
    return files


def test_no_edition_fact_in_python():
    """Rules-as-data principle: no square name, group name, card text or integer amount
    (>= 10) that any spec states appears in the engine's or the compiler's Python, code,
    comments or docstrings alike; editions live only in spec/*.rules."""
    texts, ints = _edition_facts()
    text_patterns = [
        (name, re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")) for name in sorted(texts, key=len, reverse=True)
    ]
    # whole integer tokens, as `\b<n>\b` (30_000 reads as 30000); the digits of a decimal
    # fraction (1.25) are not an integer amount
    int_pattern = re.compile(r"(?<![\d.])(?<!\d\.)\b\d[\d_]*\b(?!\.\d)")
    hits = []
    for path in _python_files():
        rel = path.relative_to(REPO)
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if (rel.as_posix(), line.strip()) in LANGUAGE_CONSTANTS:
                continue
            for name, pattern in text_patterns:
                if pattern.search(line):
                    hits.append(f"{rel}:{lineno}: {name!r} ({'; '.join(sorted(texts[name]))}): {line.strip()}")
            for match in int_pattern.finditer(line):
                n = int(match.group(0).replace("_", ""))
                if n in ints:
                    where = sorted(ints[n])
                    shown = "; ".join(where[:3]) + (f"; +{len(where) - 3} more" if len(where) > 3 else "")
                    hits.append(f"{rel}:{lineno}: {n} ({shown}): {line.strip()}")
    assert not hits, "edition facts found in Python:\n" + "\n".join(hits)
