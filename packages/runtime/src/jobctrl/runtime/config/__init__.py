"""The user's configuration: ``$JOBCTRL_HOME/config.toml``, environment overrides, typed defaults.

``load_config()`` is the one way in; ``describe()`` says where each value came from.  The ``[search]``
section becomes ``jobctrl.discovery.domain.search.SearchFilters`` (``config.search.filters()``).
"""

from jobctrl.runtime.config.load import Entry, InvalidConfiguration, Problem, describe, load_config
from jobctrl.runtime.config.model import (
    ENV_KEYS,
    ApplyConfig,
    JobctrlConfig,
    LlmConfig,
    MaterialsConfig,
    SearchConfig,
    config_path,
)
from jobctrl.runtime.config.template import TEMPLATE

__all__ = [
    "ENV_KEYS",
    "TEMPLATE",
    "ApplyConfig",
    "Entry",
    "InvalidConfiguration",
    "JobctrlConfig",
    "LlmConfig",
    "MaterialsConfig",
    "Problem",
    "SearchConfig",
    "config_path",
    "describe",
    "load_config",
]
