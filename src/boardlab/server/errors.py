"""The refusals the server answers with: an HTTP status and a stable error code the UI translates."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal with an HTTP status and a stable error code (the UI translates the code)."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "detail": self.detail}
