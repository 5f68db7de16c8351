"""The rules-language compiler: `.rules` text -> IR (docs/language.md, docs/ir.md)."""
from grammar.compile import check_file, check_text, compile_file, compile_text
from grammar.diagnostics import Diagnostic, SpecError

__all__ = ["check_file", "check_text", "compile_file", "compile_text", "Diagnostic", "SpecError"]
