#!/usr/bin/env python3
# pty-run.py ANSWERS COMMAND [ARG ...]: runs COMMAND with a pseudo-terminal
# as its controlling terminal (and as its standard input, output and
# error, unless COMMAND redirects them: run it through sh -c for that),
# types the lines of the file ANSWERS into the terminal, and writes all
# the terminal showed (its echo of the answers too, CRLF made LF) to
# standard output. The answers are typed at once: the terminal's line
# discipline holds them, and a program reading /dev/tty gets one line a
# read. Exits with COMMAND's status (128 + N for signal N), 124 when it
# has not ended after $PTY_WAIT seconds (default 60).
import os
import pty
import select
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: pty-run.py ANSWERS COMMAND [ARG ...]\n")
        return 2
    with open(sys.argv[1], "rb") as f:
        answers = f.read()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[2], sys.argv[2:])
    os.write(fd, answers)
    out = bytearray()
    until = time.monotonic() + float(os.environ.get("PTY_WAIT", "60"))
    while time.monotonic() < until:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        else:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        sys.stdout.write(out.decode("utf-8", "replace").replace("\r\n", "\n"))
        return 124
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(out.decode("utf-8", "replace").replace("\r\n", "\n"))
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


sys.exit(main())
