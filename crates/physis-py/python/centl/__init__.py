"""The exact engine (centl-physics) from Python: unit conversion, exact constants, exact
simulation, sphere contacts and their certificates, with every exact number a
:class:`fractions.Fraction`.

Each function sends one request of the version-1 action table (docs/protocol.md) to the
same evaluator the JSON Lines server and the MCP tool use, so the semantics, limits and
error codes are the protocol's. Arguments take Fractions, ints or rational strings
(``"1/10"``), and quantities as :func:`q` (``q("1/10", "s")``) or ``{"value", "unit"}``.

>>> import centl
>>> centl.convert(1, "km/h", "m/s").value
Fraction(5, 18)
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, NamedTuple

from physis import _native

from ._errors import CentlError

__all__ = [
    "CentlError",
    "Quantity",
    "analyze_sphere_contacts",
    "certify_linear_sphere_contact",
    "constant",
    "convert",
    "diagnostics",
    "elastic_collision_1d",
    "elastic_collision_3d_at_contact",
    "evolve_linear_sphere_pair_through_contact",
    "evolve_sphere_world_events",
    "particle",
    "q",
    "request",
    "resolve_isolated_elastic_sphere_contacts",
    "simulate",
    "sphere",
]


class Quantity(NamedTuple):
    """An exact quantity: a Fraction (or a tuple of them for a vector) and its unit. A value
    in a quadratic field (``3/2 + 1/4·√7``) stays its exact text."""

    value: Any
    unit: str


def _wire(value: Any, exact: bool = False) -> Any:
    """Python values to the wire: Fractions, and ints inside quantities, as rational strings
    (other ints are counts, which the wire keeps as JSON integers)."""
    if isinstance(value, Quantity):
        return {"value": _wire(value.value, True), "unit": value.unit}
    if isinstance(value, bool):
        return value
    if isinstance(value, Fraction) or (exact and isinstance(value, int)):
        return str(value)
    if isinstance(value, float):
        raise TypeError(
            f"{value!r} is a float; the exact engine takes Fraction, int or a rational string"
        )
    if isinstance(value, dict):
        return {k: _wire(v, exact) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_wire(v, exact) for v in value]
    return value


def _exact(text: Any) -> Any:
    if isinstance(text, list):
        return tuple(_exact(t) for t in text)
    if isinstance(text, str):
        try:
            return Fraction(text)
        except ValueError:
            return text
    return text


def _python(value: Any) -> Any:
    """Wire results to Python: ``{"value", "unit"}`` as Quantity, rational strings as Fraction."""
    if isinstance(value, dict):
        if set(value) == {"value", "unit"}:
            return Quantity(_exact(value["value"]), value["unit"])
        return {k: _python(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_python(v) for v in value]
    return value


def request(action: str, **args: Any) -> Any:
    """Runs any protocol action; raises :class:`CentlError` with the protocol's code."""
    raw = _native.centl_request(action, json.dumps(_wire(args)))
    return _python(json.loads(raw))


def q(value: Any, unit: str) -> Quantity:
    """A quantity argument: ``q("1/10", "s")``, ``q([0, 0, 10], "m")``."""
    return Quantity(value, unit)


def particle(id: str, mass: Any, position: Any, velocity: Any) -> dict:
    """A particle: mass in kg, position in m and velocity in m/s (3 components each)
    unless given as :func:`q` with another unit."""

    def with_unit(v: Any, unit: str) -> Any:
        return v if isinstance(v, Quantity) else Quantity(v, unit)

    return {
        "id": id,
        "mass": with_unit(mass, "kg"),
        "position": with_unit(position, "m"),
        "velocity": with_unit(velocity, "m/s"),
    }


def sphere(id: str, mass: Any, position: Any, velocity: Any, radius: Any) -> dict:
    """A sphere: a particle with a radius (m unless given as :func:`q`)."""
    p = particle(id, mass, position, velocity)
    p["radius"] = radius if isinstance(radius, Quantity) else Quantity(radius, "m")
    return p


def convert(value: Any, from_unit: str, to_unit: str) -> Quantity:
    """``value`` in ``from_unit`` expressed exactly in ``to_unit``."""
    exact = _wire(value, True)
    return request("convert", value=exact, **{"from": from_unit, "to": to_unit})["quantity"]


def constant(name: str) -> dict:
    """An exact constant (``g0``, ``c``...): ``quantity``, ``name``, ``exact``, ``provenance``."""
    return request("constant", name=name)


def simulate(**args: Any) -> dict:
    """Exact symplectic-Euler simulation of a ``particle`` or a ``world`` under ``forces``
    (``dt``, ``steps``, optional ``stride``); see docs/protocol.md."""
    return request("simulate", **args)


def diagnostics(**args: Any) -> dict:
    """Energies and momenta of a particle or world (``potentials``, optional ``after``)."""
    return request("diagnostics", **args)


def elastic_collision_1d(m1: Any, u1: Any, m2: Any, u2: Any) -> dict:
    """Exact 1-D elastic collision; masses in kg and velocities in m/s unless quantities."""

    def with_unit(v: Any, unit: str) -> Any:
        return v if isinstance(v, Quantity) else Quantity(v, unit)

    return request(
        "elastic_collision_1d",
        m1=with_unit(m1, "kg"),
        u1=with_unit(u1, "m/s"),
        m2=with_unit(m2, "kg"),
        u2=with_unit(u2, "m/s"),
    )


def elastic_collision_3d_at_contact(first: dict, second: dict) -> dict:
    """Exact elastic collision of two particles in contact."""
    return request("elastic_collision_3d_at_contact", first=first, second=second)


def analyze_sphere_contacts(spheres: list[dict]) -> dict:
    """Exact contacts and overlaps among spheres."""
    return request("analyze_sphere_contacts", spheres=spheres)


def resolve_isolated_elastic_sphere_contacts(spheres: list[dict]) -> dict:
    """Resolves isolated elastic contacts among spheres."""
    return request("resolve_isolated_elastic_sphere_contacts", spheres=spheres)


def certify_linear_sphere_contact(first: dict, second: dict, duration: Any) -> dict:
    """A certificate: whether and when two spheres in linear motion touch within
    ``duration`` (s unless a quantity), exactly."""
    d = duration if isinstance(duration, Quantity) else Quantity(duration, "s")
    return request("certify_linear_sphere_contact", first=first, second=second, duration=d)


def evolve_linear_sphere_pair_through_contact(first: dict, second: dict, duration: Any) -> dict:
    """Two spheres in linear motion through their contact, exactly."""
    d = duration if isinstance(duration, Quantity) else Quantity(duration, "s")
    return request(
        "evolve_linear_sphere_pair_through_contact", first=first, second=second, duration=d
    )


def evolve_sphere_world_events(**args: Any) -> dict:
    """A sphere world advanced event by event (``spheres``, ``duration``, ...)."""
    return request("evolve_sphere_world_events", **args)
