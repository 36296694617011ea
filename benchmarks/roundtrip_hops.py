#!/usr/bin/env python3
"""Where the ask->reply round trip of `tether serve --with-agent` goes, hop by hop.

Runs WARMUP untimed turns (default 1000; see roundtrip.py for why so many), then TURNS timed
ones. A second process reads the instance's NDJSON stream and stamps each frame's arrival with
the monotonic clock (shared by both processes), so each hop is measured where the host sees it:
the POST's 202, the agent's `thinking` presence, its first delta, its done, its idle presence,
and the reader's long-poll returning. Prints p50s in ms.

  python3 benchmarks/roundtrip_hops.py SOCKET [turns] [warmup]
"""
import collections, http.client, json, socket, statistics, subprocess, sys, tempfile, time

class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout=60):
        super().__init__("localhost", timeout=timeout)
        self.path = path
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)

def stream_log(path, after_seq, out_file):
    """The reader process: one line per frame, `monotonic_ns msg_id type[/state]`."""
    c = UnixConnection(path, timeout=3600)
    c.request("GET", "/v1/instances/default/tether/stream?after_seq=%s" % after_seq)
    r = c.getresponse()
    with open(out_file, "w", buffering=1) as out:
        while True:
            line = r.readline()
            if not line:
                return
            t = time.monotonic_ns()
            line = line.strip()
            f = json.loads(line) if line else None
            if isinstance(f, dict) and "type" in f:
                state = "/" + f["payload"].get("state", "") if f["type"] == "status.presence" else ""
                out.write("%d %s %s%s\n" % (t, f.get("msg_id"), f["type"], state))

def turn(send, poll, i):
    msg_id = "host-hop-%d-%d" % (time.time_ns(), i)
    session = "hop-%d-%d" % (time.time_ns(), i)
    body = json.dumps({"v": 1, "type": "user.message", "session": {"channel": "host", "id": session},
                       "msg_id": msg_id, "payload": {"text": "ping %d" % i}})
    t0 = time.monotonic_ns()
    send.request("POST", "/v1/instances/default/tether", body, {"Content-Type": "application/json"})
    r = send.getresponse(); accepted = json.loads(r.read()); t1 = time.monotonic_ns()
    assert r.status in (200, 202), accepted
    while True:
        poll.request("GET", "/v1/instances/default/tether/poll?session_id=%s&types=assistant.done&reply_to_msg_id=%s&after_seq=%d&wait_ms=10000"
                     % (session, msg_id, accepted["ingress_seq"]))
        if json.loads(poll.getresponse().read())["frames"]:
            break
    return msg_id, t0, t1, time.monotonic_ns(), accepted["ingress_seq"]

def main():
    if sys.argv[1] == "--stream-log":
        stream_log(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    path = sys.argv[1]
    turns = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    send, poll = UnixConnection(path), UnixConnection(path)
    for i in range(warmup):
        turn(send, poll, i)
    last_seq = turn(send, poll, warmup)[4]
    log = tempfile.NamedTemporaryFile(suffix=".log", delete=False).name
    reader = subprocess.Popen([sys.executable, __file__, "--stream-log", path, str(last_seq), log])
    time.sleep(1)
    rows = [turn(send, poll, warmup + 1 + i) for i in range(turns)]
    time.sleep(1)
    reader.kill()
    seen = collections.defaultdict(dict)
    for line in open(log):
        t, msg_id, kind = line.split()
        seen[msg_id].setdefault(kind, int(t))
    def p50(v):
        return statistics.median(v) / 1e6
    kinds = ["user.message", "status.presence/thinking", "assistant.delta", "assistant.done", "status.presence/idle"]
    print("n=%d after %d warm-up turns" % (turns, warmup))
    print("%-52s p50 %6.2f ms" % ("POST user.message answered", p50([r[2] - r[1] for r in rows])))
    prev = kinds[0]
    print("%-52s p50 %6.2f ms" % ("stream has user.message (from the POST)", p50([seen[r[0]][prev] - r[1] for r in rows if prev in seen[r[0]]])))
    for k in kinds[1:]:
        v = [seen[r[0]][k] - seen[r[0]][prev] for r in rows if k in seen[r[0]] and prev in seen[r[0]]]
        print("  hop %-47s p50 %6.2f ms" % (prev + " -> " + k, p50(v)))
        prev = k
    v = [r[3] - seen[r[0]]["assistant.done"] for r in rows if "assistant.done" in seen[r[0]]]
    print("  hop %-47s p50 %6.2f ms" % ("assistant.done -> the reader's poll returned", p50(v)))
    print("%-52s p50 %6.2f ms" % ("round trip (POST sent -> poll returned)", p50([r[3] - r[1] for r in rows])))

main()
