"""The transformers backend against tiny random local models (needs the [hf] extra; skipped without it)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from PIL import Image  # noqa: E402

from m2rag_bench.models import Call, GenerationParams, ImagePart, Message, ModelNotFound, TextPart, user  # noqa: E402
from m2rag_bench.models.hf import HFBackend, plain_template  # noqa: E402
from tests.helpers.tiny_models import get_tiny_llm, get_tiny_vlm  # noqa: E402

GREEDY = GenerationParams(max_tokens=12)


def _image(color: str, size: tuple[int, int] = (40, 30)) -> ImagePart:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    return ImagePart.from_bytes(buf.getvalue())


@pytest.fixture(scope="module")
def llm() -> HFBackend:
    backend = HFBackend(str(get_tiny_llm()), batch_size=4)
    backend.check()
    return backend


@pytest.fixture(scope="module")
def vlm() -> HFBackend:
    backend = HFBackend(str(get_tiny_vlm()), batch_size=2, max_images=4)
    backend.check()
    return backend


def test_llm_batch_of_three_with_stop(llm: HFBackend) -> None:
    prompt = (user("Tell me about the fox."),)
    free = llm.generate([Call(prompt, GREEDY)])[0]
    assert free.ok and free.finish_reason == "length" and free.usage.completion_tokens == 12
    # a stop string taken from the free-running output must cut the text there and end generation early
    stop = next(free.text[k:k + 2] for k in range(1, len(free.text) - 1) if free.text[k:k + 2].isprintable())
    stopped_params = GenerationParams(max_tokens=12, stop=(stop,))
    calls = [Call((user("hello there"),), GREEDY),
             Call((Message("system", (TextPart("Be brief."),)), user("What is the answer?")), GREEDY),
             Call(prompt, stopped_params)]
    ticks: list[int] = []
    out = llm.generate(calls, progress=ticks.append)
    assert len(out) == 3 and sum(ticks) == 3
    for completion in out:
        assert completion.ok, completion.error
        assert completion.usage.prompt_tokens > 0 and completion.usage.completion_tokens >= 0
        assert completion.finish_reason in {"stop", "length"}
    assert out[1].usage.prompt_tokens > out[0].usage.prompt_tokens  # padding is not counted
    assert out[2].text == free.text[:free.text.find(stop)]
    assert out[2].finish_reason == "stop"
    assert out[2].usage.completion_tokens < free.usage.completion_tokens  # generation stopped early


def test_llm_greedy_is_deterministic(llm: HFBackend) -> None:
    calls = [Call((user(q),), GREEDY) for q in ("a question", "another, longer question about images")]
    first, second = llm.generate(calls), llm.generate(calls)
    assert [c.text for c in first] == [c.text for c in second]
    assert all(c.ok for c in first)


def test_llm_sampling_with_seed_is_reproducible(llm: HFBackend) -> None:
    params = GenerationParams(temperature=0.9, top_p=0.95, max_tokens=8, seed=7)
    call = Call((user("sample something"),), params)
    assert llm.generate([call])[0].text == llm.generate([call])[0].text


def test_llm_rejects_images_per_call(llm: HFBackend) -> None:
    assert llm.supports_images is False
    out = llm.generate([Call((user("what is this?", _image("red")),), GREEDY), Call((user("fine"),), GREEDY)])
    assert not out[0].ok and "text-only" in (out[0].error or "")
    assert out[1].ok


def test_llm_identity(llm: HFBackend) -> None:
    ident = llm.identity()
    assert ident["backend"] == "hf" and ident["path"] == str(Path(llm.model).resolve())
    assert ident["dtype"] == "float32" and ident["device"] == "cpu"


def test_vlm_interleaved_images(vlm: HFBackend) -> None:
    assert vlm.supports_images is True
    two = Call((user("Compare ", _image("red"), " with ", _image("blue", (20, 50)), ". Which is warmer?"),),
               GenerationParams(max_tokens=8))
    text_only = Call((user("No pictures here."),), GenerationParams(max_tokens=8))
    out = vlm.generate([two, text_only, two])
    assert all(c.ok for c in out), [c.error for c in out]
    assert out[0].usage.prompt_tokens >= 2 * 16  # each image expands to 16 <image> tokens
    assert out[0].usage.prompt_tokens > out[1].usage.prompt_tokens
    assert out[0].text == out[2].text and out[0].usage == out[2].usage  # batch position and padding do not matter


def test_vlm_too_many_images_is_a_call_error(vlm: HFBackend) -> None:
    many = Call((user(*[_image("green") for _ in range(5)]),), GenerationParams(max_tokens=4))
    out = vlm.generate([many, Call((user("ok"),), GenerationParams(max_tokens=4))])
    assert "max_images" in (out[0].error or "") and out[1].ok


def test_missing_model(tmp_path: Path) -> None:
    backend = HFBackend(str(tmp_path / "no-such-model"))
    with pytest.raises(ModelNotFound, match="not found locally"):
        backend.check()
    with pytest.raises(ModelNotFound):
        HFBackend("nobody/no-such-model").check()


def test_no_chat_template_falls_back_with_one_warning(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(get_tiny_llm(), tmp_path / "plain"))
    (folder / "chat_template.jinja").unlink()
    backend = HFBackend(str(folder))
    with pytest.warns(UserWarning, match="no chat template") as caught:
        out = backend.generate([Call((user("one"),), GREEDY), Call((user("two"),), GREEDY)])
    assert all(c.ok for c in out) and len([w for w in caught if "chat template" in str(w.message)]) == 1


def test_plain_template() -> None:
    conversation = [Message("system", (TextPart("S"),)), user("look ", _image("red"), " here")]
    assert plain_template(conversation) == "System: S\n\nUser: look <image> here\n\nAssistant:"
