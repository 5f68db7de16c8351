"""The IR as typed, immutable classes: the one contract between the compiler and its readers.

`grammar/` compiles a spec to the IR's JSON form (docs/ir.md, grammar/ir.schema.json);
`ir.load` turns that into a `Ruleset`, `ir.dump` back. The classes are named in the
game's words and their fields are the JSON keys:

- ir/nodes.py: every expression (`Expr`) and statement (`Stmt`) kind, one class each;
- ir/ruleset.py: the document (`Ruleset`, `EditionInfo`, `Settings`, `Square`, `Deck`...);
- ir/examples.py: worked examples and their steps (`Step`);
- ir/json.py: `load` and `dump`;
- ir/money.py: amounts written the edition's way (`format_money`).

This package sits between `spec` and `grammar`: it imports nothing from grammar/,
interpreter/, verifier/, rulebook/ or boardrules/.
"""
from ir.json import IR_VERSION, IRError, dump, load

__all__ = ["IR_VERSION", "IRError", "dump", "load"]
