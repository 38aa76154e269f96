"""Context precision and faithfulness with RAGAS (reference §4.1), every LLM call through our call layer.

ragas 0.4.3's metrics (``ragas.metrics.collections``) talk to an ``openai.AsyncOpenAI`` through instructor. We hand
them a real ``AsyncOpenAI`` whose HTTP client has a custom transport: each ``POST …/chat/completions`` is turned into
our `Call` and run by `ModelClient.complete`, so ragas' calls are cached by content, retried, bounded and metered
like every other call, and nothing is sent anywhere else. The prompts, the parsing (instructor JSON mode, with its
re-asks on invalid JSON) and the scoring formulas are ragas' own.

Calls per sample: faithfulness 2 (statements, then one NLI call over all of them); context precision one per
retrieved context. An unparsable judge reply costs up to 3 more calls (instructor re-asks) and gives ``score=None``.
"""

from __future__ import annotations

import asyncio
import base64
import contextvars
import json
import logging
import math
import os
import re
import time
import weakref
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..models.base import BackendError, Call, Completion, GenerationParams
from ..models.cache import call_key
from ..models.client import ModelClient
from ..models.messages import ImagePart, Message, TextPart

RagasMetric = Literal["context_precision", "faithfulness"]
MISSING = "context precision and faithfulness use ragas: pip install 'm2rag-bench[ragas]'"
#: what the transport accepts from ragas/instructor; anything else is refused (HTTP 400), never silently dropped
_KNOWN = {"model", "messages", "temperature", "max_tokens", "max_completion_tokens", "top_p", "seed", "stop",
          "response_format", "n", "stream"}
_STATUS = re.compile(r"HTTP (\d{3})")


@dataclass
class RagasResult:
    """One metric on one sample. ``score`` is None when ragas gave NaN (``raw["nan"]``) or failed (``error``)."""

    score: float | None
    raw: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


# Per ``score`` call: what its requests cost (the transport runs in the caller's task, so a ContextVar reaches it).
_TALLY: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar("m2rag_ragas_tally", default=None)


def _import_ragas() -> tuple[Any, Any, Any]:
    os.environ["RAGAS_DO_NOT_TRACK"] = "true"  # ragas posts usage events otherwise; nothing may leave the machine
    try:
        import ragas
        from ragas import _analytics
        from ragas.llms import llm_factory
        from ragas.metrics import collections
    except ImportError as exc:  # also a broken install, e.g. langchain-community 0.4.2 (ecosystem §1.1)
        raise BackendError(f"{MISSING} ({exc})") from None
    # instructor logs every failed attempt at ERROR; the result carries the reason, so only apps that configured
    # logging see those lines (a NullHandler keeps Python's last-resort handler from printing them to stderr).
    logging.getLogger("instructor").addHandler(logging.NullHandler())
    _analytics.do_not_track.cache_clear()  # lru_cached: it may have been read before we set the variable
    if not _analytics.do_not_track():
        raise BackendError("could not switch off ragas analytics (RAGAS_DO_NOT_TRACK)")
    return ragas, llm_factory, collections


def _part(part: dict[str, Any]) -> TextPart | ImagePart:
    kind = part.get("type")
    if kind == "text":
        return TextPart(str(part.get("text", "")))
    if kind == "image_url":
        url = part["image_url"]["url"] if isinstance(part.get("image_url"), dict) else str(part.get("image_url"))
        head, sep, data = url.partition(",")
        if not (url.startswith("data:") and sep and head.endswith(";base64")):
            raise ValueError("only data: URLs can carry images through the call layer (no downloads)")
        return ImagePart(base64.b64decode(data), head[5:-7] or "image/png")
    raise ValueError(f"unsupported content part {kind!r}")


def request_to_call(body: dict[str, Any], template: str) -> Call:
    """An OpenAI chat-completions request body as our `Call`; ValueError for what cannot be carried faithfully."""
    unknown = sorted(set(body) - _KNOWN)
    if unknown:
        raise ValueError(f"request fields the call layer cannot carry: {', '.join(unknown)}")
    if body.get("stream") or int(body.get("n") or 1) != 1:
        raise ValueError("streaming and n>1 are not supported")
    messages = []
    for m in body.get("messages") or []:
        content = m.get("content")
        parts = (TextPart(content),) if isinstance(content, str) else tuple(_part(p) for p in content or [])
        messages.append(Message(m["role"], parts))
    fmt = (body.get("response_format") or {}).get("type", "text")
    if fmt not in ("text", "json_object"):
        raise ValueError(f"response_format {fmt!r} is not supported")
    params = GenerationParams()  # what the request leaves out keeps the project default (seed 1234)
    stop = body.get("stop")
    params = replace(params, **{k: v for k, v in (
        ("temperature", body.get("temperature")),
        ("max_tokens", body.get("max_tokens", body.get("max_completion_tokens"))),
        ("top_p", body.get("top_p")), ("seed", body.get("seed")),
        ("stop", (stop,) if isinstance(stop, str) else tuple(stop) if stop else None)) if v is not None},
        json_object=fmt == "json_object")
    return Call(tuple(messages), params, template)


def completion_to_response(completion: Completion, model: str) -> dict[str, Any]:
    """Our `Completion` as an OpenAI ``chat.completion`` object."""
    usage = completion.usage
    return {"id": f"chatcmpl-m2rag-{time.time_ns():x}", "object": "chat.completion", "created": int(time.time()),
            "model": completion.model or model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": completion.text, "refusal": None},
                         "logprobs": None, "finish_reason": completion.finish_reason or "stop"}],
            "usage": {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
                      "total_tokens": usage.total_tokens}}


def _transport(judge: "RagasJudge", template: str):  # noqa: ANN202 - httpx2.AsyncBaseTransport
    import httpx2

    def error(status: int, message: str, request: Any) -> Any:
        return httpx2.Response(status, json={"error": {"message": message, "type": "m2rag_call_layer",
                                                       "param": None, "code": None}}, request=request)

    class CallLayerTransport(httpx2.AsyncBaseTransport):
        """Answers ``POST …/chat/completions`` from `ModelClient.complete`; nothing goes on the network."""

        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            if request.method != "POST" or not request.url.path.endswith("/chat/completions"):
                return error(404, f"only chat completions go through the call layer, not {request.url.path}", request)
            try:
                call = request_to_call(json.loads(await request.aread()), template)
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                return error(400, f"cannot carry this request through the call layer: {exc}", request)
            # Identical calls in flight at once (e.g. the same NLI prompt for two samples) are sent once.
            inflight = judge._inflight.setdefault(asyncio.get_running_loop(), {})
            key = call_key(judge.client.identity(), call)
            shared = key in inflight
            if not shared:
                inflight[key] = asyncio.ensure_future(asyncio.to_thread(judge.client.complete, [call]))
                inflight[key].add_done_callback(lambda _: inflight.pop(key, None))
            try:
                [completion] = await asyncio.shield(inflight[key])
            except BackendError as exc:  # the endpoint is unusable: remembered, re-raised by score()
                judge._fatal = exc
                return error(503, str(exc), request)
            tally = _TALLY.get()
            if tally is not None:
                tally["calls"] += 1
                tally["cached_calls"] += completion.cached or shared
                tally["prompt_tokens"] += completion.usage.prompt_tokens
                tally["completion_tokens"] += completion.usage.completion_tokens
            if not completion.ok:  # already retried by the backend: a plain status instructor will not retry
                found = _STATUS.search(completion.error or "")
                status = int(found.group(1)) if found and int(found.group(1)) in (429, 500, 502, 503, 504) else 500
                return error(status, completion.error or "failed", request)
            return httpx2.Response(200, json=completion_to_response(completion, judge.client.model), request=request)

    return CallLayerTransport()


class RagasJudge:
    """ragas' context precision and faithfulness on ``client``'s model; samples run ``concurrency`` at a time."""

    METRICS = {"context_precision": "ContextPrecisionWithoutReference", "faithfulness": "Faithfulness"}

    def __init__(self, client: ModelClient, *, concurrency: int = 8, **model_args: Any) -> None:
        self._ragas, self._llm_factory, self._collections = _import_ragas()
        self.client = client
        self.concurrency = max(1, concurrency)
        self.model_args = model_args  # e.g. temperature=…; default: ragas' own (temperature 0.01, top_p 0.1, 1024)
        self.version = self._ragas.__version__
        self._metrics: dict[str, Any] = {}
        self._limits: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = \
            weakref.WeakKeyDictionary()
        self._inflight: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Future]] = \
            weakref.WeakKeyDictionary()
        self._fatal: BackendError | None = None

    def template(self, metric: str) -> str:
        return f"ragas-{self.version}:{metric}"

    def _metric(self, metric: str) -> Any:
        if metric not in self.METRICS:
            raise ValueError(f"unknown ragas metric {metric!r}; known: {', '.join(self.METRICS)}")
        if metric not in self._metrics:
            import httpx2
            from openai import AsyncOpenAI

            http = httpx2.AsyncClient(transport=_transport(self, self.template(metric)))
            openai_client = AsyncOpenAI(base_url="http://m2rag-call-layer.invalid/v1", api_key="unused",
                                        max_retries=0, http_client=http)  # retries happen in our backend
            llm = self._llm_factory(self.client.model, client=openai_client, **self.model_args)
            self._metrics[metric] = getattr(self._collections, self.METRICS[metric])(llm=llm)
        return self._metrics[metric]

    async def score(self, metric: RagasMetric, query: str, response: str, contexts: list[str]) -> RagasResult:
        """One metric on one sample. Failures become ``error`` (score None); an unusable backend raises."""
        if self._fatal is not None:
            raise self._fatal
        scorer = self._metric(metric)
        loop = asyncio.get_running_loop()
        limit = self._limits.setdefault(loop, asyncio.Semaphore(self.concurrency))
        tally = {"calls": 0, "cached_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
        token = _TALLY.set(tally)
        try:
            async with limit:
                result = await scorer.ascore(user_input=query, response=response, retrieved_contexts=list(contexts))
        except Exception as exc:  # noqa: BLE001 - ragas/instructor/openai errors all mean "no score"
            if self._fatal is not None:
                raise self._fatal from None
            return RagasResult(None, {"metric": metric, **tally}, _describe(exc))
        finally:
            _TALLY.reset(token)
        value = result.value
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return RagasResult(None, {"metric": metric, "nan": True, **tally})
        return RagasResult(float(value), {"metric": metric, "value": float(value), **tally})

    def score_many(self, items: list[tuple[RagasMetric, str, str, list[str]]]) -> list[RagasResult]:
        """``score`` for each ``(metric, query, response, contexts)``, in order, ``concurrency`` at a time."""
        self._fatal = None

        async def run() -> list[RagasResult]:
            # Each intercepted call waits in a worker thread: size the pool to the concurrency (the default pool
            # has min(32, cores + 4) threads, which would cap a 2-core machine at 6 calls in flight).
            from concurrent.futures import ThreadPoolExecutor

            asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=4 * self.concurrency))
            return list(await asyncio.gather(*(self.score(*item) for item in items)))

        from ..models.openai_backend import _run

        return _run(run())


def _describe(exc: BaseException) -> str:
    """A one-line reason; for instructor's retry exception, the last attempt's failure."""
    attempts = getattr(exc, "failed_attempts", None)
    if attempts:
        last = attempts[-1].exception
        text = " ".join(str(last).split())
        return f"{type(exc).__name__} after {len(attempts)} attempts: {type(last).__name__}: {text[:300]}"
    err: BaseException | None = exc
    while err is not None and not isinstance(getattr(err, "body", None), dict):  # an HTTP error from our transport
        err = err.__cause__ or err.__context__
    text = err.body.get("message") if err is not None else None  # type: ignore[union-attr]
    return f"{type(exc).__name__}: {' '.join(str(text or exc).split())[:300]}"


def ragas_judgments(client: ModelClient, responses: list, samples: dict, contexts: dict[str, list[str]],
                    metrics: list[str], protocol: str, stage) -> list:  # noqa: ANN001
    """Judgments of the ragas metrics for successful responses (contexts by query id); NaN kept as ``raw_score``."""
    from ..schema import Judgment
    from .rubric import answer_text

    judge = RagasJudge(client, concurrency=getattr(client.backend, "concurrency", 8))
    items = [(m, r) for m in metrics for r in responses]
    progress = stage("ragas: " + ", ".join(metrics), len(items))
    results = judge.score_many([(m, samples[r.query_id].query, answer_text(r), contexts[r.query_id])
                                for m, r in items])
    if progress:
        progress(len(items))
    out = []
    for (metric, response), result in zip(items, results):
        nan = bool(result.raw.get("nan")) if isinstance(result.raw, dict) else False
        out.append(Judgment(
            query_id=response.query_id, metric=metric, score=result.score,
            raw_score=float("nan") if nan else result.score, raw=json.dumps(result.raw, default=str)[:4000],
            judge_model=client.model, template_version=judge.template(metric),
            topic=samples[response.query_id].topic, protocol=protocol,
            smoke_test=bool(client.identity().get("smoke_test")),
            error=result.error or ("ragas returned NaN (no statements)" if nan else None)))
    return out
