# Memory of a swapboard server before, during and after a flood of slow connections (issue 24):
#   python3 scripts/flood-memory.py target/release/swapboard [CONNECTIONS]
# The connections come from 50 loopback addresses (127.0.1.1-50), each sending half a request
# line and never its headers; /healthz is asked from 127.0.0.2. Linux only (/proc).
import socket, subprocess, sys, time, os, tempfile
B = sys.argv[1]
d = tempfile.mkdtemp()
port = 18590
srv = subprocess.Popen([B, "serve", "--addr", f"127.0.0.1:{port}", "--database", f"sqlite:{d}/s.db"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def rss():
    with open(f"/proc/{srv.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
        f.seek(0); return "no VmRSS: " + f.read()[:200]
def healthz():
    try:
        return healthz_()
    except OSError as e:
        return "refused: " + str(e)
def healthz_():
    t = time.time()
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0))
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = s.recv(100); s.close()
    return data.split(b"\r\n")[0].decode(), round((time.time() - t) * 1000, 1)
for _ in range(100):
    try:
        healthz_(); break
    except OSError:
        time.sleep(0.1)
idle = rss()
print("idle RSS MiB", idle, "healthz", healthz())
n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
socks = []
for i in range(n):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(f"127.0.1.{i % 50 + 1}", 0))
        s.sendall(b"GET / HTTP/1.1\r\nHo")  # a trickle: never finishes its headers
        socks.append(s)
    except ConnectionResetError:
        pass
    except OSError as e:
        print("connect", i, e); break
time.sleep(1)
print("with", len(socks), "slow connections: RSS MiB", rss(), "healthz", healthz())
time.sleep(6)
closed = 0
for s in socks:
    try:
        s.settimeout(0.01)
        if s.recv(1) == b"":
            closed += 1
    except socket.timeout:
        pass
    except OSError:
        closed += 1
held = 0
for s in socks:
    try:
        s.settimeout(0.001)
        if s.recv(1) != b"": held += 1
    except socket.timeout:
        held += 1
    except OSError:
        pass
print("held open by the server after 1 s:", held)
time.sleep(1)
print("after 8 s:", closed, "of", len(socks), "closed by the server; RSS MiB", rss(), "healthz", healthz())
for s in socks: s.close()
time.sleep(3)
print("after the client let go: RSS MiB", rss())
srv.terminate(); srv.wait()
