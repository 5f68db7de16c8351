"""The engine's tests; their helpers are in conftest.py (`from tests.interpreter.conftest import ...`)."""
