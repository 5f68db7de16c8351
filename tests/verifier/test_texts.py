"""Printed texts read against the rules (verifier/texts.py): card and square texts against
their effects, in each edition's money format and `wording`, and the box's printed contents
against the rules' counts (docs/verifier.md, "Printed texts")."""
from __future__ import annotations

import copy

from boardrules.editions import load
from grammar.lookup import concrete_editions
from verifier.texts import disagreements

WORDING = {"pay": ["betaal", "boete"], "collect": ["ontvangt", "betaalt u"], "negation": ["geen"],
           "bank": ["bank"], "players": ["iedere speler"]}


def _edition(text: str, effect: list, squares: list | None = None, box: dict | None = None) -> dict:
    money = {"format": "€ {amount}", "thousands": ".", "salary": 200}
    return {"settings": {"money": money, "game": {"dice": 2, "tokens": 10}, "bank": {"houses": 32, "hotels": 12}},
            "wording": WORDING, "squares": squares or [], "box": box or {},
            "decks": [{"key": "chest", "cards": [{"text": text, "effect": effect}]}]}


def _move(amount, payer: dict, payee: dict) -> dict:
    amount = amount if isinstance(amount, dict) else {"expr": "int", "value": amount}
    return {"stmt": "transfer", "amount": amount, "payer": payer, "payee": payee}


ME, BANK, P = {"expr": "var", "name": "me"}, {"expr": "bank"}, {"expr": "var", "name": "p"}


def _pay(amount) -> list:
    return [_move(amount, ME, BANK)]


def _collect(amount) -> list:
    return [_move(amount, BANK, ME)]


def test_every_bundled_printed_text_agrees_with_the_rules():
    """Every bundled edition's cards, squares and box agree with its rules."""
    for spec in concrete_editions():
        assert disagreements(load(spec, ()).ir) == [], spec


def test_amounts_are_read_in_the_editions_money_format():
    """A card names the money it moves (001 "Du måste alltid följa de instruktioner som finns på ... korten")."""
    assert disagreements(_edition("Betaal € 1.500 boete", _pay(1500))) == []
    assert disagreements(_edition("Betaal € 1.500 boete", _pay(1501))) == [
        "card 0 of `chest`: the effect moves 1501, the text does not name it",
        "card 0 of `chest`: the text names 1500, the effect does not move it"]
    assert disagreements(_edition("Betaal € 10 of neem een kaart", [{"stmt": "choose", "options": [
        {"label": "Betaal", "body": _pay(10)}, {"label": "Neem", "body": []}]}])) == []


def test_the_salary_is_named_only_by_a_text_whose_effect_moves_the_token():
    """A card that moves you past the start names the salary it pays (001 "Om du passerar GÅ på
    din väg erhåller du 4.000"); a card that does not move you and names it must pay it."""
    assert disagreements(_edition("Ga naar Start, u ontvangt € 200", [{"stmt": "move_to", "square": 0}])) == []
    assert disagreements(_edition("Ga direct naar de gevangenis, u ontvangt geen € 200",
                                  [{"stmt": "go_to_jail"}])) == []
    assert disagreements(_edition("Vergissing van de bank, u ontvangt € 200", [])) == [
        "card 0 of `chest`: the text names 200, the effect does not move it"]


def test_the_words_before_an_amount_say_who_pays_it():
    """`wording`: an amount after a word of paying leaves the player, after a word of being paid
    it comes to the player; the nearest word before the amount governs it, or where none
    comes before it the first after it (classic-nl's chance 13, "€ 20 boete")."""
    assert disagreements(_edition("Betaal € 50", _collect(50))) == [
        "card 0 of `chest`: the text says `Betaal` 50, the effect pays it to the player"]
    assert disagreements(_edition("De bank betaalt u € 50", _pay(50))) == [
        "card 0 of `chest`: the text says `betaalt u` 50, the effect takes it from the player"]
    assert disagreements(_edition("De bank betaalt u € 50", _collect(50))) == []     # `betaalt u`, not `betaal`
    birthday = [{"stmt": "for", "var": "p", "over": {"expr": "var", "name": "others"}, "body": [_move(10, P, ME)]}]
    assert disagreements(_edition("U ontvangt van iedere speler € 10", birthday)) == []
    mixed = _pay(25) + _collect(10)
    assert disagreements(_edition("Betaal € 25 boete en u ontvangt € 10", mixed)) == []
    assert disagreements(_edition("U ontvangt € 25 en betaal € 10", mixed)) == [
        "card 0 of `chest`: the text says `ontvangt` 25, the effect takes it from the player",
        "card 0 of `chest`: the text says `betaal` 10, the effect pays it to the player"]
    assert disagreements(_edition("Aangehouden € 20", _collect(20))) == []   # no word of either: not read
    drunk = "Aangehouden wegens dronkenschap € 20 boete"
    assert disagreements(_edition(drunk, _pay(20))) == []
    assert disagreements(_edition(drunk, _collect(20))) == [
        "card 0 of `chest`: the text says `boete` 20, the effect pays it to the player"]


def test_a_word_of_not_says_the_amount_is_not_paid():
    """Issue 18 item 6, negation: "u ontvangt geen € 200" (classic-nl's go-to-jail cards) pays
    nothing: the effect need not move the amount, and must not pay it."""
    assert disagreements(_edition("Vergissing, u ontvangt geen € 200", [])) == []
    assert disagreements(_edition("Vergissing, u ontvangt geen € 200", _collect(200))) == [
        "card 0 of `chest`: the text says `ontvangt geen` 200, the effect pays it to the player"]


def test_the_party_a_text_names_is_the_transfers_other_side():
    """Issue 18 item 6, payer and payee: classic-nl's "U bent jarig en ontvangt van iedere
    speler € 10" is paid by each other player, "De bank betaalt u € 50" by the bank; a text
    that names no party is not read for one."""
    birthday = [{"stmt": "for", "var": "p", "over": {"expr": "var", "name": "others"}, "body": [_move(10, P, ME)]}]
    assert disagreements(_edition("U ontvangt van iedere speler € 10", _collect(10))) == [
        "card 0 of `chest`: the text says `iedere speler` for 10, the effect takes 10 from the bank"]
    assert disagreements(_edition("De bank betaalt u € 10", birthday)) == [
        "card 0 of `chest`: the text says `bank` for 10, the effect takes 10 from each player"]
    assert disagreements(_edition("U ontvangt € 10", birthday)) == []
    # the nearest party word in the amount's sentence: each player here, the bank in the next
    two = _pay(25) + [{"stmt": "for", "var": "p", "over": {"expr": "var", "name": "others"},
                       "body": [_move(10, ME, P)]}]
    assert disagreements(_edition("Betaal iedere speler € 10. Betaal de bank € 25", two)) == []
    assert disagreements(_edition("Betaal de bank € 10. Betaal iedere speler € 25", two)) == [
        "card 0 of `chest`: the text says `iedere speler` for 25, the effect pays 25 to the bank",
        "card 0 of `chest`: the text says `bank` for 10, the effect pays 10 to each player"]


def test_a_square_is_read_like_a_card_its_landing_and_passing_transfers_together():
    """001 "När du hamnar på dessa rutor betalar du helt enkelt den summa som anges på rutan":
    a square's printed amount is the amount it moves; a setting it reads (the salary) counts."""
    go = {"key": "go", "text": "U ontvangt € 200 salaris", "on_land": [],
          "on_pass": _collect({"expr": "setting", "path": "money.salary"})}
    tax = {"key": "tax", "text": "Betaal € 100", "on_land": _pay(100), "on_pass": []}
    assert disagreements(_edition("", [], [go, tax])) == []
    assert disagreements(_edition("", [], [dict(go, on_pass=[]), dict(tax, on_land=_pay(101))])) == [
        "square `go`: the text names 200, the effect does not move it",
        "square `tax`: the effect moves 101, the text does not name it",
        "square `tax`: the text names 100, the effect does not move it"]
    assert disagreements(_edition("", [], [dict(tax, on_land=_collect(100))])) == [
        "square `tax`: the text says `Betaal` 100, the effect pays it to the player"]


def test_the_box_holds_what_the_rules_count():
    """001 "UTRUSTNING": the box's printed counts are the rules' bank stock, deeds, tokens, dice
    and deck sizes (each line's first number; several lines under one count add up)."""
    box = {"source": "003", "houses": ["32 huizen"], "hotels": ["12 hotels"], "tokens": ["10 pionnen"],
           "dice": ["2 dobbelstenen"], "deeds": ["1 eigendomsbewijs"], "cards": ["1 Fonds-kaart"]}
    deed = {"key": "lot", "deed": {"group": "g"}, "on_land": [], "on_pass": []}
    assert disagreements(_edition("", [], [deed], box)) == []
    assert disagreements(_edition("", [], [deed], dict(box, deeds=["1 straat", "1 station"]))) == [
        'box (003): "1 straat" + "1 station" is 2, the rules\' deeds on the board 1']
    box_off = dict(box, houses=["31 huizen"], cards=["2 kaarten", "16 kaarten"])
    assert disagreements(_edition("", [], [deed], box_off)) == [
        'box (003): "31 huizen" is 31, the rules\' `bank.houses` 32',
        "box (003): 2 lines of cards, the rules have 1 decks",
        'box (003): "2 kaarten" is 2, the rules\' deck `chest` 1']


def test_a_broken_bundled_edition_is_caught():
    """classic-se with a house fewer, a tax paid to the lander, and the GO salary dropped."""
    ir = copy.deepcopy(load("classic-se", ()).ir)
    ir["settings"]["bank"]["houses"] -= 1
    squares = {sq["key"]: sq for sq in ir["squares"]}
    tax = squares["income_tax"]["on_land"][0]
    tax["payer"], tax["payee"] = tax["payee"], tax["payer"]
    squares["go"]["on_pass"] = []
    found = disagreements(ir)
    assert len(found) == 3, found
    assert found[0].startswith("square `go`: the text names ")
    assert found[1].startswith("square `income_tax`: the text says `Betala` ")
    assert found[2].startswith("box (001_62e33fb2098765e6.txt): \"32 hus\" is 32, the rules' `bank.houses` ")


def test_a_title_deed_prints_one_rent_per_level_which_the_rent_rule_charges():
    """§1: a lot's deed prints its rent unbuilt, with 1 to 4 houses and with a hotel (001 "Den
    summa du ska betala står angiven på lagfartsbeviset ... och varierar beroende på antalet
    byggnader"): a fifth house has no printed rent, and a rent rule that charges a built lot
    anything but its row disagrees with the deed."""
    ir = copy.deepcopy(load("classic-se", ()).ir)
    ir["settings"]["building"]["max_houses"] += 1
    found = disagreements(ir)
    assert found[0] == "deed `brown_1`: prints 6 rents, a lot has 7 levels (unbuilt, 1 to 5 houses, a hotel)"
    assert len(found) == sum(1 for sq in ir["squares"] if sq["kind"] == "lot")
    ir = copy.deepcopy(load("classic-se", ()).ir)
    built = ir["rent"]["lot"]["cond"]             # `if level > 0 then printed[level] else ...`
    built["operator"] = "<="
    rows = {sq["key"]: sq["deed"]["rent"] for sq in ir["squares"] if sq["kind"] == "lot"}
    assert (f"deed `brown_1`: the rent rule charges {rows['brown_1'][0] * 2} at level 1, "
            f"the deed prints {rows['brown_1'][1]}") in disagreements(ir)
