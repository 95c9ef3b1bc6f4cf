"""A server on 127.0.0.1 speaking the chat completions protocol with scripted answers: a judge that answers well,
badly, slowly, with rate limits or with lines that break the contract. `script(n, request) -> (status, headers,
body)` decides the n-th answer (1-based); the default judges every batch line "yes"."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def batch_lines(request: dict) -> list[dict]:
    user = next(m["content"] for m in request["messages"] if m["role"] == "user")
    if isinstance(user, list):  # text and images: the batch is in the first text part
        user = next(p["text"] for p in user if p["type"] == "text")
    body = user.split("# Batch", 1)[1]
    return [json.loads(x) for x in body.splitlines() if x.strip().startswith("{")]


def judged(request: dict, judgment="yes", **change) -> list[dict]:
    return [
        {
            "id": u["id"],
            "judgment": judgment,
            "confidence": "high",
            "rationale": "Says what it does.",
            "fix": "" if judgment == "yes" else "Name the destination.",
            "needs_human": False,
            **change,
        }
        for u in batch_lines(request)
    ]


def completion(lines, model="scripted-judge-1", as_text=None) -> tuple[int, dict, bytes]:
    text = as_text if as_text is not None else json.dumps({"lines": lines})
    return (
        200,
        {},
        json.dumps(
            {
                "id": "c1",
                "object": "chat.completion",
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
            }
        ).encode(),
    )


def good(n, request):
    return completion(judged(request))


class ChatServer:
    def __init__(self, script=good):
        server = self
        self.script, self.requests, self.lock = script, [], threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with server.lock:
                    server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                    n = len(server.requests)
                status, headers, data = server.script(n, body)
                self.send_response(status)
                for k, v in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.httpd.shutdown()


def slow(seconds):
    def script(n, request):
        time.sleep(seconds)
        return good(n, request)

    return script
