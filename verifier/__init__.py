"""The verifier: explores games with Hypothesis, checking after every event the invariants the
interpreter runs (interpreter/invariants.py), and proves them with Z3."""
