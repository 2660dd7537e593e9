"""Real-client test of `centl-physics --mcp` with the official Python `mcp` package.

Usage: python mcp_client.py PATH/TO/centl-physics
Lists the tool and calls it for a completed, a deferred and an erroneous request; exits non-zero
on the first mismatch. Prints a closing `N passed, 0 failed` line.
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


def sphere(ident, x, v, r):
    return {
        "id": ident,
        "mass": {"value": "1", "unit": "kg"},
        "position": {"value": x, "unit": "m"},
        "velocity": {"value": v, "unit": "m/s"},
        "radius": {"value": r, "unit": "m"},
    }


def pair(duration):
    return {
        "first": sphere("a", ["0", "0", "0"], ["1", "0", "0"], "1/2"),
        "second": sphere("b", ["3", "0", "0"], ["0", "0", "0"], "1/2"),
        "duration": {"value": duration, "unit": "s"},
    }


def structured(result):
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def main(binary):
    passed = 0
    params = StdioServerParameters(command=binary, args=["--mcp"])
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["centl_physics"], tools
        tool = tools[0]
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.idempotent_hint is True
        passed += 1

        # Completed: rational first contact at t = 2 s, f(t) = (t - 2)(t - 4).
        r = await client.call_tool("centl_physics", {"action": "certify_linear_sphere_contact", "args": pair("5")})
        assert not r.is_error, r
        s = structured(r)
        assert s["ok"] is True and s["result"]["status"] == "crossing_contact", s
        assert s["result"]["first_contact"] == {"kind": "rational", "time": {"value": "2", "unit": "s"}}, s
        passed += 1

        # Deferred: b touches both a and c; a successful verdict with the world unchanged.
        spheres = [
            sphere("a", ["0", "0", "0"], ["1", "0", "0"], "1/2"),
            sphere("b", ["1", "0", "0"], ["0", "0", "0"], "1/2"),
            sphere("c", ["2", "0", "0"], ["0", "0", "0"], "1/2"),
        ]
        r = await client.call_tool(
            "centl_physics", {"action": "resolve_isolated_elastic_sphere_contacts", "args": {"spheres": spheres}}
        )
        assert not r.is_error, r
        s = structured(r)["result"]
        assert s["status"] == "deferred" and s["reason"] == "ambiguous_simultaneous_contacts", s
        assert [x["velocity"]["value"] for x in s["spheres"]] == [x["velocity"]["value"] for x in spheres]
        passed += 1

        # Erroneous: an unknown argument is a tool error carrying the protocol code.
        bad = pair("5")
        bad["restitution"] = "1"
        r = await client.call_tool("centl_physics", {"action": "certify_linear_sphere_contact", "args": bad})
        assert r.is_error, r
        s = structured(r)
        assert s["ok"] is False and s["error"]["code"] == "unknown_argument", s
        passed += 1

    print(f"mcp client: {passed} passed, 0 failed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
