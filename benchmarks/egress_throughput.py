#!/usr/bin/env python3
"""Poll and stream throughput of a running `tether serve` over its Unix socket: what the egress
budget costs readers that do read (issue 23). Run it against two builds back to back and compare.

Fills instance `egress` with FRAMES frames of FRAME_KB KiB of text, then times ROUNDS polls of the
whole instance (one page of FRAMES frames) and ROUNDS streams from seq 0 read until FRAMES frames
arrived. Prints MB/s for each.

  python3 benchmarks/egress_throughput.py SOCKET [rounds]
"""
import http.client, json, socket, sys, time

FRAMES, FRAME_KB = 50, 200

class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost", timeout=120)
        self.path = path
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)

def main():
    sock = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    c = UnixConnection(sock)
    c.request("PUT", "/v1/instances/egress"); c.getresponse().read()
    text = "x" * (FRAME_KB * 1024)
    for i in range(FRAMES):
        body = json.dumps({"v": 1, "type": "assistant.done", "session": {"channel": "host", "id": "s"},
                           "msg_id": "m%d" % i, "payload": {"text": text}})
        c.request("POST", "/v1/instances/egress/tether", body); r = c.getresponse(); r.read()
        assert r.status == 202, r.status
    for name in ("poll", "stream"):
        total = 0
        t0 = time.perf_counter()
        for _ in range(rounds):
            if name == "poll":
                c.request("GET", "/v1/instances/egress/tether/poll?after_seq=0&limit=%d" % FRAMES)
                r = c.getresponse(); data = r.read(); total += len(data)
            else:
                s = UnixConnection(sock)
                s.request("GET", "/v1/instances/egress/tether/stream?after_seq=0")
                r = s.getresponse(); lines = 0
                while lines < FRAMES:
                    line = r.readline()
                    if line.strip():
                        lines += 1; total += len(line)
                s.close()
        dt = time.perf_counter() - t0
        print("%-6s %d rounds, %.1f MB in %.2f s: %.1f MB/s" % (name, rounds, total / 1e6, dt, total / 1e6 / dt))

main()
