#!/usr/bin/env python3
"""Ask->reply round trip of `tether serve --with-agent` over its Unix socket, with a bare HTTP
baseline (GET /v1/health) on the same socket in the same run.

Each turn POSTs a text user.message (a fresh session per turn, so the demo agent's context stays
one turn) and long-polls for its assistant.done (reply_to_msg_id). Prints p50/p90/p99 in ms.

The JVM needs far more than a few turns to compile the request path: on a 2-core machine the
first few hundred turns spend more CPU in the JIT compiler threads than in tether itself, and a
round trip measured then is several times the steady one (see BENCHMARKS.md). So both the echo
and the round trip are measured after WARMUP untimed turns (default 1000).

  python3 benchmarks/roundtrip.py SOCKET [turns] [warmup]
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

def turn(send, poll, i):
    msg_id = "host-bench-%d-%d" % (time.time_ns(), i)
    session = "bench-%d-%d" % (time.time_ns(), i)
    body = json.dumps({"v": 1, "type": "user.message", "session": {"channel": "host", "id": session},
                       "msg_id": msg_id, "payload": {"text": "ping %d" % i}})
    t0 = time.perf_counter()
    send.request("POST", "/v1/instances/default/tether", body, {"Content-Type": "application/json"})
    r = send.getresponse(); accepted = json.loads(r.read())
    assert r.status in (200, 202), accepted
    while True:
        poll.request("GET", "/v1/instances/default/tether/poll?session_id=%s&types=assistant.done&reply_to_msg_id=%s&after_seq=%d&wait_ms=10000"
                     % (session, msg_id, accepted["ingress_seq"]))
        page = json.loads(poll.getresponse().read())
        if page["frames"]:
            break
    return (time.perf_counter() - t0) * 1000

def echo(send):
    t0 = time.perf_counter()
    send.request("GET", "/v1/health")
    send.getresponse().read()
    return (time.perf_counter() - t0) * 1000

def main():
    path = sys.argv[1]
    turns = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    send, poll = UnixConnection(path), UnixConnection(path)
    for i in range(warmup):  # untimed: lets the JIT compile the server's and the agent's paths
        echo(send)
        turn(send, poll, i)
    # Timed the way the warm-up ran, an echo then a turn: a run of echoes and then a run of turns
    # changes the server's branch profile and sends the JIT back to recompiling Jetty's hot
    # methods, on a 2-core machine a fifth of the CPU during the timed part.
    echoes, rt = [], []
    for i in range(turns):
        echoes.append(echo(send))
        rt.append(turn(send, poll, warmup + i))
    print("after %d warm-up turns" % warmup)
    for name, v in (("bare HTTP echo (GET /v1/health)", echoes), ("ask->reply round trip", rt)):
        print("%-34s n=%d p50=%.2f ms p90=%.2f ms p99=%.2f ms mean=%.2f ms" % (name, len(v), pct(v, 50), pct(v, 90), pct(v, 99), statistics.mean(v)))

main()
