"""`python scripts/compile.py [build|clean|status]`: the native build of the hot engine modules
(see src/boardlab/_compiled.py). `build` never fails: without mypyc or a C compiler the package runs
from source."""

from boardlab._compiled import main

raise SystemExit(main())
