"""Any OpenAI-compatible chat endpoint (OpenAI, ``vllm serve``, llama.cpp server, …) via the official async client.

Concurrency is bounded by a semaphore; 429, 5xx, timeouts and dropped connections are retried with jittered
exponential backoff, honouring ``Retry-After``. An endpoint that cannot be reached, refuses the key or does not serve
the model is reported once, clearly, as a `BackendError`; other per-call failures land in `Completion.error`.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import threading
from collections.abc import Callable
from typing import Any

from .base import Backend, BackendError, Call, Completion, ModelNotFound, Progress, Usage
from .messages import Conversation, ImagePart

OPENAI_URL = "https://api.openai.com/v1"
_RETRY_STATUS = {408, 409, 429}


def _content(message) -> str | list[dict[str, Any]]:  # noqa: ANN001 - a messages.Message
    if not message.images:
        return message.text
    return [{"type": "image_url", "image_url": {"url": p.data_url()}} if isinstance(p, ImagePart)
            else {"type": "text", "text": p.text} for p in message.parts]


@functools.lru_cache(maxsize=1)
def _ssl_context():  # noqa: ANN202 - ssl.SSLContext
    import httpx2

    return httpx2.create_ssl_context()


def _retry_after(exc: Exception) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    for name, scale in (("retry-after-ms", 1e-3), ("retry-after", 1.0)):
        value = headers.get(name)
        if value:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                return None
    return None


class OpenAIBackend(Backend):
    """Chat completions against an OpenAI-compatible server."""

    name = "openai"
    supports_images = True
    supports_structured_output = True
    streams_results = True

    def __init__(self, model: str, base_url: str | None = None, *, api_key: str | None = None,
                 api_key_env: str = "OPENAI_API_KEY", concurrency: int = 16, max_retries: int = 6,
                 timeout: float = 300.0, backoff: float = 1.0, image_detail: str | None = "low", **ignored: Any) -> None:
        super().__init__(model, (base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL).rstrip("/"))
        self._api_key = api_key or os.environ.get(api_key_env)
        if not self._api_key:
            if self.base_url == OPENAI_URL:
                raise BackendError(f"no API key for {OPENAI_URL}: set {api_key_env} (or pass --base-url for a local server)")
            self._api_key = "EMPTY"  # local servers usually accept any key
        self.concurrency = max(1, concurrency)
        self.max_retries = max_retries
        self.timeout = timeout
        self.backoff = backoff
        self.image_detail = image_detail

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "image_detail": self.image_detail}

    def _client(self):  # noqa: ANN202 - openai.AsyncOpenAI
        import httpx2
        from openai import AsyncOpenAI, DefaultAsyncHttpx2Client

        # One connection per concurrent call, and a TLS context built once per process (not per batch).
        http = DefaultAsyncHttpx2Client(verify=_ssl_context(), limits=httpx2.Limits(
            max_connections=self.concurrency, max_keepalive_connections=self.concurrency))
        return AsyncOpenAI(base_url=self.base_url, api_key=self._api_key, max_retries=0, timeout=self.timeout,
                           http_client=http)

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key and self._api_key != "EMPTY" else text

    # -- preflight ---------------------------------------------------------------------------------------------

    def check(self) -> None:
        _run(self._check())

    async def _check(self) -> None:
        served = await self._served()
        if served and self.model not in served:
            raise ModelNotFound(f"model {self.model!r} is not served at {self.base_url}; it serves: "
                                f"{', '.join(sorted(served)[:20])}")

    def served_models(self) -> list[str]:
        """The model ids the endpoint lists (empty when it does not list them)."""
        return _run(self._served())

    async def _served(self) -> list[str]:
        import openai

        async with self._client() as client:
            try:
                return [m.id async for m in client.models.list()]
            except openai.APIConnectionError as exc:
                raise BackendError(f"cannot reach the OpenAI-compatible endpoint {self.base_url}: "
                                   f"{self._redact(str(exc.__cause__ or exc))} — is the server running?") from None
            except openai.AuthenticationError:
                raise BackendError(f"the endpoint {self.base_url} refused the API key (HTTP 401)") from None
            except openai.APIStatusError:
                return []  # some servers do not list models; the first call will tell

    # -- generation --------------------------------------------------------------------------------------------

    def _request(self, call: Call) -> dict[str, Any]:
        p = call.params
        request: dict[str, Any] = {"model": self.model, "messages": self._messages(call.conversation),
                                   "temperature": p.temperature}
        reasoning = self.model.startswith(("o1", "o3", "o4", "gpt-5"))
        request["max_completion_tokens" if reasoning else "max_tokens"] = p.max_tokens
        if reasoning:
            request.pop("temperature")
        for key, value in (("top_p", p.top_p), ("seed", p.seed), ("stop", list(p.stop) if p.stop else None)):
            if value is not None:
                request[key] = value
        if p.json_schema is not None:
            request["response_format"] = {"type": "json_schema",
                                          "json_schema": {"name": "output", "schema": p.json_schema, "strict": True}}
        elif p.json_object:
            request["response_format"] = {"type": "json_object"}
        return request

    def _messages(self, conversation: Conversation) -> list[dict[str, Any]]:
        messages = [{"role": m.role, "content": _content(m)} for m in conversation]
        if self.image_detail:
            for m in messages:
                for part in m["content"] if isinstance(m["content"], list) else []:
                    if part["type"] == "image_url":
                        part["image_url"]["detail"] = self.image_detail
        return messages

    def generate(self, calls: list[Call], progress: Progress | None = None,
                 on_result: Callable[[int, Completion], None] | None = None) -> list[Completion]:
        return _run(self._generate(calls, progress, on_result))

    async def _generate(self, calls: list[Call], progress: Progress | None,
                        on_result: Callable[[int, Completion], None] | None) -> list[Completion]:
        semaphore = asyncio.Semaphore(self.concurrency)
        async with self._client() as client:
            async def one(i: int, call: Call) -> Completion:
                async with semaphore:
                    completion = await self._call(client, call)
                if on_result is not None:
                    on_result(i, completion)
                if progress is not None:
                    progress(1)
                return completion

            return list(await asyncio.gather(*(one(i, c) for i, c in enumerate(calls))))

    async def _call(self, client, call: Call) -> Completion:  # noqa: ANN001 - openai.AsyncOpenAI
        import openai

        request = self._request(call)
        for attempt in range(self.max_retries + 1):
            try:
                response = await client.chat.completions.create(**request)
            except openai.AuthenticationError:
                raise BackendError(f"the endpoint {self.base_url} refused the API key (HTTP 401)") from None
            except openai.NotFoundError as exc:
                if "model" in str(exc).lower():
                    raise ModelNotFound(f"model {self.model!r} is not served at {self.base_url}: "
                                        f"{self._redact(str(exc))}") from None
                return Completion(error=f"HTTP 404: {self._redact(str(exc))}", model=self.model)
            except (openai.APIConnectionError, openai.APIStatusError) as exc:
                status = getattr(exc, "status_code", None)
                retryable = status is None or status >= 500 or status in _RETRY_STATUS
                if not retryable or attempt == self.max_retries:
                    if status is None:  # the endpoint went away: stop the run, finished work is cached
                        raise BackendError(f"lost the connection to {self.base_url} after {attempt + 1} attempts: "
                                           f"{self._redact(str(exc.__cause__ or exc))}") from None
                    return Completion(error=f"HTTP {status}: {self._redact(str(exc))}", model=self.model)
                delay = _retry_after(exc)
                if delay is None:
                    delay = min(60.0, self.backoff * 2 ** attempt) * (0.5 + random.random())
                await asyncio.sleep(delay)
                continue
            choice = response.choices[0] if response.choices else None
            usage = response.usage
            return Completion(
                text=(choice.message.content or "") if choice else "",
                usage=Usage(getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0),
                finish_reason=choice.finish_reason if choice else None, model=response.model or self.model)
        raise AssertionError("unreachable")


def _run(coro):  # noqa: ANN001, ANN202
    """Run a coroutine to completion, also from code that already runs an event loop (e.g. Jupyter)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(coro)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def only_served_model(base_url: str, api_key_env: str = "OPENAI_API_KEY") -> str:
    """The model a local server serves, when it serves exactly one (``vllm serve M``, llama.cpp): so ``--model``
    can be left out. Otherwise a `BackendError` listing what it serves."""
    served = OpenAIBackend("?", base_url, api_key_env=api_key_env).served_models()
    if len(served) == 1:
        return served[0]
    if not served:
        raise BackendError(f"{base_url} does not list its models; name one with --model / --judge")
    raise BackendError(f"{base_url} serves {len(served)} models ({', '.join(sorted(served)[:10])}); "
                       "choose one with --model / --judge")
