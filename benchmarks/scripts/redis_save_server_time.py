#!/usr/bin/env python3
"""Server time per Redis save script call, from INFO commandstats.

Writes, for one mode, 3,000 calls in the Redis protocol to stdout, to be piped into
`redis-cli -p PORT --pipe` against a private server (CONFIG RESETSTAT is the first command; read
`INFO commandstats` afterwards):

  earlier  the save.lua of builds before 2026-12-02 (kept as a test resource of persistence-redis)
  current  today's save.lua
  empty    an empty script with the same keys and a body of the same size
  set      SET of the same body

Each save is a new version (10 per agent) of a 1,600-byte body with a small attribute record,
no TTL, standalone key layout (eight keys).
"""
import hashlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = {
    "earlier": ROOT / "persistence-redis/src/test/resources/dev/agentpersistence/redis/legacy/save.lua",
    "current": ROOT / "persistence-redis/src/main/resources/dev/agentpersistence/redis/internal/save.lua",
}
CALLS = 3000
BODY = b"x" * 1600


def command(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def keys(agent):
    base = "bench:{%s}:" % agent
    return [base + k for k in ("v", "c", "b", "m", "i", "s", "t")] + ["bench:agents"]


def main(mode):
    out = sys.stdout.buffer
    source = SCRIPTS.get(mode, SCRIPTS["current"]).read_bytes()
    out.write(command("SCRIPT", "LOAD", source))
    out.write(command("CONFIG", "RESETSTAT"))
    sha = hashlib.sha1(source).hexdigest()
    for n in range(CALLS):
        agent, version, cid = "a%d" % (n // 10), "%019d" % (n % 10), "cp-%d" % n
        attributes = '{"i":"%s","c":"00000000000000000000000001","n":"node-1","m":{"k":"v"}}' % cid
        if mode == "earlier":
            args = [version, cid, BODY, attributes, "1.7e12", "0", agent, "0"]
        elif mode == "current":
            args = [version, cid, BODY, attributes, "0", agent, "0"]
        elif mode == "empty":
            out.write(command("EVAL", "return 1", "8", *keys(agent), version, cid, BODY, attributes, "0", agent, "0"))
            continue
        else:
            out.write(command("SET", "bench:set:%d" % n, BODY))
            continue
        out.write(command("EVALSHA", sha, "8", *keys(agent), *args))


if __name__ == "__main__":
    main(sys.argv[1])
