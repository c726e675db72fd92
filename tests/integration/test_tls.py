"""TLS on torsiond's TCP listener: a throwaway CA and a server certificate for 127.0.0.1 are
made with the `openssl` command; the daemon serves TLS on TCP (with a token) and plain on its
Unix socket. Checked: the Python client (torsion.client, tls_ca) and the C CLI (--tls-ca) give
the same rollout bits over TLS as over the Unix socket; a client trusting another CA is
refused; a plain client on the TLS port gets no service while others keep being served; the
token still applies; a bad certificate configuration stops the daemon at startup."""
import os
import shutil
import socket
import ssl
import subprocess
import tempfile

import numpy as np
import pytest

from daemon_util import PENDULUM, TORSION_CLI, TORSIOND, Daemon, bitwise_equal, free_port

import torsion.client as tc  # the installed package

TOKEN = "tls-test-token-0123456789"


def _openssl(*args, cwd):
    """Run the openssl command in cwd (failing the test with its output)."""
    if shutil.which("openssl") is None:
        pytest.fail("the openssl command is needed (Debian package openssl)")
    proc = subprocess.run(["openssl"] + list(args), cwd=cwd, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr


def _make_ca(d, name):
    """A self-signed P-256 CA: d/name.pem and d/name.key."""
    _openssl("req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", name + ".key", "-out", name + ".pem", "-days", "2",
             "-subj", "/CN=Torsion test " + name, cwd=d)


def _make_server_cert(d, ca, name, san):
    """A server certificate d/name.pem (key d/name.key) for subjectAltName san, signed by ca."""
    with open(os.path.join(d, name + ".ext"), "w") as f:
        f.write("subjectAltName=%s\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
                "extendedKeyUsage=serverAuth\n" % san)
    _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=torsiond", cwd=d)
    _openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
             "-CAcreateserial", "-out", name + ".pem", "-days", "2", "-extfile", name + ".ext",
             cwd=d)


@pytest.fixture(scope="module")
def pki():
    """The trusted CA, a rogue CA, and the server's certificate (127.0.0.1 and localhost)."""
    d = tempfile.mkdtemp(prefix="td-tls-")
    _make_ca(d, "ca")
    _make_ca(d, "rogue")
    _make_server_cert(d, "ca", "server", "IP:127.0.0.1,DNS:localhost")
    _make_server_cert(d, "ca", "elsewhere", "DNS:elsewhere.invalid")
    yield {k: os.path.join(d, k + ".pem") for k in ("ca", "rogue", "server", "elsewhere")} | {
        "key": os.path.join(d, "server.key"), "elsewhere_key": os.path.join(d, "elsewhere.key"),
        "dir": d}
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def tls_daemon(pki):
    """torsiond with TLS on TCP (token required) and its plain Unix socket; a small unsent-bytes
    limit makes large answers go through back-pressure (pausing and resuming)."""
    d = Daemon("--tls-cert", pki["server"], "--tls-key", pki["key"], "--token", TOKEN,
               "--max-unsent-bytes-per-connection", "256k", "--frame-target-bytes", "64k",
               tcp_port=free_port())
    yield d
    assert d.alive(), "torsiond died:\n" + d.read_log()[-4000:]
    rc, log = d.stop()
    assert rc == 0, log[-4000:]
    assert "tls=on" in log


def _states(m, B, seed):
    """FULLPHYSICS states [B, nstate] near qpos0 with random velocities."""
    rng = np.random.default_rng(seed)
    s = np.zeros((B, m.nstate_fullphysics))
    s[:, 1:1 + m.nq] = m.qpos0 + 0.3 * rng.standard_normal((B, m.nq))
    s[:, 1 + m.nq:1 + m.nq + m.nv] = 0.3 * rng.standard_normal((B, m.nv))
    return s


def _tls_client(d, pki, ca="ca", token=TOKEN, host="127.0.0.1"):
    return tc.Client(address="%s:%d" % (host, d.tcp_port), token=token, tls_ca=pki[ca],
                     timeout=120)


def test_python_client_over_tls_equals_unix_socket(tls_daemon, pki):
    with tc.Client(socket=tls_daemon.sock, timeout=120) as plain, \
            _tls_client(tls_daemon, pki) as c:
        assert c._sock.version() in ("TLSv1.2", "TLSv1.3")
        m_tls, m_unix = c.load(path=PENDULUM), plain.load(path=PENDULUM)
        assert m_tls.handle == m_unix.handle
        # large enough to span many TLS records and several result frames
        state0 = _states(m_tls, 64, 1)
        ctrl = 0.1 * np.random.default_rng(2).standard_normal((64, 300, m_tls.nu))
        s_tls, _ = c.rollout(m_tls, state0, ctrl, chunk_size=16)
        s_unix, _ = plain.rollout(m_unix, state0, ctrl)
        assert s_tls.shape == (64, 300, m_tls.nstate_fullphysics)
        assert bitwise_equal(s_tls, s_unix)
        # "localhost" is named by the certificate too; the token applies on top of TLS
        with _tls_client(tls_daemon, pki, host="localhost") as c2:
            assert c2.health().serving
        with pytest.raises(tc.ServerError) as e:
            _tls_client(tls_daemon, pki, token="not-the-token-0123456789")
        assert e.value.name == "ERROR_UNAUTHENTICATED"


def test_concurrent_pipelined_tls_clients(tls_daemon, pki):
    """Four TLS connections at once, each with rollouts pipelined on it (AsyncSession-style
    sends before any answer is read), all equal to the Unix socket's answers."""
    import threading
    with tc.Client(socket=tls_daemon.sock, timeout=120) as plain:
        m = plain.load(path=PENDULUM)
        inputs = [_states(m, 16, 10 + k) for k in range(4)]
        want = [plain.rollout(m, s0, nstep=100)[0] for s0 in inputs]
    got, errors = {}, []

    def run(k):
        try:
            with _tls_client(tls_daemon, pki) as c:
                mk = c.load(path=PENDULUM)
                msgs = []
                for s0 in inputs:
                    rr = tc.PB["RolloutRequest"](model=mk.handle, nstep=100)
                    tc.to_array(s0, rr.initial_state)
                    msgs.append(rr)
                for j, parts in enumerate(c._batched("rollout", msgs)):  # sent pipelined
                    out = np.zeros((16, 100, m.nstate_fullphysics))
                    for p in parts:
                        out[p.env_offset:p.env_offset + p.env_count] = tc.from_array(p.states)
                    got[(k, j)] = out
        except Exception as e:  # reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    for (k, j), out in got.items():
        assert bitwise_equal(out, want[j]), (k, j)
    assert len(got) == 16


def test_cli_over_tls_equals_unix_socket(tls_daemon, pki, tmp_path):
    with tc.Client(socket=tls_daemon.sock, timeout=120) as plain:
        m = plain.load(path=PENDULUM)
        state0 = _states(m, 8, 3)
    np.save(tmp_path / "s.npy", state0)

    def cli(*conn, out):
        proc = subprocess.run([TORSION_CLI] + list(conn) + [
            "rollout", PENDULUM, "--state", str(tmp_path / "s.npy"), "--nstep", "50",
            "--out", str(tmp_path / out)], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return np.load(tmp_path / out)

    over_tls = cli("--tls", "127.0.0.1:%d" % tls_daemon.tcp_port, "--tls-ca", pki["ca"],
                   "--token", TOKEN, out="tls.npy")
    over_unix = cli("--socket", tls_daemon.sock, out="unix.npy")
    assert over_tls.shape == (8, 50, m.nstate_fullphysics)
    assert bitwise_equal(over_tls, over_unix)

    # --tcp with --tls-ca is TLS too
    proc = subprocess.run([TORSION_CLI, "--tcp", "localhost:%d" % tls_daemon.tcp_port,
                           "--tls-ca", pki["ca"], "--token", TOKEN, "stats"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "connections" in proc.stdout or "{" in proc.stdout


def test_client_trusting_another_ca_is_refused(tls_daemon, pki):
    with pytest.raises(tc.TLSError) as e:
        _tls_client(tls_daemon, pki, ca="rogue")
    assert isinstance(e.value, ConnectionError)
    assert isinstance(e.value.__cause__, ssl.SSLError)
    assert "certificate" in str(e.value) or "issuer" in str(e.value), str(e.value)

    proc = subprocess.run([TORSION_CLI, "--tls", "127.0.0.1:%d" % tls_daemon.tcp_port,
                           "--tls-ca", pki["rogue"], "--token", TOKEN, "health"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "certificate verification failed" in proc.stderr, proc.stderr

    # the daemon's own certificate is no CA: trusting it alone is not enough either
    with pytest.raises(tc.TLSError):
        _tls_client(tls_daemon, pki, ca="server")
    assert "tls_failed" in tls_daemon.read_log()
    with _tls_client(tls_daemon, pki) as c:
        assert c.health().serving


def test_certificate_naming_another_host_is_refused(pki):
    """A certificate from the trusted CA that names another host fails both clients."""
    d = Daemon("--tls-cert", pki["elsewhere"], "--tls-key", pki["elsewhere_key"], "--token",
               TOKEN, tcp_port=free_port(), workers=1)
    try:
        for host in ("127.0.0.1", "localhost"):
            with pytest.raises(tc.TLSError) as e:
                _tls_client(d, pki, host=host)
            assert "mismatch" in str(e.value) or "match" in str(e.value), str(e.value)
            proc = subprocess.run([TORSION_CLI, "--tls", "%s:%d" % (host, d.tcp_port),
                                   "--tls-ca", pki["ca"], "--token", TOKEN, "health"],
                                  capture_output=True, text=True, timeout=60)
            assert proc.returncode != 0
            assert "certificate verification failed" in proc.stderr, proc.stderr
            assert "mismatch" in proc.stderr, proc.stderr
        with d.client() as c:  # the Unix socket is plain and unaffected
            c.health()
    finally:
        assert d.alive()
        rc, log = d.stop()
        assert rc == 0, log[-4000:]


def test_plain_client_on_tls_port_gets_no_service(tls_daemon, pki):
    with _tls_client(tls_daemon, pki) as bystander:
        m = bystander.load(path=PENDULUM)

        # a plain Hello frame: the daemon answers with no frame and closes this connection
        from torsion import _proto
        hello = _proto.PB["Request"](id=1)
        hello.hello.CopyFrom(_proto.PB["HelloRequest"](protocol_version=1, token=TOKEN))
        with socket.create_connection(("127.0.0.1", tls_daemon.tcp_port), timeout=10) as s:
            s.sendall(_proto.pack(hello))
            got = b""
            while True:
                try:
                    chunk = s.recv(4096)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                got += chunk
            # nothing, or a TLS alert record (content type 21), never a response frame
            assert got == b"" or got[0] == 21, got[:16]

        # the plain Python client fails cleanly
        with pytest.raises(ConnectionError):
            tc.Client(address=("127.0.0.1", tls_daemon.tcp_port), token=TOKEN, timeout=10)

        # the bystander is still served
        s, _ = bystander.rollout(m, _states(m, 2, 4), nstep=5)
        assert s.shape == (2, 5, m.nstate_fullphysics) and np.isfinite(s).all()
    assert tls_daemon.alive()


@pytest.mark.parametrize("args, why", [
    (["--tls-cert", "CERT"], "set both or neither"),
    (["--tls-cert", "CERT", "--tls-key", "KEY"], "set tcp_port"),
    (["--tls-cert", "MISSING", "--tls-key", "KEY", "--tcp-port", "PORT"], "tls_cert"),
    (["--tls-cert", "CERT", "--tls-key", "ROGUEKEY", "--tcp-port", "PORT"], "mismatch"),
])
def test_bad_tls_configuration_stops_startup(pki, args, why):
    subst = {"CERT": pki["server"], "KEY": pki["key"], "MISSING": pki["dir"] + "/none.pem",
             "ROGUEKEY": os.path.join(pki["dir"], "rogue.key"), "PORT": str(free_port())}
    with tempfile.TemporaryDirectory() as d:
        cmd = [TORSIOND, "--socket", os.path.join(d, "s"), "--token", TOKEN, "--workers", "1"]
        proc = subprocess.run(cmd + [subst.get(a, a) for a in args], capture_output=True,
                              text=True, timeout=60)
    assert proc.returncode != 0
    assert why in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert "Sanitizer" not in proc.stdout + proc.stderr
