"""Resolve `extends`: read the chain of editions and merge each child onto its parent by id.

The result is still syntax (every item keeps the span of the file it was written in, so
an error about an inherited item points there); names and types are checked later, in
grammar/lower.py, on the merged edition.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from grammar import syntax
from grammar.diagnostics import Diagnostic, Source, SpecError, bad_byte, did_you_mean
from grammar.parse import parse
from spec import bundled


@dataclass(frozen=True)
class MergedSpec:
    """One edition with everything it extends merged in, in the parent's order."""

    header: syntax.Header                                    # the child's own header
    lineage: tuple[str, ...]                            # root first
    settings: dict[tuple[str, str], tuple[syntax.Name, syntax.Setting]] = field(default_factory=dict)
    contested: dict[str, syntax.Contested] = field(default_factory=dict)
    decisions: dict[str, syntax.Decide] = field(default_factory=dict)
    formulas: dict[str, syntax.Formula] = field(default_factory=dict)
    invariants: dict[str, tuple[str, syntax.Invariant]] = field(default_factory=dict)   # name -> (edition id, item)
    steps: dict[str, tuple[str, syntax.StepProperty]] = field(default_factory=dict)     # name -> (edition id, item)
    facts: dict[str, tuple[str, syntax.Fact]] = field(default_factory=dict)   # `section.key` -> (edition id, item)
    groups: dict[str, syntax.Group] = field(default_factory=dict)
    squares: dict[str, syntax.Square] = field(default_factory=dict)
    decks: dict[str, syntax.Deck] = field(default_factory=dict)
    states: dict[str, syntax.State] = field(default_factory=dict)
    hooks: list[syntax.Hook] = field(default_factory=list)       # in the order written, parents' first
    setup: syntax.Setup | None = None
    pots: dict[str, syntax.Pot] = field(default_factory=dict)
    areas: dict[str, syntax.Area] = field(default_factory=dict)
    procedures: dict[str, syntax.Procedure] = field(default_factory=dict)
    actions: dict[str, syntax.Action] = field(default_factory=dict)
    statistics: dict[str, syntax.Statistic] = field(default_factory=dict)
    examples: dict[str, tuple[str, syntax.Example]] = field(default_factory=dict)      # name -> (edition id, item)
    variants: tuple[str, ...] = ()                           # overlays laid on, in order
    removed_decks: dict[str, syntax.Remove] = field(default_factory=dict)   # deck id -> the `remove` of it


# Items a child gives whole (its own replaces the parent's of the same name): kind -> (word, table).
_NAMED = {syntax.Area: ("area", "areas"), syntax.Procedure: ("procedure", "procedures"),
          syntax.Action: ("action", "actions"), syntax.Statistic: ("statistic", "statistics")}

# Parents already read in this process, by path and modification time.
_parents: dict[tuple[Path, int], MergedSpec] = {}


def read(path: Path) -> Source:
    """The text of a spec file; a missing or unreadable file is an error, not a traceback."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SpecError([Diagnostic("E100", f"no spec file `{path}`", file=str(path),
                                    hint="check the path; a spec file ends in `.rules`")]) from None
    except OSError as error:
        why = (error.strerror or str(error)).lower()
        raise SpecError([Diagnostic("E100", f"cannot read `{path}`: {why}", file=str(path),
                                    hint="give the path of a `.rules` file you may read")]) from None
    try:
        return Source(str(path), data.decode("utf-8"))
    except UnicodeDecodeError as error:
        line, column, text = bad_byte(data, error)
        raise SpecError([Diagnostic(
            "E101", f"`{path}` is not UTF-8 text (byte `\\x{data[error.start]:02x}`)", file=str(path),
            line=line, column=column, hint="save the file as UTF-8", text=text)]) from None


def extend(file: syntax.File, directory: Path | None, chain: tuple[Path, ...] = ()) -> MergedSpec:
    """Merge a parsed file onto the edition it extends (looked up in `directory`, then `spec/`)."""
    parent = None
    if file.header.variant:
        raise SpecError([Diagnostic.at("E217", f"`{file.header.id.text}` is a variant, not an edition",
                                       file.header.span,
                                       "lay it on an edition: "
                                       f"`boardrules check EDITION --variant {file.header.id.text}`")])
    if file.header.parent is not None:
        parent = _parent(file.header.parent, directory, chain)
    return _merge(parent, file)


def overlay(edition: MergedSpec, variants: list[syntax.File]) -> MergedSpec:
    """Lay variant files (`variant ID for FAMILY`) over a complete edition, in order.

    A variant merges like a child edition; it fits only an edition of its family, and two
    variants may not both give the same setting, decision, formula, square, pot or setup
    (which one would win is the players' agreement, not the compiler's guess).
    """
    claimed: dict[str, str] = {}
    errors: list[Diagnostic] = []
    for file in variants:
        header = file.header
        if not header.variant or header.parent is None:       # the grammar gives a variant its family
            errors.append(Diagnostic.at("E217", f"`{header.id.text}` is an edition, not a variant", header.span,
                                        "a variant file starts with `variant ID for FAMILY`"))
            continue
        if header.parent.text not in edition.lineage:
            errors.append(Diagnostic.at(
                "E217", f"variant `{header.id.text}` is for `{header.parent.text}` editions; "
                f"`{edition.header.id.text}` is not one", header.parent.span,
                f"`{edition.header.id.text}` extends " + " <- ".join(reversed(edition.lineage[:-1]))
                if len(edition.lineage) > 1 else "apply it to an edition of its family"))
            continue
        for key, name in _claims(file):
            if key in claimed:
                errors.append(Diagnostic.at(
                    "E218", f"variants `{claimed[key]}` and `{header.id.text}` both give {key}", name.span,
                    "these variants do not combine: play one of them"))
            claimed[key] = header.id.text
        if errors:
            continue
        merged = _merge(edition, file)
        edition = replace(merged, header=edition.header, lineage=edition.lineage,
                          variants=edition.variants + (header.id.text,))
    if errors:
        raise SpecError(errors)
    return edition


def _claims(file: syntax.File) -> list[tuple[str, syntax.Name]]:
    """What a variant gives that another variant may not give too (hooks add up, so none)."""
    out: list[tuple[str, syntax.Name]] = []
    for item in file.items:
        if isinstance(item, syntax.Section):
            out += [(f"`{item.name.text}.{setting.key.text}`", setting.key) for setting in item.settings]
        elif isinstance(item, syntax.Decide):
            out.append((f"`decide {item.section.text}.{item.key.text}`", item.key))
        elif isinstance(item, syntax.Formula):
            out.append((f"formula `{item.name.text}`", item.name))
        elif isinstance(item, syntax.Setup):
            out.append(("a `setup` block", syntax.Name(item.span, "setup")))
        elif isinstance(item, syntax.Board):
            out += [(f"square `{square.id.text}`", square.id) for square in item.squares]
        elif isinstance(item, (syntax.Pot, syntax.Group, syntax.Deck, syntax.Area)):
            out.append((f"`{item.id.text}`", item.id))
        elif isinstance(item, (syntax.Procedure, syntax.Action, syntax.Statistic)):
            out.append((f"`{item.name.text}`", item.name))
        elif isinstance(item, syntax.State):
            out.append((f"state `{item.name.text}`", item.name))
        elif isinstance(item, syntax.Remove):       # as if it gave the deck or the square
            out.append((f"`{item.id.text}`" if item.what == "deck" else f"square `{item.id.text}`", item.id))
    return out


def _parent(name: syntax.Name, directory: Path | None, chain: tuple[Path, ...]) -> MergedSpec:
    candidates = dict(bundled())
    if directory is not None:
        candidates |= {p.stem: p for p in sorted(directory.glob("*.rules"))}
    local = directory / f"{name.text}.rules" if directory is not None else None
    path = local if local is not None and local.is_file() else candidates.get(name.text)
    if path is None:
        raise SpecError([Diagnostic.at("E202", f"unknown parent edition `{name.text}`", name.span,
                                    did_you_mean(name.text, candidates) or
                                    "the parent is `<id>.rules` beside this file or in `spec/`")])
    path = path.resolve()
    if path in chain:
        cycle = " -> ".join(p.stem for p in chain[chain.index(path):]) + f" -> {path.stem}"
        raise SpecError([Diagnostic.at("E212", f"`extends` goes round in a circle: {cycle}", name.span,
                                    "an edition cannot extend itself, directly or through others")])
    key = (path, path.stat().st_mtime_ns)
    if key not in _parents:
        _parents[key] = extend(parse(read(path)), path.parent, chain + (path,))
    return _parents[key]


def _merge(parent: MergedSpec | None, file: syntax.File) -> MergedSpec:
    """Lay one file over its parent: settings by key, groups, squares, decks by id."""
    merge = _Merge(parent, file)
    for item in file.items:
        lay = _LAY.get(type(item))
        if lay is not None:
            lay(merge, item)
    if merge.errors:
        raise SpecError(merge.errors)
    return replace(merge.edition, setup=merge.setup, variants=parent.variants if parent is not None else ())


class _Merge:
    """One file being laid over its parent: the edition so far, the errors found, and the
    items this file already gave (each kind and name once per file)."""

    def __init__(self, parent: MergedSpec | None, file: syntax.File) -> None:
        self.parent = parent
        self.file = file
        header = self.header = file.header
        self.edition = MergedSpec(header, (parent.lineage if parent else ()) + (header.id.text,))
        if parent is not None:
            for name in ("settings", "contested", "decisions", "formulas", "invariants", "steps", "facts", "groups",
                         "squares", "decks", "examples"):
                getattr(self.edition, name).update(getattr(parent, name))
            for name in ("states", "pots", "areas", "procedures", "actions", "statistics"):
                getattr(self.edition, name).update(getattr(parent, name))
            self.edition.hooks.extend(parent.hooks)
            self.edition.removed_decks.update(parent.removed_decks)
        self.setup = parent.setup if parent is not None else None
        self.errors: list[Diagnostic] = []
        self.seen: dict[tuple[str, str], syntax.Name] = {}

    def once(self, kind: str, name: syntax.Name, what: str) -> bool:
        """False (and an error) when this file already gave an item of that kind and name."""
        if (kind, name.text) in self.seen:
            first = self.seen[(kind, name.text)].span
            self.errors.append(Diagnostic.at("E211", f"duplicate {what} `{name.text}`", name.span,
                                             f"it is already given at line {first.line}; give it once"))
            return False
        self.seen[(kind, name.text)] = name
        return True

    def inherited(self, table: str, name: syntax.Name, what: str) -> bool:
        """False (and an error) when a child names an id its parent's `table` lacks."""
        parent = self.parent
        if parent is None or name.text in getattr(parent, table):
            return True
        self.errors.append(Diagnostic.at("E201", f"{what} `{name.text}` is not in the parent edition "
                                         f"`{parent.lineage[-1]}`", name.span,
                                         did_you_mean(name.text, getattr(parent, table)) or
                                         f"a child edition can only change the parent's {what}s"))
        return False

    def section(self, item: syntax.Section) -> None:
        for setting in item.settings:
            key = f"{item.name.text}.{setting.key.text}"
            if self.once("setting", replace(setting.key, text=key), "setting"):
                self.edition.settings[(item.name.text, setting.key.text)] = (item.name, setting)

    def contested(self, item: syntax.Contested) -> None:
        key = f"{item.section.text}.{item.key.text}"
        if self.once("contested", replace(item.key, text=key), "contested rule"):
            self.edition.contested[key] = item

    def decide(self, item: syntax.Decide) -> None:
        key = f"{item.section.text}.{item.key.text}"
        if self.once("decide", replace(item.key, text=key), "decision"):
            self.edition.decisions[key] = item

    def formula(self, item: syntax.Formula) -> None:
        if self.once("formula", item.name, "formula"):
            self.edition.formulas[item.name.text] = item

    def invariant(self, item: syntax.Invariant | syntax.StepProperty) -> None:
        """An invariant or a step property: one name space, since both are rows of the
        verifier's report."""
        if not self.once("invariant", item.name, "invariant"):
            return
        taken = self.edition.invariants.get(item.name.text) or self.edition.steps.get(item.name.text)
        if taken is not None:
            self.errors.append(Diagnostic.at("E211", f"duplicate invariant `{item.name.text}`", item.name.span,
                                             f"edition `{taken[0]}` already declares it (a child inherits its "
                                             "parent's invariants and step properties); give yours another name"))
        elif isinstance(item, syntax.StepProperty):
            self.edition.steps[item.name.text] = (self.header.id.text, item)
        else:
            self.edition.invariants[item.name.text] = (self.header.id.text, item)

    def fact(self, item: syntax.Fact) -> None:
        """A number the source prints for a setting: a child's replaces its parent's (its
        own source may print another)."""
        if self.once("fact", replace(item.key, text=item.path), "fact"):
            self.edition.facts[item.path] = (self.header.id.text, item)

    def example(self, item: syntax.Example) -> None:
        if self.once("example", item.name, "example"):       # a child's replaces the parent's: its rules may differ
            self.edition.examples[item.name.text] = (self.header.id.text, item)

    def state(self, item: syntax.State) -> None:
        if self.once("state", item.name, "state"):
            self.edition.states[item.name.text] = item

    def hook(self, item: syntax.Hook) -> None:
        self.edition.hooks.append(item)

    def setup_block(self, item: syntax.Setup) -> None:
        if self.once("setup", syntax.Name(item.span, "setup"), "setup block"):
            self.setup = item

    def pot(self, item: syntax.Pot) -> None:
        if self.once("pot", item.id, "pot"):
            old = self.edition.pots.get(item.id.text)
            self.edition.pots[item.id.text] = item if old is None else replace(
                old, name=item.name or old.name, settings=_settings(old.settings, item.settings))

    def named(self, item: syntax.Area | syntax.Procedure | syntax.Action | syntax.Statistic) -> None:
        what, table = _NAMED[type(item)]
        name = item.id if isinstance(item, syntax.Area) else item.name
        if self.once(what, name, what):
            getattr(self.edition, table)[name.text] = item      # a child's replaces the parent's

    def group(self, item: syntax.Group) -> None:
        if self.once("group", item.id, "group") and self.inherited("groups", item.id, "group"):
            self.edition.groups[item.id.text] = _merge_group(self.edition.groups.get(item.id.text), item)

    def board(self, item: syntax.Board) -> None:
        if not self.once("board", syntax.Name(item.span, "board"), "board"):
            return
        for square in item.squares:
            if self.once("square", square.id, "square") and self.inherited("squares", square.id, "square"):
                merged = _merge_square(self.edition.squares.get(square.id.text), square, self.errors)
                self.edition.squares[square.id.text] = merged

    def deck(self, item: syntax.Deck) -> None:
        if not (self.once("deck", item.id, "deck") and self.inherited("decks", item.id, "deck")):
            return
        old = self.edition.decks.get(item.id.text)
        self.edition.decks[item.id.text] = item if old is None else replace(
            old, name=item.name or old.name, cards=item.cards or old.cards)
        if old is not None and item.cards:
            self.drop_examples_showing(item.id.text)

    def drop_examples_showing(self, deck: str) -> None:
        """The parent's examples that set cards of `deck` on top show those cards: a child
        that replaces the cards, or removes the deck, does not inherit them."""
        for name, (origin, example) in list(self.edition.examples.items()):
            if origin != self.header.id.text and any(step.what == "card" and step.deck is not None
                                                     and step.deck.text == deck for step in example.steps):
                del self.edition.examples[name]

    def remove(self, item: syntax.Remove) -> None:
        """`remove deck ID`, `remove on_land of SQUARE`: take away what the parent has. The
        same file may not give it too (E211), and what is taken must be the parent's (E201)."""
        if self.parent is None:
            self.errors.append(Diagnostic.at("E201", f"`remove` in `{self.header.id.text}`, which extends nothing",
                                             item.span, "only a child edition or a variant takes away its "
                                             "parent's items; here, leave the item out"))
            return
        if item.what == "deck":
            if self.once("deck", item.id, "deck") and self.inherited("decks", item.id, "deck"):
                del self.edition.decks[item.id.text]
                self.drop_examples_showing(item.id.text)
                self.edition.removed_decks[item.id.text] = item
            return
        what = item.what
        if not (self.once(what, item.id, f"`remove {what} of`") and self.inherited("squares", item.id, "square")):
            return
        square = self.edition.squares[item.id.text]
        given = [s for board in self.file.items if isinstance(board, syntax.Board) for s in board.squares
                 if s.id.text == item.id.text and getattr(s, what) is not None]
        if given:
            self.errors.append(Diagnostic.at("E211", f"square `{item.id.text}` gives `{what}` and removes it",
                                             item.span, f"it is given at line {given[0].span.line}: a child's "
                                             f"`{what}` replaces the parent's, so give it or remove it"))
        elif getattr(square, what) is None:
            self.errors.append(Diagnostic.at("E201", f"square `{item.id.text}` has no `{what}` in the parent "
                                             f"edition `{self.parent.lineage[-1]}`", item.id.span,
                                             "there is nothing to remove; the square's blocks are given with it"))
        else:
            self.edition.squares[item.id.text] = replace(square, on_land=None) if what == "on_land" \
                else replace(square, on_pass=None)


# How each kind of item is laid over the parent.
_LAY: dict[type, Callable[[_Merge, Any], None]] = {
    syntax.Section: _Merge.section, syntax.Contested: _Merge.contested, syntax.Decide: _Merge.decide,
    syntax.Formula: _Merge.formula, syntax.Invariant: _Merge.invariant, syntax.StepProperty: _Merge.invariant,
    syntax.Fact: _Merge.fact, syntax.Example: _Merge.example,
    syntax.State: _Merge.state, syntax.Hook: _Merge.hook, syntax.Setup: _Merge.setup_block, syntax.Pot: _Merge.pot,
    syntax.Area: _Merge.named, syntax.Procedure: _Merge.named, syntax.Action: _Merge.named,
    syntax.Statistic: _Merge.named, syntax.Group: _Merge.group, syntax.Board: _Merge.board, syntax.Deck: _Merge.deck,
    syntax.Remove: _Merge.remove,
}


def _settings(old: tuple[syntax.Setting, ...], new: tuple[syntax.Setting, ...]) -> tuple[syntax.Setting, ...]:
    """The parent's settings with the child's replacing those of the same key, new ones last."""
    merged = {setting.key.text: setting for setting in old}
    merged |= {setting.key.text: setting for setting in new}
    return tuple(merged.values())


def _merge_group(old: syntax.Group | None, new: syntax.Group) -> syntax.Group:
    if old is None:
        return new
    return replace(old, id=new.id, name=new.name or old.name, settings=_settings(old.settings, new.settings))


def _merge_square(old: syntax.Square | None, new: syntax.Square, errors: list[Diagnostic]) -> syntax.Square:
    if old is None:
        return new
    if old.kind != new.kind:
        errors.append(Diagnostic.at("E307", f"square `{new.id.text}` is a {old.kind} in the parent edition, "
                                 f"not a {new.kind}", new.id.span,
                                 f"write `{old.kind} {new.id.text}`: a child cannot change a square's kind"))
    return replace(old, id=new.id, name=new.name or old.name, settings=_settings(old.settings, new.settings),
                   on_land=new.on_land or old.on_land, on_pass=new.on_pass or old.on_pass)
