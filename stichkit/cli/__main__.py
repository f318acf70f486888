"""`python -m stichkit.cli`: the `stich` command, for when it is not on PATH."""

import sys

from .main import main

sys.exit(main())
