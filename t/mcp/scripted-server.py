#!/usr/bin/env python3
# scripted-server.py [--log FILE] [--linger] [--slow-probe]: an MCP
# server over stdio of
# the 2026-07-28 revision whose tools misbehave on request, for the tests
# of how mcp-run survives its servers: ends, orphans, endless lines. It
# reads its input a byte at a time, so that what it has not read of it is
# still in the pipe when it ends, as a server that reads one line at a
# time leaves it.
#
# --log FILE appends "start PID" when it starts and each line it reads;
# --linger sleeps 300 s at the end of its input rather than ending.
# --slow-probe holds its answer to the first server/discover until the
# next request comes, as a server slow to start answers late; it then
# refuses an initialize with error -32022, naming 2026-07-28 the one
# revision it speaks, as the SDKs of that revision do.
# --late-probe holds it the same way, but refuses the initialize before
# it sends the held answer.
# --caps JSON declares the capabilities JSON in its answer to
# server/discover (by default {"tools": {}}).
# --tools JSON answers tools/list with the array JSON of tools (by
# default it knows no tools/list).
#
# Tools (their arguments in braces, all optional):
#   echo {text}            text: the text
#   exit {status, answer}  with answer, text "bye" first; then exits with
#                          status (default 0)
#   orphan {status, pidfile, answer, setsid, note}  starts a child that
#                          sleeps 300 s holding this server's standard
#                          output (its pid in pidfile), in a session of its
#                          own with setsid; writes note (a line) on stderr
#                          and, with answer, text "bye"; then exits with
#                          status (default 0)
#   big {bytes, char}      text: bytes times char (default "x")
#   endless {bytes}        writes bytes "x"s and no newline, then sleeps
#                          300 s
#   stderr {bytes, char, newline}  writes bytes times char (default "e")
#                          on its standard error, then a newline with
#                          newline; text "written"
#   log {bytes}            a log message (notifications/message, level
#                          "info") whose data is bytes "l"s; text "logged"
#   wait {path}            waits until path exists; text "waited"
#   noise {lines, text}    writes lines (default 1) lines of text
#                          (default "not JSON-RPC") on its standard output,
#                          then text "after noise"
import json
import os
import subprocess
import sys
import time

LOG = None
LINGER = False
SLOW_PROBE = False
LATE_PROBE = False
CAPS = {"tools": {}}
TOOLS = None
args = sys.argv[1:]
while args:
    if args[0] == "--log":
        LOG = args[1]
        args = args[2:]
    elif args[0] == "--linger":
        LINGER = True
        args = args[1:]
    elif args[0] == "--slow-probe":
        SLOW_PROBE = True
        args = args[1:]
    elif args[0] == "--late-probe":
        SLOW_PROBE = LATE_PROBE = True
        args = args[1:]
    elif args[0] == "--caps":
        CAPS = json.loads(args[1])
        args = args[2:]
    elif args[0] == "--tools":
        TOOLS = json.loads(args[1])
        args = args[2:]
    else:
        sys.exit("scripted-server: unknown argument " + args[0])


def log(text):
    if LOG is not None:
        with open(LOG, "a") as f:
            f.write(text + "\n")


def read_line():
    """A line of the input, a byte at a time; None at its end."""
    line = bytearray()
    while True:
        b = os.read(0, 1)
        if not b:
            return bytes(line) if line else None
        if b == b"\n":
            return bytes(line)
        line += b


def send(obj):
    data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
    while data:
        data = data[os.write(1, data):]


def text(rid, t):
    send({"jsonrpc": "2.0", "id": rid,
          "result": {"content": [{"type": "text", "text": t}]}})


def call(rid, name, a):
    if name == "echo":
        text(rid, a.get("text", ""))
    elif name == "exit":
        if a.get("answer"):
            text(rid, "bye")
        os._exit(a.get("status", 0))
    elif name == "orphan":
        child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL,
                                 start_new_session=bool(a.get("setsid")))
        if "pidfile" in a:
            with open(a["pidfile"], "w") as f:
                f.write("%d\n" % child.pid)
        if "note" in a:
            os.write(2, (a["note"] + "\n").encode())
        if a.get("answer"):
            text(rid, "bye")
        os._exit(a.get("status", 0))
    elif name == "big":
        text(rid, a.get("char", "x") * a.get("bytes", 0))
    elif name == "endless":
        data = b"x" * a.get("bytes", 0)
        while data:
            data = data[os.write(1, data):]
        time.sleep(300)
    elif name == "stderr":
        data = (a.get("char", "e") * a.get("bytes", 0)).encode()
        if a.get("newline"):
            data += b"\n"
        while data:
            data = data[os.write(2, data):]
        text(rid, "written")
    elif name == "log":
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": "info", "data": "l" * a.get("bytes", 0)}})
        text(rid, "logged")
    elif name == "wait":
        while not os.path.exists(a["path"]):
            time.sleep(0.05)
        text(rid, "waited")
    elif name == "noise":
        data = ((a.get("text", "not JSON-RPC") + "\n") *
                a.get("lines", 1)).encode()
        while data:
            data = data[os.write(1, data):]
        text(rid, "after noise")
    else:
        send({"jsonrpc": "2.0", "id": rid,
              "error": {"code": -32602, "message": "no tool " + name}})


log("start %d" % os.getpid())
held = None
probed = False
while True:
    line = read_line()
    if line is None:
        break
    log(line.decode())
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
    if held is not None and not (LATE_PROBE and
                                 msg["method"] == "initialize"):
        send(held)
        held = None
    if msg["method"] == "server/discover":
        answer = {"jsonrpc": "2.0", "id": msg["id"],
                  "result": {"supportedVersions": ["2026-07-28"],
                             "capabilities": CAPS}}
        if SLOW_PROBE and not probed:
            held = answer
        else:
            send(answer)
        probed = True
    elif msg["method"] == "initialize" and SLOW_PROBE:
        send({"jsonrpc": "2.0", "id": msg["id"],
              "error": {"code": -32022,
                        "message": "Unsupported protocol version",
                        "data": {"supported": ["2026-07-28"]}}})
        if held is not None:
            send(held)
            held = None
    elif msg["method"] == "tools/list" and TOOLS is not None:
        send({"jsonrpc": "2.0", "id": msg["id"],
              "result": {"tools": TOOLS}})
    elif msg["method"] == "tools/call":
        p = msg["params"]
        call(msg["id"], p["name"], p.get("arguments") or {})
    else:
        send({"jsonrpc": "2.0", "id": msg["id"],
              "error": {"code": -32601, "message": "Method not found"}})
if LINGER:
    time.sleep(300)
