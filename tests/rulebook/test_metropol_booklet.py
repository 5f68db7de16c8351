"""The Metropol booklets (metropol-da, in Danish and English) state every rule of RULES-MATRIX §5,
in words read from its IR: the city, the end-of-turn actions, the named rules, the auction with
pre-emption, raising money by auction, the end phase; and nothing of the classic games it lacks."""
from __future__ import annotations

import re

import pytest

from rulebook.phrases import phrases
from tests.rulebook.conftest import elements, plain

MET = "metropol-da"
LANGUAGES = ("da", "en")

# RULES-MATRIX §5, rule by rule: the paragraph ids that state it.
SECTION_5 = {
    "3 to 6 players; board, 3 dice, 6 tokens, the cards": ["rule-players", "rule-contents"],
    "40 squares: streets and bridges, Metropol squares; the city of quarters and areas": [
        "rule-squares-deeds", "square-metropol_1", "rule-city"],
    "Stock Exchange: salary passing it, more landing on it": ["square-stock_exchange"],
    "City Hall: move to a free permit and auction it, or a free block": ["square-city_hall"],
    "Highway: two dice one at a time, to the square they number": ["square-highway"],
    "Court: the dice times an amount": ["square-court"],
    "setup: tokens on the start, two random street permits, start money, highest roll starts": [
        "rule-setup-board", "rule-setup-1", "rule-money-start", "rule-turn-order"],
    "turn: 3 dice clockwise; three of a kind moves any number of squares, no extra roll": [
        "rule-turn", "rule-game-doubles-again", "rule-hook-4"],
    "one or two blocks at the end of a turn, never two in one area": [
        "actions-intro", "action-build_block", "term-may_build"],
    "unowned street or bridge: auction, everyone bids in steps within cash, pre-emption": [
        "rule-auction-only", "rule-auction-raises", "rule-auction-bid-within-cash", "rule-auction-preempt"],
    "another player's street: base value plus permit value; a fund doubles it": [
        "rule-rent", "rule-rent-formula-lot", "term-permit_value"],
    "own street: a free block": ["rule-hook-1"],
    "bridges: toll by bridges owned, then an optional crossing; own bridge crosses free": [
        "rule-rent-formula-station", "rule-hook-2", "rule-hook-3", "procedure-cross"],
    "city plan: skyscrapers in turn, height limits, one per quarter, building compulsory after the fourth": [
        "procedure-place_block", "term-cap", "term-quarter_roof", "term-skyscrapers", "action-build_block"],
    "trading; no loans; the bank lends and buys nothing": ["rule-trade-deeds", "rule-trade-loans", "rule-bank"],
    "bankruptcy: permits auctioned one at a time, then out": ["rule-debt-auction-deeds", "rule-bankruptcy-to-player"],
    "end: one player left or the last block; play on to the Highway; scored by fortune": [
        "rule-end-over", "rule-end-sits-out", "rule-end-score", "term-final_phase", "term-fortune"],
}
# What the classic games have and Metropol does not: no paragraph of these may appear.
CLASSIC_ONLY = ("rule-jail-", "rule-building", "rule-mortgage", "rule-buy", "rule-turn-doubles", "rule-cards-jail-card",
                "rule-rent-complete-group", "rule-rent-station")


@pytest.fixture(scope="module")
def met(editions) -> dict:
    return editions[MET]


def page(site, lang: str, name: str = "index"):
    return site / MET / lang / ("index.html" if name == "index" else f"{name}/index.html")


def fixed(lang: str, key: str) -> str:
    """The longest fixed piece of a phrase (between its {placeholders}): what its paragraph must show."""
    return max(re.split(r"\{[^}]*\}", phrases(lang).raw(key)), key=len).strip(" .,:;")


def written(ir: dict, amount: int) -> str:
    """An amount as the edition writes it, from its money settings (not the rulebook's formatter)."""
    money = ir["settings"]["money"]
    return money["format"].format(amount=f"{amount:,}".replace(",", money.get("thousands", ",")))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_of_section_5_has_its_paragraph(site, met, lang):
    found = elements(page(site, lang))
    for rule, ids in SECTION_5.items():
        for ident in ids:
            assert ident in found and found[ident]["text"].strip(), f"{MET}/{lang}: {rule}: no #{ident}"
    assert not [ident for ident in found if ident.startswith(CLASSIC_ONLY)]
    assert not {"jail", "building", "mortgages", "stations"} & set(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_is_in_words(site, met, lang):
    """No rule falls back to "the spec's formula" or "what the spec says": each is read out."""
    words = phrases(lang)
    for name in ("index", "board", "deeds", "cards"):
        text = plain(page(site, lang, name))
        assert words.text("cond/formula") not in text and words.text("effects/unsupported") not in text, name
        assert not re.search(r"\w\.\.(?!\.)", text), name   # `{amount} kr.` ending a sentence: one full stop


@pytest.mark.parametrize("lang", LANGUAGES)
def test_amounts_are_written_the_editions_way(site, met, lang):
    found = elements(page(site, lang))
    settings = met["settings"]
    assert written(met, settings["money"]["start"]) in found["rule-money-start"]["text"]
    assert written(met, settings["money"]["salary"]) in found["square-stock_exchange"]["text"]
    assert written(met, settings["auction"]["preempt"]) in found["rule-auction-preempt"]["text"]
    assert all(written(met, r) in found["rule-auction-raises"]["text"] for r in settings["auction"]["raises"])
    action = met["actions"][0]
    price = next(stmt["amount"] for stmt in action["effect"] if stmt["stmt"] == "transfer")
    assert written(met, met["formulas"][price["function"]]["body"]["value"]) in found[f"action-{action['key']}"]["text"]
    text = plain(page(site, lang))
    for sq in met["squares"]:
        if sq["deed"]:
            assert sq["name"] in text and all(written(met, r) in text for r in sq["deed"]["rent"]), sq["key"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_city_is_a_table_of_areas_by_quarter(site, met, lang):
    text = plain(page(site, lang))
    assert fixed(lang, "city/intro") in elements(page(site, lang))["rule-city"]["text"]
    names = {sq["key"]: sq["name"] for sq in met["squares"]}
    for area in met["areas"]:
        faces = phrases(lang).join([names[sid] for sid in area["faces"]])
        assert f"{area['quarter']} {area['key']} {faces}" in text, area["key"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_actions_procedures_and_hooks_are_said_in_words(site, met, lang):
    found = elements(page(site, lang))
    words = phrases(lang)
    action = found[f"action-{met['actions'][0]['key']}"]["text"]
    assert met["actions"][0]["label"] in action
    assert fixed(lang, "actions/allowed") in action and fixed(lang, "actions/required") in action
    for pid in met["procedures"]:
        assert fixed(lang, f"terms/{pid}").lower() in found[f"procedure-{pid}"]["text"].lower()
    events = [hook["event"] for hook in met["hooks"]]
    for n, event in enumerate(events, 1):
        assert fixed(lang, f"hooks/{event}") in found[f"rule-hook-{n}"]["text"], (n, event)
    roll = found[f"rule-hook-{events.index('roll') + 1}"]["text"]
    assert words.text("expr/names/doubles") in roll
    highway = found["square-highway"]["text"]
    assert fixed(lang, "effects/throw") in highway and fixed(lang, "effects/jump_to") in highway
    assert fixed(lang, "effects/place_at") in found["procedure-cross"]["text"]
    assert fixed(lang, "effects/raise") in found["procedure-place_block"]["text"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_phase_and_the_score(site, met, lang):
    found = elements(page(site, lang))
    assert fixed(lang, "rules/end.sits_out") in found["rule-end-sits-out"]["text"]
    score = found["rule-end-score"]
    assert score["attrs"]["data-choice"] == met["settings"]["end"]["score"]
    assert fixed(lang, "terms/fortune") in score["text"]
    for inv in met["invariants"]:
        if inv["origin"] == MET:
            assert inv["text"] in found[f"invariant-{inv['name']}"]["text"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_assumptions_are_listed(site, met, lang):
    found = elements(page(site, lang))
    assert fixed(lang, "assumptions/intro") in found["assumptions"]["text"]
    assumed = {path: note for path, note in met["notes"].items() if re.search(r"\bassumed\b", note, re.I)}
    assert assumed
    for path, note in assumed.items():
        item = found["assumed-" + re.sub(r"[._]", "-", path)]["text"]
        assert note in item and re.search(r"\b[Aa]ssumed\b", item), path


@pytest.mark.parametrize("lang", LANGUAGES)
def test_deeds_board_and_compare_pages(site, met, lang):
    """No printed price anywhere (every deed is auctioned); no parent edition to compare with."""
    deeds = elements(page(site, lang, "deeds"))
    for sq in met["squares"]:
        if sq["deed"]:
            card = deeds[f"deed-{sq['key']}"]
            assert sq["name"] in card["text"] and all(written(met, r) in card["text"] for r in sq["deed"]["rent"])
    assert 'class="deed-price"' not in page(site, lang, "deeds").read_text(encoding="utf-8")
    assert 'class="price"' not in page(site, lang, "board").read_text(encoding="utf-8")
    words = phrases(lang)
    compare = plain(page(site, lang, "compare"))
    assert words.text("compare/no_parent", edition=met["edition"]["title"]) in compare


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_of_the_rules_are_defined_by_their_values(site, met, lang):
    """A formula that is a number (the blocks in the box, a block's price) is listed with its value."""
    found = elements(page(site, lang))
    numbers = {fn: formula["body"]["value"] for fn, formula in met["formulas"].items()
               if formula["body"]["expr"] == "int"}
    assert numbers
    for fn, value in numbers.items():
        text = found[f"term-{fn}"]["text"]
        assert written(met, value) in text or re.search(rf"\b{value}\b", text), (fn, text)
