"""``/docs`` and ``/redoc`` work offline (issue 13): every asset they reference is served
by the app itself, without a key, and nothing points at another host."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.server.http import KeyTable, create_app
from providers import RecordingProvider
from servers import running

KEY = "docs-owner-key-0123456789"
#: src="…", href="…", and the quoted URLs Swagger UI's script is given (url: '…').
ASSET_RE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\s*:\s*["']([^"']+)["']""")


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    keys = KeyTable.from_mapping({"keys": {"o": {"key": KEY, "namespace": "o",
                                                 "role": "owner"}}})
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys,
                     config=Config.load(), embedder=Embedder(RecordingProvider()))
    with running(app) as url:
        yield url


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_pages_load_every_asset_from_the_app(base: str, page: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as c:  # no key: the docs are public
        r = c.get(page)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        html = r.text
        assert "cdn" not in html.lower() and "fonts.googleapis" not in html
        urls = {a or b for a, b in ASSET_RE.findall(html)}
        assert any(u.endswith(".js") for u in urls), urls
        if page == "/docs":
            assert any(u.endswith(".css") for u in urls), urls
        for url in urls:
            full = urljoin(base + page, url)
            parts = urlsplit(full)
            assert f"{parts.scheme}://{parts.netloc}" == base, f"{url} is not served by the app"
            got = c.get(parts.path)
            assert got.status_code == 200, (url, got.status_code)
            assert got.content, url
