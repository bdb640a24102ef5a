"""robots.txt verdicts, exactly as the reference table says.

| robots.txt fetch result            | verdict                 | cached for |
|------------------------------------|-------------------------|------------|
| 4xx                                | allow                   | 1 h        |
| 2xx                                | parse and obey          | 1 h        |
| 5xx or timeout                     | disallow (fail closed)  | 5 min      |
| DNS failure or connection refused  | allow, with a warning   | 1 h        |
| unsafe destination or other error  | disallow (fail closed)  | 5 min      |

The fetch itself times out after 5 s.  A verdict is cached per origin (scheme, host, port).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.robotparser import RobotFileParser

ROBOTS_FETCH_TIMEOUT_S = 5.0
ROBOTS_MAX_BYTES = 512_000  # robots.txt beyond 500 KiB is truncated by major crawlers too
ALLOW_TTL = timedelta(hours=1)
FAIL_CLOSED_TTL = timedelta(minutes=5)


class RobotsOutcome(enum.Enum):
    """What happened when robots.txt was fetched (decides verdict and cache lifetime)."""

    PARSED = "parsed"  # 2xx: obey the rules
    NOT_FOUND = "not_found"  # 4xx: no rules, allow
    SERVER_ERROR = "server_error"  # 5xx: fail closed
    TIMEOUT = "timeout"  # fail closed
    UNREACHABLE = "unreachable"  # DNS failure / connection refused: allow with a warning
    UNSAFE_DESTINATION = "unsafe_destination"  # fail closed
    OTHER_ERROR = "other_error"  # fail closed
    EXEMPT = "exempt"  # the policy does not consult robots (documented APIs)

    @property
    def ttl(self) -> timedelta:
        return FAIL_CLOSED_TTL if self in _FAIL_CLOSED else ALLOW_TTL

    @property
    def fails_closed(self) -> bool:
        return self in _FAIL_CLOSED


_FAIL_CLOSED = frozenset(
    {
        RobotsOutcome.SERVER_ERROR,
        RobotsOutcome.TIMEOUT,
        RobotsOutcome.UNSAFE_DESTINATION,
        RobotsOutcome.OTHER_ERROR,
    }
)


def outcome_for_status(status: int) -> RobotsOutcome:
    if 200 <= status < 300:
        return RobotsOutcome.PARSED
    if 400 <= status < 500:
        return RobotsOutcome.NOT_FOUND
    if status >= 500:
        return RobotsOutcome.SERVER_ERROR
    return RobotsOutcome.OTHER_ERROR  # 1xx/3xx left after bounded redirects


@dataclass(frozen=True, slots=True)
class RobotsRules:
    """A cached robots.txt fetch for one origin."""

    origin: str
    outcome: RobotsOutcome
    fetched_at: datetime
    parser: RobotFileParser | None = None

    @property
    def expires_at(self) -> datetime:
        return self.fetched_at + self.outcome.ttl

    def allows(self, url: str, robots_token: str) -> bool:
        if self.outcome.fails_closed:
            return False
        if self.outcome is RobotsOutcome.PARSED and self.parser is not None:
            return self.parser.can_fetch(robots_token, url)
        return True


@dataclass(frozen=True, slots=True)
class RobotsVerdict:
    """The answer for one URL: allowed or not, why, whether to warn, and until when it holds."""

    url: str
    allowed: bool
    outcome: RobotsOutcome
    warning: bool
    expires_at: datetime | None


def parse_robots(body: str) -> RobotFileParser:
    parser = RobotFileParser()
    parser.parse(body.splitlines())
    return parser
