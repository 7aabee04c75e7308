"""Variant options: frozen dataclasses whose fields carry their own documentation.

Each game declares its options with :func:`option`; :func:`build_options` validates a mapping
(from a record or the command line) against them, and :func:`describe_options` lists them for
``bonepile rules GAME``, so the docs are generated from the code and cannot drift.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bonepile.errors import OptionError, quoted, shown

T = TypeVar("T")


MAX_INT = 10**9
"""No integer option may exceed this (it keeps every message and product small)."""

MAX_VALUE_TEXT = 10_000
"""The longest option value text read from the command line (JSON included)."""


def _short(value: Any) -> str:
    return shown(value, 40)


class IntMap(Mapping[str, int]):
    """An immutable, hashable mapping of names to integers (an ``int_map`` option's value).

    Options objects are frozen all the way down: this replaces a ``dict``, compares equal to
    a ``dict`` with the same items, pickles, and turns back into a ``dict`` for JSON.
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, int] | None = None) -> None:
        self._items: tuple[tuple[str, int], ...] = tuple(sorted((items or {}).items()))

    def __getitem__(self, key: str) -> int:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IntMap):
            return self._items == other._items
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        return f"IntMap({dict(self._items)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (IntMap, (dict(self._items),))


def _jsonable(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value


@dataclass(frozen=True)
class OptionSpec:
    """What one option is: its kind, default, alternatives, range and meaning."""

    name: str
    kind: str  # "bool", "int", "optional_int", "choice", "int_map"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    allowed: tuple[int, ...] = ()
    keys: tuple[str, ...] = ()

    def type_name(self) -> str:
        """A short human name of the type, for ``bonepile rules``."""
        return {
            "bool": "bool",
            "int": "int",
            "optional_int": "int or null",
            "choice": "choice",
            "int_map": "object of ints",
        }[self.kind]

    def alternatives(self) -> str:
        """The values other than the default, as text."""
        if self.kind == "bool":
            return str(not self.default).lower()
        if self.kind == "choice":
            return ", ".join(c for c in self.choices if c != self.default)
        if self.allowed:
            return ", ".join(str(a) for a in self.allowed if a != self.default)
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        rng = f"{lo}..{hi}" if (lo or hi) else "any"
        if self.kind == "optional_int":
            return f"null or {rng}" if self.default is not None else f"an integer {rng}"
        if self.kind == "int_map":
            return f"values {rng} for keys {', '.join(self.keys)}"
        return rng

    def format_value(self, value: Any) -> str:
        """A value as written in records and on the command line."""
        return json.dumps(_jsonable(value))

    def validate(self, value: Any) -> Any:
        """Return ``value`` checked (and normalised), or raise :class:`OptionError`."""
        n = self.name
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise OptionError(f"option {n} must be true or false, got {_short(value)}")
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise OptionError(
                f"option {n} must be one of {', '.join(self.choices)}, got {_short(value)}"
            )
        if self.kind == "optional_int" and value is None:
            return None
        if self.kind in ("int", "optional_int"):
            return self._check_int(n, value)
        if self.kind == "int_map":
            if not isinstance(value, Mapping):
                raise OptionError(
                    f"option {n} must be an object like {json.dumps(_jsonable(self.default))}"
                )
            merged = dict(self.default)
            for k, v in value.items():
                if str(k) not in self.keys:
                    raise OptionError(
                        f"option {n} has unknown key {_short(k)} (keys: {', '.join(self.keys)})"
                    )
                merged[str(k)] = self._check_int(f"{n}[{k}]", v)
            return IntMap(merged)
        raise AssertionError(self.kind)

    def _check_int(self, n: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option {n} must be an integer, got {_short(value)}")
        if abs(value) > MAX_INT:
            raise OptionError(f"option {n} is out of range (at most {MAX_INT})")
        if self.allowed and value not in self.allowed:
            allowed = ", ".join(str(a) for a in self.allowed)
            raise OptionError(f"option {n} must be one of {allowed}, got {value}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {n} must be at least {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {n} must be at most {self.maximum}, got {value}")
        return value

    def parse_text(self, text: str) -> Any:
        """Parse a command-line value (``true``, ``3``, ``none``, a choice or JSON).

        Text that is not JSON stays text (which :meth:`validate` then refuses where it does
        not fit); a number too long to be a value or JSON nested too deeply is an
        :class:`OptionError` at once.
        """
        t = text.strip()
        if self.kind == "choice":
            return t
        low = t.lower()
        if low in ("true", "yes", "on"):
            return True
        if low in ("false", "no", "off"):
            return False
        if low in ("none", "null"):
            return None
        if len(t) > MAX_VALUE_TEXT:
            raise OptionError(
                f"option {self.name}: the value is too long ({len(t):,} characters; "
                f"at most {MAX_VALUE_TEXT:,})"
            )
        try:
            return json.loads(t)
        except json.JSONDecodeError:
            return t
        except RecursionError:
            raise OptionError(f"option {self.name}: the value is nested too deeply") from None
        except ValueError:  # an integer of more than 4300 digits
            raise OptionError(
                f"option {self.name} is out of range (at most {MAX_INT}), got {quoted(t, 20)}"
            ) from None


def option(
    default: Any,
    help: str,
    *,
    choices: tuple[str, ...] = (),
    minimum: int | None = None,
    maximum: int | None = None,
    allowed: tuple[int, ...] = (),
    keys: tuple[str, ...] = (),
    nullable: bool = False,
) -> Any:
    """Declare an option field of an options dataclass (see the games for examples).

    The kind follows the default; ``nullable=True`` makes an integer option accept ``null``.
    """
    if isinstance(default, bool):
        kind = "bool"
    elif choices:
        kind = "choice"
    elif isinstance(default, Mapping):
        kind = "int_map"
    elif default is None or nullable:
        kind = "optional_int"
    else:
        kind = "int"
    meta = {
        "kind": kind,
        "help": help,
        "choices": choices,
        "minimum": minimum,
        "maximum": maximum,
        "allowed": allowed,
        "keys": keys,
    }
    if isinstance(default, Mapping):
        default = IntMap(default)
    return field(default=default, metadata=meta)


def option_specs(cls: type) -> tuple[OptionSpec, ...]:
    """The :class:`OptionSpec` of every field of an options dataclass, in declaration order."""
    return _option_specs(cls)


@functools.cache
def _option_specs(cls: Any) -> tuple[OptionSpec, ...]:
    specs = []
    for f in dataclasses.fields(cls):
        m = f.metadata
        if f.default is not dataclasses.MISSING:
            default = f.default
        else:
            factory: Any = f.default_factory
            default = factory()
        specs.append(
            OptionSpec(
                name=f.name,
                kind=m["kind"],
                default=default,
                help=m["help"],
                choices=m["choices"],
                minimum=m["minimum"],
                maximum=m["maximum"],
                allowed=m["allowed"],
                keys=m["keys"],
            )
        )
    return tuple(specs)


_DEFAULTS: dict[type, Any] = {}
"""Each options class's default options object, made once."""


def build_options(cls: type[T], values: Mapping[str, Any] | None, game: str) -> T:
    """Validate ``values`` against the options of ``cls``; missing options take the default."""
    if values is None:  # the defaults: one shared object a class (options are immutable)
        made = _DEFAULTS.get(cls)
        if made is None:
            made = _DEFAULTS[cls] = cls()
        return made
    if not isinstance(values, Mapping):
        raise OptionError(f"options must be an object of name: value, got {_short(values)}")
    specs = {s.name: s for s in option_specs(cls)}
    checked: dict[str, Any] = {}
    for name, value in values.items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(sorted(specs))
            raise OptionError(f"{game} has no option {quoted(name)} (options: {known})")
        checked[name] = spec.validate(value)
    return cls(**checked)


def reduce_options(opts: Any) -> tuple[Any, ...]:
    """``__reduce__`` of an options object: its class and its field values (a frozen
    dataclass compiled with mypyc cannot be unpickled field by field)."""
    return (type(opts), tuple(getattr(opts, f.name) for f in dataclasses.fields(opts)))


def options_to_json(opts: Any) -> dict[str, Any]:
    """Every option of ``opts`` as a JSON-ready dict."""
    return {f.name: _jsonable(getattr(opts, f.name)) for f in dataclasses.fields(opts)}


def non_default_options(opts: Any) -> dict[str, Any]:
    """Only the options of ``opts`` that differ from their defaults (for compact records)."""
    out = {}
    for spec in option_specs(type(opts)):
        v = getattr(opts, spec.name)
        if v != spec.default:
            out[spec.name] = _jsonable(v)
    return out


def parse_option_assignments(cls: type, items: list[str], game: str) -> dict[str, Any]:
    """Parse command-line ``name=value`` strings into a (still unvalidated) mapping."""
    specs = {s.name: s for s in option_specs(cls)}
    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise OptionError(f"--option expects name=value, got {quoted(item)}")
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(sorted(specs))
            raise OptionError(f"{game} has no option {quoted(name)} (options: {known})")
        out[name] = spec.parse_text(text)
    return out
