"""The language's vocabulary: sections, setting keys and their kinds, names, attributes, types.

This is language definition (docs/language.md), not edition data: which keys exist and
what they hold, never what an edition sets them to.
"""
from __future__ import annotations

from dataclasses import dataclass

# ---- types of expressions ------------------------------------------------------------------

@dataclass(frozen=True)
class Type:
    """An expression's type. `element` for sets and lists; `options` for enums."""

    name: str
    element: Type | None = None
    options: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.name in ("set", "list"):
            return f"{self.name} of {self.element}"
        return "option" if self.name == "enum" else self.name


INT = Type("int")
RATIO = Type("ratio")
BOOL = Type("bool")
PLAYER = Type("player")
PARTY = Type("party")    # a player or the bank (who holds a deed); a player is a party
DEED = Type("deed")
GROUP = Type("group")
DECK = Type("deck")
PLAYERS = Type("set", PLAYER)
DEEDS = Type("set", DEED)
GROUPS = Type("set", GROUP)
DECKS = Type("set", DECK)
NUMBERS = Type("list", INT)
SQUARE = Type("square")
SQUARES = Type("set", SQUARE)
AREA = Type("area")
AREAS = Type("set", AREA)
QUARTER = Type("quarter")
POT = Type("pot")
ANY = Type("any")  # a formula parameter before its use says what it is

# `5%` is 5/PERCENT: a percent is a hundredth. A language constant, not an edition's amount:
# the edition-fact scan in tests/test_editions.py allows this one line by name.
PERCENT = 100


def enum(options: tuple[str, ...]) -> Type:
    return Type("enum", options=tuple(options))


def is_number(t: Type) -> bool:
    return t.name in ("int", "ratio", "any")


# ---- settings --------------------------------------------------------------------------

@dataclass(frozen=True)
class Key:
    """A setting key: the kind of value it takes, and whether a concrete edition needs it.

    Kinds: int, bool, text, texts (a text or a list of texts), name (a free word such
    as a language code), word (one of `options`, the rulebook glossary's words), range, notes,
    numbers, square, formula, enum (with `options`), condition (a yes/no expression), rent (an
    amount expression over the rent names), due (a yes/no expression over the rent names and
    `me`, the lander), lander (a yes/no expression over a move's names and `here`, the free
    deed the lander stands on), holder (a yes/no expression over `me`, a player, and `here`, a
    deed they hold), printed (an amount of the numbers printed on a deed, `here`).
    """

    kind: str
    required: bool = True
    options: tuple[str, ...] = ()
    least: int | None = None     # the smallest number (each number, of a list) the key takes
    most: int | None = None      # the largest
    hint: str = ""               # why: the hint of the error for a number out of bounds


# What the engine can play: it tabulates every throw of the dice once (interpreter/edition.py,
# the odds of each total), so a game throws 1 to MOST_DICE dice of 1 to MOST_DIE_FACES faces.
# The words `about` may call the houses, lots and stations (`about { lot = wonder }`): the
# rulebook's glossary has each in every language (`names` in rulebook/phrases/<lang>.yaml,
# which tests/rulebook checks), so a new word is a glossary entry in each table and a word here.
GLOSSARY_WORDS = ("house", "hostel", "lot", "street", "wonder", "station", "airport", "bridge", "utility")

MOST_DICE = 10
MOST_DIE_FACES = 100
DICE_HINT = f"the engine plays games of 1 to {MOST_DICE} dice of 1 to {MOST_DIE_FACES} faces"

SECTIONS: dict[str, dict[str, Key]] = {
    # `house`, `lot`, `station`: the word a rulebook uses for that kind of thing (`house = hostel`),
    # a key of the rulebook's glossary (rulebook/phrases/<lang>.yaml `names`), as the IR's `edition.words`.
    "about": {"title": Key("text"), "language": Key("name"), "source": Key("text", required=False),
              "source_language": Key("name", required=False),
              **{key: Key("word", required=False, options=GLOSSARY_WORDS) for key in ("house", "lot", "station")}},
    "game": {
        "players": Key("range"),
        "dice": Key("int", least=1, most=MOST_DICE, hint=DICE_HINT),
        "die_faces": Key("int", least=1, most=MOST_DIE_FACES, hint=DICE_HINT),
        "doubles_to_jail": Key("int"), "start": Key("square"), "turn_cap": Key("int"),
        "tokens": Key("int", required=False),
        "doubles_again": Key("bool", required=False),       # default yes: a double rolls again
    },
    "money": {
        "currency": Key("text"), "format": Key("text"), "thousands": Key("text", required=False),
        "start": Key("int"), "notes": Key("notes", required=False), "salary": Key("int"),
        "rounding": Key("enum", options=("up", "down")),
    },
    "bank": {"houses": Key("int"), "hotels": Key("int")},
    "jail": {
        "square": Key("square"), "max_turns": Key("int"), "fine": Key("int"),
    },
    # `may`: when the lander may buy the free deed it stands on, at its printed price (default:
    # always; a buyer short of cash raises it as for any debt)
    "buy": {"may": Key("lander", required=False)},
    "auction": {
        "on_decline": Key("lander"),     # when a free deed the lander did not buy is auctioned
        "decliner_may_bid": Key("bool"), "bid_within_cash": Key("bool"),
        "raises": Key("numbers", least=1, hint="a raise of 0 leaves the bid where it is, and the auction never ends"),
        "only": Key("bool", required=False),       # default no: yes sells every deed by auction, no printed price
        "preempt": Key("int", required=False),     # the lander may take the deed for the last bid + this
    },
    # `may`: when a player may build on a lot they hold (a house or a hotel), besides what the
    # lot's level, the bank's stock, the player's cash and `even` allow
    "building": {
        "max_houses": Key("int"), "houses_per_hotel": Key("int"), "hotels_per_lot": Key("int"),
        "even": Key("bool"), "may": Key("holder"),
        # what the bank pays for a house sold back, for a hotel sold back whole, and for a
        # hotel traded back for houses (the houses come from its stock): amounts printed on the lot
        "sell_house": Key("printed"), "sell_hotel": Key("printed"), "trade_hotel": Key("printed"),
    },
    # `lift`: what lifting a mortgage costs, paid to the bank; `transfer`: what the new holder
    # of a mortgaged deed pays the bank now to keep the mortgage (or else lifts it at once).
    # Both are amounts of the deed's printed numbers (`PRINTED_DEED_NAMES`). `may`: when a player
    # may mortgage an unmortgaged deed they hold; `may_lift`: when they may lift the mortgage of
    # one (default: whenever they have the cash), before a roll or on receiving it.
    "mortgage": {"lift": Key("printed"), "transfer": Key("printed"), "may": Key("holder"),
                 "may_lift": Key("holder", required=False)},
    "trade": {
        "deeds": Key("bool"), "jail_cards": Key("bool"), "cash": Key("bool"), "built_groups": Key("bool"),
    },
    "bankruptcy": {},
    "debt": {"auction_deeds": Key("bool", required=False)},   # yes: money is raised only by auctioning deeds
    "end": {"over": Key("condition"), "score": Key("formula"),
            "sits_out": Key("formula", required=False)},          # a player it holds for takes no more turns
    # `due`: when a player landing on another's deed owes its rent (default: always)
    "rent": {"lot": Key("rent"), "station": Key("rent"), "utility": Key("rent"), "due": Key("due", required=False)},
    # What the game's printed parts say, for the verifier to read the rules against
    # (grammar/printed.py): the words the cards and squares use for "you pay" and "you
    # receive", for "not" (`negation`: "do not collect"), and for the parties they name (the bank,
    # each player, the owner), in the edition's own language.
    "wording": {key: Key("texts", required=False)
                for key in ("pay", "collect", "negation", "bank", "players", "owner")},
    # The box's contents as the rule book prints them, each line (`houses = "..."`) under
    # the count it states; `cards` has one line per deck, in the order of the decks.
    "box": {"source": Key("text", required=False), "houses": Key("texts", required=False),
            "hotels": Key("texts", required=False), "deeds": Key("texts", required=False),
            "tokens": Key("texts", required=False), "dice": Key("texts", required=False),
            "cards": Key("texts", required=False)},
}

# `about` describes the edition (IR `edition`); settings of kind `rent` are the IR's top-level
# `rent`; the printed parts' sections are IR top-level keys of their own (only where an edition
# has them). Every other section is a part of IR `settings`.
EDITION_SECTION = "about"
PRINTED_SECTIONS = ("wording", "box")
# Sections an edition may leave out entirely: the game then has no jail, no houses and hotels,
# no mortgages, no building stock (their keys are required only of an edition that uses them).
OPTIONAL_SECTIONS = ("jail", "building", "mortgage", "bank")
# The part of the game each optional section's settings are rules of.
SECTION_PART = {"jail": "jail", "building": "houses", "bank": "houses", "mortgage": "mortgage"}


def parts(settings: dict) -> set[str]:
    """The optional parts an edition's game has, read off its IR settings: a `jail` (a jail
    square named), `houses` (a lot holds some) and `mortgage`s (their terms given). An
    edition without one leaves its section out, which then reads 0 and `no`."""
    found = {"jail": "square" in settings.get("jail", {}),
             "houses": settings.get("building", {}).get("max_houses", 0) > 0,
             "mortgage": bool(settings.get("mortgage"))}
    return {part for part, has in found.items() if has}


WORDS = ("house", "lot", "station")   # the `about` keys that name a kind of thing for the rulebook (a word)

DEED_KINDS = ("lot", "station", "utility")

GROUP_KEYS: dict[str, Key] = {
    "kind": Key("enum", options=DEED_KINDS),
    "name": Key("text", required=False),
    "color": Key("text", required=False),
    "house_cost": Key("int"),  # required of lot groups only
    "hotel_cost": Key("int"),
}

DEED_KEYS: dict[str, Key] = {
    "group": Key("group"), "price": Key("int"), "mortgage": Key("int"), "rent": Key("numbers"),
}
LOT_KEYS: dict[str, Key] = {"house_cost": Key("int", required=False), "hotel_cost": Key("int", required=False)}
# Any square: the number printed on it, the square a crossing from it reaches, and the words
# printed on it (`text = "..."`), which the verifier reads against its transfers.
SQUARE_KEYS: dict[str, Key] = {"number": Key("int", required=False), "across": Key("square", required=False),
                               "text": Key("text", required=False)}

# `area ID { quarter = NAME  faces = [SQUARE, ...] }`: a place to build, in a quarter of the
# city, facing the deed squares whose rent it feeds.
AREA_KEYS: dict[str, Key] = {"quarter": Key("name"), "faces": Key("squares")}
# `action NAME(VAR in SET) { allowed = COND  required = COND  effect { ... } }`
ACTION_KEYS: dict[str, Key] = {"allowed": Key("condition"), "required": Key("condition", required=False)}
# `action ... at WINDOW, ...`: when the engine offers an action to a player. `before_roll`: the
# window before each roll of the player's turn (where the classic game builds, sells and
# mortgages); `end_of_turn`: once the turn's moves are done (the default); `raising`: while
# the player owes more cash than it has, alongside selling and mortgaging.
WINDOWS = ("before_roll", "end_of_turn", "raising")
DEFAULT_WINDOWS = ("end_of_turn",)


# ---- names an expression may use, by where it stands ------------------------------------

# The game state as a whole: what invariants read (and any expression may).
STATE_NAMES = {
    "deeds": DEEDS, "groups": GROUPS, "decks": DECKS, "board_size": INT,
    "houses_in_bank": INT, "hotels_in_bank": INT, "bank_ledger": INT, "bank": PARTY,
}
EVERYWHERE = {"players": PLAYERS, "squares": SQUARES, "rounds": INT, "over": BOOL,
              "pots": Type("set", POT), "areas": AREAS, "quarters": Type("set", QUARTER), "turn": INT} | STATE_NAMES
EFFECT_NAMES = EVERYWHERE | {"me": PLAYER, "others": PLAYERS, "dice": INT, "doubles": BOOL}
RENT_NAMES = EVERYWHERE | {
    "owner": PLAYER, "printed": NUMBERS, "level": INT, "owned": INT, "complete": BOOL,
    "mortgaged_in_group": INT, "dice": INT, "here": DEED,
}
WITH_RENT_NAMES = EFFECT_NAMES | {"rent": INT, "roll": INT}
DUE_NAMES = RENT_NAMES | {"me": PLAYER}
LANDER_NAMES = EFFECT_NAMES | {"here": DEED}
# What a player may do with a deed they hold (`building.may`, `mortgage.may`): `me`, the
# player, and `here`, the deed, at any moment of the game (no throw of the dice).
HOLDER_NAMES = EVERYWHERE | {"me": PLAYER, "here": DEED}
# An amount printed on a deed (`mortgage.lift`): only `here`, the deed, and only the numbers
# its card prints, so the amount is one number per deed, the same for every holder at every
# moment; the engine, the strategies and the verifier read it from one table.
PRINTED_DEED = Type("printed deed")
PRINTED_DEED_ATTRS = {"price": INT, "mortgage": INT, "house_cost": INT, "hotel_cost": INT}
PRINTED_DEED_NAMES = {"here": PRINTED_DEED}

# `step NAME "..." on KIND` and `on KIND(OF)`: the kinds of step a property may be scoped
# to, each a piece the engine runs whole and the verifier's catalogue names (docs/language.md
# "Properties of a step"): what OF names (None: the kind takes none), and the names its body
# reads besides the whole state (`me`: the player the step is of; `here`: its square).
STEP_KINDS: dict[str, tuple[str | None, dict[str, Type]]] = {
    "buy": (None, {"me": PLAYER, "here": DEED}),             # a free deed bought at its price
    "auction": (None, {"me": PLAYER, "here": DEED}),         # a free deed the lander did not buy
    "rent": (None, {"me": PLAYER, "here": DEED}),            # landing on another player's deed
    "mortgage": (None, {"me": PLAYER, "here": DEED}),
    "unmortgage": (None, {"me": PLAYER, "here": DEED}),
    "land": ("square", {"me": PLAYER, "here": SQUARE}),      # the square's `on_land` rules
    "pass": ("square", {"me": PLAYER, "here": SQUARE}),      # the square's `on_pass` rules
    "card": ("deck", {"me": PLAYER}),                        # a card of the deck drawn and obeyed
}

# Where each context-bound name may be used, for the hint when it is used elsewhere.
NAME_PLACES = {
    **{name: "in effects" for name in EFFECT_NAMES},
    **{name: "in rent formulas" for name in RENT_NAMES},
    "rent": "in `with rent = ...`", "roll": "in `with rent = ...`",
    "dice": "in effects and rent formulas", "here": "in rent formulas",
    **{name: "everywhere" for name in EVERYWHERE},
}

# `position` is the square's index (a number, for arithmetic); `square` the square itself.
PLAYER_ATTRS = {
    "cash": INT, "deeds": DEEDS, "bankrupt": BOOL, "in_jail": BOOL, "position": INT, "square": SQUARE,
    "jail_turns": INT, "cards": INT, "laps": INT,
}
DEED_ATTRS = {
    "price": INT, "mortgage": INT, "mortgaged": BOOL, "houses": INT, "hotels": INT,
    "house_cost": INT, "hotel_cost": INT, "owner": PARTY, "level": INT, "even_level": INT, "group": GROUP,
    "kind": Type("enum", options=("square",) + DEED_KINDS), "areas": AREAS, "number": INT, "across": SQUARE,
}
GROUP_ATTRS = {"deeds": DEEDS, "uneven": BOOL}
DECK_ATTRS = {"size": INT, "cards": INT}
# The attributes of a value, by its type's name (a party has a player's: the bank's are those
# of a player holding nothing).
SQUARE_ATTRS = {"kind": Type("enum", options=("square",) + DEED_KINDS), "owner": PARTY, "areas": AREAS,
                "number": INT, "across": SQUARE}
AREA_ATTRS = {"quarter": QUARTER, "faces": SQUARES}
POT_ATTRS = {"cash": INT}
ATTRS = {"square": SQUARE_ATTRS, "area": AREA_ATTRS, "pot": POT_ATTRS, "player": PLAYER_ATTRS, "party": PLAYER_ATTRS,
         "deed": DEED_ATTRS, "group": GROUP_ATTRS, "deck": DECK_ATTRS, "printed deed": PRINTED_DEED_ATTRS}

BUILTINS: dict[str, tuple[tuple[Type, ...], Type]] = {
    "houses": ((PLAYER,), INT),
    "hotels": ((PLAYER,), INT),
    "held": ((PLAYER, DECK), INT),
    "numbers": ((INT, INT), Type("set", INT)),      # the whole numbers from the first to the second
    "die": ((INT,), INT),                           # die N (from 1) of the current throw
}
# Builtins that read the current throw: usable where `dice` is (effects and rent formulas).
THROW_BUILTINS = frozenset({"die"})

# Aggregates: what the body must be, and what the aggregate gives (None: the body's type).
AGGREGATES: dict[str, tuple[str, Type | None]] = {
    "sum": ("number", None), "max": ("number", None), "min": ("number", None),
    "count": ("bool", INT), "any": ("bool", BOOL), "all": ("bool", BOOL),
}


# ---- per-player state, hooks, pots ----------------------------------------------------

# `state OWNER.NAME : set of ELEMENT` or `state OWNER.NAME : int`: the forms the engine keeps
# (a set only grows, by `add`; a number changes by `set`, and starts at 0).
STATE_OWNERS = {"player": PLAYER, "area": AREA}
STATE_CONTAINERS = ("set",)
STATE_ELEMENTS = {"square": SQUARE}
STATE_SCALARS = {"int": INT}

# `when EVENT(VAR)`: what VAR is (`add` binds an element of the state named by `to`; `roll`
# the dice's total, and the hook replaces the move; `rent` the square rent was paid on).
EVENTS: dict[str, Type] = {"land": SQUARE, "acquire": DEED, "add": ANY, "roll": INT, "rent": SQUARE}
# `when acquire(d) by HOW`: the ways a deed changes hands.
ACQUIRE_WAYS = ("buy", "auction", "trade", "deal", "bankruptcy", "debt")

# A pot's settings: `takes` lists the bank's receipts it collects instead of the bank.
POT_KEYS: dict[str, Key] = {"takes": Key("names", options=("fines", "squares", "cards"))}
