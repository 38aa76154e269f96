"""A local OpenAI-compatible chat-completions server for tests and benchmarks.

Stdlib only: an :func:`asyncio.start_server` loop with minimal HTTP/1.1 parsing
(Content-Length or chunked bodies, keep-alive) running in a background thread,
so hundreds of requests can wait out ``delay`` concurrently.

=====  ===========================  ==============================================
GET    /v1/models[/{id}]            the configured model names
POST   /v1/chat/completions         a ``chat.completion`` object (``n`` choices)
=====  ===========================  ==============================================

Checks on a completion request, in order: API key (401), JSON body (400), model
(404 ``model_not_found``), ``stream`` (400, unsupported), then ``delay``, the
``error_status`` schedule (global, one status per request until exhausted),
``fail_first`` (429 + ``Retry-After`` for the first N requests per distinct
body), and finally the responder.  Usage counts whitespace-split words of all
text parts; each image part counts 85 prompt tokens.

The responder runs on the event loop thread and must not block.  It returns the
reply text, or a dict overriding the response: ``{"content": str}`` (normal
completion), plus optional ``"status"``, ``"headers"`` and ``"body"`` (any JSON
value or ``str``/``bytes``; replaces the completion body entirely).

Example::

    with OpenAIStub(["m"], delay=0.1) as srv:
        client = AsyncOpenAI(base_url=srv.base_url, api_key="x")
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Self

Reply = str | dict[str, Any]
Responder = Callable[[dict[str, Any]], Reply]
IMAGE_TOKENS = 85
_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


def _iter_parts(messages: Any) -> Iterable[tuple[str, str]]:
    """Yield ``("text", text)`` / ``("image", url)`` for every content part of ``messages``."""
    for msg in messages if isinstance(messages, list) else []:
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, str):
            yield "text", content
        elif isinstance(content, list):
            for part in content:
                if not isinstance(part, dict):
                    continue
                if part.get("type") == "text":
                    yield "text", str(part.get("text", ""))
                elif part.get("type") == "image_url":
                    url = part.get("image_url")
                    yield "image", str(url.get("url", "") if isinstance(url, dict) else url)


def message_text(messages: Any) -> str:
    """All text parts of ``messages`` joined by newlines."""
    return "\n".join(t for kind, t in _iter_parts(messages) if kind == "text")


def count_prompt_tokens(messages: Any) -> int:
    """Whitespace-split words of all text parts plus :data:`IMAGE_TOKENS` per image."""
    return sum(len(v.split()) if k == "text" else IMAGE_TOKENS for k, v in _iter_parts(messages))


def echo_responder(request: dict[str, Any]) -> str:
    """Default reply: ``"echo: "`` + the first 32 words of the last user message."""
    users = [m for m in request.get("messages") or [] if isinstance(m, dict) and m.get("role") == "user"]
    words = message_text(users[-1:]).split()
    n_img = sum(k == "image" for k, _ in _iter_parts(users[-1:]))
    return "echo: " + " ".join(words[:32]) + (f" [{n_img} image(s)]" if n_img else "")


def scripted(rules: Sequence[tuple[Callable[[str], bool], Reply]],
             default: Reply | Responder | None = None) -> Responder:
    """Responder picking the reply of the first rule whose predicate accepts the text of all messages.

    Without a match it uses ``default`` (a reply, or a responder; :func:`echo_responder` if ``None``).
    """

    def respond(request: dict[str, Any]) -> Reply:
        text = message_text(request.get("messages"))
        for predicate, reply in rules:
            if predicate(text):
                return reply
        if default is None or callable(default):
            return (default or echo_responder)(request)
        return default

    return respond


def _error(message: str, type_: str, code: str | None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


class OpenAIStub:
    """OpenAI-compatible stub server; use as a context manager or call :meth:`start` / :meth:`stop`.

    Options may be changed between requests (e.g. ``srv.delay = 0``); ``error_status``
    is consumed as requests arrive and restored by :meth:`reset`.
    """

    def __init__(self, models: Sequence[str] = ("stub-model",), responder: Responder | None = None, *,
                 delay: float = 0.0, fail_first: int = 0, retry_after: float = 0.05,
                 error_status: Sequence[int] = (), require_api_key: str | None = None,
                 host: str = "127.0.0.1", port: int = 0) -> None:
        self.models = list(models)
        self.responder: Responder = responder or echo_responder
        self.delay, self.fail_first, self.retry_after = delay, fail_first, retry_after
        self.error_status, self.require_api_key = list(error_status), require_api_key
        self.host, self.port = host, port
        self._lock = threading.Lock()
        self._requests: list[dict[str, Any]] = []
        self._count = self._in_flight = self._max_concurrent = 0
        self._schedule: list[int] = list(error_status)
        self._seen: dict[str, int] = {}
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_event: asyncio.Event | None = None
        self._startup_error: BaseException | None = None

    # -- bookkeeping ---------------------------------------------------------
    @property
    def requests(self) -> list[dict[str, Any]]:
        """Copy of every parsed completion request body, in arrival order."""
        with self._lock:
            return list(self._requests)

    @property
    def count(self) -> int:
        """Number of completion requests received (including rejected ones)."""
        with self._lock:
            return self._count

    @property
    def max_concurrent(self) -> int:
        """Peak number of completion requests being handled at once."""
        with self._lock:
            return self._max_concurrent

    def reset(self) -> None:
        """Forget recorded requests, counters, 429 history; re-arm the ``error_status`` schedule."""
        with self._lock:
            self._requests.clear()
            self._count = self._max_concurrent = 0
            self._seen.clear()
            self._schedule = list(self.error_status)

    # -- lifecycle -----------------------------------------------------------
    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` (pass as ``base_url`` to the OpenAI client)."""
        assert self._thread is not None, "server not started"
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> Self:
        """Bind (a free port when ``port=0``) and serve from a background thread."""
        ready = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main(ready)), name="openai-stub", daemon=True)
        self._thread.start()
        ready.wait(10)
        if self._startup_error is not None or not ready.is_set():
            self._thread.join(5)
            self._thread = None
            raise RuntimeError("OpenAIStub failed to start") from self._startup_error
        return self

    def stop(self) -> None:
        """Close the listener and all connections, then join the thread."""
        if self._thread is None:
            return
        if self._loop is not None and self._stop_event is not None:
            self._loop.call_soon_threadsafe(self._stop_event.set)
        self._thread.join(10)
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _main(self, ready: threading.Event) -> None:
        self._loop, self._stop_event = asyncio.get_running_loop(), asyncio.Event()
        conns: set[asyncio.Task[None]] = set()

        async def on_conn(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            conns.add(task)
            try:
                await self._serve_conn(reader, writer)
            except (asyncio.LimitOverrunError, ValueError):  # unparsable request: answer 400 and hang up
                writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                pass
            finally:
                conns.discard(task)
                writer.close()

        try:
            server = await asyncio.start_server(on_conn, self.host, self.port, backlog=2048, limit=2**20)
        except OSError as exc:  # e.g. port in use
            self._startup_error = exc
            ready.set()
            return
        self.port = server.sockets[0].getsockname()[1]
        ready.set()
        await self._stop_event.wait()
        server.close()
        for task in list(conns):
            task.cancel()
        await asyncio.gather(*conns, return_exceptions=True)
        await server.wait_closed()

    # -- HTTP ----------------------------------------------------------------
    async def _serve_conn(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                return  # client closed the connection between requests
            request_line, *lines = head.decode("latin-1").split("\r\n")
            method, target, version = request_line.split(" ", 2)
            headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines if ln)}
            if headers.get("transfer-encoding", "").lower() == "chunked":
                body = b""
                while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                    body += (await reader.readexactly(size + 2))[:-2]
                await reader.readuntil(b"\r\n")  # end of (empty) trailers
            else:
                body = await reader.readexactly(int(headers.get("content-length", 0)))
            status, extra, payload = await self._dispatch(method, target.split("?")[0].rstrip("/"), headers, body)
            keep = headers.get("connection", "").lower() != "close" and version == "HTTP/1.1"
            data = payload if isinstance(payload, bytes) else (
                payload.encode() if isinstance(payload, str) else json.dumps(payload).encode())
            out = {"Content-Type": "application/json", "Content-Length": str(len(data)),
                   "Connection": "keep-alive" if keep else "close", "x-request-id": uuid.uuid4().hex, **extra}
            hdr = "".join(f"{k}: {v}\r\n" for k, v in out.items())
            writer.write(f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}\r\n{hdr}\r\n".encode() + data)
            await writer.drain()
            if not keep:
                return

    async def _dispatch(self, method: str, path: str, headers: Mapping[str, str], body: bytes
                        ) -> tuple[int, dict[str, str], Any]:
        key = self.require_api_key
        authorized = key is None or headers.get("authorization") == f"Bearer {key}"
        if method == "GET" and (path == "/v1/models" or path.startswith("/v1/models/")):
            if not authorized:
                return 401, {}, _error("Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
            listed = [{"id": m, "object": "model", "created": 0, "owned_by": "stub"} for m in self.models]
            if path == "/v1/models":
                return 200, {}, {"object": "list", "data": listed}
            found = [m for m in listed if m["id"] == path[len("/v1/models/"):]]
            return (200, {}, found[0]) if found else (404, {}, _error(
                "The model does not exist (model not found).", "invalid_request_error", "model_not_found"))
        if method == "POST" and path == "/v1/chat/completions":
            return await self._complete(headers, body, authorized)
        return 404, {}, _error(f"Unknown route {method} {path}", "invalid_request_error", "unknown_url")

    async def _complete(self, headers: Mapping[str, str], body: bytes, authorized: bool
                        ) -> tuple[int, dict[str, str], Any]:
        try:
            req = json.loads(body)
            assert isinstance(req, dict)
        except (ValueError, AssertionError):
            req = None
        with self._lock:
            self._count += 1
            self._in_flight += 1
            self._max_concurrent = max(self._max_concurrent, self._in_flight)
            if req is not None:
                self._requests.append(req)
        try:
            if not authorized:
                return 401, {}, _error("Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
            if req is None:
                return 400, {}, _error("Body must be a JSON object.", "invalid_request_error", None)
            model = req.get("model")
            if model not in self.models:
                return 404, {}, _error(f"The model `{model}` does not exist (model not found).",
                                       "invalid_request_error", "model_not_found")
            if req.get("stream"):
                return 400, {}, _error("stream=true is not supported by the stub.", "invalid_request_error", None)
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            digest = hashlib.sha256(json.dumps(req, sort_keys=True).encode()).hexdigest()
            with self._lock:
                scheduled = self._schedule.pop(0) if self._schedule else None
                if scheduled is None:
                    seen = self._seen[digest] = self._seen.get(digest, 0) + 1
            if scheduled is not None:
                kind = "server_error" if scheduled >= 500 else "invalid_request_error"
                return scheduled, {}, _error(f"Injected error {scheduled}.", kind, None)
            if seen <= self.fail_first:
                return 429, {"Retry-After": f"{self.retry_after:g}"}, _error(
                    "Rate limit reached (injected).", "requests", "rate_limit_exceeded")
            return self._render(req, self.responder(req))
        finally:
            with self._lock:
                self._in_flight -= 1

    def _render(self, req: dict[str, Any], reply: Reply) -> tuple[int, dict[str, str], Any]:
        spec: dict[str, Any] = {"content": reply} if isinstance(reply, str) else dict(reply)
        status, extra = int(spec.get("status", 200)), {k: str(v) for k, v in spec.get("headers", {}).items()}
        if "body" in spec:
            return status, extra, spec["body"]
        content = str(spec.get("content", ""))
        prompt, completion, n = count_prompt_tokens(req.get("messages")), len(content.split()), int(req.get("n") or 1)
        return status, extra, {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": "chat.completion", "created": int(time.time()),
            "model": req["model"], "system_fingerprint": "fp_stub",
            "choices": [{"index": i, "message": {"role": "assistant", "content": content, "refusal": None},
                         "logprobs": None, "finish_reason": "stop"} for i in range(n)],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion * n,
                      "total_tokens": prompt + completion * n},
        }
