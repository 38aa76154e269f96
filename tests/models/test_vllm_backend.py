"""VLLMBackend against a fake ``vllm`` package (vLLM itself needs CUDA and cannot run here).

The fake records ``LLM(...)`` kwargs and ``chat`` calls and answers with objects shaped like ``RequestOutput``.
The same source serves in-process tests (modules put into ``sys.modules``) and the data-parallel test (written to
disk, so the spawned replica processes import it too; they log to a JSON-lines file).
"""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path

import pytest
from PIL import Image

from m2rag_bench.models.base import BackendError, Call, GenerationParams, ModelNotFound
from m2rag_bench.models.messages import ImagePart, Message, TextPart, user

FAKE_VLLM = '''
import json, os
__version__ = "0.99.0+fake"

def _log(record):
    path = os.environ.get("FAKE_VLLM_LOG")
    if path:
        with open(path, "a") as fh:
            fh.write(json.dumps(record) + "\\n")

class SamplingParams:
    def __init__(self, **kwargs):
        self.kwargs = kwargs

class _Obj:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

class LLM:
    instances = []
    fail = None  # an exception chat() raises, set by tests

    def __init__(self, model, **kwargs):
        if "missing" in model:
            raise ValueError(f"Invalid repository ID or local directory specified: '{model}'.")
        if "text-only" in model and kwargs.get("limit_mm_per_prompt"):
            raise ValueError("`limit_mm_per_prompt` is only supported for multimodal models.")
        self.model, self.kwargs, self.chats = model, kwargs, []
        if "plain" in model:  # newer vLLM: no error, the engine's model config says text-only
            self.llm_engine = _Obj(model_config=_Obj(is_multimodal_model=False))
        LLM.instances.append(self)
        _log({"event": "init", "kwargs": kwargs, "cuda": os.environ.get("CUDA_VISIBLE_DEVICES")})

    def chat(self, messages, sampling_params=None, use_tqdm=True, chat_template_content_format="auto"):
        self.chats.append({"messages": messages, "sampling_params": sampling_params, "use_tqdm": use_tqdm,
                           "chat_template_content_format": chat_template_content_format})
        _log({"event": "chat", "n": len(messages), "cuda": os.environ.get("CUDA_VISIBLE_DEVICES")})
        if LLM.fail is not None:
            raise LLM.fail
        outputs = []
        for conversation, sp in zip(messages, sampling_params):
            content = conversation[-1]["content"]
            text = content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)
            n_out = min(3, sp.kwargs["max_tokens"])
            outputs.append(_Obj(prompt_token_ids=list(range(len(text.split()) + 2)), outputs=[_Obj(
                text="echo: " + text, token_ids=list(range(n_out)),
                finish_reason="length" if n_out == sp.kwargs["max_tokens"] else "stop")]))
        return outputs
'''

FAKE_SAMPLING = '''
class StructuredOutputsParams:
    def __init__(self, json=None, **kwargs):
        self.json = json
'''


def _png(color: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), color).save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def fake_vllm(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    vllm = types.ModuleType("vllm")
    exec(FAKE_VLLM, vllm.__dict__)
    sampling = types.ModuleType("vllm.sampling_params")
    exec(FAKE_SAMPLING, sampling.__dict__)
    vllm.sampling_params = sampling
    monkeypatch.setitem(sys.modules, "vllm", vllm)
    monkeypatch.setitem(sys.modules, "vllm.sampling_params", sampling)
    return vllm


def _backend(**kwargs):
    from m2rag_bench.models.vllm_backend import VLLMBackend

    return VLLMBackend("org/vlm", **kwargs)


def test_engine_kwargs_come_from_backend_args(fake_vllm):
    backend = _backend(tensor_parallel_size=2, max_model_len=4096, max_images=6, gpu_memory_utilization=0.8,
                       dtype="bfloat16", enable_prefix_caching=True)
    backend.check()
    backend.check()  # lazily, once
    assert len(fake_vllm.LLM.instances) == 1
    kwargs = fake_vllm.LLM.instances[0].kwargs
    assert kwargs["tensor_parallel_size"] == 2
    assert kwargs["max_model_len"] == 4096
    assert kwargs["limit_mm_per_prompt"] == {"image": 6}
    assert kwargs["gpu_memory_utilization"] == 0.8 and kwargs["dtype"] == "bfloat16"
    assert kwargs["enable_prefix_caching"] is True
    # vLLM refuses LLM(data_parallel_size>1) in one process; dp is done with replicas, never passed to LLM.
    assert "data_parallel_size" not in kwargs
    identity = backend.identity()
    assert identity["vllm"] == "0.99.0+fake"
    assert (identity["tensor_parallel_size"], identity["data_parallel_size"]) == (2, 1)
    assert (identity["max_model_len"], identity["dtype"]) == (4096, "bfloat16")


def test_five_calls_make_one_chat_call(fake_vllm):
    backend = _backend()
    calls = [Call((user(f"question {i}"),), GenerationParams(max_tokens=2 if i == 4 else 50, top_p=0.9, stop=("END",)))
             for i in range(5)]
    seen: list[int] = []
    out = backend.generate(calls, seen.append)
    engine = fake_vllm.LLM.instances[0]
    assert len(engine.chats) == 1
    chat = engine.chats[0]
    assert len(chat["messages"]) == 5
    assert chat["messages"][0] == [{"role": "user", "content": "question 0"}]  # text-only: plain string content
    assert chat["use_tqdm"] is False
    assert len(chat["sampling_params"]) == 5  # one SamplingParams per conversation
    assert chat["sampling_params"][0].kwargs == {"temperature": 0.0, "max_tokens": 50, "seed": 1234, "top_p": 0.9,
                                                 "stop": ["END"]}
    assert [c.text for c in out] == [f"echo: question {i}" for i in range(5)]
    assert all(c.ok and c.model == "org/vlm" for c in out)
    assert (out[0].usage.prompt_tokens, out[0].usage.completion_tokens, out[0].finish_reason) == (4, 3, "stop")
    assert (out[4].usage.completion_tokens, out[4].finish_reason) == (2, "length")
    assert sum(seen) == 5


def test_images_become_data_url_parts_in_order(fake_vllm):
    red, blue = ImagePart(_png("red")), ImagePart(_png("blue"))
    conversation = (Message("system", (TextPart("be brief"),)), user("compare ", red, " with ", blue, " please"))
    backend = _backend()
    out = backend.generate([Call(conversation)])
    sent = fake_vllm.LLM.instances[0].chats[0]["messages"][0]
    assert sent[0] == {"role": "system", "content": "be brief"}
    assert sent[1]["content"] == [
        {"type": "text", "text": "compare "},
        {"type": "image_url", "image_url": {"url": red.data_url()}},
        {"type": "text", "text": " with "},
        {"type": "image_url", "image_url": {"url": blue.data_url()}},
        {"type": "text", "text": " please"},
    ]
    assert sent[1]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert out[0].ok


def test_too_many_images_is_a_per_call_error(fake_vllm):
    images = [ImagePart(_png(c)) for c in ("red", "green", "blue")]
    calls = [Call((user("ok"),)), Call((user("look", *images),)), Call((user("also ok"),))]
    out = _backend(max_images=2).generate(calls)
    assert out[0].ok and out[2].ok
    assert not out[1].ok and "max_images=2" in out[1].error and out[1].text == ""
    chat = fake_vllm.LLM.instances[0].chats
    assert len(chat) == 1 and len(chat[0]["messages"]) == 2  # the bad call never reached vLLM


def test_batch_exception_sets_every_error(fake_vllm):
    fake_vllm.LLM.fail = RuntimeError("CUDA out of memory")
    out = _backend().generate([Call((user(f"q{i}"),)) for i in range(3)])
    assert all(not c.ok and "CUDA out of memory" in c.error for c in out)


def test_structured_output_uses_structured_outputs_params(fake_vllm):
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    _backend().generate([Call((user("json please"),), GenerationParams(json_schema=schema))])
    sp = fake_vllm.LLM.instances[0].chats[0]["sampling_params"][0]
    assert sp.kwargs["structured_outputs"].json == schema


@pytest.mark.parametrize("model", ["org/text-only", "org/plain-llm"])
def test_text_only_model_refuses_images_per_call(fake_vllm, model):
    from m2rag_bench.models.vllm_backend import VLLMBackend

    backend = VLLMBackend(model)
    out = backend.generate([Call((user("hi"),)), Call((user("see", ImagePart(_png("red"))),))])
    if model == "org/text-only":  # old vLLM refused limit_mm_per_prompt; retried without it
        assert "limit_mm_per_prompt" not in fake_vllm.LLM.instances[-1].kwargs
    assert len(fake_vllm.LLM.instances[-1].chats[0]["messages"]) == 1
    assert backend.supports_images is False
    assert out[0].ok and not out[1].ok and "text-only" in out[1].error


def test_unknown_model_is_model_not_found(fake_vllm):
    from m2rag_bench.models.vllm_backend import VLLMBackend

    with pytest.raises(ModelNotFound, match="org/missing"):
        VLLMBackend("org/missing").check()


def test_missing_vllm_gives_install_hint(monkeypatch):
    from m2rag_bench.models.vllm_backend import VLLMBackend

    monkeypatch.setitem(sys.modules, "vllm", None)  # makes `import vllm` raise ImportError
    with pytest.raises(BackendError, match=r"pip install 'm2rag-bench\[vllm\]'"):
        VLLMBackend("org/vlm")


@pytest.fixture
def fake_vllm_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake as an importable package, for spawned replica processes; returns the call log path."""
    pkg = tmp_path / "fake" / "vllm"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(FAKE_VLLM)
    (pkg / "sampling_params.py").write_text(FAKE_SAMPLING)
    monkeypatch.syspath_prepend(str(tmp_path / "fake"))  # spawned children inherit sys.path
    monkeypatch.delitem(sys.modules, "vllm", raising=False)
    monkeypatch.delitem(sys.modules, "vllm.sampling_params", raising=False)
    monkeypatch.setenv("FAKE_VLLM_LOG", str(tmp_path / "calls.jsonl"))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "4,5,6,7")
    return tmp_path / "calls.jsonl"


def test_data_parallel_runs_one_replica_per_gpu_group(fake_vllm_on_disk: Path):
    log = fake_vllm_on_disk
    backend = _backend(tensor_parallel_size=2, data_parallel_size=2, max_model_len=2048)
    try:
        out = backend.generate([Call((user(f"question {i}"),)) for i in range(5)])
        assert [c.text for c in out] == [f"echo: question {i}" for i in range(5)]
        assert all(c.ok for c in out)
    finally:
        backend.close()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    inits = [r for r in records if r["event"] == "init"]
    chats = [r for r in records if r["event"] == "chat"]
    assert sorted(r["cuda"] for r in inits) == ["4,5", "6,7"]
    assert all(r["kwargs"]["tensor_parallel_size"] == 2 and r["kwargs"]["max_model_len"] == 2048
               and r["kwargs"]["limit_mm_per_prompt"] == {"image": 10} and "data_parallel_size" not in r["kwargs"]
               for r in inits)
    assert sorted((r["cuda"], r["n"]) for r in chats) == [("4,5", 3), ("6,7", 2)]  # one chat per replica
    assert backend.identity()["data_parallel_size"] == 2


def test_data_parallel_startup_errors_reach_the_caller(fake_vllm_on_disk: Path):
    from m2rag_bench.models.vllm_backend import VLLMBackend

    with pytest.raises(ModelNotFound, match="Invalid repository ID"):
        VLLMBackend("org/missing", data_parallel_size=2).check()
    with pytest.raises(BackendError, match="needs 6 GPUs"):
        VLLMBackend("org/vlm", tensor_parallel_size=3, data_parallel_size=2).check()
