"""Analysis of Jass play: the exact double-dummy solver (`solve`) and what `stich analyse` reports.

See docs/analysis.md.
"""

from .solver import (
    ENGINES,
    Bounds,
    Solution,
    SolveError,
    Value,
    c_available,
    clear_table,
    solve,
    solve_bounds,
    solve_value,
)

__all__ = [
    "ENGINES",
    "Bounds",
    "Solution",
    "SolveError",
    "Value",
    "c_available",
    "clear_table",
    "solve",
    "solve_bounds",
    "solve_value",
]
