"""Card texts read against card effects (verifier/texts.py), in each edition's money format."""
from __future__ import annotations

from boardrules.editions import concrete_editions, load
from verifier.texts import disagreements


def _edition(text: str, effect: list) -> dict:
    money = {"format": "€ {amount}", "thousands": ".", "salary": 200}
    return {"settings": {"money": money}, "decks": [{"id": "chest", "cards": [{"text": text, "effect": effect}]}]}


def _pay(amount: int) -> list:
    return [{"do": "transfer", "amount": {"k": "int", "v": amount}, "from": {"k": "var", "name": "me"},
             "to": {"k": "bank"}}]


def test_every_bundled_card_text_agrees_with_its_effect():
    for spec in concrete_editions():
        assert disagreements(load(spec, ()).ir) == [], spec


def test_amounts_are_read_in_the_editions_money_format():
    assert disagreements(_edition("Betaal € 1.500 boete", _pay(1500))) == []
    assert disagreements(_edition("Betaal € 1.500 boete", _pay(1501))) == [
        "card 0 of `chest`: the effect moves 1501, the text does not name it",
        "card 0 of `chest`: the text names 1500, the effect does not move it"]
    assert disagreements(_edition("Ga naar Start, u ontvangt € 200", [])) == []     # the salary
    assert disagreements(_edition("Betaal € 10 of neem een kaart", [{"do": "choose", "options": [
        {"label": "Betaal", "body": _pay(10)}, {"label": "Neem", "body": []}]}])) == []
