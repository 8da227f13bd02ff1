#!/usr/bin/env python3
# http-scripted.py SCENARIO [ARG]: a Streamable HTTP server of the 2025
# era for the faults of mcp-run's tests that no real server makes at
# will. It listens on 127.0.0.1, on $PORT (0: any free port), writes its
# base URL to $LLMKIT_LISTEN_FILE once it listens (what http-launch.sh
# waits for), and serves /mcp: server/discover is refused as a 2025
# server refuses it (-32601), initialize is answered (revision
# 2025-11-25, the tools capability, a session id), tools/list gives one
# tool, echo {text}, and tools/call of echo answers its text, unless the
# scenario says otherwise:
#   status CODE     every tools/call is answered HTTP CODE, text/plain
#                   body "scripted failure"
#   accepted        every tools/call is answered 202 with no body
#   cut             the answer to tools/call is an event stream that
#                   ends, with no event id, before the answer
#   expire          the first tools/call of session S1 is answered 404
#                   (the session has ended); the next initialize opens
#                   session S2, where calls are answered
#   big N           the answer's text is N bytes of "x"
#   endpoint URL    a server of the HTTP+SSE transport (2024-11-05): every
#                   POST to /mcp is 405, GET /mcp is an event stream whose
#                   endpoint event names URL
# Each request is written to standard error as "METHOD PATH RPC-METHOD
# session=ID".
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

scenario = sys.argv[1] if len(sys.argv) > 1 else "plain"
arg = sys.argv[2] if len(sys.argv) > 2 else ""
lock = threading.Lock()
state = {"sessions": 0, "expired": set()}

TOOL = {"name": "echo", "description": "Echoes its text",
        "inputSchema": {"type": "object",
                        "properties": {"text": {"type": "string"}}}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def say(self, method):
        sys.stderr.write("%s %s %s session=%s\n" % (
            self.command, self.path, method,
            self.headers.get("Mcp-Session-Id", "-")))
        sys.stderr.flush()

    def send(self, code, ctype, body, extra=None):
        data = body.encode()
        self.send_response(code)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def answer(self, msg, result=None, error=None, extra=None):
        out = {"jsonrpc": "2.0", "id": msg.get("id")}
        if error is not None:
            out["error"] = error
        else:
            out["result"] = result
        self.send(200, "application/json", json.dumps(out), extra)

    def do_GET(self):
        self.say("-")
        if scenario != "endpoint":
            self.send(405, None, "")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(("event: endpoint\ndata: %s\n\n" % arg).encode())
        self.wfile.flush()
        self.close_connection = True

    def do_DELETE(self):
        self.say("-")
        self.send(200, None, "")

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        msg = json.loads(self.rfile.read(n) or b"{}")
        method = msg.get("method", "-")
        self.say(method)
        sid = self.headers.get("Mcp-Session-Id")
        if scenario == "endpoint":
            self.send(405, None, "")
        elif "id" not in msg:
            self.send(202, None, "")
        elif method == "server/discover":
            self.answer(msg, error={"code": -32601,
                                    "message": "Method not found"})
        elif method == "initialize":
            with lock:
                state["sessions"] += 1
                sid = "S%d" % state["sessions"]
            self.answer(msg, {"protocolVersion": "2025-11-25",
                              "capabilities": {"tools": {}},
                              "serverInfo": {"name": "scripted",
                                             "version": "1"}},
                        extra={"Mcp-Session-Id": sid})
        elif method == "tools/list":
            self.answer(msg, {"tools": [TOOL]})
        elif method == "tools/call":
            self.call(msg, sid)
        else:
            self.answer(msg, error={"code": -32601,
                                    "message": "Method not found"})

    def call(self, msg, sid):
        text = msg.get("params", {}).get("arguments", {}).get("text", "")
        if scenario == "status":
            self.send(int(arg), "text/plain", "scripted failure")
        elif scenario == "accepted":
            self.send(202, None, "")
        elif scenario == "cut":
            body = ('data: {"jsonrpc":"2.0","method":'
                    '"notifications/message","params":{"level":"info",'
                    '"data":"working"}}\n\n')
            self.send(200, "text/event-stream", body)
        elif scenario == "expire" and sid == "S1":
            self.send(404, "text/plain", "no such session")
        elif scenario == "big":
            self.answer(msg, {"content": [{"type": "text",
                                           "text": "x" * int(arg)}]})
        else:
            self.answer(msg, {"content": [{"type": "text", "text": text}]})


def main():
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT",
                                                                 "0"))),
                                 Handler)
    server.daemon_threads = True
    where = os.environ.get("LLMKIT_LISTEN_FILE")
    if where:
        with open(where + ".tmp", "w") as f:
            f.write("http://127.0.0.1:%d" % server.server_address[1])
        os.rename(where + ".tmp", where)
    server.serve_forever()


main()
