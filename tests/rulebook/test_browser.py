"""Each edition's board page in a real browser: headless Chromium (Debian's package) renders it,
the DOM holds the SVG with every square in order and named, and a screenshot is kept.

Screenshots go to $BOARDRULES_ARTIFACTS, else build/test-artifacts/ (git-ignored).
"""
from __future__ import annotations

import os
import re
import subprocess
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from mkdocs.config import load_config

from rulebook.build import CONFIG
from rulebook.site import editions as site_editions
from tests.rulebook.conftest import Elements

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BOARDRULES_ARTIFACTS", REPO / "build" / "test-artifacts"))

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="no /usr/bin/chromium: `apt-get install -y chromium` (CI installs it)")


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def served(site):
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    command = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


def test_board_pages_render_every_square_in_order(served, editions, tmp_path):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    languages = load_config(str(CONFIG)).plugins["rulebook"].config.languages
    for edition in site_editions(list(editions), languages):
        eid, board, lang = edition.id, edition.ruleset.squares, edition.languages[0]
        url = f"{served}/{eid}/{lang}/board/"
        dom = chromium(tmp_path, "--dump-dom", url).stdout
        drawn = re.findall(r'<g class="square" id="board-([^"]+)" data-index="(\d+)" data-name="([^"]*)"', dom)
        assert 'id="board"' in dom and len(drawn) == len(board) == 40, eid
        assert [(square.key, str(square.index)) for square in board] == [(key, index) for key, index, _ in drawn]
        parser = Elements()
        parser.feed(dom)
        for square in board:
            assert parser.found[f"board-{square.key}"]["attrs"]["data-name"] == square.name
        shot = ARTIFACTS / f"board-{eid}-{lang}.png"
        chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,1300", "--hide-scrollbars", url)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000, shot
