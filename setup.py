"""The optional C extension of stichkit: the Jass rules core in C (stichkit.native._jass), with
the double-dummy solver, the ISMCTS search and the batched learning environment built on it.

Everything else is in pyproject.toml. `optional=True`: without a C compiler the package still
installs, and every user of the core falls back to Python with the same results (stichkit.native
says so once; see docs/benchmarks.md).
"""

from setuptools import Extension, setup

NATIVE = "stichkit/native/"

setup(
    ext_modules=[
        Extension(
            "stichkit.native._jass",
            sources=[NATIVE + f for f in ("module.c", "core.c", "solver.c", "batch.c", "ismcts.c")],
            depends=[NATIVE + "jass.h"],
            extra_compile_args=["-O3", "-pthread"],  # the solver can split a value over two threads
            extra_link_args=["-pthread"],
            optional=True,
        )
    ]
)
