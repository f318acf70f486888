"""Analysis of Jass play: the exact double-dummy solver (`solve`) and what `stich analyse` reports.

See docs/analysis.md.
"""

from .solver import ENGINES, Solution, SolveError, Value, c_available, clear_table, solve, solve_value

__all__ = ["ENGINES", "Solution", "SolveError", "Value", "c_available", "clear_table", "solve", "solve_value"]
