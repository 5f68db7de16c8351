"""`boardrules docs`: build (or serve) the site with mkdocs, strict, from the repo's mkdocs.yml."""
from __future__ import annotations

import os
import shutil
import signal
from glob import escape
from pathlib import Path
from typing import Any

from mkdocs.commands.build import build
from mkdocs.commands.serve import serve
from mkdocs.config import load_config
from mkdocs.exceptions import MkDocsException

from rulebook.site import SiteError, editions
from verifier.atomic import sweep

CONFIG = Path(__file__).resolve().parent.parent / "mkdocs.yml"


def writable(out: Path) -> None:
    """Refuse a folder mkdocs cannot write, or one holding something other than a built site
    (mkdocs empties the folder before it builds)."""
    if out.exists() and not out.is_dir():
        raise SiteError(f"`{out}` is a file, not a folder", "choose a folder for --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SiteError(f"cannot create `{out}`: {error.strerror}", "choose another --out folder") from None
    if not os.access(out, os.W_OK):
        raise SiteError(f"cannot write to `{out}`", "choose a folder you may write to with --out")
    if any(out.iterdir()) and not (out / "index.html").is_file():
        raise SiteError(f"`{out}` holds files that are not a built site", "choose an empty or new folder with --out")


def build_site(out_dir: str | Path, specs: tuple[str, ...] = (), serve_it: bool = False,
               variants: tuple[str, ...] = ()) -> Path:
    """Build the site into `out_dir` (or serve it locally), each edition with `variants` laid
    over it; returns the site's index."""
    if not CONFIG.is_file():
        raise SiteError(f"no `{CONFIG}`", "the site is built from a source checkout of boardrules")
    out = Path(out_dir)
    overrides: dict[str, Any] = {}
    try:
        config = load_config(str(CONFIG), strict=True)
        options = config.plugins["rulebook"].config
        # report a bad spec, variant or language before mkdocs starts
        editions(list(specs), options.languages, list(variants))
        if specs or variants:
            chosen = {"specs": list(specs), "languages": options.languages, "variants": list(variants)}
            overrides["plugins"] = [{"rulebook": chosen},
                                    *[name for name in config.plugins if name != "rulebook"]]
        if serve_it:
            serve(str(CONFIG), strict=True, **overrides)
            return out / "index.html"
        writable(out)
        site = Path(os.path.realpath(out))
        staged = site.parent / f".{site.name}.tmp-{os.getpid()}"
        for leftover in (escape(site.name), escape(site.name) + ".old"):     # what a build killed outright left
            sweep(site.parent, leftover)
        try:
            build(load_config(str(CONFIG), site_dir=str(staged), strict=True, **overrides))
            _swap(staged, site)
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    except MkDocsException as error:
        raise SiteError(f"the site did not build: {error}", "see the warnings above; the build is strict") from None
    return out / "index.html"


def _swap(staged: Path, site: Path) -> None:
    """Put the new site where the old one was: mkdocs empties its folder before it writes,
    so it builds beside it and an interrupted or failed build leaves the last site whole.
    Ctrl-C waits for the two renames, so there is always a site in place."""
    old = site.parent / f".{site.name}.old.tmp-{os.getpid()}"
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        site.rename(old)
        staged.rename(site)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    shutil.rmtree(old)
