"""Helpers of features/search: the local Greenhouse board's postings and a local model that wants Python."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from jobctrl.discovery.sample_board.postings import SAMPLE_POSTINGS
from jobctrl.testing.llm_server import Canned, tool_call_completion

BACKEND, FRONTEND = "Senior Backend Engineer", "Frontend Engineer"


def _postings() -> list[Any]:
    chosen = []
    for title in (BACKEND, FRONTEND):
        p = next(p for p in SAMPLE_POSTINGS if p.title == title and p.format == "greenhouse")
        chosen.append(dataclasses.replace(p, board="acme", employer="Acme"))
    return chosen


def _tool(body: dict[str, Any]) -> str:
    name: str = body["tools"][0]["function"]["name"]
    return name


def _user(body: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")


def model(body: dict[str, Any]) -> Canned:
    """A model that wants Python: it extracts one requirement, finds it in the evidence when the posting
    names Python, and writes drafts from the profile's own sentences, citing their ids."""
    tool, prompt = _tool(body), _user(body)
    args: dict[str, Any]
    if tool == "RequirementExtraction":
        wants_python = "python" in prompt.casefold()
        text = "Strong Python" if wants_python else "Strong React and TypeScript"
        args = {"requirements": [{"text": text, "tier": "must_have", "kind": "skill", "weight": 3,
                                  "keywords": ["Python" if wants_python else "React"]}]}  # fmt: skip
    elif tool == "EvidenceMatching":
        data = json.loads(prompt)
        wanted = data["requirements"]["requirements"][0]["keywords"][0]
        cited = [e["id"] for e in data["profile"]["evidence"] if e["text"] == wanted]
        args = {
            "matches": [
                {"requirement_index": 0, "fit": "direct" if cited else "missing", "evidence_ids": cited}
            ]
        }
    else:
        facts = json.loads(
            prompt.split("CANDIDATE PROFILE (facts with ids):\n", 1)[1].split("\n\nTARGET POSTING:")[0]
        )
        first = facts["summary"][0]
        bullet = facts["experiences"][0]["bullets"][0]
        if tool == "ResumeDraft":
            args = {"summary": [{"text": first["text"], "sources": [first["id"]]}]}
        else:
            args = {
                "salutation": "Dear Acme team,",
                "paragraphs": [{"text": bullet["text"], "sources": [bullet["id"]]}],
            }
    return Canned(200, tool_call_completion(tool, args))
