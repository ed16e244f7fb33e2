"""Plays an MCP host in raw JSON-RPC over `paw-client mcp`'s stdio, for what the Python
SDK has no client API for: the skills extension, and the 2026-07-28 confirmation flow
(an `input_required` result the host answers by retrying the call).

Usage: mcp_raw.py skills <paw-client> <socket>
       mcp_raw.py confirm <paw-client> <socket>

Prints one JSON report of what the server answered; tests/tests/it/mcp.rs asserts on it.
"""

import hashlib
import json
import subprocess
import sys

PV = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": PV,
    "io.modelcontextprotocol/clientInfo": {"name": "raw-host", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
}


class Host:
    def __init__(self, client_bin, socket):
        self.p = subprocess.Popen(
            [client_bin, "--socket", socket, "mcp", "--no-autostart"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.next_id = 0

    def request(self, method, params=None, inline=False):
        """Sends one request and returns its response, skipping notifications."""
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        params = dict(params or {})
        if inline:
            params["_meta"] = dict(META)
        if params:
            msg["params"] = params
        self.p.stdin.write((json.dumps(msg) + "\n").encode())
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed stdout during {method}")
            m = json.loads(line)
            if m.get("id") == self.next_id and "method" not in m:
                return m
            if "method" in m and "id" in m:
                # A server-to-client request: a 2026-07-28 server must not send one.
                raise RuntimeError(f"unexpected server request {m['method']}")

    def notify(self, method):
        self.p.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
        self.p.stdin.flush()

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


def skills(client_bin, socket):
    """A host on the session protocol that speaks the skills extension."""
    h = Host(client_bin, socket)
    report = {}
    init = h.request(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw-host", "version": "1"},
        },
    )
    report["initialize"] = init
    h.notify("notifications/initialized")
    listed = h.request("skills/list")
    report["list"] = listed
    report["get"] = {}
    report["read"] = {}
    for s in listed.get("result", {}).get("skills", []):
        report["get"][s["uri"]] = h.request("skills/get", {"uri": s["uri"]})
        read = h.request("resources/read", {"uri": s["uri"]})
        report["read"][s["uri"]] = read
        # What a host checks before loading the skill: the bytes against the manifest.
        text = read.get("result", {}).get("contents", [{}])[0].get("text", "")
        report.setdefault("digest", {})[s["uri"]] = (
            "sha256:" + hashlib.sha256(text.encode()).hexdigest()
        )
    report["get_unknown"] = h.request("skills/get", {"uri": "skill://nope/SKILL.md"})
    report["resources"] = h.request("resources/list")
    h.close()
    return report


def call(h, command, session, retry=None):
    params = {"name": "terminal_exec", "arguments": {"command": command, "session_id": session}}
    if retry:
        params.update(retry)
    return h.request("tools/call", params, inline=True)


def answer(first, key_answer):
    """The retry a host sends after showing the question: the state echoed, the form's answer."""
    r = first["result"]
    (key,) = r["inputRequests"].keys()
    return {"requestState": r["requestState"], "inputResponses": {key: key_answer}}


ALLOW = {"action": "accept", "content": {"allow": True}}
DECLINE = {"action": "decline"}


def confirm(client_bin, socket):
    """A host that negotiated 2026-07-28 (no `initialize`: every request carries its
    `_meta`), whose person answers the questions the server puts in `input_required`."""
    h = Host(client_bin, socket)
    report = {}
    report["discover"] = h.request("server/discover", inline=True)
    report["tools"] = h.request("tools/list", inline=True)
    # Accepted: asked, then run on the retry.
    first = call(h, "rss remove --name m1", "raw")
    report["accept_first"] = first
    report["accept_retry"] = call(h, "rss remove --name m1", "raw", answer(first, ALLOW))
    # The same answer replayed: the nonce was used.
    report["replayed"] = call(h, "rss remove --name m2", "raw", answer(first, ALLOW))
    # Declined: not run.
    first = call(h, "rss remove --name m2", "raw")
    report["decline_retry"] = call(h, "rss remove --name m2", "raw", answer(first, DECLINE))
    # A state the server never issued, as a model could write one.
    report["forged"] = call(
        h,
        "rss remove --name m2",
        "raw",
        {"requestState": "0" * 43, "inputResponses": {"confirm": ALLOW}},
    )
    # A real nonce for m2, retried with another command line or another session.
    first = call(h, "rss remove --name m2", "raw")
    report["other_command"] = call(h, "rss remove --name m3", "raw", answer(first, ALLOW))
    first = call(h, "rss remove --name m2", "raw")
    report["other_session"] = call(h, "rss remove --name m2", "other", answer(first, ALLOW))
    # A real nonce with an answer that is not the form's: not run.
    first = call(h, "rss remove --name m2", "raw")
    report["no_answer"] = call(
        h, "rss remove --name m2", "raw", {"requestState": first["result"]["requestState"]}
    )
    first = call(h, "rss remove --name m2", "raw")
    report["accept_without_allow"] = call(
        h, "rss remove --name m2", "raw", answer(first, {"action": "accept", "content": {}})
    )
    # --confirm written by the model is refused, as on older hosts.
    report["self_confirmed"] = call(h, "rss remove --name m2 --confirm", "raw")
    # Unconfirmed commands run at once.
    report["list_after"] = call(h, "rss list", "raw")
    h.close()
    return report


if __name__ == "__main__":
    mode, client_bin, socket = sys.argv[1:4]
    out = {"skills": skills, "confirm": confirm}[mode](client_bin, socket)
    print(json.dumps(out))
