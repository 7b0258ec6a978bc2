"""``python -m yaniv.cli``: the same as the ``yaniv`` command."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
