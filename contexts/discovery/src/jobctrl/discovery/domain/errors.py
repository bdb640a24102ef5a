"""Typed errors of the Discovery context."""

from __future__ import annotations

from jobctrl.kernel.errors import JobCtrlError


class DiscoveryRuleViolated(JobCtrlError):
    """A command broke a Discovery invariant; nothing was recorded."""

    code = "discovery_rule_violated"
    retryable = False


class MembershipClosed(DiscoveryRuleViolated):
    code = "membership_closed"


class WorkPlanConflict(DiscoveryRuleViolated):
    code = "work_plan_conflict"


class InvalidSourceTransition(DiscoveryRuleViolated):
    code = "invalid_source_transition"
