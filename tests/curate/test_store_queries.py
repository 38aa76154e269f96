"""The curation store and the queries file: resumable records, clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2rag_bench.curate.judging import page_context, parse_query_verdict, parse_score
from m2rag_bench.curate.queries import query_id_for, read_queries
from m2rag_bench.curate.store import CurateError, Store


def test_plain_text_queries_get_stable_ids(tmp_path: Path) -> None:
    path = tmp_path / "q.txt"
    path.write_text("# my questions\nWhy is the sky blue?\n\nHow do tides work?\n")
    queries = read_queries(path)
    assert [q.query for q in queries] == ["Why is the sky blue?", "How do tides work?"]
    assert queries[0].query_id == query_id_for("why is the sky  blue?")
    path.write_text("How do tides work?\nWhy is the sky blue?\n")
    assert {q.query_id for q in read_queries(path)} == {q.query_id for q in queries}


def test_jsonl_queries_name_every_bad_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join([
        json.dumps({"id": "a", "query": "How do tides work?", "topic": "Science & Mathematics",
                    "urls": ["https://example.org/tides"]}),
        "{not json",
        json.dumps({"id": "b", "query": ""}),
        json.dumps({"id": "c", "query": "Why?", "topic": "Astrology"}),
        json.dumps({"id": "a", "question": "Duplicate id?"}),
        json.dumps({"id": "d", "query": "Fine", "urls": "https://x"}),
    ]) + "\n")
    with pytest.raises(CurateError) as err:
        read_queries(path)
    message = str(err.value)
    assert "5 problem(s)" in message and "nothing was done" in message
    assert f"{path}:2: not valid JSON" in message
    assert f"{path}:3 [query]: missing or empty" in message
    assert f"{path}:4 [topic]: unknown topic 'Astrology'" in message
    assert f"{path}:5 [id]: duplicate id 'a' (first on line 1)" in message
    assert f"{path}:6 [urls]" in message


def test_missing_queries_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CurateError, match="no such file"):
        read_queries(tmp_path / "nope.txt")


def test_store_resumes_and_ignores_a_line_cut_by_a_kill(tmp_path: Path) -> None:
    store = Store(tmp_path / "out")
    store.open({"pages": 10})
    store.append("read", "q/0", {"ok": True})
    store.append("read", "q/1", {"ok": False, "error": "HTTP 404"})
    store.close()
    with open(store.path("read"), "a") as handle:
        handle.write('{"key": "q/2", "ok": tr')  # the process died mid-write
    again = Store(tmp_path / "out")
    again.open({"pages": 10})
    assert set(again.records("read")) == {"q/0", "q/1"}
    assert again.truncated == {"read": 1}
    again.append("read", "q/2", {"ok": True})
    again.close()
    assert [json.loads(line)["key"] for line in store.path("read").read_text().splitlines()] == ["q/0", "q/1", "q/2"]


def test_store_refuses_a_different_configuration(tmp_path: Path) -> None:
    Store(tmp_path / "out").open({"pages": 10, "reader": "direct"})
    with pytest.raises(CurateError, match=r"different configuration \(pages: 10 -> 5\)"):
        Store(tmp_path / "out").open({"pages": 5, "reader": "direct"})


def test_store_files_are_content_addressed(tmp_path: Path) -> None:
    store = Store(tmp_path / "out")
    store.open({})
    rel = store.put_file(b"abc", "png")
    assert rel == store.put_file(b"abc", "png") and store.get_file(rel) == b"abc" and rel.endswith(".png")


def test_query_verdicts_are_parsed_strictly() -> None:
    verdict, problem = parse_query_verdict('Thinking...\n{"reason": "x", "needs_references": 1, "images_help": 1, '
                                           '"topics": [5, 2]}')
    assert problem is None and verdict.keep and verdict.topics == ["Computers & Internet", "Science & Mathematics"]
    assert verdict.topic == "Computers & Internet"
    others, _ = parse_query_verdict('{"reason": "", "needs_references": 1, "images_help": 0, "topics": [11]}')
    assert not others.keep and others.topic is None and others.topics == ["Others"]
    assert parse_query_verdict('{"needs_references": 2, "images_help": 1, "topics": [1]}')[0] is None
    assert parse_query_verdict('{"needs_references": 1, "images_help": 1, "topics": [12]}')[0] is None
    assert parse_query_verdict("yes, keep it")[0] is None


def test_scores_are_parsed_strictly() -> None:
    assert parse_score('{"reason": "ok", "score": 7}') == (7, None)
    assert parse_score("Mostly relevant.\nScore: 6") == (6, None)
    assert parse_score('{"score": 14}')[0] is None
    assert parse_score("no idea")[0] is None


def test_page_context_is_cut_at_the_image_and_drops_other_markers() -> None:
    texts = ["Intro <IMAGE_PLACEHOLDER>[1] about panels. ", "Cells <IMAGE_PLACEHOLDER>[2] make current.",
             " End <IMAGE_PLACEHOLDER>[3]."]
    above, below = page_context(texts, 2, budget=4)
    assert above == "about panels. Cells" and below == "make current. End"
    assert page_context(texts, 9) == ("", "")


def test_store_accepts_settings_added_by_a_later_run(tmp_path: Path) -> None:
    Store(tmp_path / "out").open({"pages": 10})
    manifest = Store(tmp_path / "out").open({"pages": 10, "judges": {"text": "openai:m"}})
    assert Store(tmp_path / "out").manifest()["config"] == {"pages": 10, "judges": {"text": "openai:m"}}
    assert manifest["config"]["judges"] == {"text": "openai:m"}
    with pytest.raises(CurateError, match="judges"):
        Store(tmp_path / "out").open({"pages": 10, "judges": {"text": "openai:other"}})


def test_one_process_at_a_time_per_folder(tmp_path: Path) -> None:
    import subprocess
    import sys

    Store(tmp_path / "out").open({})  # creates the folder
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; sys.path.insert(0, %r); from m2rag_bench.curate.store import Store; "
        "s = Store(%r); s.open({}); print('locked', flush=True); time.sleep(30)") % (str(Path.cwd()), str(tmp_path / "out"))],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(CurateError, match="in use by another m2rag-bench process"):
            Store(tmp_path / "out").open({})
    finally:
        holder.kill()
        holder.wait()
    again = Store(tmp_path / "out")
    again.open({})  # free once the other process is gone
    again.close()
