"""The engine's hot modules compiled with Cython, as they are (no Cython syntax in them).

Only the modules that run faster compiled are compiled: the turn loop (engine), the
strategies' shortcuts and the heuristic player. Rules, effects and translate (with the
code it generates) run as plain Python: their work is mostly reading and setting attributes
of the game, its players and the move's context, which compiled code does by a generic
lookup (about 170 instructions) and CPython 3.11's bytecode by a specialized one (about
15); classic-us plays with 9% fewer instructions so (docs/speed.md, "The compiled engine").
The compilation is optional: with no C compiler the install still succeeds and the engine
runs as plain Python, playing the same games (`interpreter/native.py` says which modules are
compiled; tests/interpreter/test_native.py compares both). Everything else about the
package is in pyproject.toml.
"""
import hashlib
import runpy
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# the list interpreter/native.py loads compiled (read from its source: the package is not importable here)
HOT = list(runpy.run_path("interpreter/native.py")["COMPILED"])


class BuildExt(build_ext):
    """Writes next to each compiled module the SHA-256 of the source it was compiled from
    (`engine.<platform>.so.sha256`), in the build folder and, for an editable install, in
    place: interpreter/native.py runs the source instead of a compiled module that does not
    match it."""

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)      # a failed optional module raises: no digest
        source = Path(ext.name.replace(".", "/") + ".py")
        self.digest(ext).write_text(hashlib.sha256(source.read_bytes()).hexdigest())

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        for ext in self.extensions:
            if self.digest(ext).exists():
                self.copy_file(str(self.digest(ext)), str(self.digest(ext, in_place=True)))

    def digest(self, ext: Extension, in_place: bool = False) -> Path:
        built = Path(self.get_ext_filename(ext.name))
        folder = built.parent if in_place else Path(self.build_lib) / built.parent
        return folder / (built.name + ".sha256")


MODULES = cythonize(
    [Extension(name, [name.replace(".", "/") + ".py"]) for name in HOT],
    # Python's semantics kept: annotations are not C types (the verifier's symbolic engine
    # passes Z3 terms through the same functions) and no int is narrowed to a C long.
    compiler_directives={"language_level": 3, "annotation_typing": False},
    build_dir="build/cython",
    quiet=True,
)
for module in MODULES:
    module.optional = True      # no C compiler: plain Python (cythonize drops the flag given it)

setup(cmdclass={"build_ext": BuildExt}, ext_modules=MODULES)
