"""Text -> syntax tree (grammar/syntax.py). Lark's errors become diagnostics here.

The Lark parser is built once per process; its trees never leave this module.
"""
from __future__ import annotations

import difflib
import re
from functools import cache
from pathlib import Path
from typing import Callable

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr
from lark.tree import Meta

from grammar import syntax
from grammar.diagnostics import Diagnostic, Source, Span, SpecError, brief, shown

GRAMMAR = Path(__file__).with_name("rules.lark")

# Terminals a person knows by what they look like rather than by their text.
TERMINAL_WORDS = {
    "NAME": "a name",
    "EDITION_ID": "an edition id",
    "INT": "a number",
    "PERCENT": "a percentage",
    "STRING": "a quoted text",
    "KIND": "a square kind (`square`, `lot`, `station`, `utility`)",
    "$END": "the end of the file",
    "OR_SKIP": "`or skip`", "END_GAME": "`end game`", "ALL": "`all`", "PAYING": "`paying`",
    "TRIES": "`tries`", "BUYS": "`buys`", "PAYS_FINE": "`pays fine`", "USES_CARD": "`uses card`",
    "BUILDS_HOTEL": "`builds hotel`", "BUILDS_HOUSES": "`builds houses`", "MORTGAGES": "`mortgages`",
    "LIFTS": "`lifts`", "SELLS_BUILDINGS": "`sells buildings`",
    "TRADES_HOTELS": "`trades hotels`",
}
# The choices a `turn` of an example may name, by their words' terminal (docs/language.md).
CHOICES = {"BUYS": "buy", "PAYS_FINE": "pay_fine", "USES_CARD": "use_card", "BUILDS_HOTEL": "build_hotel",
           "BUILDS_HOUSES": "build_houses", "MORTGAGES": "mortgage", "LIFTS": "lift",
           "SELLS_BUILDINGS": "sell_buildings", "TRADES_HOTELS": "trade_hotels"}
# When all of these may come next, "an expression" says it in two words.
EXPRESSION_START = {"INT", "NAME", "(", "-", "not", "if", "yes", "no", "PERCENT"}
# Operators whose chains are regrouped (grammar aliases): regrouping keeps their value.
ASSOCIATIVE = {"add", "and_", "or_"}
CHAIN = 64         # a chain longer than this is balanced (shorter ones keep the parser's shape)
# The most levels of nesting a spec may have (far more than the bundled editions have:
# every later stage recurses over them).
DEEPEST = 100
# The braces of a text, strings and comments skipped (a `{` in a card's text is no brace).
BRACES = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[{}]')
# A number and a decimal point just before an unexpected number (`1200.50`).
DECIMAL = re.compile(r"(?<![\w.])[0-9](?:_?[0-9])*\.$")
# The word just before an unexpected token (a misspelt keyword: `decid jail...`).
LAST_WORD = re.compile(r"(?<![\w.])([a-z][a-z0-9_]*)[ \t\r\n]*$")
# Where an expression may go on, "an operator" stands for all of these.
OPERATORS = {"+", "-", "*", "/", "==", "!=", "<", "<=", ">", ">=", "and", "or", ".", "[", "in"}


class _Comments:
    """The comments of the text being parsed, by line (fed by the lexer callback).

    INVARIANT: parsing is one text at a time per process (parse() resets this first).
    """

    def __init__(self) -> None:
        self.by_line: dict[int, Token] = {}

    def __call__(self, token: Token) -> None:
        self.by_line[_placed(token.line)] = token


_comments = _Comments()


@cache
def _parser() -> Lark:
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        lexer_callbacks={"COMMENT": _comments},
    )


def parse(source: Source) -> syntax.File:
    """Parse one spec text; raise SpecError (E102-E104) on the first syntax error."""
    _comments.by_line = {}
    try:
        tree = _parser().parse(source.text)
    except UnexpectedInput as error:
        raise SpecError([_syntax_error(source, error)]) from None
    trailing = {
        line: (len(source.line(line)[: _placed(token.column) - 1].rstrip()) + 1, token.value[1:].strip())
        for line, token in _comments.by_line.items()
        if source.line(line)[: _placed(token.column) - 1].strip()
    }
    nodes, deep = _balance(tree)
    if deep is not None:
        span = Span(source, deep.line, deep.column, deep.line, deep.column + 1)
        raise SpecError([Diagnostic.at("E105", f"the spec nests too deeply here: more than {DEEPEST} levels", span,
                                       "split the expression with a `formula`, or a block into a `procedure`")])
    builder = _Build(source, trailing)
    try:
        file = _build(builder, nodes)
    except VisitError as error:
        if isinstance(error.orig_exc, SpecError):
            raise error.orig_exc from None
        raise
    if builder.diagnostics:
        raise SpecError(builder.diagnostics)
    assert isinstance(file, syntax.File), "the grammar's start rule is a file"
    return file


def _placed(place: int | None) -> int:
    """A token's line, column or offset. Lark types them as optional; its lexer sets every
    one on the tokens it gives the parser and the comment callback."""
    assert place is not None, "a lexed token has its place"
    return place


# ---- long and deep trees ---------------------------------------------------------------

def _balance(tree: Tree) -> tuple[list[Tree], Meta | None]:
    """Rebuild each long chain of one associative operator (`1 + 1 + ...`, `a and b and ...`)
    as a balanced tree of the same operands in the same order. The parser makes a chain as
    deep as it is long, and every later stage walks expressions recursively.

    Returns the nodes of the balanced tree, parents first and leftmost first (the order
    _build wants them in), and where it gets deeper than DEEPEST levels (the first such
    place in the text: there the walk stops), or None. One walk does all three: a node's
    children are rebuilt before they are visited, so the depths are the balanced tree's."""
    nodes: list[Tree] = []
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > DEEPEST:
            return nodes, node.meta
        nodes.append(node)
        if node.data in ASSOCIATIVE:
            operands = _chain(node)
            if len(operands) > CHAIN:
                node.children = [_joined(node.data, operands[: len(operands) // 2]),
                                 _joined(node.data, operands[len(operands) // 2:])]
        stack += [(c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree)]
    return nodes, None


def _chain(node: Tree) -> list:
    """The operands of the left-leaning chain of one associative operator that `node` heads."""
    operands = []
    op, link = node.data, node
    while isinstance(link, Tree) and link.data == op:
        operands.append(link.children[1])
        link = link.children[0]
    operands.append(link)
    return operands[::-1]


def _joined(op: str, operands: list) -> Tree | Token:
    """A balanced tree of `op` over `operands` (at least one), spanning them all."""
    if len(operands) == 1:
        return operands[0]
    half = len(operands) // 2
    meta, first, last = Meta(), _meta(operands[0]), _meta(operands[-1])
    meta.empty = False
    meta.line, meta.column, meta.start_pos = _placed(first.line), _placed(first.column), _placed(first.start_pos)
    meta.end_line, meta.end_column = _placed(last.end_line), _placed(last.end_column)
    meta.end_pos = _placed(last.end_pos)
    return Tree(op, [_joined(op, operands[:half]), _joined(op, operands[half:])], meta)


def _meta(node: Tree | Token) -> Meta | Token:
    return node.meta if isinstance(node, Tree) else node


def _build(builder: Transformer, nodes: list[Tree]) -> object:
    """Lark's `transform` of the tree whose `nodes` _balance lists (parents first, leftmost
    first), bottom-up in a loop rather than by recursion (a balanced tree is shallow, but a
    Transformer recurses once per level)."""
    built: list = []                        # backwards, a node's children are built last-first:
    for node in reversed(nodes):            # its leftmost child's node is on top when it is built
        children = [built.pop() if isinstance(c, Tree) else c for c in node.children]
        built.append(builder._call_userfunc(node, children))
    return built[0]


# ---- syntax errors -------------------------------------------------------------------

def _syntax_error(source: Source, error: UnexpectedInput) -> Diagnostic:
    line, column = error.line, error.column
    if isinstance(error, UnexpectedCharacters):
        char = source.text[_placed(error.pos_in_stream)]
        span = Span(source, line, column, line, column + 1)
        hint = _expected(error.allowed)
        if char.isalpha() and char.isupper():
            hint = "names are lower-case letters, digits and `_`"
        elif char in "'“”":
            hint = "write texts in double quotes: \"...\""
        shown = char if char.isprintable() else f"U+{ord(char):04X}"
        return Diagnostic.at("E102", f"unexpected character `{shown}`", span, hint)
    assert isinstance(error, UnexpectedToken)
    token = error.token
    unclosed = _unclosed_brace(source, token, _expected(error.expected)) if token.type != "$END" else None
    if unclosed is not None:
        return unclosed
    if token.type == "$END":
        last = source.text.rstrip().splitlines() or [""]
        end = len(last)
        span = Span(source, end, len(last[-1]) + 1, end, len(last[-1]) + 2)
        return Diagnostic.at("E104", "unexpected end of file", span, _expected(error.expected))
    before = source.text[: token.start_pos]
    number = DECIMAL.search(before)
    if token.type in ("INT", "PERCENT") and number:
        span = Span(source, token.line, token.column - len(number.group()), token.end_line, token.end_column)
        return Diagnostic.at("E103", f"`{number.group()}{token.value}` is not a whole number", span,
                             f"amounts are whole numbers: write `{number.group()[:-1]}`; "
                             "a share is a percentage such as `5%`")
    word = LAST_WORD.search(before)
    keyword = _keyword_for(source.text, word, token) if word is not None else None
    if word is not None and keyword:
        start = before.count("\n", 0, word.start()) + 1
        column = word.start() - before.rfind("\n", 0, word.start())
        span = Span(source, start, column, start, column + len(word.group(1)))
        return Diagnostic.at("E103", f"`{word.group(1)}` is not a word of the language here", span,
                             f"did you mean `{keyword}`?")
    span = Span(source, token.line, token.column, token.end_line, token.end_column)
    return Diagnostic.at("E103", f"unexpected `{brief(token.value)}`", span, _expected(error.expected))


def _keyword_for(text: str, word: re.Match, token: Token) -> str | None:
    """The keyword close to the word before an unexpected token with which the text
    parses further, or None (`decid` for `decide`, `on_lands` for `on_land`)."""
    keywords = [t.pattern.value for t in _parser().terminals
                if isinstance(t.pattern, PatternStr) and t.pattern.value.replace("_", "").isalpha()]
    for keyword in difflib.get_close_matches(word.group(1), keywords, n=3, cutoff=0.75):
        if keyword == word.group(1):
            continue
        shifted = len(keyword) - len(word.group(1))
        try:
            _parser().parse(text[: word.start(1)] + keyword + text[word.end(1):])
        except UnexpectedInput as error:
            if _placed(error.pos_in_stream) <= _placed(token.start_pos) + shifted:
                continue
        return keyword
    return None


def _unclosed_brace(source: Source, token: Token, expected: str) -> Diagnostic | None:
    """A `{` left open before an unexpected token, when the file has an unclosed one: the
    innermost whose line is indented at least as deep as the token's (a new item at the
    opener's depth means it should have been closed), told at the brace."""
    open_at: list[int] = []
    left_at_error = None
    for match in BRACES.finditer(source.text):
        if match.start() >= _placed(token.start_pos) and left_at_error is None:
            left_at_error = list(open_at)
        if match.group() == "{":
            open_at.append(match.start())
        elif match.group() == "}" and open_at:
            open_at.pop()
    if not open_at:
        return None
    if left_at_error is None:           # no brace after the token: those open at the end were open there
        left_at_error = open_at
    indent = _indent(source.text, _placed(token.start_pos))
    for offset in reversed(left_at_error):
        if _indent(source.text, offset) >= indent:
            line = source.text.count("\n", 0, offset) + 1
            column = offset - source.text.rfind("\n", 0, offset)
            return Diagnostic.at(
                "E106", "this `{` is never closed", Span(source, line, column, line, column + 1),
                f"close it with `}}` before line {token.line}",
                f"the parser noticed at {shown(source.name)}:{token.line}:{token.column}: "
                f"unexpected `{brief(token.value)}`, {expected}")
    return None


def _indent(text: str, offset: int) -> int:
    """How far the line holding `offset` is indented."""
    start = text.rfind("\n", 0, offset) + 1
    line = text[start: offset]
    return len(line) - len(line.lstrip(" \t"))


def _expected(terminals: set[str]) -> str:
    texts = {t.name: t.pattern.value for t in _parser().terminals if isinstance(t.pattern, PatternStr)}
    names = {texts.get(name, name) for name in terminals}
    listed = []
    if {"INT", "NAME", "("} <= names:
        listed.append("an expression")
        names -= EXPRESSION_START
    if len(OPERATORS & names) > 1:      # a lone `and` (between the plays of a turn) is named
        listed.append("an operator")
        names -= OPERATORS
    listed += sorted(TERMINAL_WORDS.get(name) or f"`{name}`" for name in names)
    if not listed:
        return "nothing more was expected here"
    return "expected " + (listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " or " + listed[-1])


# ---- Lark tree -> syntax tree ---------------------------------------------------------

def _binary(op: str) -> Callable[[_Build, Meta, list], syntax.Binary]:
    """The builder of one binary operator's node (the grammar gives each its own alias)."""
    def build(self: _Build, meta: Meta, children: list) -> syntax.Binary:
        left, right = children
        return syntax.Binary(self._span(meta), op, left, right)
    return build


@v_args(meta=True)
class _Build(Transformer):
    """Maps each grammar rule (or alias) to its syntax node, by name."""

    def __init__(self, source: Source, trailing: dict[int, tuple[int, str]]):
        super().__init__()
        self.source = source
        self.trailing = trailing
        self.diagnostics: list[Diagnostic] = []
        # `v_args` makes a new wrapper of a rule's method at every lookup (one per tree node):
        # looked up once here, each rule's wrapper is found in the instance from then on.
        for name, member in vars(type(self)).items():
            if hasattr(member, "visit_wrapper"):
                setattr(self, name, getattr(self, name))

    def _span(self, meta: Meta) -> Span:
        return Span(self.source, meta.line, meta.column, meta.end_line, meta.end_column)

    def _token_span(self, token: Token) -> Span:
        line, column, end_line, end_column = token.line, token.column, token.end_line, token.end_column
        assert line is not None and column is not None and end_line is not None and end_column is not None, \
            "a lexed token has its place"
        return Span(self.source, line, column, end_line, end_column)

    def _name(self, token: Token) -> syntax.Name:
        return syntax.Name(self._token_span(token), str(token))

    def _note(self, meta: Meta) -> str | None:
        """The comment that directly follows an item on the line where it ends."""
        end_column, text = self.trailing.get(meta.end_line, (None, None))
        return text if end_column == meta.end_column else None

    def _text(self, token: Token | None) -> syntax.Text | None:
        if token is None:
            return None
        return syntax.Text(self._token_span(token), _unquote(token))

    # -- file and items

    def start(self, meta, children):
        header, *items = children
        return syntax.File(self.source, header, tuple(items))

    def header(self, meta, children):
        abstract = children[0] is not None and children[0].type == "ABSTRACT"
        ids = [c for c in children if isinstance(c, Token) and c.type == "EDITION_ID"]
        parent = self._name(ids[1]) if len(ids) > 1 else None
        return syntax.Header(self._span(meta), abstract, self._name(ids[0]), parent)

    def variant_header(self, meta, children):
        id_, family = children
        return syntax.Header(self._span(meta), False, self._name(id_), self._name(family), variant=True)

    def state(self, meta, children):
        owner, name, container, element = (None if c is None else self._name(c) for c in children)
        return syntax.State(self._span(meta), owner, name, container, element)

    def area(self, meta, children):
        id_, name, *settings = children
        return syntax.Area(self._span(meta), self._name(id_), self._text(name), tuple(settings))

    def procedure(self, meta, children):
        name, *params, body = children
        return syntax.Procedure(self._span(meta), self._name(name),
                                tuple(self._name(p) for p in params if p is not None), body)

    def action(self, meta, children):
        name, var, over, label, windows, *settings, effect = children
        return syntax.Action(self._span(meta), self._name(name), self._name(var), over, self._text(label),
                             windows or (), tuple(settings), effect)

    def action_at(self, meta, children):
        return tuple(self._name(c) for c in children)

    def hook(self, meta, children):
        event, var, by, to, cond, body = children
        return syntax.Hook(self._span(meta), self._name(event), self._name(var), by or (), to, cond, body)

    def hook_by(self, meta, children):
        return tuple(self._name(c) for c in children)

    def hook_to(self, meta, children):
        return self._name(children[0])

    def setup(self, meta, children):
        return syntax.Setup(self._span(meta), children[0])

    def remove_deck(self, meta, children):
        return syntax.Remove(self._span(meta), "deck", self._name(children[0]))

    def remove_on_land(self, meta, children):
        return syntax.Remove(self._span(meta), "on_land", self._name(children[0]))

    def remove_on_pass(self, meta, children):
        return syntax.Remove(self._span(meta), "on_pass", self._name(children[0]))

    def pot(self, meta, children):
        id_, name, *settings = children
        return syntax.Pot(self._span(meta), self._name(id_), self._text(name), tuple(settings))

    def section(self, meta, children):
        name, *settings = children
        return syntax.Section(self._span(meta), self._name(name), tuple(settings))

    def setting(self, meta, children):
        key, value = children
        return syntax.Setting(self._span(meta), self._name(key), value, self._note(meta))

    def contested(self, meta, children):
        section, key, *options = children
        return syntax.Contested(self._span(meta), self._name(section), self._name(key),
                           tuple(self._name(o) for o in options), self._note(meta))

    def decide(self, meta, children):
        section, key, choice = children
        return syntax.Decide(self._span(meta), self._name(section), self._name(key), self._name(choice),
                        self._note(meta))

    def formula(self, meta, children):
        name, *params, body = children
        params = tuple(self._name(p) for p in params if p is not None)
        return syntax.Formula(self._span(meta), self._name(name), params, body)

    def invariant(self, meta, children):
        name, text, body = children
        return syntax.Invariant(self._span(meta), self._name(name), self._text(text), body)

    def step(self, meta, children):
        name, text, kind, of, body = children
        return syntax.StepProperty(self._span(meta), self._name(name), self._text(text), self._name(kind),
                                   self._name(of) if of is not None else None, body)

    def fact(self, meta, children):
        section, key, value, quote = children
        return syntax.Fact(self._span(meta), self._name(section), self._name(key),
                           syntax.Int(self._token_span(value), _int(value)), self._text(quote))

    def statistic(self, meta, children):
        name, text, body = children
        return syntax.Statistic(self._span(meta), self._name(name), self._text(text), body)

    def group(self, meta, children):
        id_, name, *settings = children
        return syntax.Group(self._span(meta), self._name(id_), self._text(name), tuple(settings))

    def board(self, meta, children):
        return syntax.Board(self._span(meta), tuple(children))

    def square(self, meta: Meta, children: list) -> syntax.Square:
        kind, id_, name, *parts = children
        settings = tuple(p for p in parts if isinstance(p, syntax.Setting))
        blocks: dict[str, syntax.Block] = {}
        for part in parts:
            if isinstance(part, tuple):
                which, block = part
                if which in blocks:
                    self.diagnostics.append(Diagnostic.at(
                        "E211", f"duplicate `{which}` block on square `{id_}`", block.span,
                        f"write one `{which}` block; it may hold several statements"))
                blocks[which] = block
        return syntax.Square(self._span(meta), str(kind), self._name(id_), self._text(name), settings,
                             blocks.get("on_land"), blocks.get("on_pass"))

    def on_land(self, meta, children):
        return "on_land", syntax.Block(self._span(meta), children[0])

    def on_pass(self, meta, children):
        return "on_pass", syntax.Block(self._span(meta), children[0])

    def deck(self, meta, children):
        id_, name, *cards = children
        return syntax.Deck(self._span(meta), self._name(id_), self._text(name), tuple(cards))

    def card(self, meta, children):
        text, body = children
        return syntax.Card(self._span(meta), self._text(text), body)

    # -- worked examples

    def example(self, meta, children):
        name, text, players, *steps = children
        return syntax.Example(self._span(meta), self._name(name), self._text(text), players,
                         tuple(step for step in steps if step.what != "expect"),
                         tuple(step for step in steps if step.what == "expect"))

    def ex_players(self, meta, children):
        return syntax.ExampleStep(self._span(meta), "players", players=tuple(self._name(c) for c in children))

    def ex_give(self, meta, children):
        *deeds, to = children
        return syntax.ExampleStep(self._span(meta), "give", players=(self._name(to),),
                             squares=tuple(self._name(c) for c in deeds))

    def ex_houses(self, meta, children):
        count, *lots = children
        return syntax.ExampleStep(self._span(meta), "houses", squares=tuple(self._name(c) for c in lots),
                                  number=_int(count))

    def ex_hotel(self, meta, children):
        return syntax.ExampleStep(self._span(meta), "hotel", squares=tuple(self._name(c) for c in children))

    def ex_mortgage(self, meta, children):
        return syntax.ExampleStep(self._span(meta), "mortgage", squares=tuple(self._name(c) for c in children))

    def ex_cash(self, meta, children):
        who, amount = children
        return syntax.ExampleStep(self._span(meta), "cash", players=(self._name(who),), number=_int(amount))

    def ex_put(self, meta, children):
        who, square = children
        return syntax.ExampleStep(self._span(meta), "put", players=(self._name(who),), squares=(self._name(square),))

    def ex_jail(self, meta, children):
        who, tries, _word = children
        return syntax.ExampleStep(self._span(meta), "jail", players=(self._name(who),),
                             number=0 if tries is None else _int(tries))

    def ex_card(self, meta, children):
        text, deck = children
        return syntax.ExampleStep(self._span(meta), "card", card=self._text(text), deck=self._name(deck))

    def ex_set(self, meta, children):
        area, state, value = children
        return syntax.ExampleStep(self._span(meta), "set", squares=(self._name(area),), state=self._name(state),
                             number=_int(value))

    def ex_mark(self, meta, children):
        *squares, who, state = children
        return syntax.ExampleStep(self._span(meta), "mark", players=(self._name(who),),
                             squares=tuple(self._name(c) for c in squares), state=self._name(state))

    def ex_turn(self, meta, children):
        who, *plays = children
        throws = tuple(throw for play in plays if isinstance(play, list) for throw in play)
        choices = tuple(CHOICES[play.type] for play in plays if isinstance(play, Token))
        labels = tuple(play for play in plays if isinstance(play, syntax.Text))
        sales = tuple(play for play in plays if isinstance(play, syntax.Sale))
        bids = tuple(play for play in plays if isinstance(play, syntax.Bid))
        return syntax.ExampleStep(self._span(meta), "turn", players=(self._name(who),), throws=throws, choices=choices,
                             labels=labels, sales=sales, bids=bids)

    def ex_chooses(self, meta, children):
        return self._text(children[0])

    def ex_sells(self, meta, children):
        *deeds, buyer, price = children
        return syntax.Sale(self._span(meta), tuple(self._name(c) for c in deeds), self._name(buyer), _int(price))

    def ex_bids(self, meta, children):
        bidder, limit = children
        return syntax.Bid(self._span(meta), self._name(bidder), _int(limit))

    def ex_rolls(self, meta, children):
        return list(children)

    def ex_throw(self, meta, children):
        return tuple(_int(c) for c in children)

    def ex_expect(self, meta, children):
        return syntax.ExampleStep(self._span(meta), "expect", expr=children[0])

    # -- values

    def text(self, meta, children):
        return self._text(children[0])

    def range(self, meta, children):
        low, high = children
        return syntax.Range(self._span(meta), _int(low), _int(high))

    def notes(self, meta, children):
        return syntax.Notes(self._span(meta), tuple(children))

    def note(self, meta, children):
        count, value = children
        return syntax.Note(self._span(meta), _int(count), _int(value))

    def numbers(self, meta, children):
        return syntax.Numbers(self._span(meta), tuple(_int(c) for c in children if c is not None))

    def names(self, meta, children):
        return syntax.Names(self._span(meta), tuple(self._name(c) for c in children))

    def texts(self, meta, children):
        return syntax.Texts(self._span(meta), tuple(self._text(c).value for c in children))

    # -- effects

    def block(self, meta, children):
        return tuple(children)

    def pay(self, meta, children):
        amount, to = children
        return syntax.Pay(self._span(meta), amount, self._name(to))

    def collect(self, meta, children):
        amount, source = children
        return syntax.Collect(self._span(meta), amount, self._name(source))

    def for_each(self, meta, children):
        var, over, body = children
        return syntax.ForEach(self._span(meta), self._name(var), over, body)

    def move_to(self, meta, children):
        return syntax.MoveTo(self._span(meta), self._name(children[0]))

    def move_by(self, meta, children):
        return syntax.MoveBy(self._span(meta), children[0])

    def advance(self, meta, children):
        group, rent = children
        return syntax.Advance(self._span(meta), self._name(group), rent)

    def go_to_jail(self, meta, children):
        return syntax.GoToJail(self._span(meta))

    def draw(self, meta, children):
        return syntax.Draw(self._span(meta), self._name(children[0]))

    def keep(self, meta, children):
        return syntax.Keep(self._span(meta))

    def choose(self, meta, children):
        return syntax.Choose(self._span(meta), tuple(children))

    def choose_in(self, meta, children):
        var, over, where, skip, body = children
        return syntax.ChooseIn(self._span(meta), self._name(var), over, where, skip is not None, body)

    def add_to(self, meta, children):
        item, player, state = children
        return syntax.Add(self._span(meta), item, self._name(player), self._name(state))

    def end_game(self, meta, children):
        return syntax.EndGame(self._span(meta))

    def deal(self, meta, children):
        each, kind, paying = children
        if isinstance(each, Token) and each.type == "ALL":
            each = None
        return syntax.Deal(self._span(meta), each, paying is not None, None if kind is None else self._name(kind))

    def set_state(self, meta, children):
        of, state, value = children
        return syntax.SetState(self._span(meta), self._name(of), self._name(state), value)

    def do_procedure(self, meta, children):
        name, *args = children
        return syntax.DoProcedure(self._span(meta), self._name(name), tuple(a for a in args if a is not None))

    def jump_to(self, meta, children):
        return syntax.JumpTo(self._span(meta), children[0])

    def place_at(self, meta, children):
        return syntax.PlaceAt(self._span(meta), children[0])

    def throw(self, meta, children):
        *names, body = children
        return syntax.Throw(self._span(meta), tuple(self._name(n) for n in names), body)

    def option(self, meta, children):
        label, body = children
        return syntax.Option(self._span(meta), self._text(label), body)

    def if_stmt(self, meta, children):
        cond, then, otherwise = children
        if isinstance(otherwise, syntax.When):
            otherwise = (otherwise,)
        return syntax.When(self._span(meta), cond, then, otherwise or ())

    # -- expressions

    def if_expr(self, meta, children):
        return syntax.Conditional(self._span(meta), *children)

    or_, and_, member = _binary("or"), _binary("and"), _binary("in")
    eq, ne, lt, le, gt, ge = _binary("=="), _binary("!="), _binary("<"), _binary("<="), _binary(">"), _binary(">=")
    add, sub, mul, div = _binary("+"), _binary("-"), _binary("*"), _binary("/")

    def not_(self, meta, children):
        return syntax.Not(self._span(meta), children[0])

    def neg(self, meta, children):
        return syntax.Neg(self._span(meta), children[0])

    def attr(self, meta, children):
        of, name = children
        return syntax.Attr(self._span(meta), of, self._name(name))

    def index(self, meta, children):
        of, at = children
        return syntax.Index(self._span(meta), of, at)

    def int(self, meta, children):
        return syntax.Int(self._span(meta), _int(children[0]))

    def percent(self, meta, children):
        return syntax.Percent(self._span(meta), _int(children[0][:-1]))

    def yes(self, meta, children):
        return syntax.Bool(self._span(meta), True)

    def no(self, meta, children):
        return syntax.Bool(self._span(meta), False)

    def name(self, meta, children):
        return self._name(children[0])

    def call(self, meta, children):
        fn, *args = children
        return syntax.Call(self._span(meta), self._name(fn), tuple(a for a in args if a is not None))

    def aggregate(self, meta, children):
        fn, var, over, body = children
        return syntax.Aggregate(self._span(meta), self._name(fn), self._name(var), over, body)


def _int(token: str) -> int:
    return int(str(token).replace("_", ""))


def _unquote(token: Token) -> str:
    """A STRING token's text: the quotes removed, `\\"` and `\\\\` undone."""
    body = str(token)[1:-1]
    out, escaped = [], False
    for char in body:
        if escaped or char != "\\":
            out.append(char)
            escaped = False
        else:
            escaped = True
    return "".join(out)
