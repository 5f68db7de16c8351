"""The phrase tables: every word a booklet prints, one YAML file per language."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

TABLES = Path(__file__).with_name("phrases")


class MissingPhrase(Exception):
    """A booklet needs a text the language's table does not have: name it, so a writer can add it."""


def languages() -> list[str]:
    """Every language with a phrase table."""
    return sorted(path.stem for path in TABLES.glob("*.yaml"))


@dataclass(frozen=True)
class Phrases:
    """One language's table; `text` fills a phrase's {placeholders}."""

    lang: str
    table: dict

    def raw(self, key: str) -> Any:
        node = self.table
        for part in key.split("/"):
            if not isinstance(node, dict) or part not in node:
                raise MissingPhrase(f"the `{self.lang}` phrase table has no `{key}`: "
                                    f"add it to {TABLES / self.lang}.yaml")
            node = node[part]
        return node

    def has(self, key: str) -> bool:
        try:
            self.raw(key)
        except MissingPhrase:
            return False
        return True

    def text(self, key: str, **values: object) -> str:
        try:
            return str(self.raw(key)).format(**values)
        except KeyError as error:
            raise MissingPhrase(f"the `{self.lang}` phrase `{key}` uses {{{error.args[0]}}}, "
                                "which this booklet does not know") from None

    def join(self, items: list[str], word: str = "and") -> str:
        """`a, b and c` the language's way."""
        if len(items) < 2:
            return "".join(items)
        return self.text("list/separator").join(items[:-1]) + self.text(f"list/{word}") + items[-1]


@cache
def phrases(lang: str) -> Phrases:
    path = TABLES / f"{lang}.yaml"
    if not path.is_file():
        raise MissingPhrase(f"no phrase table for language `{lang}`: the tables are {', '.join(languages())}")
    return Phrases(lang, yaml.safe_load(path.read_text(encoding="utf-8")))
