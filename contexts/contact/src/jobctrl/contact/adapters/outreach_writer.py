"""Outreach drafting: the structured message asked of the model, and the offline writer (ADR 0275).

The model writes from the candidate's profile facts, the contact's title and employer, the job and the
points the user asked to make; it never sends anything.  Whatever it returns is then held to the
truthfulness gate (``ports.TruthfulnessGate``) before anything is written.  The offline writer is
deterministic: a short introduction made only of the inputs it was given.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from jobctrl.llm import StructuredRequest

TASK = "draft_outreach_message"
SYSTEM_PROMPT = (
    "Write a short, polite outreach message from the candidate to the contact. Use only facts from the "
    "CANDIDATE PROFILE and the points the user gave; never invent a number, a date, a title, an employer "
    "or a technology. No flattery, no pressure, at most 150 words. Return a subject and a body."
)
MAX_BODY = 4000


class OutreachMessage(BaseModel):
    subject: str = Field(min_length=1, max_length=200)
    body: str = Field(min_length=1, max_length=MAX_BODY)


def _text(context: dict[str, object], key: str) -> str:
    value = context.get(key)
    return value.strip() if isinstance(value, str) else ""


def _sentence(point: str) -> str:
    point = point.strip()
    return point if point.endswith((".", "!", "?")) else point + "."


def write_offline(request: StructuredRequest[OutreachMessage]) -> OutreachMessage:
    """A deterministic message from the request's context (the offline provider's handler)."""
    ctx = request.context
    candidate = _text(ctx, "candidateName") or "a candidate"
    headline = _text(ctx, "headline")
    first = _text(ctx, "contactName").split(" ")[0] if _text(ctx, "contactName") else ""
    role, employer = _text(ctx, "role"), _text(ctx, "employer")
    target = f"the {role} role" if role else "a role on your team"
    where = f" at {employer}" if employer else ""
    raw = ctx.get("points")
    points = [p for p in raw if isinstance(p, str)] if isinstance(raw, list) else []
    lines = [
        f"Hi {first}," if first else "Hello,",
        "",
        f"I am {candidate}"
        + (f", {headline}" if headline else "")
        + f". I am interested in {target}{where}.",
        *[_sentence(p) for p in points if p.strip()],
        "Would you be open to a short conversation about the team?",
        "",
        "Thank you,",
        candidate,
    ]
    subject = f"Question about {target}{where}"
    return OutreachMessage(subject=subject[:200], body="\n".join(lines)[:MAX_BODY])
