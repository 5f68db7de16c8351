"""The bundled editions: one `.rules` file per edition, found by id."""
from pathlib import Path

SPEC_DIR = Path(__file__).resolve().parent


def bundled() -> dict[str, Path]:
    """Map each bundled edition id (file stem) to its path."""
    return {path.stem: path for path in sorted(SPEC_DIR.glob("*.rules"))}


def bundled_variants() -> dict[str, Path]:
    """Map each bundled variant id (file stem in `variants/`) to its path."""
    return {path.stem: path for path in sorted((SPEC_DIR / "variants").glob("*.rules"))}
