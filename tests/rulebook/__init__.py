"""The booklets' tests; their helpers are in conftest.py (`from tests.rulebook.conftest import ...`)."""
