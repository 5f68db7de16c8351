"""One built site for the rulebook tests: built once per session, strictly, as `boardrules docs` builds it."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import grammar
from grammar.lookup import concrete_editions
from spec import bundled

# Without mkdocs the folder is skipped before its test modules (which import mkdocs) are collected.
pytest.importorskip("mkdocs", reason="mkdocs is in the `docs` extra (pulled in by `test`)")


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    from rulebook.build import build_site  # needs mkdocs: imported once the skip above has passed

    out = tmp_path_factory.mktemp("site")
    build_site(out)
    return out


@pytest.fixture(scope="session")
def editions() -> dict[str, dict]:
    return {eid: grammar.compile_file(bundled()[eid]) for eid in concrete_editions()}


class Elements(HTMLParser):
    """Every element with an id: its attributes and the text inside it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, dict] = {}
        self.open: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        ident = attrs.get("id")
        if ident:
            self.found[ident] = {"attrs": attrs, "text": ""}
        if tag not in {"br", "img", "hr", "input", "meta", "link", "rect", "path", "col"}:
            self.open.append((tag, ident))

    def handle_endtag(self, tag):
        if tag not in (name for name, _ in self.open):
            return
        while self.open:
            name, _ = self.open.pop()
            if name == tag:
                break

    def handle_data(self, data):
        for _, ident in self.open:
            if ident:
                self.found[ident]["text"] += data


def elements(page: Path) -> dict[str, dict]:
    parser = Elements()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.found


def plain(page: Path) -> str:
    """The page's text without tags, entities decoded."""
    parser = Elements()
    parser.feed(f'<div id="all">{page.read_text(encoding="utf-8")}</div>')
    return re.sub(r"\s+", " ", parser.found["all"]["text"])
