"""A chat completions client with bounds: a timeout per request, retries with backoff on 429 and 5xx (honouring
Retry-After) and on dropped connections, and nothing else. httpx does the HTTP."""

from __future__ import annotations

import email.utils
import random
import threading
import time
import urllib.parse
from dataclasses import dataclass

import httpx

from ..errors import JfiError, clip

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
BACKOFF_S = 1.0  # the first wait; doubled each retry, with jitter
BACKOFF_MAX_S = 60.0  # the longest wait, Retry-After included


def chat_url(endpoint: str) -> str:
    """The chat completions URL of an endpoint given as its API base (…/v1) or that URL itself; anything but an
    http(s) URL with a host is refused before a request is made (an ftp:// or a bare host name was retried as a
    dropped connection)."""
    try:
        parts = urllib.parse.urlsplit(endpoint.strip())
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise JfiError(
            "invalid_endpoint",
            f"--endpoint {clip(endpoint, 80)!r} is not an http(s) URL such as http://127.0.0.1:8000/v1",
            field="--endpoint",
            exit_code=3,
        )
    base = endpoint.strip().rstrip("/")
    return base if base.endswith("/chat/completions") else base + "/chat/completions"


class EndpointError(Exception):
    """The endpoint did not answer with a completion (after the retries): why, in words."""


@dataclass
class Answer:
    """A completion: its text, the model id the endpoint reports, token usage, seconds taken, attempts made."""

    text: str
    model: str
    usage: dict
    latency_s: float
    attempts: int


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class Client:
    """One endpoint, shared by the threads of a run (httpx's client is thread-safe)."""

    def __init__(
        self, endpoint: str, api_key: str | None, *, timeout_s: float = 120.0, retries: int = 4, sleep=time.sleep
    ):
        self.url = chat_url(endpoint)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.http = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout_s), follow_redirects=False)
        self.retries, self.sleep = retries, sleep
        self.sent = 0  # requests sent, every attempt counted
        self._count = threading.Lock()

    def complete(self, body: bytes) -> Answer:
        """POST one request body (JSON bytes, as cached); the completion's first choice."""
        started, attempt = time.monotonic(), 0
        while True:
            attempt += 1
            with self._count:
                self.sent += 1
            try:
                response = self.http.post(self.url, content=body, headers={"Content-Type": "application/json"})
            except httpx.TimeoutException:
                why, wait = "timed out", None
            except httpx.TransportError as e:
                why, wait = f"connection failed ({type(e).__name__})", None
            else:
                if response.status_code == 200:
                    return self._answer(response, started, attempt)
                if response.status_code not in RETRY_STATUS:
                    raise EndpointError(f"HTTP {response.status_code}: {response.text[:200]}")
                why, wait = f"HTTP {response.status_code}", _retry_after(response)
            if attempt > self.retries:
                raise EndpointError(f"{why} after {attempt} attempt(s)")
            backoff = BACKOFF_S * 2 ** (attempt - 1) * (1 + random.random() / 4)
            self.sleep(min(BACKOFF_MAX_S, wait if wait is not None else backoff))

    @staticmethod
    def _answer(response: httpx.Response, started: float, attempt: int) -> Answer:
        try:
            doc = response.json()
            text = doc["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise EndpointError(f"not a chat completion: {response.text[:200]}") from None
        if not isinstance(text, str):
            raise EndpointError("the completion has no text content")
        return Answer(
            text, str(doc.get("model") or ""), doc.get("usage") or {}, round(time.monotonic() - started, 3), attempt
        )

    def close(self) -> None:
        self.http.close()
