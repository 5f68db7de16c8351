"""The booklets state every rule of RULES-MATRIX §1 to §4 that applies, as each edition's IR decides it
(§5, Metropol, in test_metropol.py)."""
from __future__ import annotations

import re

import pytest
from mkdocs.config import load_config

import grammar
from ir import dump
from ir.money import format_money
from rulebook.build import CONFIG
from rulebook.phrases import phrases
from rulebook.site import editions as site_editions
from spec import bundled, bundled_variants
from tests.rulebook.conftest import elements, plain

# RULES-MATRIX §1 and §2, rule by rule: the paragraph ids that state it.
SECTION_1 = {
    "2 dice; move clockwise; tokens share squares": ["rule-turn"],
    "turn order: highest roll starts, play passes left": ["rule-turn-order"],
    "doubles: roll again; three in a row: jail": ["rule-turn-doubles"],
    "GO salary on landing or passing": ["rule-money-salary-limit"],
    "unowned property: buy or auction; any start; decliner bids": [
        "rule-buy", "rule-auction", "rule-auction-decliner-may-bid"],
    "rent from the deed; none on mortgaged; ask in time": ["rule-rent"],
    "complete colour group: double rent on unbuilt lots": ["rule-rent-complete-group"],
    "stations: rent by number owned": ["rule-rent-station"],
    "utilities: multiplier x dice; by card: roll": ["rule-rent-utility"],
    "cards: top, obey, bottom; jail card kept and sold": ["rule-cards", "rule-cards-jail-card"],
    "a card move passing GO pays; go to jail never": ["rule-cards-moves"],
    "jail: sent, turn ends, ways out, third try, rights, visiting": [
        "rule-jail-sent", "rule-jail-leave", "rule-jail-max-turns", "rule-jail-collects-rent", "rule-jail-visiting"],
    "houses: complete group, evenly, max 4, not with a mortgage": [
        "rule-building", "rule-building-even", "rule-building-blocked-by-mortgage"],
    "hotels: 4 houses each lot, returned, one per lot": ["rule-building-hotels"],
    "housing shortage": ["rule-building-shortage"],
    "buildings sold to the bank at half; deeds between players": ["rule-building-sale-value", "rule-trade-deeds"],
    "mortgage: unbuilt, value, +10% to lift, 10% on transfer": [
        "rule-mortgage", "rule-mortgage-lift", "rule-mortgage-transfer"],
    "no loans between players": ["rule-trade-cash"],
    "the bank never goes bankrupt; buildings limited": ["rule-bank"],
    "bankrupt to a player": ["rule-bankruptcy-to-player"],
    "bankrupt to the bank": ["rule-bankruptcy-to-bank"],
    "winner: the last not bankrupt": ["rule-end-winner"],
}
SECTION_2 = {
    "start money": ["rule-money-start"],
    "salary at GO and its limit": ["rule-money-salary-limit"],
    "jail fine and when it is paid": ["rule-jail-leave", "rule-jail-fine-timing"],
    "utilities": ["rule-rent-utility"],
    "double rent with a mortgaged lot": ["rule-rent-mortgaged-group"],
    "selling a hotel": ["rule-building-hotel-sale"],
    "leaving jail by doubles": ["rule-jail-doubles-exit"],
    "tokens and buildings in the box": ["rule-contents"],
    "paying a debt with property": ["rule-debt-pay-with-deeds"],
}

# RULES-MATRIX §3: each variant (spec/variants/) applies to every classic-family booklet.
SECTION_3 = {
    "short game: two deeds dealt and paid, hotel after 3 houses, second bankruptcy ends": ["variant-short"],
    "time-limited game: agreed end, two deeds dealt, richest wins": ["variant-timed"],
    "US house rule: Free Parking jackpot": ["variant-jackpot"],
    "US house rule: all deeds dealt at the start": ["variant-deal-all"],
}
# RULES-MATRIX §4, for wonders-se: its hooks in the spec's order, its state, its invariant.
SECTION_4 = {
    "standard SE rules apply except as below; 8 tokens; hostels": ["rule-contents"],
    "passport: every square landed on is marked, except airports and utilities": ["state-passport", "rule-hook-1"],
    "deeds won at auction or dealt are marked": ["rule-hook-2"],
    "an airport lets you fly to an unvisited wonder and mark it": ["rule-hook-3"],
    "all wonders marked: bonus and the end; the most money wins": ["rule-hook-4", "rule-end-score", "rule-end-over"],
    "passports only grow; the game ends exactly when one holds all wonders": ["invariant-passport_ends_game"],
}


def booklets(editions, family: str | None = None):
    """Every booklet (IR, language); with `family`, only the editions of that family (its
    `edition.lineage` holds it), for the rules only that family has."""
    languages = load_config(str(CONFIG)).plugins["rulebook"].config.languages
    for edition in site_editions(list(editions), languages):
        if family is None or family in edition.ruleset.edition.lineage:
            for lang in edition.languages:
                yield dump(edition.ruleset), lang


CLASSIC = "classic"


def money(ir: dict, amount: int) -> str:
    return format_money(ir["settings"]["money"], amount)


def test_each_edition_is_written_in_its_source_language_and_english(site, editions):
    written = {ir["edition"]["key"]: [] for ir in editions.values()}
    for ir, lang in booklets(editions):
        written[ir["edition"]["key"]].append(lang)
    assert written == {"classic-se": ["sv", "en"], "classic-nl": ["nl", "en"], "classic-us": ["da", "en"],
                       "wonders-se": ["sv", "en"], "metropol-da": ["da", "en"]}
    for eid, langs in written.items():
        for lang in langs:
            title = phrases(lang).text("pages/rules_title", edition=editions[eid]["edition"]["title"])
            assert title in plain(site / eid / lang / "index.html")


def test_every_rule_of_the_matrix_has_its_paragraph(site, editions):
    for ir, lang in booklets(editions, CLASSIC):
        found = elements(site / ir["edition"]["key"] / lang / "index.html")
        for rule, ids in {**SECTION_1, **SECTION_2}.items():
            for ident in ids:
                assert ident in found and found[ident]["text"].strip(), \
                    f"{ir['edition']['key']}/{lang}: {rule}: no #{ident}"


def test_contested_rules_are_stated_as_decided(site, editions):
    for ir, lang in booklets(editions):
        found = elements(site / ir["edition"]["key"] / lang / "index.html")
        for decision in ir["decisions"]:
            ident = "rule-" + re.sub(r"[._]", "-", decision["key"])
            assert found[ident]["attrs"].get("data-choice") == decision["choice"], (ir["edition"]["key"], lang, ident)


def test_amounts_are_the_spec_amounts_written_the_editions_way(site, editions):
    for ir, lang in booklets(editions, CLASSIC):
        page = site / ir["edition"]["key"] / lang / "index.html"
        found, text = elements(page), plain(page)
        settings = ir["settings"]
        assert money(ir, settings["money"]["start"]) in found["rule-money-start"]["text"]
        for note in settings["money"]["notes"]:
            written = phrases(lang).text("note", count=note["count"], value=money(ir, note["value"]))
            assert written in found["rule-money-start"]["text"]
        assert money(ir, settings["money"]["salary"]) in found["rule-money-salary-limit"]["text"]
        assert money(ir, settings["jail"]["fine"]) in found["rule-jail-leave"]["text"]
        for sq in ir["squares"]:
            if sq["deed"]:
                row = " ".join(money(ir, r) for r in sq["deed"]["rent"]) if sq["kind"] != "utility" else ""
                assert f"{sq['name']} " in text and row in text, (ir["edition"]["key"], lang, sq["key"])
            for stmt in sq["on_land"]:
                if stmt["stmt"] == "transfer" and stmt["amount"]["expr"] == "int":
                    assert money(ir, stmt["amount"]["value"]) in found[f"square-{sq['key']}"]["text"]


def test_assumptions_list_every_assumed_rule(site, editions):
    for ir, lang in booklets(editions):
        found = elements(site / ir["edition"]["key"] / lang / "index.html")
        assumed = [path for path, note in ir["notes"].items() if "assumed" in note]
        assumed += [d["key"] for d in ir["decisions"] if "assumed" in (d["note"] or "")]
        assert assumed, ir["edition"]["key"]
        for path in assumed:
            ident = "assumed-" + re.sub(r"[._]", "-", path)
            assert ident in found, (ir["edition"]["key"], lang, path)


def test_the_worked_examples_are_quoted(site, editions):
    """docs/language.md "Examples": each booklet of an edition with worked examples lists them
    under its own heading, each with the spec's quote of the rule it shows."""
    quoted = 0
    for ir, lang in booklets(editions):
        found = elements(site / ir["edition"]["key"] / lang / "index.html")
        for example in ir.get("examples") or []:
            paragraph = found["example-" + example["name"].replace("_", "-")]["text"]
            assert example["text"][:60] in re.sub(r"\s+", " ", paragraph), (ir["edition"]["key"], lang, example["name"])
            quoted += 1
    assert quoted


def test_every_card_and_deed_is_printed(site, editions):
    """Every card's text, every deed's figures and every square's printed words are in the booklet."""
    for ir, lang in booklets(editions):
        eid = ir["edition"]["key"]
        cards = plain(site / eid / lang / "cards" / "index.html")
        for deck in ir["decks"]:
            for card in deck["cards"]:
                assert " ".join(card["text"].split()) in cards
        deeds = elements(site / eid / lang / "deeds" / "index.html")
        for sq in ir["squares"]:
            if sq["deed"]:
                card = deeds[f"deed-{sq['key']}"]["text"]
                assert sq["name"] in card
                assert "mortgage" not in sq["deed"] or money(ir, sq["deed"]["mortgage"]) in card
                if sq["kind"] == "lot":
                    assert all(money(ir, r) in card for r in sq["deed"]["rent"])
        board = plain(site / eid / lang / "board" / "index.html")
        assert all(" ".join(sq["text"].split()) in board for sq in ir["squares"] if sq.get("text"))


def test_same_and_new_against_the_parent(site, editions):
    for ir, lang in booklets(editions, CLASSIC):
        words = phrases(lang)
        text = plain(site / ir["edition"]["key"] / lang / "compare" / "index.html")
        parent = grammar.compile_file(bundled()[ir["edition"]["lineage"][-2]])
        decided = {d["key"] for d in parent["decisions"] if d["choice"] is not None}
        assert text.count(words.text("compare/decided")) >= len([d for d in ir["decisions"] if d["key"] not in decided])
        assert words.text("settings/money.salary") in text


def test_the_wonders_booklet_states_every_rule_of_section_4(site, editions):
    ir = editions["wonders-se"]
    ending = next(hook for hook in ir["hooks"] if {"stmt": "end_game"} in hook["body"])
    bonus = next(stmt["amount"]["value"] for stmt in ending["body"] if stmt["stmt"] == "transfer")
    for lang in ("sv", "en"):
        words = phrases(lang)
        found = elements(site / "wonders-se" / lang / "index.html")
        for rule, ids in SECTION_4.items():
            for ident in ids:
                assert ident in found and found[ident]["text"].strip(), f"wonders-se/{lang}: {rule}: no #{ident}"
        assert money(ir, bonus) in found[f"rule-hook-{ir['hooks'].index(ending) + 1}"]["text"]
        assert found["rule-end-score"]["attrs"]["data-choice"] == ir["settings"]["end"]["score"]
        assert words.text("names/hostel/many") in found["rule-contents"]["text"]
        assert words.text("names/airport/a") in found["rule-hook-3"]["text"]
        assert words.text("names/wonder/a") in found["rule-hook-3"]["text"]
        added = plain(site / "wonders-se" / lang / "compare" / "index.html")
        assert words.text("compare/added") in added and money(ir, bonus) in added


def test_every_classic_booklet_lists_its_variants_with_what_they_change(site, editions):
    for ir, lang in booklets(editions, CLASSIC):
        eid, words = ir["edition"]["key"], phrases(lang)
        found, text = elements(site / eid / lang / "index.html"), plain(site / eid / lang / "index.html")
        for rule, ids in SECTION_3.items():
            for ident in ids:
                assert ident in found, f"{eid}/{lang}: {rule}: no #{ident}"
        short = grammar.compile_file(bundled()[eid], [bundled_variants()["short"]])
        hotel = words.text("variants/setting", rule=words.text("settings/building.houses_per_hotel"),
                           new=short["settings"]["building"]["houses_per_hotel"],
                           old=ir["settings"]["building"]["houses_per_hotel"])
        assert hotel in text, (eid, lang)
        timed = grammar.compile_file(bundled()[eid], [bundled_variants()["timed"]])
        rounds = timed["settings"]["end"]["over"]["left"]["right"]["value"]
        assert words.text("cond/rounds", n=rounds) in text, (eid, lang)
        jackpot = grammar.compile_file(bundled()[eid], [bundled_variants()["jackpot"]])
        assert all(pot["name"] in text for pot in jackpot["pots"]), (eid, lang)


@pytest.mark.parametrize("lang", ["en", "sv", "nl", "da"])
def test_every_phrase_table_has_every_phrase(lang):
    def keys(node, prefix=""):
        out = set()
        for key, value in node.items():
            out.add(prefix + str(key))
            if isinstance(value, dict):
                out |= keys(value, f"{prefix}{key}/")
        return out
    assert keys(phrases(lang).table) == keys(phrases("en").table)
