"""``python -m agentbrowser.code agent "task" ...`` and ``python -m agentbrowser.code notebook replay out.ipynb``."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
