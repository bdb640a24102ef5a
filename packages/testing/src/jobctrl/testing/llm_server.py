"""A real OpenAI-compatible HTTP server for tests (stdlib only): serves canned chat completions in order,
or, with ``responder`` set, answers each request from what it asked (e.g. by the requested tool).

Other contexts use it to test their instructor paths over real HTTP without mocking the client.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from jobctrl.testing.http_server import serving


@dataclass
class Canned:
    status: int = 200
    body: Any = None
    delay_seconds: float = 0.0


@dataclass
class FakeOpenAI:
    responses: list[Canned] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""
    # Called with the request body when no canned response is queued.
    responder: Callable[[dict[str, Any]], Canned] | None = None


def tool_call_completion(name: str, arguments: dict[str, Any], *, prompt: int = 120, output: int = 30) -> Any:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": output, "total_tokens": prompt + output},
    }


def json_completion(content: str, *, prompt: int = 90, output: int = 20) -> Any:
    return {
        "id": "chatcmpl-json",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "test-model",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": output, "total_tokens": prompt + output},
    }


@contextmanager
def fake_openai_server() -> Iterator[FakeOpenAI]:
    state = FakeOpenAI()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            state.requests.append(
                {
                    "path": self.path,
                    "auth": self.headers.get("authorization"),
                    "body": json.loads(self.rfile.read(length)),
                }
            )
            body = state.requests[-1]["body"]
            if state.responses:
                canned = state.responses.pop(0)
            elif state.responder is not None:
                canned = state.responder(body)
            else:
                canned = Canned(500, {"error": {"message": "none"}})
            if canned.delay_seconds:
                time.sleep(canned.delay_seconds)
            raw = canned.body if isinstance(canned.body, bytes) else json.dumps(canned.body).encode()
            try:
                self.send_response(canned.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            return

    with serving(Handler) as base:
        state.base_url = f"{base}/v1"
        yield state
