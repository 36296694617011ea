#!/usr/bin/env python3
"""Ask->reply round trip of `tether serve --with-agent` over its Unix socket, with a bare HTTP
baseline (GET /v1/health) on the same socket in the same run.

Each turn POSTs a text user.message (a fresh session per turn, so the demo agent's context stays
one turn) and long-polls for its assistant.done (reply_to_msg_id). Prints p50/p90/p99 in ms.

  python3 benchmarks/roundtrip.py SOCKET [turns]
"""
import http.client, json, socket, statistics, sys, time

class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost", timeout=60)
        self.path = path
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)

def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

def main():
    path = sys.argv[1]
    turns = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    send, poll = UnixConnection(path), UnixConnection(path)
    echo = []
    for _ in range(turns):
        t0 = time.perf_counter()
        send.request("GET", "/v1/health")
        send.getresponse().read()
        echo.append((time.perf_counter() - t0) * 1000)
    rt = []
    for i in range(turns + 10):
        msg_id = "host-bench-%d-%d" % (time.time_ns(), i)
        body = json.dumps({"v": 1, "type": "user.message", "session": {"channel": "host", "id": "bench-%d" % i},
                           "msg_id": msg_id, "payload": {"text": "ping %d" % i}})
        t0 = time.perf_counter()
        send.request("POST", "/v1/instances/default/tether", body, {"Content-Type": "application/json"})
        r = send.getresponse(); accepted = json.loads(r.read())
        assert r.status in (200, 202), accepted
        while True:
            poll.request("GET", "/v1/instances/default/tether/poll?session_id=bench-%d&types=assistant.done&reply_to_msg_id=%s&after_seq=%d&wait_ms=10000"
                         % (i, msg_id, accepted["ingress_seq"]))
            page = json.loads(poll.getresponse().read())
            if page["frames"]:
                break
        if i >= 10:  # the first turns warm up the JIT
            rt.append((time.perf_counter() - t0) * 1000)
    for name, v in (("bare HTTP echo (GET /v1/health)", echo), ("ask->reply round trip", rt)):
        print("%-34s n=%d p50=%.2f ms p90=%.2f ms p99=%.2f ms mean=%.2f ms" % (name, len(v), pct(v, 50), pct(v, 90), pct(v, 99), statistics.mean(v)))

main()
