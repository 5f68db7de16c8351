"""The engine's hot modules compiled with Cython, as they are (no Cython syntax in them).

A game is millions of small Python calls; compiled, the same source plays about 1.35 times
as fast (README, "Speed"). The compilation is optional: with no C compiler the install
still succeeds and the engine runs as plain Python, playing the same games
(`interpreter/native.py` says which modules are compiled; tests/interpreter/test_native.py
compares both). Everything else about the package is in pyproject.toml.
"""
from Cython.Build import cythonize
from setuptools import Extension, setup

HOT = ["interpreter.engine", "interpreter.rules", "interpreter.effects", "interpreter.compile",
       "interpreter.strategies.heuristic"]

setup(ext_modules=cythonize(
    [Extension(name, [name.replace(".", "/") + ".py"], optional=True) for name in HOT],
    # Python's semantics kept: annotations are not C types (the verifier's symbolic engine
    # passes Z3 terms through the same functions) and no int is narrowed to a C long.
    compiler_directives={"language_level": 3, "annotation_typing": False},
    build_dir="build/cython",
    quiet=True,
))
