"""A search provider of one's own, by import path: `--search package.module:Class`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from m2rag_bench.curate.search import SearchError, WebHit, make_search
from tests.curate.curate_judge import reply as judge_reply
from tests.helpers.cli import run_cli
from tests.helpers.fixture_web import FixtureWeb
from tests.helpers.openai_server import OpenAIStub


class StaticSearch:
    """Every question gets the same two fixture pages (their base URL from STATIC_SEARCH_BASE) and no images."""

    name = "static"

    def __init__(self) -> None:
        self.base = os.environ["STATIC_SEARCH_BASE"]

    async def web(self, query: str, num: int = 10) -> list[WebHit]:
        paths = ["/solar/how-solar-panels-work.html", "/solar/inverters-and-the-grid.html"]
        return [WebHit(i, f"page {i}", self.base + p, None, {}) for i, p in enumerate(paths[:num])]

    async def images(self, query: str, num: int = 10) -> list:
        return []

    async def aclose(self) -> None:
        return None


def test_unknown_plugins_are_clear_errors() -> None:
    with pytest.raises(SearchError, match="cannot load search provider 'nope.nothing:X'"):
        make_search("nope.nothing:X")
    with pytest.raises(SearchError, match="or package.module:Class"):
        make_search("bing")


def test_curate_with_a_provider_of_ones_own(tmp_path: Path) -> None:
    (tmp_path / "q.txt").write_text("How do solar panels turn sunlight into electricity?\n")
    with FixtureWeb() as web, OpenAIStub(["judge"], judge_reply) as judge:
        proc = run_cli(tmp_path, "curate", "--queries", str(tmp_path / "q.txt"), "--out", str(tmp_path / "out"),
                       "--search", "tests.curate.test_search_plugin:StaticSearch", "--allow-loopback",
                       "--judge-base-url", judge.base_url, "--similarity", "text",
                       env={"STATIC_SEARCH_BASE": web.base_url})
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert web.count("/customsearch") == 0
    [record] = [json.loads(line) for line in (tmp_path / "out" / "release" / "dev_set.jsonl").read_text().splitlines()]
    assert [p["title"] for p in record["webpages"]] == ["page 0", "page 1"]
    assert all(p["cleaned_webpage_splits"] for p in record["webpages"])
