"""The bundled editions and variants: one `.rules` file each, found by id or path."""
from pathlib import Path

from .refusal import Refusal

SPEC_DIR = Path(__file__).resolve().parent


class NotFound(Refusal):
    """No bundled edition or variant by that id, and no spec file by that path."""


def bundled() -> dict[str, Path]:
    """Map each bundled edition id (file stem) to its path."""
    return {path.stem: path for path in sorted(SPEC_DIR.glob("*.rules"))}


def bundled_variants() -> dict[str, Path]:
    """Map each bundled variant id (file stem in `variants/`) to its path."""
    return {path.stem: path for path in sorted((SPEC_DIR / "variants").glob("*.rules"))}


def resolve_variant(variant: str) -> Path:
    """A variant id (`short`) names a bundled overlay in `spec/variants/`; anything else is a path.
    (An edition is found by `grammar.lookup.resolve`: its hint names the playable editions,
    which takes compiling.)"""
    known = bundled_variants()
    if variant in known:
        return known[variant]
    path = Path(variant)
    if path.suffix == ".rules" and path.is_file():
        return path
    raise NotFound(f"no variant `{variant}`", "bundled variants: " + ", ".join(sorted(known)))
