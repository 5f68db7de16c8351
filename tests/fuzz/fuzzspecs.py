"""Specs for the fuzz test: the bundled ones mutated, and overlays built from the language's parts.

A `Case` is a set of files to write in a fresh folder and the spec (and variants) to hand
to `boardrules check` and `boardrules play`. Mutations are small and named (`Case.how`),
so a failure prints as the few edits that broke a bundled spec; Hypothesis shrinks them.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

import spec

SPEC_DIR = Path(spec.__file__).parent
EDITIONS = {name: path.read_text(encoding="utf-8") for name, path in sorted(spec.bundled().items())}
VARIANTS = {name: path.read_text(encoding="utf-8") for name, path in sorted(spec.bundled_variants().items())}
PLAYABLE = [name for name, text in EDITIONS.items() if not re.search(r"^abstract edition", text, re.M)]
CLASSIC_CHILDREN = [name for name in PLAYABLE if re.search(r"^edition \S+ extends classic\b", EDITIONS[name], re.M)]

# The lexer's tokens, roughly (tests/fuzz only cuts and copies them): strings and comments
# whole, words, numbers, two-character operators, any other character, whitespace.
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[a-z_][a-z0-9_]*|[0-9](?:_?[0-9])*%?|\.\.|[<>=!]=|\s+|.', re.I | re.S)
WORD = re.compile(r"[a-z_][a-z0-9_]*")
NUMBER = re.compile(r"[0-9](?:_?[0-9])*")
SQUARE = re.compile(r"^(\s*)(square|lot|station|utility)(\s+)([a-z_][a-z0-9_]*)([^\n{#]*)(\{)?", re.M)
SETTING = re.compile(r"^(\s*)([a-z_][a-z0-9_]*)(\s*=\s*)(yes|no)\b", re.M)
DECIDE = re.compile(r"^decide ([a-z_]+)\.([a-z_]+) = ([a-z_]+)", re.M)
CONTESTED = re.compile(r"^contested ([a-z_]+)\.([a-z_]+) = ([a-z_| ]+)", re.M)

# Amounts at the edges: nothing, less than nothing, more than any game holds, more than a float.
HUGE = "1" + "0" * 40
HUGER = "1" + "0" * 400
AMOUNTS = ["0", "-1", HUGE, HUGER, "-" + HUGE]


@dataclass(frozen=True, repr=False)
class Case:
    """Files to write (name, bytes), the spec and variants to check and play, and how they were made."""

    files: tuple[tuple[str, bytes], ...]
    spec: str
    variants: tuple[str, ...]
    how: tuple[str, ...]

    def __repr__(self) -> str:      # Hypothesis prints it: the edits, not 30 kB of spec
        return f"Case(spec={self.spec!r}, variants={self.variants!r}, how={self.how!r})"

    def shown(self) -> str:
        """The case as a reader needs it: the edits, then each written file as a diff from
        the bundled file it came from, or whole when it came from nowhere."""
        out = ["made by: " + "; ".join(self.how)]
        for name, data in self.files:
            text = data.decode("utf-8", errors="replace")
            original = EDITIONS.get(name.removesuffix(".rules")) or VARIANTS.get(name.removesuffix(".rules"))
            if original is not None and len(text) > 400:
                diff = difflib.unified_diff(original.splitlines(), text.splitlines(), f"spec/{name}", name,
                                            lineterm="", n=1)
                out.append("\n".join(diff) or f"--- {name}: unchanged")
            else:
                out.append(f"--- {name}\n{text}")
        return "\n".join(out)


# ---- mutations of a bundled spec's text -------------------------------------------------

class NothingToMutate(Exception):
    """The text holds nothing this mutation works on (a number, a square, ...)."""


def _pick(data, items: list, label: str):
    if not items:
        raise NothingToMutate(label)
    return data.draw(st.sampled_from(items), label=label)


def _spans(text: str, pattern: re.Pattern) -> list[re.Match]:
    """Occurrences of a pattern among the text's tokens (never inside a string or comment)."""
    return [m for m in TOKEN.finditer(text) if pattern.fullmatch(m.group())]


def _replace(text: str, match: re.Match, new: str) -> str:
    return text[: match.start()] + new + text[match.end():]


def delete_token(text: str, data) -> tuple[str, str]:
    tokens = [m for m in TOKEN.finditer(text) if not m.group().isspace()]
    m = _pick(data, tokens, "token")
    return _replace(text, m, ""), f"deleted `{m.group()}` at {m.start()}"


def duplicate_token(text: str, data) -> tuple[str, str]:
    tokens = [m for m in TOKEN.finditer(text) if not m.group().isspace()]
    m = _pick(data, tokens, "token")
    return _replace(text, m, m.group() + " " + m.group()), f"doubled `{m.group()}` at {m.start()}"


def swap_name(text: str, data) -> tuple[str, str]:
    words = _spans(text, WORD)
    m = _pick(data, words, "name")
    other = _pick(data, sorted({w.group() for w in words} - {m.group()}), "other name")
    return _replace(text, m, other), f"`{m.group()}` at {m.start()} -> `{other}`"


def change_amount(text: str, data) -> tuple[str, str]:
    m = _pick(data, _spans(text, NUMBER), "number")
    n = m.group()
    new = _pick(data, AMOUNTS + [f"-{n}", f"({n} / 0)", f"({n} / count(p in players: p.bankrupt))"], "amount")
    return _replace(text, m, new), f"{n} at {m.start()} -> {new}"


def delete_lines(text: str, data) -> tuple[str, str]:
    lines = text.splitlines(keepends=True)
    if not lines:
        raise NothingToMutate("line")
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    k = data.draw(st.integers(1, 3), label="lines")
    return "".join(lines[:i] + lines[i + k:]), f"deleted lines {i + 1}-{i + k}"


def truncate(text: str, data) -> tuple[str, str]:
    at = data.draw(st.integers(0, len(text)), label="cut")
    return text[:at], f"cut at {at}"


def flip_setting(text: str, data) -> tuple[str, str]:
    """A yes/no setting the other way, or a contested rule decided the other way."""
    choices = [("yes/no", m) for m in SETTING.finditer(text)] + [("decide", m) for m in DECIDE.finditer(text)]
    kind, m = _pick(data, choices, "setting")
    if kind == "yes/no":
        new = "no" if m.group(4) == "yes" else "yes"
        return text[: m.start(4)] + new + text[m.end(4):], f"{m.group(2)} = {new} at {m.start()}"
    options = CONTESTED_OPTIONS.get((m.group(1), m.group(2)), [m.group(3)])
    new = _pick(data, options, "option")
    return text[: m.start(3)] + new + text[m.end(3):], f"decide {m.group(1)}.{m.group(2)} = {new}"


def move_on_the_spot(text: str, data) -> tuple[str, str]:
    """A square whose landing moves the token to itself, by nothing, or to another such square."""
    squares = list(SQUARE.finditer(text))
    m = _pick(data, squares, "square")
    name = m.group(4)
    target = _pick(data, [s.group(4) for s in squares], "target")
    stmt = _pick(data, [f"move to {name}", "move by 0", f"move to {target}", "move by -0", "jump to 0", "move by 40"],
                 "move")
    if m.group(6):
        new = text[: m.end(6)] + f" on_land {{ {stmt} }} " + text[m.end(6):]
    else:
        new = text[: m.end(5)] + f" {{ on_land {{ {stmt} }} }}" + text[m.end(5):]
    return new, f"{name}: on_land {{ {stmt} }}"


def negative_price(text: str, data) -> tuple[str, str]:
    amount = r"\b(price|cost|fine|salary|start|house_cost|hotel_cost|mortgage)(\s*=\s*)([0-9_]+)"
    prices = [m for m in re.finditer(amount, text)]
    m = _pick(data, prices, "price")
    return text[: m.start(3)] + "-" + m.group(3) + text[m.end(3):], f"{m.group(1)} = -{m.group(3)}"


MUTATIONS = [delete_token, duplicate_token, swap_name, change_amount, delete_lines, truncate,
             flip_setting, move_on_the_spot, negative_price]


def _contested() -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for text in EDITIONS.values():
        for m in CONTESTED.finditer(text):
            out[(m.group(1), m.group(2))] = [o.strip() for o in m.group(3).split("|")]
    return out


CONTESTED_OPTIONS = _contested()


@st.composite
def mutated(draw) -> Case:
    """A bundled edition or variant with one to three mutations, the last maybe a byte flipped.

    The abstract base is mutated under one of its unchanged children (written beside it,
    so `extends` finds the mutated base first); a variant is laid over an edition of its family."""
    data = draw(st.data())
    kind = draw(st.sampled_from(["edition", "base", "variant"]), label="what")
    if kind == "variant":
        name = draw(st.sampled_from(sorted(VARIANTS)))
        text = VARIANTS[name]
        family = re.search(r"^variant \S+ for (\S+)", text, re.M).group(1)
        base = family if family in PLAYABLE else draw(st.sampled_from(CLASSIC_CHILDREN))
    elif kind == "base":
        name, base = "classic", draw(st.sampled_from(CLASSIC_CHILDREN))
        text = EDITIONS[name]
    else:
        name = draw(st.sampled_from(PLAYABLE))
        text = EDITIONS[name]
    how = []
    for _ in range(draw(st.integers(1, 3), label="mutations")):
        mutation = draw(st.sampled_from(MUTATIONS))
        try:
            text, what = mutation(text, data)
        except NothingToMutate:
            continue
        how.append(f"{mutation.__name__}: {what}")
    data_bytes = text.encode("utf-8")
    if data_bytes and draw(st.integers(0, 9), label="flip?") == 0:
        at = draw(st.integers(0, len(data_bytes) - 1), label="byte")
        bit = draw(st.integers(0, 7), label="bit")
        data_bytes = data_bytes[:at] + bytes([data_bytes[at] ^ (1 << bit)]) + data_bytes[at + 1:]
        how.append(f"flipped bit {bit} of byte {at}")
    file = f"{name}.rules"
    if kind == "variant":
        return Case(((file, data_bytes),), base, (file,), tuple(how))
    if kind == "base":
        child = f"{base}.rules"
        return Case(((file, data_bytes), (child, EDITIONS[base].encode("utf-8"))), child, (), tuple(how))
    return Case(((file, data_bytes),), file, (), tuple(how))


# ---- overlays built from the language's parts ---------------------------------------------

ONE_SETTING = re.compile(r"([a-z_]+)\s*=\s*(.*?)(?=\s+[a-z_]+\s*=|\s*$)")


def _sections(text: str) -> list[tuple[str, str, str]]:
    """Every (section, setting, value) a bundled spec writes at the top level, values on one line."""
    out = []
    blocks = [b for b in re.finditer(r"^([a-z_]+) \{(.*?)^\}", text, re.M | re.S)
              if b.group(1) not in ("board", "setup", "rent")]
    for block in blocks:
        for line in block.group(2).splitlines():
            out += [(block.group(1), m.group(1), m.group(2)) for m in ONE_SETTING.finditer(line.split("#")[0].strip())]
    for block in re.finditer(r"^([a-z_]+) \{([^\n]*)\}", text, re.M):
        if block.group(1) in ("board", "setup", "rent"):
            continue
        out += [(block.group(1), m.group(1), m.group(2)) for m in ONE_SETTING.finditer(block.group(2).strip())]
    return out


def _edges(value: str) -> list[str]:
    """Values of a setting's own kind at its edges: the other yes/no, amounts, percentages."""
    if value in ("yes", "no"):
        return ["no" if value == "yes" else "yes"]
    if NUMBER.fullmatch(value):
        return AMOUNTS + [f"({value} / 0)", f"({value} / count(p in players: p.bankrupt))"]
    if re.fullmatch(r"[0-9]+%", value):
        return ["0%", "100%", "1000%", "-5%"]
    if re.fullmatch(r"[0-9]+ \.\. [0-9]+", value):
        return ["0 .. 0", "1 .. 1", "8 .. 2", f"1 .. {HUGE}", f"{HUGE} .. {HUGE}"]
    if re.fullmatch(r"\[[0-9, ]*\]", value):
        return ["[]", "[0]", f"[{HUGE}]", "[-1, 2]"]
    return []


@dataclass(frozen=True)
class Base:
    """What an overlay can name in the edition under it."""

    family: str
    squares: tuple[tuple[str, str], ...]      # (kind, id)
    groups: tuple[str, ...]
    decks: tuple[str, ...]
    settings: tuple[tuple[str, str, str], ...]   # (section, key, a value it takes)
    formulas: tuple[str, ...]                 # `name(params)`


def base_of(name: str) -> Base:
    text = EDITIONS[name]
    parent = re.search(r"^edition \S+ extends (\S+)", text, re.M)
    texts = [text] + ([EDITIONS[parent.group(1)]] if parent else [])
    if parent and parent.group(1) != "classic":
        texts.append(EDITIONS["classic"])
    joined = "\n".join(texts)
    family = "classic" if "classic" in (m.group(1) for m in re.finditer(r"extends (\S+)", joined)) else name
    return Base(
        family,
        tuple(sorted({(m.group(2), m.group(4)) for m in SQUARE.finditer(joined)})),
        tuple(sorted(set(re.findall(r"^group ([a-z_]+)", joined, re.M)))),
        tuple(sorted(set(re.findall(r"^deck ([a-z_]+)", joined, re.M)))),
        tuple(sorted(set(_sections(joined)))),
        tuple(sorted(set(re.findall(r"^formula ([a-z_]+\([a-z_, ]*\))", joined, re.M)))),
    )


BASES = {name: base_of(name) for name in PLAYABLE}

INTS = st.sampled_from(["0", "1", "2", "7", "200", "1500", "-1", HUGE, HUGER, "50%"])
# Quantities by where they may stand (docs/language.md, "Names available").
ANYWHERE = ["count(p in players: p.bankrupt)", "count(p in players: not p.bankrupt)", "sum(p in players: p.cash)",
            "board_size"]
EFFECTS = ANYWHERE + ["dice", "me.cash", "houses(me)", "me.position", "count(d in me.deeds: yes)"]
RENT = ANYWHERE + ["dice", "level", "owned", "printed[0]", "printed[level]", "mortgaged_in_group"]


def expressions(names: list[str]) -> st.SearchStrategy[str]:
    """Number-valued expressions: edge amounts and the given quantities under + - * / and `if`."""
    return st.recursive(
        INTS | st.sampled_from(names),
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            inner.map(lambda e: f"-{e}"),
            st.tuples(conditions(inner), inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        ),
        max_leaves=6,
    )


def conditions(numbers: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    compare = st.tuples(numbers, st.sampled_from(["<", "<=", "==", "!=", ">", ">="]), numbers).map(" ".join)
    return st.one_of(compare, st.sampled_from(["yes", "no"]), compare.map(lambda c: f"not {c}"))


def statements(base: Base) -> st.SearchStrategy[str]:
    """Statements of an `on_land` or a card, over the base's own names."""
    numbers = expressions(EFFECTS)
    square = st.sampled_from([s for _, s in base.squares])
    simple = st.one_of(
        numbers.map(lambda e: f"pay {e} to bank"),
        numbers.map(lambda e: f"collect {e} from bank"),
        numbers.map(lambda e: f"move by {e}"),
        square.map(lambda s: f"move to {s}"),
        st.tuples(st.sampled_from(base.groups), st.none() | numbers).map(
            lambda t: f"advance to nearest {t[0]}" + (f" with rent = {t[1]}" if t[1] else "")),
        st.just("go to jail"),
        st.sampled_from(base.decks or ("chance",)).map(lambda d: f"draw {d}"),
        numbers.map(lambda e: f"for p in others {{ pay {e} to p }}"),
        st.just("end game"),
    )
    return st.recursive(
        simple,
        lambda inner: st.one_of(
            st.tuples(conditions(numbers), st.lists(inner, max_size=2), st.lists(inner, max_size=2)).map(
                lambda t: f"if {t[0]} {{ {' '.join(t[1])} }} else {{ {' '.join(t[2])} }}"),
            st.lists(inner, min_size=1, max_size=2).map(
                lambda body: f'choose {{ "a" {{ {" ".join(body)} }} "b" {{ }} }}'),
        ),
        max_leaves=4,
    )


@st.composite
def overlay(draw, base: Base) -> list[str]:
    """The items of an overlay: settings changed, rules decided, squares' and cards' effects,
    formulas, rent and the end, each part at most once (as a spec writes them)."""
    numbers = expressions(ANYWHERE)
    blocks = st.lists(statements(base), min_size=1, max_size=3).map(" ".join)
    settings = {}
    for section, key, value in draw(st.lists(st.sampled_from(base.settings), max_size=3, unique_by=lambda t: t[:2])):
        settings[(section, key)] = draw(st.sampled_from([v for s, k, v in base.settings if (s, k) == (section, key)]
                                                        + _edges(value)))
    squares = draw(st.dictionaries(st.sampled_from(base.squares), blocks, max_size=2))
    card_blocks = st.lists(statements(base) | st.just("keep"), min_size=1, max_size=3).map(" ".join)
    cards = draw(st.lists(st.tuples(st.sampled_from(base.decks), card_blocks), max_size=2)) if base.decks else []
    formulas = draw(st.dictionaries(st.sampled_from(base.formulas), numbers, max_size=1)) if base.formulas else {}
    rent = draw(st.dictionaries(st.sampled_from(["lot", "station", "utility"]), expressions(RENT), max_size=1))
    over = draw(st.none() | conditions(numbers))
    decided = draw(st.dictionaries(st.sampled_from(sorted(CONTESTED_OPTIONS)), st.integers(0, 1), max_size=2)) \
        if base.family == "classic" else {}
    out = []
    for section in dict.fromkeys(section for section, _ in settings):
        out.append(f"{section} {{ " + "  ".join(f"{key} = {v}" for (s, key), v in settings.items() if s == section)
                   + " }")
    out += [f"decide {s}.{k} = {CONTESTED_OPTIONS[(s, k)][i % len(CONTESTED_OPTIONS[(s, k)])]}"
            for (s, k), i in decided.items()]
    if squares:
        out.append("board {\n" + "\n".join(f"  {kind} {name} {{ on_land {{ {b} }} }}"
                                             for (kind, name), b in squares.items()) + "\n}")
    for deck in dict.fromkeys(d for d, _ in cards):
        out.append(f"deck {deck} {{ " + " ".join(f'card "fuzz" {{ {b} }}' for d, b in cards if d == deck) + " }")
    out += [f"formula {f} = {e}" for f, e in formulas.items()]
    out += [f"rent {{ {k} = {e} }}" for k, e in rent.items()]
    if over is not None:
        out.append(f"end {{ over = {over} }}")
    return out or ["game { turn_cap = 100 }"]


@st.composite
def built(draw) -> Case:
    """An overlay built from the language's parts, as a variant laid over a bundled edition
    or as an edition extending it."""
    name = draw(st.sampled_from(PLAYABLE))
    base = BASES[name]
    body = draw(overlay(base))
    if draw(st.booleans(), label="as variant"):
        text = "\n".join([f"variant fuzz for {base.family}", *body]) + "\n"
        return Case((("fuzz.rules", text.encode("utf-8")),), name, ("fuzz.rules",), (f"variant over {name}",))
    text = "\n".join([f"edition fuzz extends {name}", *body]) + "\n"
    return Case((("fuzz.rules", text.encode("utf-8")),), "fuzz.rules", (), (f"edition extending {name}",))
