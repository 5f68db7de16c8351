"""The verifier's lemmas (verifier/symbolic/lemmas.py), built from IR nodes: what they say
on concrete states of every bundled edition, and that the proofs still prove them."""
from __future__ import annotations

import pytest

import grammar
import spec
from grammar.lookup import concrete_editions
from verifier import prove
from verifier.symbolic.engine import holds
from verifier.symbolic.lemmas import lemmas
from verifier.symbolic.state import initial
from verifier.verdicts import Proved

LEMMA = {lemma["name"]: lemma for lemma in lemmas()}


@pytest.fixture(scope="module", params=concrete_editions())
def edition(request):
    return prove.playable(grammar.compile_file(str(spec.bundled()[request.param])))


def _holds(edition, name: str, change) -> bool:
    """The lemma on the start state of a two-player game after `change(state, deed)` on its
    first deed."""
    state = initial(edition, 2)
    change(state, edition.deeds[0])
    return holds(edition, LEMMA[name], state)


def _unchanged(state, deed):
    pass


def test_the_lemmas_hold_at_the_start(edition):
    assert _holds(edition, "building_levels", _unchanged) is True
    assert _holds(edition, "bank_holds_unbuilt", _unchanged) is True


def test_building_levels(edition):
    """A lot holds 0 to `building.max_houses` houses, or hotels and no houses."""
    def houses(count):
        def build(state, deed):
            state.owner[deed], state.houses[deed] = 0, count      # the first player's
        return build

    def hotel_and_house(state, deed):
        state.owner[deed], state.houses[deed], state.hotels[deed] = 0, 1, 1

    assert _holds(edition, "building_levels", houses(edition.max_houses)) is True
    assert _holds(edition, "building_levels", houses(edition.max_houses + 1)) is False
    assert _holds(edition, "building_levels", houses(-1)) is False
    assert _holds(edition, "building_levels", hotel_and_house) is False


def test_bank_holds_unbuilt(edition):
    """A deed the bank holds has no building and no mortgage; a player's may."""
    def mortgaged(state, deed):
        state.mortgaged[deed] = True

    def built(state, deed):
        state.houses[deed] = 1

    def owned_and_mortgaged(state, deed):
        state.owner[deed] = 1            # the second player's
        mortgaged(state, deed)

    assert _holds(edition, "bank_holds_unbuilt", mortgaged) is False
    assert _holds(edition, "bank_holds_unbuilt", built) is False
    assert _holds(edition, "bank_holds_unbuilt", owned_and_mortgaged) is True


@pytest.mark.parametrize("name", sorted(LEMMA))
@pytest.mark.parametrize("action", ["build_house", "sell_building", "mortgage"])
def test_the_proofs_prove_the_lemmas(name, action):
    """Their rows in classic-se's table (`boardrules verify`): proved at the start and
    preserved by the actions that change buildings and mortgages."""
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    assert isinstance(prove.prove_initial(ir, LEMMA[name], 2), Proved)
    assert isinstance(prove.prove_preserves(ir, LEMMA[name], action, 2), Proved)
