"""Which booklets the site holds: the editions, their languages, their pages and the nav."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import grammar
import ir
from grammar.lookup import concrete_editions, resolve
from ir.ruleset import Ruleset
from rulebook.board import board_page
from rulebook.booklet import Booklet
from rulebook.compare import compare_page
from rulebook.decks import decks_page
from rulebook.deeds import deeds_page
from rulebook.phrases import languages as known_languages
from rulebook.phrases import phrases
from rulebook.rules_page import rules_page
from rulebook.variants import applicable
from spec import Refusal, bundled, resolve_variant

ENGLISH = "en"


class SiteError(Refusal):
    """A site the rulebook cannot build as asked (an abstract edition, a language with no
    phrase table, an --out folder it cannot use): what is wrong, then a hint."""


# A booklet's pages, in reading order: file stem, `pages/<name>` in the phrase table, writer.
PAGES: tuple[tuple[str, str, Callable[[Booklet], str]], ...] = (
    ("index", "rules", rules_page), ("board", "board", board_page), ("deeds", "deeds", deeds_page),
    ("cards", "cards", decks_page), ("compare", "compare", compare_page),
)


@dataclass(frozen=True)
class Booklets:
    """A spec compiled for the site, with the languages its booklet is written in."""

    path: Path
    ruleset: Ruleset
    parent: Ruleset | None
    languages: tuple[str, ...]
    variants: dict[str, Ruleset]

    @property
    def id(self) -> str:
        """The booklet's folder: the edition id, and the variants laid over it (`classic-se-with-short`)."""
        return "-with-".join([self.ruleset.edition.key, *(self.ruleset.edition.variants or ())])


def parent_ruleset(path: Path, ruleset: Ruleset) -> Ruleset | None:
    """The IR of the edition this one extends: beside it, else bundled (as the compiler finds it)."""
    lineage = ruleset.edition.lineage
    if len(lineage) < 2:
        return None
    beside = path.parent / f"{lineage[-2]}.rules"
    return ir.load(grammar.compile_file(beside if beside.is_file() else bundled()[lineage[-2]]))


def editions(specs: list[str], languages: dict[str, list[str]], variants: Sequence[str] = ()) -> list[Booklets]:
    """Compile each spec (an edition id or a path; none = every bundled playable edition),
    with `variants` (bundled ids or paths) laid over it.

    An edition is written in the language of its source rule book (`about.source_language`,
    else `about.language`: classic-us names its squares in English but its source is
    Danish) and in English, unless `languages` (the plugin option) names them.
    """
    out = []
    overlays = [resolve_variant(variant) for variant in variants]
    for spec in specs or concrete_editions():
        path = resolve(spec)
        ruleset = ir.load(grammar.compile_file(path, overlays))
        about = ruleset.edition
        if about.abstract:
            raise SiteError(f"edition `{about.key}` is abstract: it has no rulebook",
                            "give an edition that extends it")
        first = about.source_language or about.language or ENGLISH
        langs = languages.get(about.key) or list(dict.fromkeys([first, ENGLISH]))
        for lang in langs:
            if lang not in known_languages():
                raise SiteError(f"no phrase table for language `{lang}` (edition `{about.key}`)",
                                 f"write rulebook/phrases/{lang}.yaml, or use one of: {', '.join(known_languages())}")
        out.append(Booklets(path, ruleset, parent_ruleset(path, ruleset), tuple(dict.fromkeys(langs)),
                            applicable(path, ruleset)))
    unknown = sorted(set(languages) - {edition.ruleset.edition.key for edition in out} - set(bundled()))
    if unknown:
        raise SiteError(f"the rulebook `languages` option names unknown editions: {', '.join(unknown)}",
                         "name bundled edition ids in mkdocs.yml")
    return out


def booklet(edition: Booklets, lang: str) -> Booklet:
    return Booklet(edition.ruleset, phrases(lang), edition.parent, edition.variants)


def pages(edition: Booklets) -> dict[str, str]:
    """Every page of every booklet of the edition: docs-relative path -> Markdown."""
    return {f"{edition.id}/{lang}/{stem}.md": write(booklet(edition, lang))
            for lang in edition.languages for stem, _, write in PAGES}


def home(editions: list[Booklets]) -> str:
    words = phrases(ENGLISH)
    lines = [f"# {words.text('home/title')}\n", words.text("home/intro") + "\n",
             f"| {words.text('home/edition')} | {words.text('home/languages')} |", "|---|---|"]
    for edition in editions:
        title = edition.ruleset.edition.title or edition.id
        links = ", ".join(f"[{phrases(lang).text('language')}]({edition.id}/{lang}/index.md)"
                          for lang in edition.languages)
        lines.append(f"| {title} (`{edition.id}`) | {links} |")
    return "\n".join(lines) + "\n"


def nav(editions: list[Booklets]) -> list[dict]:
    """The booklets' part of the site's menu: edition, then language, then pages."""
    out = []
    for edition in editions:
        title = f"{edition.ruleset.edition.title or edition.id} ({edition.id})"
        by_lang = []
        for lang in edition.languages:
            words = phrases(lang)
            by_lang.append({words.text("language"): [{words.text(f"pages/{name}"): f"{edition.id}/{lang}/{stem}.md"}
                                                     for stem, name, _ in PAGES]})
        out.append({title: by_lang})
    return out
