"""The honest User-Agent: ``JobCtrl/<version> (+<contact>)``, never a browser's."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

from jobctrl.kernel.errors import ConfigurationError

# Tokens that would make a crawler pass itself off as a browser.
_BROWSER_TOKENS = re.compile(r"mozilla|chrome|safari|applewebkit|gecko|firefox|edge|opera|msie", re.I)
_PRODUCT = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{0,39}$")
_CONTACT = re.compile(r"^[^\s()]{3,200}$")


def package_version() -> str:
    try:
        return version("jobctrl-politeness")
    except PackageNotFoundError:  # pragma: no cover - only when running from a bare source tree
        return "0.0.0"


@dataclass(frozen=True, slots=True)
class UserAgent:
    contact: str
    product: str = "JobCtrl"
    version: str = ""

    def __post_init__(self) -> None:
        if not _PRODUCT.fullmatch(self.product) or _BROWSER_TOKENS.search(self.product):
            raise ConfigurationError(f"not an honest product token: {self.product!r}")
        if not _CONTACT.fullmatch(self.contact) or _BROWSER_TOKENS.search(self.contact):
            raise ConfigurationError("the User-Agent contact must be a URL or mailbox without spaces")

    @property
    def robots_token(self) -> str:
        """The name robots.txt ``User-agent:`` lines are matched against."""
        return self.product

    def header(self) -> str:
        return f"{self.product}/{self.version or package_version()} (+{self.contact})"
