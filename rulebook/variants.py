"""The variants that apply to an edition (`variant ID for FAMILY` overlays in spec/variants/),
each described by what it changes: the edition compiled with the overlay, against without."""
from __future__ import annotations

from pathlib import Path

import grammar
import ir
from grammar.extend import read
from grammar.parse import parse
from ir.nodes import Expr
from ir.ruleset import Ruleset
from rulebook.booklet import Booklet, paragraph
from rulebook.mechanics import hook_text, over_text, pot_text, setup_text
from rulebook.statements import describe
from spec import bundled_variants

OVER = ("end", "over")   # a condition: said by `over_text`, not as a setting's value


def family(path: Path) -> str:
    """The edition family a variant file is for (its header's `for FAMILY`)."""
    named = parse(read(path)).header.parent
    assert named is not None, f"{path} is a variant: its header names its family"
    return named.text


def applicable(path: Path, ruleset: Ruleset) -> dict[str, Ruleset]:
    """Each bundled variant for the edition's family -> the edition's IR with it laid over."""
    if ruleset.edition.variants:
        return {}
    lineage = ruleset.edition.lineage
    return {variant: ir.load(grammar.compile_file(path, [variant_path]))
            for variant, variant_path in bundled_variants().items() if family(variant_path) in lineage}


def changes(book: Booklet, varied: Ruleset) -> list[str]:
    """What the variant changes, a sentence each, in the order a game meets them."""
    words, base = book.words, book.ruleset
    other = Booklet(varied, words)   # the pots, squares and hooks the variant brings are its own
    out = [setup_text(other, stmt) for stmt in varied.setup or () if stmt not in (base.setup or ())]
    before = base.settings.sections()
    for section, keys in varied.settings.sections().items():
        for key, value in keys.items():
            old = before.get(section, {}).get(key)
            if value == old:
                continue
            if (section, key) == OVER:
                assert isinstance(value, Expr), "end.over is a condition"
                out.append(over_text(other, value))
            else:
                path = f"{section}.{key}"
                out.append(words.text("variants/setting", rule=words.text(f"settings/{path}"),
                                      new=book.value(path, value), old=book.value(path, old)))
    out += [pot_text(other, pot) for pot in varied.pots or () if pot not in (base.pots or ())]
    out += [words.text("variants/square", square=book.name(new), effects=describe(other, new.on_land))
            for old, new in zip(base.squares, varied.squares, strict=True) if old.on_land != new.on_land]
    out += [hook_text(other, hook) for hook in varied.hooks or () if hook not in (base.hooks or ())]
    return out


def variants_section(book: Booklet) -> str:
    applied = book.ruleset.edition.variants
    if applied:
        names = book.words.join([f"`{variant}`" for variant in applied])
        return paragraph(book.say("variants/applied", names=names), "variants-intro")
    if not book.variants:
        return paragraph(book.say("variants/none"), "variants-intro")
    out = [paragraph(book.say("variants/intro"), "variants-intro")]
    for variant, varied in book.variants.items():
        out.append(f"### {variant} {{#variant-{variant}}}\n")
        out.append(book.say("variants/how", variant=variant) + "\n")
        out += [f"- {text}" for text in changes(book, varied)]
        out.append("")
    return "\n".join(out)
