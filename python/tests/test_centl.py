"""The exact engine from Python: results are Fractions equal to values worked out by hand
here, and refusals raise CentlError with the protocol's code."""

from __future__ import annotations

from fractions import Fraction

import pytest

import centl
from centl import q


def test_convert_and_constant_are_exact():
    assert centl.convert(1, "km/h", "m/s") == centl.Quantity(Fraction(5, 18), "m/s")
    assert centl.convert("3/2", "h", "s").value == 5400
    g0 = centl.constant("g0")
    assert g0["quantity"].value == Fraction(196133, 20000) and g0["exact"] is True


def test_simulate_equals_symplectic_euler_by_hand():
    dt, steps = Fraction(1, 10), 10
    x, v, a = [Fraction(0), Fraction(0), Fraction(10)], [Fraction(1), Fraction(0), Fraction(0)], [0, 0, -10]
    for _ in range(steps):
        v = [vi + ai * dt for vi, ai in zip(v, a)]
        x = [xi + vi * dt for xi, vi in zip(x, v)]
    out = centl.simulate(
        particle=centl.particle("ball", 2, [0, 0, 10], [1, 0, 0]),
        forces=[{"kind": "gravity", "acceleration": q([0, 0, -10], "m/s^2")}],
        dt=q(dt, "s"),
        steps=steps,
    )
    p = out["particle"]
    assert p["position"].value == tuple(x) and p["velocity"].value == tuple(v)
    assert p["position"].value == (1, 0, Fraction(9, 2))


def test_collisions_contacts_and_certificates():
    m1, u1, m2, u2 = Fraction(1), Fraction(2), Fraction(3), Fraction(0)
    out = centl.elastic_collision_1d(m1, u1, m2, u2)
    text = repr(out)
    v1 = ((m1 - m2) * u1 + 2 * m2 * u2) / (m1 + m2)
    v2 = ((m2 - m1) * u2 + 2 * m1 * u1) / (m1 + m2)
    found = [x.value for x in _quantities(out)]
    assert v1 in found and v2 in found, text
    a = centl.sphere("a", 1, [0, 0, 0], [1, 0, 0], "1/2")
    b = centl.sphere("b", 1, [3, 0, 0], [0, 0, 0], "1/2")
    cert = centl.certify_linear_sphere_contact(a, b, 5)
    # |r + v t|² = R²: (3 − t)² = 1 → t = 2 first.
    assert cert["first_contact"]["time"].value == 2
    assert cert["status"] == "crossing_contact"
    contacts = centl.analyze_sphere_contacts([a, b])
    assert isinstance(contacts, dict)


def _quantities(value):
    if isinstance(value, centl.Quantity):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _quantities(v)
    elif isinstance(value, list):
        for v in value:
            yield from _quantities(v)


def test_refusals_carry_the_protocol_code():
    with pytest.raises(centl.CentlError) as e:
        centl.convert(1, "m", "s")
    assert e.value.code == "dimension_mismatch"
    assert e.value.path == "args.to"
    with pytest.raises(centl.CentlError) as e:
        centl.request("no_such_action")
    assert e.value.code == "unknown_action"
    with pytest.raises(TypeError):
        centl.convert(0.1, "m", "m")
