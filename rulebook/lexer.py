"""A Pygments lexer for `.rules` specs, registered as `rules` (entry point `pygments.lexers`),
so mkdocs, Sphinx or any Pygments user highlights spec excerpts."""
from __future__ import annotations

import re
from pathlib import Path

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

import grammar

STRUCTURE = ("abstract", "edition", "extends", "contested", "decide", "formula", "group", "board", "deck", "card")
SECTIONS = ("about", "game", "money", "bank", "jail", "auction", "building", "mortgage", "trade", "bankruptcy",
            "debt", "end", "rent", "wording", "box")
SQUARE_KINDS = ("square", "lot", "station", "utility")
BLOCKS = ("on_land", "on_pass")
EFFECTS = ("pay", "collect", "to", "from", "move", "by", "advance", "nearest", "with", "go", "draw", "keep",
           "choose", "for", "in", "if", "then", "else")
OPERATORS = ("and", "or", "not")
AGGREGATES = ("sum", "count", "max", "min", "any", "all")


def grammar_words() -> frozenset[str]:
    """Every word the language's grammar (grammar/rules.lark) spells out: its keywords."""
    text = (Path(grammar.__file__).parent / "rules.lark").read_text(encoding="utf-8")
    return frozenset(re.findall(r'"([a-z_]{2,})"', text))


# the grammar's other keywords (`invariant`, `example`, `procedure`, ...), read from the grammar
# so that a new one is highlighted without an edit here; not after a dot, where a word such
# as `cash` or `houses` is an attribute
KEYWORDS = tuple(sorted(grammar_words() - {*STRUCTURE, *SECTIONS, *SQUARE_KINDS, *BLOCKS, *EFFECTS, *OPERATORS,
                                           *AGGREGATES, "yes", "no"}))


class RulesLexer(RegexLexer):
    """The rules language of boardrules (docs/language.md)."""

    name = "Rules"
    aliases = ["rules", "boardrules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-boardrules"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            (r"(edition)(\s+)([a-z][a-z0-9_-]*)", bygroups(Keyword.Declaration, Whitespace, Name.Namespace)),
            (r"(extends)(\s+)([a-z][a-z0-9_-]*)", bygroups(Keyword.Declaration, Whitespace, Name.Namespace)),
            (words(STRUCTURE, suffix=r"\b"), Keyword.Declaration),
            (words(SQUARE_KINDS, suffix=r"\b"), Keyword.Type),
            (words(BLOCKS, suffix=r"\b"), Keyword.Reserved),
            (words(EFFECTS, suffix=r"\b"), Keyword),
            (words(OPERATORS, suffix=r"\b"), Operator.Word),
            (words(("yes", "no"), suffix=r"\b"), Keyword.Constant),
            (words(AGGREGATES, suffix=r"(?=\s*\()"), Name.Builtin),
            (words(SECTIONS, suffix=r"\b"), Name.Namespace),
            (words(KEYWORDS, prefix=r"(?<![.\w])", suffix=r"\b"), Keyword),
            (r"\d[\d_]*%", Number.Integer),
            (r"\d[\d_]*", Number.Integer),
            (r"\.\.|==|!=|<=|>=|[-+*/<>=|]", Operator),
            (r"[{}()\[\],.:]", Punctuation),
            (r"[a-z_][a-z0-9_]*(?=\s*\()", Name.Function),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r".", Text),
        ],
        "string": [
            (r'[^"\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", String.Double, "#pop"),
        ],
    }
