"""The mkdocs plugin `rulebook`: adds the generated booklets to the hand-written docs.

`mkdocs build --strict` (with the repo's mkdocs.yml) and `boardrules docs` both go
through here, so the site is the same whichever way it is built.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from mkdocs.config import base, config_options
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from pygments.formatters import HtmlFormatter

import grammar
from rulebook.phrases import MissingPhrase
from rulebook.site import Booklets, editions, home, nav, pages
from spec import Refusal

STYLE = Path(__file__).with_name("rulebook.css")
STYLE_URI = "rulebook/rulebook.css"
HIGHLIGHT_URI = "rulebook/highlight.css"   # Pygments colours for the `codehilite` blocks (`rules` and others)


class RulebookConfig(base.Config):
    specs = config_options.ListOfItems(config_options.Type(str), default=[])
    languages = config_options.Type(dict, default={})
    variants = config_options.ListOfItems(config_options.Type(str), default=[])


class Rulebook(BasePlugin[RulebookConfig]):
    """Compiles the specs once per build and hands mkdocs one page per booklet page."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        try:
            self.editions: list[Booklets] = editions(self.config.specs, self.config.languages, self.config.variants)
            self.pages = {"index.md": home(self.editions)}
            for edition in self.editions:
                self.pages |= pages(edition)
            config.nav = [{"Home": "index.md"}, *nav(self.editions), *(config.nav or [])]
        except (Refusal, grammar.SpecError) as error:
            raise PluginError(error.render()) from None
        except MissingPhrase as error:
            raise PluginError(str(error)) from None
        config.extra_css = [*config.extra_css, STYLE_URI, HIGHLIGHT_URI]
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        for path, markdown in self.pages.items():
            files.append(File.generated(config, path, content=markdown))
        files.append(File.generated(config, STYLE_URI, abs_src_path=str(STYLE)))
        files.append(File.generated(config, HIGHLIGHT_URI, content=HtmlFormatter().get_style_defs(".codehilite")))
        return files

    def on_serve(self, server: LiveReloadServer, config: MkDocsConfig,
                 builder: Callable[..., Any]) -> LiveReloadServer:
        for edition in self.editions:
            server.watch(str(edition.path.parent))
        server.watch(str(Path(__file__).parent))
        return server
