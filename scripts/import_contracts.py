"""A custom import-linter contract type, `no_cycles`: no module imports a module that imports it back.

import-linter's own contracts check layers, independence and forbidden imports; its `acyclic_siblings`
looks at packages (a cycle between two sibling packages), not at modules. This one takes the graph
import-linter builds (every import: top-level, lazy ones inside functions, and with
`exclude_type_checking_imports` the `if TYPE_CHECKING:` ones left out) and fails on every strongly connected
component of more than one module inside `containers`: a set of modules each of which reaches every other
through imports, i.e. some import runs back up.

Options (pyproject.toml, `[[tool.importlinter.contracts]]` with `type = "no_cycles"`):

* `containers`: the packages whose modules are checked (cycles through modules outside them are not seen);
* `allowed` (optional): cycles tolerated for now, each written as its modules joined by ", " in sorted
  order (exactly as the contract prints them). An allowed cycle is reported on every run; once it is gone
  the contract fails until the entry is removed, so an exception never outlives its cycle.

Registered in pyproject.toml with `contract_types = ["no_cycles: scripts.import_contracts.NoCyclesContract"]`
(lint-imports puts the working directory, the repository root, on `sys.path`).
"""

from __future__ import annotations

from typing import Any

import grimp
from importlinter import Contract, ContractCheck, fields, output

MAX_EDGES_SHOWN = 12


def strongly_connected(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The strongly connected components of more than one module among `modules` (imports between them only),
    each sorted, largest first (Tarjan's algorithm, iterative)."""
    succ = {m: sorted(graph.find_modules_directly_imported_by(m) & modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for j in range(i, len(succ[node])):
                nxt = succ[node][j]
                if nxt not in index:
                    work.append((node, j + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found, key=lambda c: (-len(c), c))


class NoCyclesContract(Contract):
    type_name = "no_cycles"

    containers = fields.ListField(subfield=fields.StringField())
    allowed = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        containers: list[str] = list(self.containers)  # type: ignore[call-overload]
        allowed = {a.strip() for a in (self.allowed or [])}  # type: ignore[attr-defined]
        modules = {m for m in graph.modules if any(m == c or m.startswith(c + ".") for c in containers)}
        cycles = strongly_connected(graph, modules)
        names = [", ".join(c) for c in cycles]
        tolerated = [c for c, n in zip(cycles, names, strict=True) if n in allowed]
        broken = [c for c, n in zip(cycles, names, strict=True) if n not in allowed]
        stale = sorted(allowed - set(names))
        warnings = [f"allowed for now, still there: {', '.join(c)}" for c in tolerated]
        details = [self._describe(graph, c) for c in broken]
        return ContractCheck(kept=not broken and not stale, warnings=warnings,
                             metadata={"cycles": details, "stale": stale})

    @staticmethod
    def _describe(graph: grimp.ImportGraph, component: list[str]) -> dict[str, Any]:
        members = set(component)
        edges = []
        for importer in component:
            for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
                for detail in graph.get_import_details(importer=importer, imported=imported)[:1]:
                    edges.append(f"{importer} -> {imported} (l.{detail['line_number']}: "
                                 f"{detail['line_contents'].strip()})")
        return {"modules": component, "edges": edges}

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(f"Import cycle among {len(cycle['modules'])} modules: {', '.join(cycle['modules'])}")
            for edge in cycle["edges"][:MAX_EDGES_SHOWN]:
                output.print_error("  " + edge, bold=False)
            if len(cycle["edges"]) > MAX_EDGES_SHOWN:
                output.print_error(f"  ... and {len(cycle['edges']) - MAX_EDGES_SHOWN} more imports inside it",
                                   bold=False)
            output.new_line()
        for name in check.metadata["stale"]:
            output.print_error(f"Allowed cycle no longer exists (remove it from `allowed`): {name}")
            output.new_line()
