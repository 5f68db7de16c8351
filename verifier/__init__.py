"""The verifier: invariants run over games, explored by Hypothesis and proved by Z3."""
from .invariants import InvariantViolation, check_all
