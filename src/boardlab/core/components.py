"""Loading component data files (JSON) with errors that name the file and the exact place.

Every game keeps its components in a data file with a `provenance` on each entry; users may load
their own file instead, so every field is checked and a bad file is refused with a located message.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import ComponentError

PROVENANCES = ("official", "seed", "reconstructed")


def load_json(path: str | Path) -> Any:
    """Read a JSON file (or TOML, by its suffix); a missing or malformed file raises ComponentError
    naming it and, where the parser says, the line and column."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ComponentError(f"{p}: cannot read the component file ({e.strerror})") from e
    if p.suffix.lower() == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ComponentError(f"{p}: not valid TOML ({e})") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ComponentError(f"{p}:{e.lineno}:{e.colno}: not valid JSON ({e.msg})") from e


def load_packaged(package: str, name: str) -> Any:
    """A data file shipped inside a game package."""
    return json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


class Checker:
    """Walks a loaded document, raising ComponentError('file: where: what') on the first problem."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, what: str) -> ComponentError:
        return ComponentError(f"{self.source}: {where}: {what}")

    def field(self, obj: Any, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
        if not isinstance(obj, dict):
            raise self.fail(where, f"expected an object, found {type(obj).__name__}")
        if key not in obj:
            raise self.fail(where, f"missing field {key!r}")
        value = obj[key]
        if isinstance(value, bool) and kind in (int, (int,)):
            raise self.fail(f"{where}.{key}", f"expected an integer, found {value!r}")
        if not isinstance(value, kind):
            want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(f"{where}.{key}", f"expected {want}, found {value!r}")
        return value

    def int_field(self, obj: Any, key: str, where: str, lo: int, hi: int) -> int:
        value = self.field(obj, key, where, int)
        if not lo <= value <= hi:
            raise self.fail(f"{where}.{key}", f"{value} is outside {lo}..{hi}")
        return int(value)

    def provenance(self, obj: Any, where: str) -> str:
        value = self.field(obj, "provenance", where, str)
        if value not in PROVENANCES:
            raise self.fail(f"{where}.provenance", f"must be one of {', '.join(PROVENANCES)}, not {value!r}")
        return str(value)

    def field_provenance(self, obj: Any, where: str, fields: set[str]) -> dict[str, str]:
        """The optional `field_provenance` of an entry: {field: provenance} for single fields whose
        provenance differs from the entry's (e.g. an official card whose colour is a guess)."""
        raw = obj.get("field_provenance", {}) if isinstance(obj, dict) else {}
        if not isinstance(raw, dict):
            raise self.fail(f"{where}.field_provenance", f"expected an object, found {raw!r}")
        for key, value in raw.items():
            if key not in fields:
                known = ", ".join(sorted(fields))
                raise self.fail(f"{where}.field_provenance", f"{key!r} is not a field (fields: {known})")
            if value not in PROVENANCES:
                raise self.fail(f"{where}.field_provenance.{key}",
                                f"must be one of {', '.join(PROVENANCES)}, not {value!r}")
        return dict(raw)

    def unique_ids(self, items: list[Any], where: str) -> list[str]:
        ids: list[str] = []
        for i, item in enumerate(items):
            ident = self.field(item, "id", f"{where}[{i}]", str)
            if ident in ids:
                raise self.fail(f"{where}[{i}].id", f"duplicate id {ident!r}")
            ids.append(ident)
        return ids
