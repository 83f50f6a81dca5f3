"""Code mode: a language model writes Python cells that run against the live browser.

(H1 owns this package's ``__init__``; H2 adds :class:`SensitiveData`.)
"""

from __future__ import annotations

from .secrets import SensitiveData

__all__ = ["SensitiveData"]
