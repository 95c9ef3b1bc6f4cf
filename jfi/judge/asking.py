"""Asking a model through the cache: a request is canonical JSON bytes; its answer is kept under the audit folder's
judge-cache/ as it arrives, named by the sha256 of those bytes, and a request whose answer is kept is never sent
again. And reading a reply's lines, and the key from its environment variable."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from ..errors import JfiError
from ..jsonl import atomic_write, strict_loads
from ..paths import regular_file
from .client import Answer, Client, EndpointError

CACHE = "judge-cache"  # in the audit folder: one file per request answered, named by the sha256 of its bytes


def request_bytes(model: str, msgs: list[dict], params: dict) -> bytes:
    """The request as sent and as cached: canonical JSON (sorted keys), so the same request is the same bytes."""
    return json.dumps(
        {"model": model, "messages": msgs, **params}, sort_keys=True, ensure_ascii=False, separators=(",", ":")
    ).encode("utf-8")


def parse_lines(text: str) -> list | None:
    """The judged lines in a reply: a JSON object {"lines": [...]}, a JSON array, or JSON Lines (a code fence
    around any of them is taken off); None when the reply is none of them."""
    body = re.sub(r"^\s*```(?:json|jsonl)?\s*|\s*```\s*$", "", text.strip())
    try:
        doc = strict_loads(body)
        if isinstance(doc, dict) and isinstance(doc.get("lines"), list):
            return doc["lines"]
        if isinstance(doc, list):
            return doc
    except (ValueError, RecursionError):
        pass
    out = []
    for raw in body.splitlines():
        if raw.strip():
            try:
                out.append(strict_loads(raw))
            except (ValueError, RecursionError):
                return None
    return out or None


def _key(api_key_env: str | None) -> str | None:
    if not api_key_env:
        return None
    key = os.environ.get(api_key_env)
    if not key:
        raise JfiError(
            "no_api_key",
            f"the environment variable {api_key_env} is not set (it holds the key the endpoint asks for)",
            field="--api-key-env",
        )
    return key


class Asker:
    """Requests to one model through the cache: an answer is kept under judge-cache/ as it arrives, by the sha256 of
    its request's bytes, and a request whose answer is kept is never sent again (unless use_cache is off)."""

    def __init__(self, root: Path, client: Client, model: str, params: dict, use_cache: bool):
        self.cache, self.client, self.model, self.params, self.use_cache = (
            root / CACHE,
            client,
            model,
            params,
            use_cache,
        )

    def ask(self, msgs: list[dict]) -> tuple[Answer, bool]:
        try:
            return self._ask(msgs)
        except EndpointError as e:  # an endpoint that takes no response_format: asked without it from then on
            if "response_format" not in self.params or not re.search(
                r"HTTP 4\d\d.*(response_format|json_schema)", str(e), re.S
            ):
                raise
            self.params = {k: v for k, v in self.params.items() if k != "response_format"}
            return self._ask(msgs)

    def _ask(self, msgs: list[dict]) -> tuple[Answer, bool]:
        body = request_bytes(self.model, msgs, self.params)
        digest = hashlib.sha256(body).hexdigest()
        hit = self.cache / f"{digest}.json"
        if self.use_cache and regular_file(hit):
            try:
                saved = strict_loads(hit.read_text(encoding="utf-8"))
                return Answer(
                    saved["text"], saved["model"], saved.get("usage") or {}, saved.get("latency_s") or 0.0, 0
                ), True
            except (ValueError, KeyError, TypeError, RecursionError):
                pass  # a damaged entry is asked again
        answer = self.client.complete(body)
        if self.use_cache:  # kept at once: a run killed after this answer never pays for it again
            self.cache.mkdir(exist_ok=True)
            atomic_write(
                hit,
                json.dumps(
                    {
                        "request_sha256": digest,
                        "text": answer.text,
                        "model": answer.model,
                        "usage": answer.usage,
                        "latency_s": answer.latency_s,
                    }
                )
                + "\n",
            )
        return answer, False
