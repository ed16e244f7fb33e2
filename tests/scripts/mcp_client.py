"""Drives `paw-client mcp` with the Python MCP SDK (a client no one at paw wrote).

Usage: mcp_client.py <paw-client> <socket> <small-budget-config>
       mcp_client.py --http <url> <token>
       mcp_client.py --measure <paw-client> <socket> <call>...

Runs a fixed sequence of MCP requests and prints one JSON report of what the server
answered; the Rust test (tests/tests/it/mcp.rs) asserts on it. The first session is a
host whose person answers elicitations (a scripted queue of answers); the second, with a
small `[mcp] max_output_bytes`, cannot ask anyone.
"""

import asyncio

import anyio
import json
import sys

import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp import types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def dump(obj):
    return obj.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main(client_bin, socket, small_config):
    params = StdioServerParameters(
        command=client_bin, args=["--socket", socket, "mcp", "--no-autostart"]
    )
    report = {}
    # The person's answers, in order, and the questions they were shown.
    answers = []
    asked = []

    async def person(context, p):
        asked.append(p.message)
        if not answers:
            return types.ElicitResult(action="cancel")
        return answers.pop(0)

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=person) as session:
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

            # Irreversible calls: the person is asked, and only their answer counts.
            report["tools_asking"] = dump(await session.list_tools())["tools"]
            answers.append(types.ElicitResult(action="accept", content={"allow": True}))
            report["remove_allowed"] = await call("terminal_exec", {"command": "rss remove --name m2"})
            answers.append(types.ElicitResult(action="decline"))
            report["remove_declined"] = await call("terminal_exec", {"command": "rss \"remove\" --name m1"})
            report["remove_self_confirmed"] = await call(
                "terminal_exec", {"command": "rss remove --name m1 --con\"\"firm"}
            )
            # irc send to the default channel needs no one; to a nick the daemon asks for
            # confirmation, which the person gives.
            report["send_channel"] = await call(
                "terminal_exec", {"command": "irc send --text hello-channel", "session_id": "mcp-irc"}
            )
            answers.append(types.ElicitResult(action="accept", content={"allow": True}))
            report["send_nick"] = await call(
                "terminal_exec", {"command": "irc send --to alice --text hello-alice", "session_id": "mcp-irc"}
            )
            report["asked"] = list(asked)
            report["list_after"] = await call("terminal_exec", {"command": "rss list"})

    # A host that cannot ask (no elicitation), with a small output budget.
    params = StdioServerParameters(
        command=client_bin,
        args=["--socket", socket, "--config", small_config, "mcp", "--no-autostart"],
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            report["tools_unasked"] = dump(await session.list_tools())["tools"]
            r = dump(await session.call_tool("terminal_exec", {"command": "rss fetch --name long --max-items 200", "session_id": "mcp-irc"}))
            report["small_long"] = r
            links = [c for c in r.get("content", []) if c.get("type") == "resource_link"]
            pages = []
            for l in links:
                if "/stdout?offset=" in l["uri"]:
                    uri = l["uri"]
                    for _ in range(50):
                        page = dump(await session.read_resource(uri))["contents"][0]["text"]
                        pages.append(page)
                        nxt = [x for x in page.splitlines() if x.startswith("[paw: more: resource ")]
                        if not nxt:
                            break
                        uri = nxt[0][len("[paw: more: resource "):-1]
            report["small_pages"] = pages
            outcome_links = [l["uri"] for l in links if l["uri"].startswith("paw://runs/") and "/stdout" not in l["uri"]]
            if outcome_links:
                full = dump(await session.read_resource(outcome_links[0]))["contents"][0]
                report["small_outcome"] = json.loads(full["text"])
            report["unasked_send"] = dump(await session.call_tool(
                "terminal_exec", {"command": "irc send --to alice --text no-one-asked", "session_id": "mcp-irc"}
            ))
    print(json.dumps(report))


async def over_http(url, token):
    """The bridge on streamable HTTP: the SDK's own HTTP client, with and without the token."""
    report = {}
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with streamable_http_client(url, http_client=http) as (read, write, *_):
            async with ClientSession(read, write) as session:
                report["initialize"] = dump(await session.initialize())
                report["tools"] = dump(await session.list_tools())["tools"]
                report["hello"] = dump(await session.call_tool("terminal_exec", {"command": "hello"}))
    try:
        async with httpx2.AsyncClient(timeout=30) as http:
            async with streamable_http_client(url, http_client=http) as (read, write, *_):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    report["no_token"] = "served"
    except BaseException as e:  # the SDK raises an exception group
        report["no_token"] = repr(e)
    print(json.dumps(report))


async def measure(client_bin, socket, calls):
    """Sizes of the text block and of structuredContent for each call (docs/benchmarks.md)."""
    params = StdioServerParameters(command=client_bin, args=["--socket", socket, "mcp", "--no-autostart"])
    rows = []
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for c in calls:
                r = dump(await session.call_tool("terminal_exec", {"command": c, "session_id": "measure"}))
                text = "".join(x["text"] for x in r["content"] if x["type"] == "text")
                sc = json.dumps(r["structuredContent"], ensure_ascii=False, separators=(",", ":"))
                # The full outcome: what structuredContent held before it was made lean.
                run = [x["uri"] for x in r["content"] if x.get("type") == "resource_link" and x["uri"].startswith("paw://runs/")]
                full = json.loads(dump(await session.read_resource(run[0]))["contents"][0]["text"])
                full_bytes = len(json.dumps(full, ensure_ascii=False, separators=(",", ":")).encode())
                rows.append({"command": c, "text_chars": len(text), "text_bytes": len(text.encode()),
                             "structured_bytes": len(sc.encode()), "full_outcome_bytes": full_bytes,
                             "is_error": r.get("isError")})
    print(json.dumps(rows))


if __name__ == "__main__":
    if sys.argv[1] == "--http":
        asyncio.run(over_http(sys.argv[2], sys.argv[3]))
    elif sys.argv[1] == "--measure":
        asyncio.run(measure(sys.argv[2], sys.argv[3], sys.argv[4:]))
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
