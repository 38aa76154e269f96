"""Local transformers models: text LLMs (`AutoModelForCausalLM`) and VLMs (`AutoModelForImageTextToText`).

Calls are grouped by identical `GenerationParams` and run in batches of ``batch_size`` with left padding. A model is a
VLM when its config has a ``vision_config`` or its `AutoProcessor` has an image processor; image parts then reach the
model as pixels. Text LLMs get each message's text only, and a call with an image part fails (per call) because
callers should describe images in text for LLMs. torch and transformers are imported only when the backend is used.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from .base import Backend, BackendError, Call, Completion, GenerationParams, ModelNotFound, Progress, Usage
from .messages import ImagePart, Message

_EXTRA = "the hf backend needs the [hf] extra: pip install 'm2rag-bench[hf]'"
#: used when the tokenizer/processor has no chat template: "System: …\n\nUser: …\n\nAssistant:"
PLAIN_ROLES = {"system": "System", "user": "User", "assistant": "Assistant"}


def _require() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise BackendError(_EXTRA) from exc
    return torch, transformers


def plain_template(messages: list[Message], image_token: str = "<image>") -> str:
    """The fallback prompt: ``Role: text`` blocks separated by blank lines, ending with ``Assistant:``."""
    blocks = ["{}: {}".format(PLAIN_ROLES.get(m.role, m.role.title()),
                              "".join(image_token if isinstance(p, ImagePart) else p.text for p in m.parts))
              for m in messages]
    return "\n\n".join(blocks + ["Assistant:"])


class HFBackend(Backend):
    """Generation with a local (or cached Hub) transformers checkpoint, in-process."""

    name = "hf"

    def __init__(self, model: str, *, device: str | None = None, dtype: str = "auto", batch_size: int = 4,
                 trust_remote_code: bool = False, max_images: int | None = None, **ignored: Any) -> None:
        super().__init__(model)
        self.device, self.dtype = device, dtype
        self.batch_size = max(1, batch_size)
        self.trust_remote_code = trust_remote_code
        self.max_images = max_images
        self._config: Any = None
        self._processor: Any = None  # the tokenizer (text LLM) or the multimodal processor (VLM)
        self._vlm: bool | None = None
        self._model: Any = None
        self._warned = False
        self._identity: dict[str, Any] | None = None

    # -- loading --------------------------------------------------------------------------------------------------

    def _not_found(self, exc: Exception) -> ModelNotFound:
        from huggingface_hub import constants

        where = "and the Hub is offline" if constants.HF_HUB_OFFLINE else "nor on the Hub"
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ModelNotFound(f"model {self.model!r} not found locally {where} ({detail})")

    def _source(self) -> str:
        """What transformers loads (a Hub id or a folder); a subclass may materialise the files here."""
        return self.model

    def _resolve(self) -> None:
        """Load the config and the tokenizer/processor (cheap) and decide LLM vs VLM."""
        if self._vlm is not None:
            return
        _, tf = _require()
        kw = {"trust_remote_code": self.trust_remote_code}
        try:
            self._config = tf.AutoConfig.from_pretrained(self._source(), **kw)
            vlm = getattr(self._config, "vision_config", None) is not None
            processor = tf.AutoProcessor.from_pretrained(self._source(), **kw)
        except OSError as exc:
            raise self._not_found(exc) from exc
        except ValueError as exc:
            raise BackendError(f"model {self.model!r} cannot be loaded by transformers: {exc}") from exc
        vlm = vlm or getattr(processor, "image_processor", None) is not None
        if not vlm and not isinstance(processor, tf.PreTrainedTokenizerBase):
            processor = tf.AutoTokenizer.from_pretrained(self._source(), **kw)
        tokenizer = processor.tokenizer if vlm else processor
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token or tokenizer.unk_token
        self._processor, self._vlm = processor, vlm

    def _load(self) -> None:
        if self._model is not None:
            return
        self._resolve()
        torch, tf = _require()
        auto = tf.AutoModelForImageTextToText if self._vlm else tf.AutoModelForCausalLM
        dtype = self.dtype if self.dtype == "auto" else getattr(torch, self.dtype)
        try:
            model = auto.from_pretrained(self._source(), dtype=dtype, trust_remote_code=self.trust_remote_code)
        except OSError as exc:
            raise self._not_found(exc) from exc
        self._model = model.to(self._device()).eval()

    def _device(self) -> str:
        if self.device:
            return self.device
        torch, _ = _require()
        return "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"

    def _revision(self) -> tuple[str, str | None]:
        """The resolved model folder and, for a cached Hub snapshot, its commit hash."""
        if Path(self._source()).is_dir():
            return str(Path(self._source()).resolve()), None
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(self.model, "config.json")
        if isinstance(cached, str) and "snapshots" in Path(cached).parts:
            return str(Path(cached).parent), Path(cached).parent.name
        return self.model, None

    @property
    def supports_images(self) -> bool:  # type: ignore[override]
        try:
            self._resolve()
        except BackendError:
            return False
        return bool(self._vlm)

    def check(self) -> None:
        self._load()

    def identity(self) -> dict[str, Any]:
        """Adds the resolved folder, the Hub commit (cached snapshots only), the dtype and the device."""
        if self._identity is not None:
            return self._identity
        path, revision = self._revision()
        dtype, resolved = self.dtype, True
        try:
            self._resolve()
            if dtype == "auto":
                dtype = str(getattr(self._config, "dtype", None) or "float32").replace("torch.", "")
        except BackendError:
            resolved = False  # generate/check will report it; do not memoize a half-resolved identity
        ident = {**super().identity(), "path": path, "dtype": dtype, "device": self._device()}
        ident = {**ident, "revision": revision} if revision else ident
        if resolved:
            self._identity = ident
        return ident

    def close(self) -> None:
        self._model = None
        torch, _ = _require()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()

    # -- prompts --------------------------------------------------------------------------------------------------

    def _prompt(self, call: Call) -> tuple[str, list[Any]]:
        """The prompt text and the PIL images (in reading order) for one call."""
        images = [p for m in call.conversation for p in m.parts if isinstance(p, ImagePart)]
        if images and not self._vlm:
            raise ValueError(f"{self.model} is a text-only model and cannot take image parts; "
                             "describe the images in text for LLMs (supports_images is False)")
        if self.max_images is not None and len(images) > self.max_images:
            raise ValueError(f"{len(images)} images exceed max_images={self.max_images}")
        if not getattr(self._processor, "chat_template", None):
            if not self._warned:
                warnings.warn(f"{self.model} has no chat template; using the plain 'Role: text' template", stacklevel=3)
                self._warned = True
            token = getattr(self._processor, "image_token", None) or "<image>"
            return plain_template(list(call.conversation), token), [im.to_pil() for im in images]
        if self._vlm:
            messages = [{"role": m.role, "content": [{"type": "image"} if isinstance(p, ImagePart)
                                                     else {"type": "text", "text": p.text} for p in m.parts]}
                        for m in call.conversation]
        else:
            messages = [{"role": m.role, "content": m.text} for m in call.conversation]
        text = self._processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        return text, [im.to_pil() for im in images]

    # -- generation -----------------------------------------------------------------------------------------------

    def generate(self, calls: list[Call], progress: Progress | None = None) -> list[Completion]:
        self._load()
        results: list[Completion | None] = [None] * len(calls)
        groups: dict[GenerationParams, list[int]] = {}
        for i, call in enumerate(calls):
            groups.setdefault(call.params, []).append(i)
        for params, indices in groups.items():
            for start in range(0, len(indices), self.batch_size):
                batch = indices[start:start + self.batch_size]
                prompts: dict[int, tuple[str, list[Any]]] = {}
                for i in batch:
                    try:
                        prompts[i] = self._prompt(calls[i])
                        self._check_length(prompts[i][0], params)
                    except Exception as exc:  # noqa: BLE001 - a per-call failure
                        prompts.pop(i, None)
                        results[i] = Completion(model=self.model, error=f"{type(exc).__name__}: {exc}")
                try:
                    done = self._run(list(prompts.values()), params)
                except Exception:  # noqa: BLE001 - isolate the failing call(s) by running them one by one
                    done = [self._run_one(p, params) for p in prompts.values()]
                for i, completion in zip(prompts, done):
                    results[i] = completion
                if progress:
                    progress(len(batch))
        return [r or Completion(model=self.model, error="not run") for r in results]

    def _check_length(self, text: str, params: GenerationParams) -> None:
        """A clear per-call error instead of a crash (or silent truncation) when a prompt does not fit."""
        config = getattr(self._model.config, "text_config", None) or self._model.config
        limit = getattr(config, "max_position_embeddings", None)
        if limit is None or self._vlm:  # image tokens expand inside the processor; let the model judge
            return
        tokenizer = self._processor
        n = len(tokenizer(text, add_special_tokens=False)["input_ids"])
        if n + params.max_tokens > limit:
            raise ValueError(f"prompt of {n} tokens + max_tokens {params.max_tokens} exceeds the context length "
                             f"{limit} of {self.model}")

    def _run_one(self, prompt: tuple[str, list[Any]], params: GenerationParams) -> Completion:
        try:
            return self._run([prompt], params)[0]
        except Exception as exc:  # noqa: BLE001 - a per-call failure
            return Completion(model=self.model, error=f"{type(exc).__name__}: {exc}")

    def _run(self, prompts: list[tuple[str, list[Any]]], params: GenerationParams) -> list[Completion]:
        if not prompts:
            return []
        torch, tf = _require()
        tokenizer = self._processor.tokenizer if self._vlm else self._processor
        texts = [text for text, _ in prompts]
        if self._vlm:
            images = [ims for _, ims in prompts]  # one list per prompt (LLaVA flattens, Idefics-style needs it)
            enc = self._processor(text=texts, images=images if any(images) else None, return_tensors="pt",
                                  padding=True)
        else:
            enc = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        enc = enc.to(self._model.device)
        if "pixel_values" in enc:
            enc["pixel_values"] = enc["pixel_values"].to(self._model.dtype)
        kwargs: dict[str, Any] = {"max_new_tokens": params.max_tokens, "pad_token_id": tokenizer.pad_token_id}
        if params.temperature > 0:
            kwargs.update(do_sample=True, temperature=params.temperature, top_p=params.top_p)
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        if params.stop and hasattr(tf.GenerationConfig(), "stop_strings"):
            kwargs.update(stop_strings=list(params.stop), tokenizer=tokenizer)
        if params.seed is not None:
            torch.manual_seed(params.seed)
        with torch.inference_mode():
            out = self._model.generate(**enc, **kwargs)
        width = enc["input_ids"].shape[1]
        eos = self._model.generation_config.eos_token_id
        eos = tokenizer.eos_token_id if eos is None else eos
        eos_ids = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
        completions = []
        for row, mask in zip(out[:, width:].tolist(), enc["attention_mask"].tolist()):
            ended = next((k for k, t in enumerate(row) if t in eos_ids), None)
            n = ended + 1 if ended is not None else len(row)
            while ended is None and n and row[n - 1] == tokenizer.pad_token_id:
                n -= 1  # rows finished early by a stop string are padded
            text = tokenizer.decode(row[:n], skip_special_tokens=True)
            cut = min((text.find(s) for s in params.stop or () if s in text), default=-1)
            hit_stop = ended is not None or cut >= 0 or n < params.max_tokens
            completions.append(Completion(text=text[:cut] if cut >= 0 else text, model=self.model,
                                          usage=Usage(int(sum(mask)), n),
                                          finish_reason="stop" if hit_stop else "length"))
        return completions
