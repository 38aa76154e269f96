"""Publish a local dataset export directory to a Hugging Face Hub dataset repo.

An export directory holds a ``README.md`` card whose YAML has a ``configs:`` block,
parquet shards (``<config>/<split>-0000N-of-0000M.parquet``) and maybe ``build_report.json``.
The endpoint comes from ``HF_ENDPOINT``, read by ``huggingface_hub`` at import time.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

__all__ = ["push_dataset", "validate_export_dir"]

_SKIP_DIRS = {"__pycache__"}
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*$", re.DOTALL | re.MULTILINE)
_GLOB_TOKENS = re.compile(r"\*\*/|\*\*|\*|\?|\[!?[^\]]+\]|[^*?\[]+|\[")
_GLOB_REGEX = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}


def _card_metadata(readme: Path) -> dict:
    """Parse the YAML front matter of ``readme``; raise ``ValueError`` when absent or invalid."""
    match = _FRONT_MATTER.match(readme.read_text(encoding="utf-8"))
    if match is None:
        raise ValueError(f"{readme}: dataset card has no YAML front matter ('---' block at the top)")
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"{readme}: invalid YAML front matter: {exc}") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{readme}: YAML front matter must be a mapping")
    return meta


def _iter_globs(data_files: object) -> list[str]:
    """Flatten a ``data_files`` entry (str, list, or list of ``{split, path}``) into globs."""
    if isinstance(data_files, str):
        return [data_files]
    if isinstance(data_files, dict):
        return _iter_globs(data_files.get("path"))
    if isinstance(data_files, list):
        return [glob for item in data_files for glob in _iter_globs(item)]
    return []


def _glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Translate a repo-relative glob (``*`` stays within a folder, ``**`` spans folders) to a regex."""
    out = []
    for tok in _GLOB_TOKENS.findall(pattern.removeprefix("./")):
        if tok in _GLOB_REGEX:
            out.append(_GLOB_REGEX[tok])
        elif tok.startswith("[") and len(tok) > 1:
            out.append("[^" + tok[2:] if tok.startswith("[!") else tok)
        else:
            out.append(re.escape(tok))
    return re.compile("".join(out) + r"\Z")


def _publishable_files(root: Path) -> list[str]:
    """Relative POSIX paths of the files to upload: no hidden files/dirs, no caches."""
    found = []
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if path.is_file() and not any(p.startswith(".") or p in _SKIP_DIRS for p in parts):
            found.append("/".join(parts))
    return found


def validate_export_dir(export_dir: str | Path) -> list[str]:
    """Check an export directory and return the relative paths that would be uploaded.

    Raises ``ValueError`` naming the offending file when the directory or
    ``README.md`` is missing, the card has no ``configs:`` block, or a
    ``data_files`` glob matches no parquet file.
    """
    root = Path(export_dir)
    if not root.is_dir():
        raise ValueError(f"{root}: export directory does not exist")
    readme = root / "README.md"
    if not readme.is_file():
        raise ValueError(f"{readme}: missing dataset card README.md")
    configs = _card_metadata(readme).get("configs")
    if not isinstance(configs, list) or not configs:
        raise ValueError(f"{readme}: dataset card YAML has no 'configs:' block")
    files = _publishable_files(root)
    for config in configs:
        name = config.get("config_name", "default") if isinstance(config, dict) else "?"
        globs = _iter_globs(config.get("data_files")) if isinstance(config, dict) else []
        if not globs:
            raise ValueError(f"{readme}: config {name!r} has no data_files")
        for pattern in globs:
            regex = _glob_to_regex(pattern)
            if not any(f.endswith(".parquet") and regex.match(f) for f in files):
                raise ValueError(f"{readme}: config {name!r} data_files glob {pattern!r} matches no parquet file")
    return files


def _resolve_token(token: str | None) -> str:
    """Token from the argument, else ``HF_TOKEN`` / the saved login (``huggingface_hub.get_token``)."""
    from huggingface_hub import get_token

    resolved = token or get_token()
    if not resolved:
        raise RuntimeError("No Hugging Face token found: pass token=..., set HF_TOKEN, or run `hf auth login`.")
    return resolved


def _describe_http_error(exc: BaseException | None, token: str) -> str | None:
    """Short ``status METHOD /path: message`` for the first HTTP error in the chain, token redacted."""
    from huggingface_hub.errors import HfHubHTTPError

    while exc is not None and not isinstance(exc, HfHubHTTPError):
        exc = exc.__cause__  # e.g. LFS upload errors are wrapped: RuntimeError(...) from HfHubHTTPError
    if exc is None:
        return None
    response = exc.response
    detail = (exc.server_message or "").strip().splitlines()
    text = f"Hub request failed: HTTP {response.status_code} {response.request.method} {response.request.url.path}"
    text += f": {detail[0][:200]}" if detail else ""
    return text.replace(token, "***")


def push_dataset(
    export_dir: str | Path,
    repo_id: str,
    *,
    token: str | None = None,
    private: bool = False,
    revision: str | None = None,
    commit_message: str | None = None,
) -> str:
    """Upload ``export_dir`` to the Hub dataset repo ``repo_id`` in a single commit; return its URL.

    Creates the repo (``exist_ok``) and, when ``revision`` names a missing branch, that branch.
    Remote ``.parquet`` files absent locally (stale shards) are deleted in the same commit.
    Raises ``ValueError`` for an invalid export directory and ``RuntimeError`` for a missing
    token or an HTTP error from the Hub (the token is never included in messages).
    """
    root = Path(export_dir)
    files = validate_export_dir(root)
    resolved = _resolve_token(token)

    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi, RepoFile, constants

    if constants.HF_HUB_OFFLINE:
        raise RuntimeError("HF_HUB_OFFLINE is set: unset it (or set HF_HUB_OFFLINE=0) to push to the Hub.")
    api = HfApi(token=resolved)
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        if revision and not api.revision_exists(repo_id, revision, repo_type="dataset"):
            api.create_branch(repo_id, branch=revision, repo_type="dataset", exist_ok=True)
        remote = api.list_repo_tree(repo_id, recursive=True, revision=revision, repo_type="dataset")
        stale = [f.path for f in remote if isinstance(f, RepoFile) and f.path.endswith(".parquet")]
        operations: list[CommitOperationAdd | CommitOperationDelete]
        operations = [CommitOperationDelete(path_in_repo=path) for path in stale if path not in files]
        operations += [CommitOperationAdd(path_in_repo=rel, path_or_fileobj=str(root / rel)) for rel in files]
        message = commit_message or f"Upload dataset export ({len(files)} files)"
        info = api.create_commit(repo_id, operations, commit_message=message, repo_type="dataset", revision=revision)
    except Exception as exc:  # noqa: BLE001 - only HTTP errors are translated, the rest re-raised
        described = None if isinstance(exc, ValueError) else _describe_http_error(exc, resolved)
        if described is None:
            raise
        raise RuntimeError(described) from None
    return info.commit_url
