"""python -m airlinecrm: the same as the `airlinecrm` command."""
import sys

from .cli import main

sys.exit(main())
