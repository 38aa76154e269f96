"""``push_dataset`` against a local Hub stub (no real network).

The push itself runs in a subprocess so that ``HF_ENDPOINT`` / ``HF_HUB_DISABLE_XET``
/ ``HF_HOME`` are read by a fresh ``huggingface_hub`` import.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from m2rag_bench.data.hub import push_dataset, validate_export_dir  # noqa: E402
from tests.helpers.hub_stub import HubStub  # noqa: E402

TOKEN = "hf_test_secret_123"
REPO_ID = "m2rag/m2rag-bench-test"
SHARD = "benchmark/test-00000-of-00001.parquet"
CARD = """---
pretty_name: M2RAG tiny test export
configs:
- config_name: benchmark
  data_files:
  - split: test
    path: benchmark/test-*
---
# Tiny export used by test_hub_push
"""
PUSH_CODE = (
    "import json, sys\n"
    "from m2rag_bench.data.hub import push_dataset\n"
    "url = push_dataset(sys.argv[1], sys.argv[2], **json.loads(sys.argv[3]))\n"
    "print('COMMIT_URL=' + url)\n"
)


def _images() -> list[Any]:
    from PIL import Image

    return [Image.new("RGB", (4, 3), (255, 0, 0)), Image.new("RGB", (2, 5), (0, 128, 255))]


def make_export(root: Path, card: str = CARD) -> Path:
    """A tiny export dir: card, one parquet shard (string + Image columns), report, and junk to skip."""
    import datasets

    features = datasets.Features({"question": datasets.Value("string"), "image": datasets.Image()})
    rows = {"question": ["what is red?", "what is blue?"], "image": _images()}
    ds = datasets.Dataset.from_dict(rows, features=features)
    (root / "benchmark").mkdir(parents=True)
    ds.to_parquet(str(root / SHARD))
    (root / "README.md").write_text(card, encoding="utf-8")
    (root / "build_report.json").write_text(json.dumps({"rows": 2}), encoding="utf-8")
    for junk in (".cache/huggingface/download/x.lock", ".cache/other.txt", ".hidden", "benchmark/.tmp.parquet"):
        (root / junk).parent.mkdir(parents=True, exist_ok=True)
        (root / junk).write_text("do not upload", encoding="utf-8")
    return root


def run_push(
    endpoint: str, export_dir: Path, hf_home: Path, *, token: str | None = TOKEN, **kwargs: Any
) -> subprocess.CompletedProcess[str]:
    """Run ``push_dataset`` in a fresh interpreter pointed at ``endpoint``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.upper().startswith(("HF_", "HUGGING_FACE", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"))
    }
    env.update(
        HF_ENDPOINT=endpoint,
        HF_HUB_DISABLE_XET="1",
        HF_HUB_OFFLINE="0",
        HF_HUB_DISABLE_TELEMETRY="1",
        HF_HOME=str(hf_home),
        NO_PROXY="127.0.0.1,localhost",
        PYTHONPATH=os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    )
    if token is not None:
        env["HF_TOKEN"] = token
    args = [sys.executable, "-c", PUSH_CODE, str(export_dir), REPO_ID, json.dumps(kwargs)]
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=180, cwd=str(hf_home))


@pytest.fixture(scope="module")
def pushed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One successful push to a fresh stub (kept running), shared by the assertions below."""
    tmp = tmp_path_factory.mktemp("push")
    export = make_export(tmp / "export")
    hf_home = tmp / "hf_home"
    hf_home.mkdir()
    with HubStub(expected_token=TOKEN) as stub:
        proc = run_push(stub.url, export, hf_home)
        assert proc.returncode == 0, proc.stderr[-4000:]
        yield {"stub": stub, "proc": proc, "export": export, "tmp": tmp}


def test_push_uploads_card_and_shard_byte_identical(pushed: dict[str, Any]) -> None:
    stub, export = pushed["stub"], pushed["export"]
    repo = stub.repo(REPO_ID, "dataset")
    assert set(repo.files) == {"README.md", SHARD, "build_report.json"}  # no hidden files, no .cache/
    for rel in repo.files:
        assert repo.files[rel] == (export / rel).read_bytes(), rel
    shard_sha = hashlib.sha256((export / SHARD).read_bytes()).hexdigest()
    assert repo.branches["main"].lfs == {SHARD}  # parquet went through the LFS batch + PUT path
    assert stub.lfs_objects[shard_sha] == (export / SHARD).read_bytes()
    assert len(repo.commits) == 1 and not repo.private
    assert ("PUT", f"/__stub/lfs/{shard_sha}") in stub.requests


def test_push_returns_commit_url_and_uses_token(pushed: dict[str, Any]) -> None:
    stub, proc = pushed["stub"], pushed["proc"]
    repo = stub.repo(REPO_ID, "dataset")
    expected = f"{stub.url}/datasets/{REPO_ID}/commit/{repo.branches['main'].sha}"
    assert f"COMMIT_URL={expected}" in proc.stdout.splitlines()
    sent = [h for h in stub.auth_headers if h is not None]
    assert sent and set(sent) == {f"Bearer {TOKEN}"}


def test_token_never_printed(pushed: dict[str, Any]) -> None:
    proc = pushed["proc"]
    assert TOKEN not in proc.stdout
    assert TOKEN not in proc.stderr


def test_pushed_parquet_loads_with_datasets(pushed: dict[str, Any]) -> None:
    import datasets
    from PIL import Image

    repo, tmp = pushed["stub"].repo(REPO_ID, "dataset"), pushed["tmp"]
    clone = tmp / "from_stub"
    for rel, data in repo.files.items():
        (clone / rel).parent.mkdir(parents=True, exist_ok=True)
        (clone / rel).write_bytes(data)
    ds = datasets.load_dataset(str(clone), "benchmark", split="test", cache_dir=str(tmp / "ds_cache"))
    assert ds["question"] == ["what is red?", "what is blue?"]
    for row, original in zip(ds, _images()):
        assert isinstance(row["image"], Image.Image)
        assert row["image"].size == original.size
        assert row["image"].convert("RGB").tobytes() == original.tobytes()


def test_push_failure_is_readable_and_hides_token(tmp_path: Path) -> None:
    export = make_export(tmp_path / "export")
    wrong = "hf_wrong_secret_789"
    with HubStub(expected_token=TOKEN) as stub:
        proc = run_push(stub.url, export, tmp_path, token=wrong)
    assert proc.returncode != 0
    assert "RuntimeError: Hub request failed: HTTP 401 POST /api/repos/create" in proc.stderr
    assert wrong not in proc.stdout + proc.stderr
    assert TOKEN not in proc.stdout + proc.stderr


def test_push_without_token_fails_clearly(tmp_path: Path) -> None:
    export = make_export(tmp_path / "export")
    with HubStub() as stub:
        proc = run_push(stub.url, export, tmp_path, token=None)
    assert proc.returncode != 0
    assert "No Hugging Face token found" in proc.stderr
    assert stub.requests == []  # fails before any HTTP request


def test_repush_unchanged_and_push_to_new_branch(tmp_path: Path) -> None:
    export = make_export(tmp_path / "export")
    with HubStub(expected_token=TOKEN) as stub:
        first = run_push(stub.url, export, tmp_path)
        again = run_push(stub.url, export, tmp_path)  # repo exists (409) and nothing changed
        branch = run_push(stub.url, export, tmp_path, revision="v1", commit_message="release v1")
    for proc in (first, again, branch):
        assert proc.returncode == 0, proc.stderr[-4000:]
    repo = stub.repo(REPO_ID, "dataset")
    url = [line for line in first.stdout.splitlines() if line.startswith("COMMIT_URL=")]
    assert url and url[0] in again.stdout.splitlines()
    assert len(repo.commits) == 1  # the no-op re-push and the new branch (same content) add no commit
    assert set(repo.branches) == {"main", "v1"}
    assert repo.branches["v1"].files == repo.files


@pytest.mark.parametrize(
    ("setup", "needle"),
    [
        (lambda root: (root / "README.md").unlink(), "README.md: missing dataset card"),
        (lambda root: (root / "README.md").write_text("# no yaml\n"), "README.md: dataset card has no YAML"),
        (
            lambda root: (root / "README.md").write_text("---\nlicense: mit\n---\n"),
            "README.md: dataset card YAML has no 'configs:'",
        ),
        (
            lambda root: (root / "README.md").write_text(CARD.replace("benchmark/test-*", "benchmark/validation-*")),
            "README.md: config 'benchmark' data_files glob 'benchmark/validation-*' matches no parquet file",
        ),
        (lambda root: (root / SHARD).unlink(), "glob 'benchmark/test-*' matches no parquet file"),
    ],
    ids=["missing-readme", "no-front-matter", "no-configs", "glob-matches-nothing", "shard-missing"],
)
def test_invalid_export_dir_raises_value_error(tmp_path: Path, setup: Any, needle: str) -> None:
    root = make_export(tmp_path / "export")
    setup(root)
    with pytest.raises(ValueError, match="README.md") as info:
        push_dataset(root, REPO_ID, token=TOKEN)  # validation happens before any network use
    assert needle in str(info.value)


def test_missing_export_dir_raises(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="export directory does not exist"):
        validate_export_dir(tmp_path / "nope")


def test_repush_deletes_stale_shards_only(tmp_path: Path) -> None:
    export = make_export(tmp_path / "export")
    extra = "benchmark/test-00001-of-00002.parquet"
    (export / extra).write_bytes((export / SHARD).read_bytes())
    with HubStub(expected_token=TOKEN) as stub:
        first = run_push(stub.url, export, tmp_path)
        (export / extra).unlink()
        (export / "build_report.json").unlink()
        second = run_push(stub.url, export, tmp_path)
    for proc in (first, second):
        assert proc.returncode == 0, proc.stderr[-4000:]
    repo = stub.repo(REPO_ID, "dataset")
    assert len(repo.commits) == 2
    assert repo.commits[1]["paths"][0] == extra  # deletion sent in the second commit
    # the stale shard is gone; non-parquet remote files are left alone
    assert set(repo.files) == {"README.md", SHARD, "build_report.json"}


def test_cli_build_then_push_a_real_export(tmp_path: Path) -> None:
    """The user's path: `m2rag-bench dataset build` then `m2rag-bench dataset push` to the (stub) Hub."""
    from click.testing import CliRunner

    from m2rag_bench.cli import main
    from m2rag_bench.data.synthetic import write_release

    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["dataset", "build", "--release", str(write_release(tmp_path / "rel", 3)),
                                      "--out", str(out)])
    assert built.exit_code == 0, built.output
    hf_home = tmp_path / "hf_home"
    hf_home.mkdir()
    with HubStub(expected_token=TOKEN) as stub:
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith("HF_")}
        env.update(HF_ENDPOINT=stub.url, HF_HUB_DISABLE_XET="1", HF_HUB_OFFLINE="0", HF_HOME=str(hf_home),
                   HF_TOKEN=TOKEN, NO_PROXY="127.0.0.1,localhost",
                   PYTHONPATH=os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        proc = subprocess.run([sys.executable, "-m", "m2rag_bench.cli", "dataset", "push", str(out), "--repo", REPO_ID],
                              env=env, capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert TOKEN not in proc.stdout + proc.stderr and "pushed" in proc.stderr
        files = stub.repo(REPO_ID, "dataset").files
    assert files["README.md"] == (out / "README.md").read_bytes()
    assert files["benchmark/test-00000-of-00001.parquet"] == (out / "benchmark/test-00000-of-00001.parquet").read_bytes()
