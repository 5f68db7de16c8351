"""The verifier. For now: the built-in invariants, checked over a running game."""
from .invariants import INVARIANTS, InvariantViolation, check_all

__all__ = ["INVARIANTS", "InvariantViolation", "check_all"]
