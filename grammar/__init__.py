"""The rules-language compiler: `.rules` text -> IR (docs/language.md, docs/ir.md)."""
from grammar.compile import compile_file, compile_text
from grammar.diagnostics import Diagnostic, SpecError

__all__ = ["compile_file", "compile_text", "Diagnostic", "SpecError"]
