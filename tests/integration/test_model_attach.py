"""LoadModel by handle: a connection takes a reference to a model another connection of the
same client holds, without sending its content. Same client: the same token on TCP, the
same user on the Unix socket. Any other handle (another client's model, a model whose last
holder let go, a handle never loaded) is ERROR_MODEL_NOT_FOUND with one message, and the
model quotas count an attached model as a loaded one."""
import numpy as np
import pytest

import torsion_client as tdclient
from daemon_util import PENDULUM, Daemon, free_port
from torsion_client import PB, ServerError, code

TOKEN = "a-token-of-thirty-two-characters"
OTHER = "another-token-for-client-two-000"
UNKNOWN = "0" * 64


def _attach(c, handle, assets=None):
    """LoadModel by handle on client c: the LoadModelResult."""
    lm = PB["LoadModelRequest"](handle=handle)
    for name, data in (assets or {}).items():
        lm.assets.add(name=name, data=data)
    return c.call(c.request(load_model=lm))[-1].load_model


def _not_found(c, handle):
    """The error message of an attach that must fail as an unknown handle."""
    with pytest.raises(ServerError) as e:
        _attach(c, handle)
    assert e.value.code == code("ERROR_MODEL_NOT_FOUND"), e.value.message
    return e.value.message


def _model_stats(c, handle):
    """The ModelStats of `handle` in c's Stats."""
    for m in c.stats().models:
        if m.model == handle:
            return m
    raise AssertionError("model %s not in Stats" % handle)


def _state0(info):
    """Two distinct initial states of the pendulum chain (full physics)."""
    s = np.zeros((2, info.nstate_fullphysics))
    s[:, 1:1 + info.nq] = [[0.3] * info.nq, [-0.2] * info.nq]
    return s


def test_attach_on_the_unix_socket_same_user():
    """A second connection attaches the first one's model and gets the same results; the
    daemon received the content once; after the last holder unloads, the handle is unknown."""
    d = Daemon(workers=1)
    try:
        xml = open(PENDULUM).read()
        with d.client() as a, d.client() as b, d.client() as c:
            res = a.load(xml=xml)
            h = res.model
            assert not res.cached
            got = _attach(b, h)
            assert got.model == h and got.cached
            assert got.info.nq == res.info.nq and got.info.nv == res.info.nv
            # the attached model serves requests, with the loader's results bit for bit
            s0 = _state0(res.info)
            ra = a.rollout(h, s0, 20)[0]
            rb = b.rollout(h, s0, 20)[0]
            assert np.array_equal(ra, rb)
            st = _model_stats(b, h)
            assert (st.content_loads, st.attaches) == (1, 1)
            # the loader lets go: b still holds it, so c may attach
            a.call(a.request(unload_model=PB["UnloadModelRequest"](model=h)))
            assert _attach(c, h).model == h
            for holder in (b, c):
                holder.call(holder.request(unload_model=PB["UnloadModelRequest"](model=h)))
            # nobody holds it: the model is gone, the answer is the unknown handle's
            msg = _not_found(a, h)
            assert msg == _not_found(a, UNKNOWN).replace(UNKNOWN, h)
            # content and a handle together is not a request the daemon takes
            h2 = a.load(xml=xml).model
            with pytest.raises(ServerError) as e:
                _attach(b, h2, assets={"x.txt": b"1"})
            assert e.value.code == code("ERROR_INVALID_ARGUMENT")
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_attach_after_the_holder_closed():
    """The only holder's connection closes: its model leaves, the handle is unknown."""
    d = Daemon(workers=1)
    try:
        with d.client() as a:
            h = a.load(xml=open(PENDULUM).read()).model
        with d.client() as b:
            _not_found(b, h)
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_attach_needs_the_same_token_and_counts_in_the_quota(tmp_path):
    """Same token: attach works on another connection. Another token: the handle is unknown
    (the same message as a handle never loaded). The per-token model quota counts an attach."""
    p = tmp_path / "tok"
    p.write_text(TOKEN + "\n" + OTHER + "\n")
    port = free_port()
    d = Daemon("--token-file", str(p), "--max-models-per-connection", "2", tcp_port=port)
    try:
        addr = ("127.0.0.1", port)
        with tdclient.Client(addr) as a1, tdclient.Client(addr) as a2, \
                tdclient.Client(addr) as b, d.client() as u:
            a1.hello(TOKEN)
            a2.hello(TOKEN)
            b.hello(OTHER)
            h = a1.load(xml=open(PENDULUM).read()).model
            h3 = a1.load(xml="<mujoco><worldbody><geom size='1'/></worldbody></mujoco>").model
            # the token holds two references (its quota): a2's attach would be a third
            with pytest.raises(ServerError) as e:
                _attach(a2, h)
            assert e.value.code == code("ERROR_LIMIT_EXCEEDED") and "per token" in e.value.message
            a1.call(a1.request(unload_model=PB["UnloadModelRequest"](model=h3)))
            assert _attach(a2, h).model == h
            # another token, and a Unix-socket connection (no token), find nothing
            msg = _not_found(b, h)
            assert msg == _not_found(b, UNKNOWN).replace(UNKNOWN, h)
            _not_found(u, h)
            # b's own load of the content is its own reference, as before
            assert b.load(xml=open(PENDULUM).read()).model == h
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_tcp_without_token_is_a_client_of_its_own():
    """On an insecure loopback listener connections show no identity: no attach between
    them, but a connection may attach what it holds itself."""
    port = free_port()
    d = Daemon("--insecure-loopback", "true", tcp_port=port)
    try:
        addr = ("127.0.0.1", port)
        with tdclient.Client(addr) as a, tdclient.Client(addr) as b:
            h = a.load(xml=open(PENDULUM).read()).model
            _not_found(b, h)
            assert _attach(a, h).model == h
    finally:
        rc, log = d.stop()
    assert rc == 0, log
