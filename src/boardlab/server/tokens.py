"""Seat tokens: the secret a seat is played with (only its hash is stored), and rematch tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def rematch_token(old_token: str, new_table: str) -> str:
    """A seat's token at the rematch table, derived from its old token: only its holder can make
    it, and asking twice (two tabs) gives the same token, so nothing has to be stored in clear."""
    mac = hmac.new(old_token.encode(), f"rematch:{new_table}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
