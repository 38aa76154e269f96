"""A tiny in-process stand-in for the Hugging Face Hub HTTP API (tests only).

It implements just enough of the API for ``huggingface_hub`` 2.4 to create a
repo and commit files through the classic (non-Xet) path, i.e. with
``HF_HUB_DISABLE_XET=1``:

=======  =================================================  ==========================
method   path                                               used by
=======  =================================================  ==========================
GET      /api/whoami-v2                                     ``whoami``
POST     /api/repos/create                                  ``create_repo``
POST     /api/validate-yaml                                 README.md metadata check
GET      /api/{type}s/{ns}/{name}[/revision/{rev}]          ``repo_info`` / ``revision_exists``
GET      /api/{type}s/{ns}/{name}/tree/{rev}[/{path}]       ``list_repo_tree``
POST     /api/{type}s/{ns}/{name}/branch/{branch}           ``create_branch``
POST     /api/{type}s/{ns}/{name}/preupload/{rev}           upload mode (regular / lfs)
POST     /[{type}s/]{ns}/{name}.git/info/lfs/objects/batch  LFS batch API (basic transfer)
PUT      /__stub/lfs/{sha256}                               LFS object upload (no auth)
POST     /__stub/lfs/{sha256}/verify                        LFS verify
POST     /api/{type}s/{ns}/{name}/commit/{rev}              NDJSON commit
GET      /{type}s/{ns}/{name}/resolve/{rev}/{path}          raw file download (convenience)
=======  =================================================  ==========================

Everything the stub receives is kept in memory so tests can assert on it:
:attr:`HubStub.repos` (files per branch, as bytes), :attr:`HubStub.lfs_objects`
(uploaded LFS blobs by sha256), :attr:`HubStub.auth_headers` (every
``Authorization`` header received, ``None`` when absent) and
:attr:`HubStub.requests` (``(method, path)`` log).

Errors use 4xx codes only: ``huggingface_hub`` retries 429/5xx with backoff.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import yaml

_TYPES = "models|datasets|spaces"
_REPO = r"(?P<ns>[^/]+)/(?P<name>[^/]+)"
_API_REPO = rf"^/api/(?P<type>{_TYPES})/{_REPO}"
_GIT_REPO = rf"^/(?:(?P<type>datasets|spaces)/)?{_REPO}"  # models have no URL prefix
_LFS_SUFFIXES = (".parquet", ".arrow", ".png", ".jpg", ".jpeg", ".bin", ".safetensors", ".zip", ".gz", ".npy")
_REGULAR_MAX_SIZE = 10 * 1024 * 1024


def git_blob_sha1(data: bytes) -> str:
    """Git blob OID of ``data`` (what the Hub reports for regular files)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Branch:
    """State of one branch: head commit, files (path -> bytes) and which are LFS."""

    sha: str
    files: dict[str, bytes] = field(default_factory=dict)
    lfs: set[str] = field(default_factory=set)


@dataclass
class StubRepo:
    """A repo held by the stub."""

    repo_type: str  # "model" | "dataset" | "space"
    repo_id: str
    private: bool
    branches: dict[str, Branch]
    commits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def files(self) -> dict[str, bytes]:
        """Files on ``main``."""
        return self.branches["main"].files


class _StubError(Exception):
    def __init__(self, status: int, message: str, error_code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.error_code, self.extra = status, message, error_code, extra


class HubStub:
    """Local Hub stand-in; use as a context manager or call :meth:`start` / :meth:`stop`.

    If ``expected_token`` is given, API calls whose ``Authorization`` header is
    not ``Bearer <expected_token>`` get a 401 (the LFS PUT, like a presigned S3
    URL, and ``validate-yaml`` are exempt).
    """

    def __init__(self, expected_token: str | None = None, user: str = "stub-user") -> None:
        self.expected_token = expected_token
        self.user = user
        self.repos: dict[tuple[str, str], StubRepo] = {}
        self.lfs_objects: dict[str, bytes] = {}
        self.auth_headers: list[str | None] = []
        self.requests: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------
    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:54321`` (use as ``HF_ENDPOINT``)."""
        assert self._server is not None, "stub not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> HubStub:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        stub = self

        class Handler(_Handler):
            hub = stub

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="hub-stub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Shut the server down."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> HubStub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- helpers for tests -------------------------------------------------
    def repo(self, repo_id: str, repo_type: str = "dataset") -> StubRepo:
        """The stored repo (``KeyError`` if it was never created)."""
        return self.repos[(repo_type, repo_id)]

    # -- request handling (called from handler threads) --------------------
    def _get_repo(self, type_plural: str, ns: str, name: str) -> StubRepo:
        repo = self.repos.get((type_plural[:-1], f"{ns}/{name}"))
        if repo is None:
            raise _StubError(404, "Repository not found", "RepoNotFound")
        return repo

    @staticmethod
    def _get_branch(repo: StubRepo, rev: str) -> Branch:
        if rev in repo.branches:
            return repo.branches[rev]
        for branch in repo.branches.values():  # a commit sha also resolves
            if branch.sha == rev:
                return branch
        raise _StubError(404, f"Invalid rev id: {rev}", "RevisionNotFound")

    def _repo_info(self, repo: StubRepo, rev: str) -> dict[str, Any]:
        branch = self._get_branch(repo, rev)
        return {
            "id": repo.repo_id,
            "_id": hashlib.md5(repo.repo_id.encode()).hexdigest()[:24],
            "author": repo.repo_id.split("/")[0],
            "sha": branch.sha,
            "private": repo.private,
            "disabled": False,
            "gated": False,
            "downloads": 0,
            "likes": 0,
            "tags": [],
            "lastModified": "2024-01-01T00:00:00.000Z",
            "createdAt": "2024-01-01T00:00:00.000Z",
            "siblings": [{"rfilename": path} for path in sorted(branch.files)],
        }

    def _tree(self, repo: StubRepo, rev: str, prefix: str, recursive: bool) -> list[dict[str, Any]]:
        branch = self._get_branch(repo, rev)
        prefix = prefix.strip("/")
        base = f"{prefix}/" if prefix else ""
        entries: dict[str, dict[str, Any]] = {}
        for path, data in sorted(branch.files.items()):
            if not path.startswith(base):
                continue
            rest = path[len(base):].split("/")
            if not recursive and len(rest) > 1:
                folder = base + rest[0]
                entries[folder] = {"type": "directory", "path": folder, "oid": git_blob_sha1(folder.encode())}
                continue
            if recursive:
                for i in range(1, len(rest)):
                    folder = base + "/".join(rest[:i])
                    entries[folder] = {"type": "directory", "path": folder, "oid": git_blob_sha1(folder.encode())}
            entry: dict[str, Any] = {"type": "file", "path": path, "size": len(data), "oid": git_blob_sha1(data)}
            if path in branch.lfs:
                entry["lfs"] = {"oid": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
            entries[path] = entry
        if prefix and not entries:
            raise _StubError(404, f"{prefix} does not exist", "EntryNotFound")
        return list(entries.values())

    def _create_repo(self, body: dict[str, Any]) -> dict[str, Any]:
        repo_type = body.get("type") or "model"
        repo_id = f"{body.get('organization') or self.user}/{body['name']}"
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        url = f"{self.url}/{prefix}{repo_id}"
        if (repo_type, repo_id) in self.repos:
            # huggingface_hub's create_repo(exist_ok=True) reads "url" from the 409 body
            raise _StubError(409, f"You already created this {repo_type} repo", url=url)
        private = body.get("visibility") == "private" or bool(body.get("private"))
        sha = hashlib.sha1(f"init:{repo_type}:{repo_id}".encode()).hexdigest()
        self.repos[(repo_type, repo_id)] = StubRepo(repo_type, repo_id, private, {"main": Branch(sha)})
        return {"url": url, "name": repo_id, "id": repo_id}

    @staticmethod
    def _validate_yaml(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        content = body.get("content", "")
        match = re.match(r"^---\s*\n(.*?)\n---\s*(\n|$)", content, re.DOTALL)
        if match is None:
            return 200, {"errors": [], "warnings": [{"message": "Empty or missing yaml metadata"}]}
        try:
            data = yaml.safe_load(match.group(1))
        except yaml.YAMLError as exc:
            return 400, {"errors": [{"message": f"Invalid YAML: {exc}"}], "warnings": []}
        if data is not None and not isinstance(data, dict):
            return 400, {"errors": [{"message": "YAML metadata must be a mapping"}], "warnings": []}
        return 200, {"errors": [], "warnings": []}

    def _preupload(self, repo: StubRepo, rev: str, body: dict[str, Any]) -> dict[str, Any]:
        branch = self._get_branch(repo, rev)
        files = []
        for item in body.get("files", []):
            path, size = item["path"], int(item["size"])
            sample = base64.b64decode(item.get("sample", ""))
            lfs = path.lower().endswith(_LFS_SUFFIXES) or b"\0" in sample or size > _REGULAR_MAX_SIZE
            oid = None
            if path in branch.files:
                data = branch.files[path]
                oid = hashlib.sha256(data).hexdigest() if path in branch.lfs else git_blob_sha1(data)
            files.append({"path": path, "uploadMode": "lfs" if lfs else "regular", "shouldIgnore": False, "oid": oid})
        return {"files": files, "commitOid": branch.sha}

    def _lfs_batch(self, body: dict[str, Any]) -> dict[str, Any]:
        if body.get("operation") != "upload":
            raise _StubError(400, "stub only supports LFS uploads")
        objects = []
        for obj in body.get("objects", []):
            oid, size = obj["oid"], int(obj["size"])
            entry: dict[str, Any] = {"oid": oid, "size": size, "authenticated": True}
            if oid not in self.lfs_objects:
                entry["actions"] = {
                    "upload": {"href": f"{self.url}/__stub/lfs/{oid}", "header": {}},
                    "verify": {"href": f"{self.url}/__stub/lfs/{oid}/verify", "header": {}},
                }
            objects.append(entry)
        return {"transfer": "basic", "objects": objects, "hash_algo": "sha256"}

    def _lfs_put(self, oid: str, data: bytes) -> None:
        if hashlib.sha256(data).hexdigest() != oid:
            raise _StubError(400, f"sha256 mismatch for LFS object {oid}")
        self.lfs_objects[oid] = data

    def _commit(self, repo: StubRepo, rev: str, raw: bytes, params: dict[str, list[str]]) -> dict[str, Any]:
        if params.get("create_pr"):
            raise _StubError(400, "create_pr is not supported by the hub stub")
        branch = self._get_branch(repo, rev)
        lines = [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
        if not lines or lines[0].get("key") != "header":
            raise _StubError(400, "commit payload must start with a header line")
        header = lines[0]["value"]
        if header.get("parentCommit") and not branch.sha.startswith(header["parentCommit"]):
            raise _StubError(412, "A commit has happened since. Please refresh and try again.")
        files, lfs = dict(branch.files), set(branch.lfs)
        for line in lines[1:]:
            key, value = line["key"], line["value"]
            path = value["path"]
            if key == "file":
                files[path] = base64.b64decode(value["content"])
                lfs.discard(path)
            elif key == "lfsFile":
                if value["oid"] not in self.lfs_objects:
                    raise _StubError(422, f"LFS object {value['oid']} for {path} was never uploaded")
                files[path] = self.lfs_objects[value["oid"]]
                lfs.add(path)
            elif key == "deletedFile":
                files.pop(path, None)
                lfs.discard(path)
            elif key == "deletedFolder":
                for p in [p for p in files if p.startswith(path.rstrip("/") + "/")]:
                    files.pop(p)
                    lfs.discard(p)
            else:
                raise _StubError(400, f"unsupported commit operation {key!r}")
        digest = hashlib.sha1(branch.sha.encode() + json.dumps(header, sort_keys=True).encode())
        for path in sorted(files):
            digest.update(path.encode() + git_blob_sha1(files[path]).encode())
        branch.sha, branch.files, branch.lfs = digest.hexdigest(), files, lfs
        paths = [line["value"]["path"] for line in lines[1:]]
        repo.commits.append({"oid": branch.sha, "revision": rev, "summary": header.get("summary"),
                             "description": header.get("description"), "paths": paths})
        prefix = "" if repo.repo_type == "model" else f"{repo.repo_type}s/"
        url = f"{self.url}/{prefix}{repo.repo_id}/commit/{branch.sha}"
        return {"success": True, "commitOid": branch.sha, "commitUrl": url, "pullRequestUrl": None}

    def _check_auth(self, auth: str | None) -> None:
        if self.expected_token is not None and auth != f"Bearer {self.expected_token}":
            raise _StubError(401, "Invalid credentials in Authorization header")

    def dispatch(self, method: str, raw_path: str, auth: str | None, body: bytes) -> tuple[int, Any]:
        """Route one request; returns ``(status, json_or_bytes)``."""
        split = urlsplit(raw_path)
        path, params = split.path, parse_qs(split.query)
        with self.lock:
            self.requests.append((method, path))
            self.auth_headers.append(auth)
            if method == "PUT" and (m := re.match(r"^/__stub/lfs/(?P<oid>[0-9a-f]{64})$", path)):
                self._lfs_put(m["oid"], body)
                return 200, {}
            if method == "POST" and path == "/api/validate-yaml":
                return self._validate_yaml(json.loads(body or b"{}"))
            self._check_auth(auth)
            if method == "GET" and path == "/api/whoami-v2":
                return 200, {"type": "user", "name": self.user, "fullname": self.user, "orgs": [],
                             "auth": {"type": "access_token", "accessToken": {"role": "write"}}}
            if method == "POST" and path == "/api/repos/create":
                return 200, self._create_repo(json.loads(body))
            if method == "POST" and (m := re.match(r"^/__stub/lfs/(?P<oid>[0-9a-f]{64})/verify$", path)):
                if m["oid"] not in self.lfs_objects:
                    raise _StubError(404, "LFS object not found")
                return 200, {}
            if method == "POST" and (m := re.match(_GIT_REPO + r"\.git/info/lfs/objects/batch$", path)):
                self._get_repo(m["type"] or "models", m["ns"], m["name"])
                return 200, self._lfs_batch(json.loads(body))
            if method == "GET" and (m := re.match(_GIT_REPO + r"/resolve/(?P<rev>[^/]+)/(?P<file>.+)$", path)):
                branch = self._get_branch(self._get_repo(m["type"] or "models", m["ns"], m["name"]), unquote(m["rev"]))
                if unquote(m["file"]) not in branch.files:
                    raise _StubError(404, "Entry not found", "EntryNotFound")
                return 200, branch.files[unquote(m["file"])]
            m = re.match(_API_REPO + r"(?P<rest>/.*)?$", path)
            if m is None:
                raise _StubError(404, f"hub stub: no route for {method} {path}")
            repo, rest = self._get_repo(m["type"], m["ns"], m["name"]), m["rest"] or ""
            if method == "GET" and rest in ("", "/"):
                return 200, self._repo_info(repo, "main")
            if method == "GET" and (r := re.match(r"^/revision/(?P<rev>[^/]+)$", rest)):
                return 200, self._repo_info(repo, unquote(r["rev"]))
            if method == "GET" and (r := re.match(r"^/tree/(?P<rev>[^/]+)(?P<sub>/.*)?$", rest)):
                recursive = params.get("recursive", ["false"])[0].lower() in ("1", "true")
                return 200, self._tree(repo, unquote(r["rev"]), unquote(r["sub"] or ""), recursive)
            if method == "POST" and (r := re.match(r"^/branch/(?P<branch>[^/]+)$", rest)):
                name = unquote(r["branch"])
                if name in repo.branches:
                    raise _StubError(409, f"Reference already exists: {name}")
                start = json.loads(body or b"{}").get("startingPoint") or "main"
                source = self._get_branch(repo, start)
                repo.branches[name] = Branch(source.sha, dict(source.files), set(source.lfs))
                return 200, {}
            if method == "POST" and (r := re.match(r"^/preupload/(?P<rev>[^/]+)$", rest)):
                return 200, self._preupload(repo, unquote(r["rev"]), json.loads(body))
            if method == "POST" and (r := re.match(r"^/commit/(?P<rev>[^/]+)$", rest)):
                return 200, self._commit(repo, unquote(r["rev"]), body, params)
            raise _StubError(404, f"hub stub: no route for {method} {path}")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    hub: HubStub

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _handle(self) -> None:
        body = self._read_body()
        headers: dict[str, str] = {}
        try:
            status, payload = self.hub.dispatch(self.command, self.path, self.headers.get("Authorization"), body)
        except _StubError as err:
            status, payload = err.status, {"error": err.message, **err.extra}
            headers["X-Error-Message"] = err.message
            if err.error_code:
                headers["X-Error-Code"] = err.error_code
        except Exception as err:  # noqa: BLE001 - report stub bugs as 400 (5xx would be retried)
            status, payload = 400, {"error": f"hub stub error: {type(err).__name__}: {err}"}
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        ctype = "application/octet-stream" if isinstance(payload, bytes) else "application/json"
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _handle

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence stderr logging
        pass
