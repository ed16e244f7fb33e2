"""Drives `paw-client mcp` with the Python MCP SDK (a client no one at paw wrote).

Usage: mcp_client.py <paw-client> <socket>

Runs a fixed sequence of MCP requests and prints one JSON report of what the server
answered; the Rust test (tests/tests/it/mcp.rs) asserts on it.
"""

import asyncio

import anyio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def dump(obj):
    return obj.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main(client_bin, socket):
    params = StdioServerParameters(
        command=client_bin, args=["--socket", socket, "mcp", "--no-autostart"]
    )
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            report["initialize"] = dump(init)
            report["tools"] = dump(await session.list_tools())["tools"]
            report["prompts"] = dump(await session.list_prompts())["prompts"]
            report["prompt_irc"] = dump(
                await session.get_prompt("catch-up-irc", {"channel": "#paw"})
            )
            try:
                await session.get_prompt("extract-document", {})
                report["prompt_missing_arg"] = "rendered"
            except Exception as e:
                report["prompt_missing_arg"] = str(e)
            report["resources"] = dump(await session.list_resources())["resources"]
            skill = dump(await session.read_resource("paw://skills/rss"))
            report["skill_rss"] = skill["contents"][0]

            async def call(name, args, **kw):
                try:
                    return dump(await session.call_tool(name, args, **kw))
                except Exception as e:  # a protocol error: record it
                    return {"exception": str(e)}

            report["hello"] = await call("terminal_exec", {"command": "hello"})
            # A session with IRC messages waiting (set up by the test): an unrelated call
            # says so in its text block.
            report["irc_hello"] = await call(
                "terminal_exec", {"command": "hello", "session_id": "mcp-irc"}
            )
            report["unknown"] = await call("terminal_exec", {"command": "no-such-command --x"})
            report["bad_args"] = await call("terminal_exec", {"command": "hello", "bogus": 1})
            report["wrong_tool"] = await call("rm_rf", {"command": "hello"})
            report["session"] = await call(
                "terminal_exec", {"command": "test-echo", "stdin": "kept", "session_id": "mcp-s1"}
            )
            big = "".join(f"line {i:05}\n" for i in range(3000))
            report["big"] = await call("terminal_exec", {"command": "test-echo", "stdin": big})
            links = [c for c in report["big"].get("content", []) if c.get("type") == "resource_link"]
            if links:
                res = dump(await session.read_resource(links[0]["uri"]))
                report["big_resource"] = res["contents"][0]
            report["big_stdin_len"] = len(big)
            try:
                await session.read_resource("file:///etc/passwd")
                report["foreign_resource"] = "read"
            except Exception as e:
                report["foreign_resource"] = str(e)

            progress = []

            async def on_progress(done, total, message):
                progress.append({"done": done, "total": total, "message": message})

            report["news"] = await call(
                "terminal_exec", {"command": "rss news --limit 1"}, progress_callback=on_progress
            )
            report["progress"] = progress
            # Third-party text comes fenced.
            report["feed"] = await call("terminal_exec", {"command": "rss fetch --name m0"})

            # A call the host abandons is cancelled (notifications/cancelled).
            with anyio.move_on_after(1.0):
                await session.call_tool(
                    "terminal_exec", {"command": "test-sleep --ms 20000", "session_id": "mcp-c"}
                )
            report["abandoned"] = True
            # The bridge still serves calls after that.
            report["after_cancel"] = await call("terminal_exec", {"command": "hello"})
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
