"""The test suite, a package so that test modules import shared helpers by their full name
(`from tests.interpreter.conftest import Script`): two folders' `conftest` would clash as one name."""
