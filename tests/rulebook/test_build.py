"""Building the site: strict mkdocs, `boardrules docs`, a changed spec amount on the page, the lexer."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from pygments import lex
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, Operator

from boardrules.cli import main
from rulebook.lexer import RulesLexer
from spec import bundled
from tests.rulebook.conftest import elements, plain

REPO = Path(__file__).resolve().parents[2]


def test_mkdocs_build_strict_passes(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "out")],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "classic-se" / "sv" / "index.html").is_file()


@pytest.mark.parametrize("parent", ["classic-se", "wonders-se"])
def test_a_changed_amount_shows_on_the_page_written_the_editions_way(tmp_path, parent):
    """A rule designer changes the salary in a child of a Swedish edition; the booklet follows."""
    child = tmp_path / "my-se.rules"
    child.write_text(f"edition my-se extends {parent}\n\nmoney {{\n  salary = 4500   # house rule\n}}\n",
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["docs", str(child), "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    for lang in ("sv", "en"):
        salary = elements(tmp_path / "site" / "my-se" / lang / "index.html")["rule-money-salary-limit"]["text"]
        assert "4 500 kr" in salary and "4 000 kr" not in salary
    compare = plain(tmp_path / "site" / "my-se" / "en" / "compare" / "index.html")
    assert re.search(r"Salary 4 000 kr 4 500 kr different", compare)


def test_docs_with_a_variant_writes_the_booklet_with_it_laid_over(tmp_path):
    result = CliRunner().invoke(main, ["docs", "classic-se", "--variant", "short", "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    found = elements(tmp_path / "site" / "classic-se-with-short" / "en" / "index.html")
    assert "3 houses" in found["rule-building-hotels"]["text"] and "short" in found["variants-intro"]["text"]
    assert "rule-setup-1" in found and "variant-timed" not in found
    unknown = CliRunner().invoke(main, ["docs", "classic-se", "--variant", "shortest", "--out", str(tmp_path / "b")])
    assert unknown.exit_code == 2 and "no variant `shortest`" in unknown.output


def test_docs_errors_are_one_message_and_exit_2(tmp_path):
    runner = CliRunner()
    unknown = runner.invoke(main, ["docs", "classic-xx", "--out", str(tmp_path / "a")])
    assert unknown.exit_code == 2 and "error: no edition `classic-xx`" in unknown.output
    (tmp_path / "file").write_text("not a folder")
    a_file = runner.invoke(main, ["docs", "--out", str(tmp_path / "file")])
    assert a_file.exit_code == 2 and "is a file, not a folder" in a_file.output
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    not_a_site = runner.invoke(main, ["docs", "--out", str(tmp_path / "mine")])
    assert not_a_site.exit_code == 2 and (tmp_path / "mine" / "notes.txt").is_file()
    abstract = runner.invoke(main, ["docs", "classic", "--out", str(tmp_path / "b")])
    assert abstract.exit_code == 2 and "abstract" in abstract.output
    for result in (unknown, a_file, not_a_site, abstract):
        assert "Traceback" not in result.output


def test_the_rules_lexer_is_registered_and_reads_every_bundled_spec():
    assert isinstance(get_lexer_by_name("rules"), RulesLexer)
    assert isinstance(get_lexer_for_filename("classic.rules"), RulesLexer)
    for path in bundled().values():
        errors = [value for token, value in lex(path.read_text(encoding="utf-8"), RulesLexer()) if token is Error]
        assert not errors, (path.name, errors[:5])


def test_every_keyword_of_the_grammar_is_highlighted():
    """Issue 24 §4: the lexer's keywords come from grammar/rules.lark, so `invariant`,
    `example`, `procedure`, `remove` and the rest are keywords, not plain names; after a
    dot a word is an attribute (`me.cash`)."""
    from rulebook.lexer import AGGREGATES, grammar_words
    words = grammar_words()
    assert {"invariant", "example", "expect", "procedure", "action", "statistic", "state", "setup", "jump",
            "throw", "remove"} <= words
    for word in sorted(words):
        (token, value), *_ = lex(word + ("(" if word in AGGREGATES else " "), RulesLexer())
        highlighted = any(token in kind for kind in (Keyword, Operator.Word, Name.Namespace, Name.Builtin))
        assert value == word and highlighted, (word, token)
    tokens = [token for token, value in lex("me.cash\n", RulesLexer()) if value == "cash"]
    assert tokens == [Name]


def test_the_tutorial_is_highlighted_by_the_lexer(site):
    page = (site / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert '<span class="kd">edition</span>' in page and '<span class="c1"># A tiny edition' in page


def test_the_tutorial_edition_checks_and_plays(tmp_path):
    text = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    whole = max(re.findall(r"```rules\n(.*?)```", text, re.S), key=len)
    spec = tmp_path / "tiny.rules"
    spec.write_text(whole, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(spec)]).exit_code == 0
    played = runner.invoke(main, ["play", str(spec), "--players", "2", "--seed", "1"])
    assert played.exit_code == 0 and "winner" in played.output, played.output[-500:]
