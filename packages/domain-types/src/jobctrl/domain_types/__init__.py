"""The shared event language of JobCtrl.

``registry()`` assembles the canonical, ordered registry from every context's published ``events``
module; ``schemas`` generates (and checks) the language-neutral artefacts under
``packages/domain-types/src/events/``.
"""

from jobctrl.domain_types.registry import registry

__all__ = ["registry"]
