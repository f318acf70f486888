"""Seat tokens: long random secrets, of which the server keeps only a hash bound to the table.

A token carries 256 random bits, so a plain SHA-256 cannot be reversed or guessed; a slow
password hash would only slow every connection down. The table id is hashed in, so the same
token presented at another table matches nothing there.
"""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def clean_token(raw: str) -> str:
    """A token as presented, on every path (the WebSocket's subprotocol or query, the HTTP bearer):
    whitespace around it is dropped (a token pasted with a space still works), nothing else."""
    return raw.strip()


def hash_token(table_id: str, token: str) -> str:
    return hashlib.sha256(f"stichkit-seat:{table_id}:{token}".encode()).hexdigest()


def new_table_id() -> str:
    """12 URL-safe characters (72 random bits): a private table's id is its invite link."""
    return secrets.token_urlsafe(9)
