"""In-process offline inference with vLLM's ``LLM`` class (CUDA machines only: ``pip install 'm2rag-bench[vllm]'``).

One `generate` is one batched ``LLM.chat`` call: vLLM schedules the whole batch itself (continuous batching,
prefix caching). Data parallelism runs one independent ``LLM`` replica per rank, each in its own spawned process on
its own GPUs; ``LLM(data_parallel_size=N)`` in one process is refused by vLLM (see `_Replicas`).

API used (read in vLLM's docs and source, 0.8 to 0.33 era; never run here, this machine has no GPU):
* ``LLM(model, tensor_parallel_size, dtype, seed, trust_remote_code, gpu_memory_utilization, enforce_eager,
  **EngineArgs)``: vllm/entrypoints/llm.py docstring; ``max_model_len`` and ``limit_mm_per_prompt`` are EngineArgs.
* ``limit_mm_per_prompt={"image": n}``: docs/features/multimodal_inputs.md ("multiple images" example).
* ``LLM.chat(list_of_conversations, sampling_params=[one per conversation], use_tqdm, chat_template_content_format)``
  and OpenAI ``image_url`` parts with data URLs: vllm/entrypoints/llm.py ``chat`` docstring; multimodal_inputs.md.
* ``SamplingParams(structured_outputs=StructuredOutputsParams(json=...))``: docs/features/structured_outputs.md
  (older releases: ``guided_decoding=GuidedDecodingParams(json=...)``).
* ``RequestOutput.prompt_token_ids`` / ``.outputs[0].text|token_ids|finish_reason``: vllm/outputs.py.
"""

from __future__ import annotations

import atexit
import importlib
import multiprocessing as mp
import os
from typing import Any

from .base import Backend, BackendError, Call, Completion, GenerationParams, ModelNotFound, Progress, Usage
from .messages import Conversation, ImagePart, conversation_images

INSTALL_HINT = "vLLM is not installed: run `pip install 'm2rag-bench[vllm]'` on a Linux machine with a CUDA GPU"
# Messages vLLM / huggingface_hub give for an unknown model (vllm/transformers_utils/config.py, hf_hub errors).
_NOT_FOUND = ("Invalid repository ID or local directory", "RepositoryNotFoundError", "Repository Not Found",
              "is not a local folder and is not a valid model identifier")
_TEXT_ONLY = "only supported for multimodal models"  # ValueError for limit_mm_per_prompt on a text-only model
Job = tuple[list[list[dict[str, Any]]], list[tuple[dict[str, Any], dict[str, Any] | None]]]


def _import_vllm() -> Any:
    try:
        return importlib.import_module("vllm")
    except ImportError as exc:
        raise BackendError(f"{INSTALL_HINT} ({exc})") from exc


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def to_openai_messages(conversation: Conversation) -> list[dict[str, Any]]:
    """OpenAI chat messages; messages without images get plain string content."""
    return [{"role": m.role, "content": m.text if not m.images else [
        {"type": "image_url", "image_url": {"url": p.data_url()}} if isinstance(p, ImagePart)
        else {"type": "text", "text": p.text} for p in m.parts]} for m in conversation]


def _sampling_kwargs(params: GenerationParams) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"temperature": params.temperature, "max_tokens": params.max_tokens, "seed": params.seed}
    if params.top_p is not None:
        kwargs["top_p"] = params.top_p
    if params.stop:
        kwargs["stop"] = list(params.stop)
    return kwargs


def _sampling_params(vllm: Any, kwargs: dict[str, Any], schema: dict[str, Any] | None) -> Any:
    if schema is not None:
        try:  # current API, docs/features/structured_outputs.md (the guided_* names went away in v0.12.0)
            from vllm.sampling_params import StructuredOutputsParams
            kwargs = {**kwargs, "structured_outputs": StructuredOutputsParams(json=schema)}
        except ImportError:  # older releases
            from vllm.sampling_params import GuidedDecodingParams
            kwargs = {**kwargs, "guided_decoding": GuidedDecodingParams(json=schema)}
    return vllm.SamplingParams(**kwargs)


def _build_llm(vllm: Any, kwargs: dict[str, Any]) -> tuple[Any, bool]:
    """The engine, and whether it takes images.

    vLLM <= 0.10 raises for ``limit_mm_per_prompt`` on a text-only model; newer releases ignore it, so then ask the
    engine (``ModelConfig.is_multimodal_model``: vllm/config, not in the documented API, hence the guard).
    """
    try:
        llm = vllm.LLM(**kwargs)
    except ValueError as exc:
        if _TEXT_ONLY not in str(exc) or "limit_mm_per_prompt" not in kwargs:
            raise
        return vllm.LLM(**{k: v for k, v in kwargs.items() if k != "limit_mm_per_prompt"}), False
    try:
        return llm, bool(llm.llm_engine.model_config.is_multimodal_model)
    except AttributeError:
        return llm, True


def _run_chat(vllm: Any, llm: Any, job: Job) -> list[tuple[str, int, int, str | None]]:
    """One batched ``LLM.chat``; plain tuples (text, prompt tokens, completion tokens, finish reason) come back."""
    messages, params = job
    sampling = [_sampling_params(vllm, kwargs, schema) for kwargs, schema in params]
    outputs = llm.chat(messages, sampling_params=sampling, use_tqdm=False, chat_template_content_format="auto")
    return [(o.outputs[0].text, len(o.prompt_token_ids or ()), len(o.outputs[0].token_ids or ()),
             o.outputs[0].finish_reason) for o in outputs]


def _rank_main(conn: Any, env: dict[str, str], kwargs: dict[str, Any]) -> None:
    """One data-parallel replica (spawned process): pin its GPUs, build its engine, then serve jobs until None."""
    os.environ.update(env)  # before vLLM initialises CUDA (docs: serving/offline_inference, CUDA_VISIBLE_DEVICES)
    try:
        vllm = importlib.import_module("vllm")
        llm, images_ok = _build_llm(vllm, kwargs)
        conn.send(("ready", images_ok))
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        conn.send(("error", _describe(exc)))
        return
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            conn.send(("ok", _run_chat(vllm, llm, job)))
        except Exception as exc:  # noqa: BLE001 - the whole shard failed
            conn.send(("error", _describe(exc)))


def _receive(conn: Any, rank: int) -> tuple[str, Any]:
    try:
        return conn.recv()
    except (EOFError, OSError) as exc:
        return "error", f"data-parallel rank {rank} died: {_describe(exc)}"


class _Replicas:
    """``data_parallel_size`` independent engines, one process each, on disjoint GPU groups of ``tp`` GPUs.

    vLLM >= 0.11.1 raises for ``LLM(data_parallel_size>1)`` in one process (PR #27282); its documented offline DP
    (examples/.../data_parallel_offline.py, VLLM_DP_* env) is for MoE models only ("not supported/useful for dense
    models"), while docs/serving/data_parallel_deployment.md notes dense models replicate as fully independent
    instances. That is what this does, so it works for every model (MoE experts are not sharded across ranks).
    """

    def __init__(self, size: int, tp: int, kwargs: dict[str, Any]) -> None:
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        devices = [d for d in visible.split(",") if d.strip()] if visible else [str(i) for i in range(size * tp)]
        if len(devices) < size * tp:
            raise BackendError(f"data_parallel_size={size} x tensor_parallel_size={tp} needs {size * tp} GPUs; "
                               f"CUDA_VISIBLE_DEVICES lists {len(devices)}")
        ctx = mp.get_context("spawn")  # vLLM's engine needs a fresh CUDA state; not daemonic: it spawns children
        self.conns: list[Any] = []
        self.procs: list[Any] = []
        for rank in range(size):
            parent, child = ctx.Pipe()
            env = {"CUDA_VISIBLE_DEVICES": ",".join(devices[rank * tp:(rank + 1) * tp])}
            proc = ctx.Process(target=_rank_main, args=(child, env, kwargs), name=f"m2rag-vllm-dp{rank}")
            proc.start()
            self.conns.append(parent)
            self.procs.append(proc)
        atexit.register(self.close)
        replies = [_receive(conn, rank) for rank, conn in enumerate(self.conns)]
        errors = [msg for kind, msg in replies if kind == "error"]
        if errors:
            self.close()
            raise RuntimeError(errors[0])
        self.images_ok = all(msg for _, msg in replies)

    def close(self) -> None:
        for conn, proc in zip(self.conns, self.procs):
            try:
                conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            proc.join(timeout=30)
            if proc.is_alive():
                proc.terminate()
        self.conns, self.procs = [], []


class VLLMBackend(Backend):
    """Offline batched chat on local GPUs with vLLM. Whether images work depends on the model (vLLM decides)."""

    name = "vllm"
    supports_images = True  # set to False on the instance once the engine turns out text-only
    supports_structured_output = True

    def __init__(self, model: str, *, tensor_parallel_size: int = 1, data_parallel_size: int = 1,
                 max_model_len: int | None = None, max_images: int = 10, gpu_memory_utilization: float | None = None,
                 dtype: str = "auto", trust_remote_code: bool = False, seed: int = 0, enforce_eager: bool = False,
                 **engine_kwargs: Any) -> None:
        super().__init__(model, None)
        engine_kwargs.pop("base_url", None)  # generic CLI option; meaningless in-process
        self._vllm = _import_vllm()
        self.version = str(getattr(self._vllm, "__version__", "unknown"))
        self.tensor_parallel_size, self.data_parallel_size = max(1, tensor_parallel_size), max(1, data_parallel_size)
        self.max_model_len, self.max_images, self.dtype = max_model_len, max_images, dtype
        self.engine_kwargs: dict[str, Any] = {
            "model": model, "tensor_parallel_size": self.tensor_parallel_size, "dtype": dtype,
            "trust_remote_code": trust_remote_code, "seed": seed, "enforce_eager": enforce_eager,
            "limit_mm_per_prompt": {"image": max_images}, **engine_kwargs}
        if max_model_len is not None:
            self.engine_kwargs["max_model_len"] = max_model_len
        if gpu_memory_utilization is not None:
            self.engine_kwargs["gpu_memory_utilization"] = gpu_memory_utilization
        self._llm: Any = None
        self._replicas: _Replicas | None = None

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "vllm": self.version, "tensor_parallel_size": self.tensor_parallel_size,
                "data_parallel_size": self.data_parallel_size, "max_model_len": self.max_model_len, "dtype": self.dtype}

    def check(self) -> None:
        """Start the engine(s) once; an unknown model is `ModelNotFound`, any other failure `BackendError`."""
        if self._llm is not None or self._replicas is not None:
            return
        try:
            if self.data_parallel_size > 1:
                self._replicas = _Replicas(self.data_parallel_size, self.tensor_parallel_size, self.engine_kwargs)
                images_ok = self._replicas.images_ok
            else:
                self._llm, images_ok = _build_llm(self._vllm, self.engine_kwargs)
        except BackendError:
            raise
        except Exception as exc:  # noqa: BLE001 - classified below
            text = _describe(exc)
            if any(marker in text for marker in _NOT_FOUND):
                raise ModelNotFound(f"vLLM cannot find model {self.model!r}: {text}") from exc
            raise BackendError(f"vLLM could not start {self.model!r}: {text}") from exc
        if not images_ok:
            self.supports_images = False

    def _shard_results(self, shards: list[list[int]], jobs: list[Job], progress: Progress | None) -> list[Any]:
        """Run each shard's job (in-process or on its replica); per shard a result list or an error string."""
        if self._replicas is None:
            try:
                out: Any = _run_chat(self._vllm, self._llm, jobs[0])
            except Exception as exc:  # noqa: BLE001 - the whole batch failed
                out = _describe(exc)
            if progress:
                progress(len(shards[0]))
            return [out]
        results: list[Any] = [[] for _ in shards]
        busy = []
        for r, shard in enumerate(shards):
            if shard:
                try:
                    self._replicas.conns[r].send(jobs[r])
                    busy.append(r)
                except (OSError, ValueError) as exc:
                    results[r] = f"data-parallel rank {r} is gone: {_describe(exc)}"
        for r in busy:
            kind, payload = _receive(self._replicas.conns[r], r)
            results[r] = payload if kind == "ok" else str(payload)
            if progress:
                progress(len(shards[r]))
        return results

    def generate(self, calls: list[Call], progress: Progress | None = None) -> list[Completion]:
        """All sendable calls in one batched ``chat`` (one per replica with data parallelism), results in order."""
        if not calls:
            return []
        self.check()
        completions: list[Completion | None] = [None] * len(calls)
        sendable: list[int] = []
        for i, call in enumerate(calls):
            n_images = len(conversation_images(call.conversation))
            if n_images > self.max_images:
                error: str | None = f"{n_images} images exceed max_images={self.max_images}"
            elif n_images and not self.supports_images:
                error = f"{self.model} is text-only in vLLM; images are not accepted"
            else:
                error = None
                sendable.append(i)
            if error:
                completions[i] = Completion(model=self.model, error=error)
        if progress and len(sendable) < len(calls):
            progress(len(calls) - len(sendable))
        n_shards = self.data_parallel_size if self._replicas is not None else 1
        shards = [sendable[r::n_shards] for r in range(n_shards)]  # round-robin keeps replicas evenly loaded
        jobs: list[Job] = [([to_openai_messages(calls[i].conversation) for i in shard],
                            [(_sampling_kwargs(calls[i].params), calls[i].params.json_schema) for i in shard])
                           for shard in shards]
        if sendable:
            for shard, result in zip(shards, self._shard_results(shards, jobs, progress)):
                for j, i in enumerate(shard):
                    if isinstance(result, str):
                        completions[i] = Completion(model=self.model, error=result)
                    else:
                        text, prompt_tokens, completion_tokens, finish = result[j]
                        completions[i] = Completion(text, Usage(prompt_tokens, completion_tokens), finish, self.model)
        return completions  # type: ignore[return-value]

    def close(self) -> None:
        """Stop replicas and drop the engine so its GPU memory can be freed."""
        if self._replicas is not None:
            self._replicas.close()
            self._replicas = None
        self._llm = None
