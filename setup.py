"""The optional C extension of stichkit: the fast Jass double-dummy solver.

Everything else is in pyproject.toml. `optional=True`: without a C compiler the package still
installs, and stichkit.analysis uses its Python solver instead (see docs/analysis.md).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "stichkit.analysis._dds",
            sources=["stichkit/analysis/_dds.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
