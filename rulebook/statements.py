"""Statements (IR effects) in words: squares' rules, hooks, setup.

Card texts are printed as written; only squares, hooks and setup need this. A statement the
table cannot put in words says so (`effects/unsupported`) instead of being skipped.
"""
from __future__ import annotations

from rulebook.booklet import Booklet, escape
from rulebook.conditions import ME, Nouns, called, condition, element_of, expand, kind_filter, parts, phrase, state_set


def amount(book: Booklet, expr: dict, nouns: Nouns | None = None) -> str:
    return phrase(book, expand(book, expr), nouns or {}, money=True)


def describe(book: Booklet, stmts: list[dict], nouns: Nouns | None = None) -> str:
    """The statements as one phrase: `pay 4 000 kr to the bank`; `nouns` name the variables in scope."""
    return book.words.join([statement(book, stmt, nouns or {}) for stmt in stmts])


def choose_in(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    """`choose w in SET where ... or skip { ... }`: the kind asked for names the choice."""
    words, var = book.words, stmt["var"]
    match stmt["where"]:
        case {"expr": "bin", "operator": "==", "left": {"expr": "var", "name": name},
              "right": one} if name == var:   # a single element
            body = describe(book, stmt["body"], nouns | {var: phrase(book, one, nouns)})
            return words.text("effects/may" if stmt["skip"] else "effects/must", body=body)
    conditions = parts(stmt["where"], "and") if stmt["where"] else []
    kind = kind_filter(conditions[0], var) if conditions else None
    if kind:
        conditions = conditions[1:]
    thing = book.kind_noun(kind or stmt["element"], "a") if stmt["over"]["expr"] == "var" else \
        words.text("effects/one_of", among=phrase(book, stmt["over"], nouns))
    scope = nouns | {var: book.kind_noun(kind or stmt["element"], "the")}
    where = [condition(book, c, scope) for c in conditions]
    return words.text("effects/choose_in", thing=thing, body=describe(book, stmt["body"], scope),
                      where=words.text("effects/choose_where", cond=words.join(where)) if where else "",
                      skip=words.text("effects/or_skip") if stmt["skip"] else "")


def procedure_call(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    """`do NAME(args)`: the procedure by its name, linked to its paragraph."""
    args = [phrase(book, arg, nouns) for arg in stmt["args"]]
    return book.words.text("effects/call", name=called(book, stmt["procedure"], args), id=stmt["procedure"])


def set_state(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    """`set X.NAME = EXPR`; `X.NAME + N` is said as raising it by N."""
    target = {"expr": "attr", "subject": stmt["subject"], "name": stmt["state"]}
    what = phrase(book, target, nouns)
    match stmt["value"]:
        case {"expr": "bin", "operator": "+", "left": same, "right": step} if same == target:
            return book.words.text("effects/raise", what=what, by=phrase(book, step, nouns))
    return book.words.text("effects/set", what=what, value=phrase(book, expand(book, stmt["value"]), nouns))


def throw(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    """`throw A, B { ... }`: one die per name, one at a time; the body reads them as die 1, die 2."""
    scope = nouns | {name: book.words.text("effects/die", n=n) for n, name in enumerate(stmt["names"], 1)}
    return book.words.text("effects/throw", n=len(stmt["names"]), body=describe(book, stmt["body"], scope))


def for_each(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    """`for x in SET { if COND { ... } }` as "for the x where COND: ...", any other loop as "for each"."""
    kind = element_of(stmt["over"])
    scope = nouns | {stmt["var"]: book.noun(kind, "the")}
    match stmt["body"]:
        case [{"stmt": "if", "cond": cond, "then": then, "otherwise": []}]:
            return book.words.text("effects/for_where", thing=book.noun(kind, "the"), cond=condition(book, cond, scope),
                                   body=describe(book, then, scope))
    return book.words.text("effects/for_each", thing=book.noun(kind, "one"), things=book.noun(kind, "many"), body=describe(book, stmt["body"], scope))


def statement(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    words = book.words
    match stmt:
        case {"stmt": "transfer", "payer": {"expr": "pot", "key": pot}, "payee": {"expr": "var", "name": "me"}}:
            return words.text("effects/take_pot", pot=book.name(next(k for k in book.ir["pots"] if k["key"] == pot)))
        case {"stmt": "add", "item": {"expr": "var", "name": var}}:
            return words.text("effects/add", what=nouns.get(var, escape(var)),
                              set=state_set(book, stmt["player"], stmt["state"]))
        case {"stmt": "choose_in"}:
            return choose_in(book, stmt, nouns)
        case {"stmt": "end_game"}:
            return words.text("effects/end_game")
        case {"stmt": "deal"}:
            paying = words.text("effects/deal_paying" if stmt["paying"] else "effects/deal_free")
            if stmt["each"] is None:
                return words.text("effects/deal_all", paying=paying)
            return words.text("effects/deal_each", paying=paying, n=phrase(book, stmt["each"], nouns),
                              deeds=book.kind_noun(stmt.get("deed_kind") or "deed", "all"))
        case {"stmt": "transfer", "payer": {"expr": "bank"}, "payee": {"expr": "var", "name": "me"}}:
            return words.text("effects/collect", amount=amount(book, stmt["amount"], nouns))
        case {"stmt": "transfer", "payer": {"expr": "var", "name": "me"}, "payee": {"expr": "bank"}}:
            return words.text("effects/pay", amount=amount(book, stmt["amount"], nouns))
        case {"stmt": "for", "over": {"expr": "var", "name": "others"},
              "body": [transfer]} if transfer["stmt"] == "transfer":
            key = "effects/pay_each" if transfer["payer"] == ME else "effects/collect_each"
            return words.text(key, amount=amount(book, transfer["amount"], nouns))
        case {"stmt": "for"}:
            return for_each(book, stmt, nouns)
        case {"stmt": "if"}:
            otherwise = words.text("effects/else", body=describe(book, stmt["otherwise"], nouns)) \
                if stmt["otherwise"] else ""
            return words.text("effects/if", cond=condition(book, stmt["cond"], nouns),
                              body=describe(book, stmt["then"], nouns), otherwise=otherwise)
        case {"stmt": "set"}:
            return set_state(book, stmt, nouns)
        case {"stmt": "call"}:
            return procedure_call(book, stmt, nouns)
        case {"stmt": "move_by"}:
            return words.text("effects/move_by", steps=phrase(book, stmt["steps"], nouns))
        case {"stmt": "jump_to" | "place_at" as do}:
            return words.text(f"effects/{do}", square=phrase(book, stmt["target"], nouns))
        case {"stmt": "throw"}:
            return throw(book, stmt, nouns)
        case {"stmt": "draw"}:
            deck = next(d for d in book.ir["decks"] if d["key"] == stmt["deck"])
            return words.text("effects/draw", deck=book.name(deck))
        case {"stmt": "go_to_jail"}:
            return words.text("effects/go_to_jail", jail=book.values["jail_square"])
        case {"stmt": "move_to"}:
            return words.text("effects/move_to", square=book.name(book.square(stmt["square"])))
        case {"stmt": "choose"}:
            return words.text("effects/choose", options=words.join([
                words.text("effects/option", label=escape(o["label"]), body=describe(book, o["body"], nouns)) for o in stmt["options"]], "or"))
    return words.text("effects/unsupported")
