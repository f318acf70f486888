"""The server's routes, one module per concern (FastAPI's "bigger applications" layout)."""
