"""``python -m m2rag_bench``: the same as the ``m2rag-bench`` command."""

import sys

from m2rag_bench.cli import main

sys.exit(main())
