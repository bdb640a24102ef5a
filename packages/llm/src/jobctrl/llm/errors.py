"""Typed errors of the LLM port beyond the kernel taxonomy."""

from __future__ import annotations

from jobctrl.kernel.errors import JobCtrlError


class LlmOutputInvalidError(JobCtrlError):
    """The provider answered, but its output did not validate against the response model.

    Provider output is untrusted data: a malformed answer never reaches domain code.  Retryable,
    because a fresh sample from the model may well be valid.
    """

    code = "llm_output_invalid"
    retryable = True
