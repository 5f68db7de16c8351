"""The booklet says when each action is offered (docs/language.md, "Actions and their
windows"): its windows, in the booklet's language, from the action's definition."""
from __future__ import annotations

import pytest

from rulebook.booklet import capital
from rulebook.phrases import phrases
from rulebook.site import editions, pages
from tests.interpreter.test_windows import HOUSE_RULES


@pytest.mark.parametrize("lang", ["en", "sv", "da", "nl"])
def test_each_set_of_windows_has_its_introduction(tmp_path, lang):
    path = tmp_path / "windows.rules"
    path.write_text(HOUSE_RULES, encoding="utf-8")
    (booklets,) = editions([str(path)], {"windows": [lang]})
    text = "\n".join(pages(booklets).values())
    words = phrases(lang)
    before, end, raising = (words.text(f"actions/{w}") for w in ("before_roll", "end_of_turn", "raising"))
    assert words.text("actions/when", windows=capital(before)) in text                     # tip
    assert words.text("actions/when", windows=capital(raising)) in text                    # beg
    assert words.text("actions/when", windows=capital(words.join([before, end]))) in text  # count_cash
    assert words.text("actions/intro") not in text      # no action is offered at the turn's end alone
    assert f"## {words.text('sections/actions_in_windows')} {{#actions}}" in text


def test_actions_only_at_the_end_of_the_turn_keep_their_heading_and_introduction(tmp_path):
    """As Metropol's BYGGERET (004 p. 11) reads: "at the end of your turn" heads them."""
    path = tmp_path / "windows.rules"
    path.write_text(HOUSE_RULES.replace('"Tip" at before_roll', '"Tip"').replace(" at before_roll, end_of_turn", "")
                    .replace('"Beg" at raising', '"Beg"'), encoding="utf-8")
    (booklets,) = editions([str(path)], {"windows": ["en"]})
    text = "\n".join(pages(booklets).values())
    words = phrases("en")
    assert words.text("actions/intro") in text and capital(words.text("actions/before_roll")) not in text
    assert f"## {words.text('sections/actions')} {{#actions}}" in text
