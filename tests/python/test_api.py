"""torsion's in-process API against MuJoCo's Python package: the same script run through
`import mujoco` and `import torsion as mujoco` gives equal numbers; every mjModel/mjData
field both packages have matches in shape, dtype and value; named accessors, state, inverse
dynamics, derivatives and Jacobians agree; bad input raises the same kinds of errors."""
import gc
import os

import mujoco
import numpy as np
import pytest

import torsion
from pycore_models import GYM_ASSETS, REPO_ROOT, random_ctrl

# Fields whose representation differs on purpose (values are not comparable element by
# element): MuJoCo 3.14 stores these sparse or with other sizes.
REPRESENTATION = {
    "mat_texid": "MuJoCo 3.14: one texture per role (nmat, 10); Torsion: (nmat,)",
    "M": "sparse inertia: MuJoCo 3.14 stores nM entries (simple bodies folded); Torsion nC",
    "M_rownnz": "sparse structure of M (see M)",
    "M_rowadr": "sparse structure of M (see M)",
    "M_colind": "sparse structure of M (see M)",
    "qLD": "factor storage: MuJoCo's own sparse layout of L",
    "qH": "factor storage: MuJoCo's own sparse layout of L",
    "mapM2M": "index map of MuJoCo's factor layout",
    "mapD2M": "index map of MuJoCo's factor layout",
    "mapM2D": "index map of MuJoCo's factor layout",
    "tex_adr": "textures are not loaded by Torsion (no rendering)",
    "tex_data": "textures are not loaded by Torsion (no rendering)",
}
# sparse-structure bookkeeping of the constraint rows: how the rows are stored, not what
# they are (efc_J itself and the row values are compared)
# island arrays whose rows do not depend on nisland: MuJoCo leaves them stale when there
# are no islands (nisland 0), so they are compared only when MuJoCo has islands
ISLAND_MAPS = {"tree_island", "map_itree2tree", "dof_island", "map_dof2idof", "map_idof2dof",
               "efc_island", "map_efc2iefc", "map_iefc2efc", "iefc_type", "iefc_id",
               "iefc_frictionloss", "iefc_D", "iefc_R"}
EFC_STRUCTURE = {"efc_J_rownnz", "efc_J_rowadr", "efc_J_rowsuper", "efc_J_colind",
                 "efc_AR_rownnz", "efc_AR_rowadr", "efc_AR_colind", "efc_AR", "efc_state"}


def _model_fields():
    return [row[0] for row in torsion._model._FIELDS]


def _data_fields():
    fixed, efc = torsion.MjData._fields()
    return [row[0] for row in fixed] + [row[0] for row in efc]


def _compare(name, expected, got, rtol, atol):
    """Assert one field equal in type, shape, dtype and value."""
    if isinstance(expected, bytes) or isinstance(got, bytes):
        assert type(expected) is type(got), name
        assert expected == got, name
        return
    expected, got = np.asarray(expected), np.asarray(got)
    assert expected.shape == got.shape, "%s: shape %s != %s" % (name, expected.shape, got.shape)
    assert expected.dtype == got.dtype, "%s: dtype %s != %s" % (name, expected.dtype, got.dtype)
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, err_msg=name)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=name)


def test_model_fields_match(pair):
    """Every mjModel array both have: same shape, dtype and compiled values (1e-10)."""
    mm, tm = pair
    compared = 0
    for name in _model_fields():
        if name in REPRESENTATION or not hasattr(mm, name):
            continue
        _compare(name, getattr(mm, name), getattr(tm, name), 1e-10, 1e-10)
        compared += 1
    assert compared > 200
    for size in ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "nsensordata",
                 "nJmom", "nJten"):
        assert getattr(mm, size) == getattr(tm, size), size
    for name in ("timestep", "impratio", "tolerance", "iterations", "integrator", "cone",
                 "solver", "disableflags", "enableflags"):
        assert getattr(mm.opt, name) == getattr(tm.opt, name), name
    np.testing.assert_array_equal(tm.opt.gravity, mm.opt.gravity)
    for name in ("meaninertia", "meanmass", "meansize", "extent"):
        assert getattr(tm.stat, name) == pytest.approx(getattr(mm.stat, name), rel=1e-10)


def _script(mj, path, nstep=20):
    """One script, run through either package: load, reset, control, step, forward."""
    m = mj.MjModel.from_xml_path(path)
    d = mj.MjData(m)
    mj.mj_resetData(m, d)
    ctrl = random_ctrl(m, nstep)
    for t in range(nstep):
        d.ctrl[:] = ctrl[t]
        mj.mj_step(m, d)
    mj.mj_step(m, d, nstep=3)
    mj.mj_forward(m, d)
    mj.mj_rnePostConstraint(m, d)
    return m, d


def test_same_script_same_numbers(model_path):
    """20 controlled steps, 3 more with nstep=3, then forward: states and outputs agree."""
    mm, md = _script(mujoco, model_path)
    tm, td = _script(torsion, model_path)
    assert td.time == pytest.approx(md.time, abs=1e-12)
    for name in ("qpos", "qvel", "act", "qacc", "xpos", "xquat", "sensordata",
                 "qfrc_actuator", "cfrc_ext", "cvel", "subtree_com", "actuator_force"):
        _compare(name, getattr(md, name), getattr(td, name), 1e-6, 1e-6)
    assert td.ncon == md.ncon
    assert td.nefc == md.nefc


def test_data_fields_match(model_path):
    """Every mjData array both have, after the script: same shape, dtype and value."""
    mm, md = _script(mujoco, model_path, nstep=5)
    tm, td = _script(torsion, model_path, nstep=5)
    compared = 0
    for name in _data_fields():
        if name in REPRESENTATION or name in EFC_STRUCTURE or not hasattr(md, name):
            continue
        if name in ISLAND_MAPS and not md.nisland:
            continue
        if name in ("ifrc_smooth", "iacc_smooth") and mm.opt.solver == mujoco.mjtSolver.mjSOL_PGS:
            continue  # gathered for the primal solvers only: unset under PGS
        if name in ("qLDiagInv", "qHDiagInv", "qLU", "qDeriv"):
            _compare(name, np.asarray(getattr(md, name)).shape,
                     np.asarray(getattr(td, name)).shape, 0, 0)
            continue
        _compare(name, getattr(md, name), getattr(td, name), 1e-6, 1e-6)
        compared += 1
    assert compared > 60
    # scalars and structs
    for name in ("time", "ncon", "ne", "nf", "nl", "nefc"):
        assert getattr(td, name) == pytest.approx(getattr(md, name), abs=1e-12), name
    for name in ("dist", "pos", "frame", "geom1", "geom2", "dim", "efc_address"):
        _compare("contact." + name, getattr(md.contact, name), getattr(td.contact, name),
                 1e-6, 1e-6)
    assert [w.number for w in td.warning] == [md.warning[i].number for i in range(len(td.warning))]
    _compare("energy", md.energy, td.energy, 1e-6, 1e-6)


def test_named_accessors(pair):
    """m.body(name).mass, d.body(name).xpos, d.joint(name).qpos ... as MuJoCo's."""
    mm, tm = pair
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    mujoco.mj_forward(mm, md)
    torsion.mj_forward(tm, td)
    for i in range(mm.nbody):
        name = mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_BODY, i)
        key = name if name else i
        assert tm.body(key).id == mm.body(key).id
        assert tm.body(key).name == mm.body(key).name
        for attr in ("mass", "pos", "quat", "inertia", "parentid"):
            _compare(attr, getattr(mm.body(key), attr), getattr(tm.body(key), attr), 1e-10, 0)
        for attr in ("xpos", "xquat", "xmat", "cinert"):
            _compare(attr, getattr(md.body(key), attr), getattr(td.body(key), attr), 1e-9, 1e-12)
    for i in range(mm.njnt):
        for attr in ("qpos", "qvel"):
            _compare(attr, getattr(md.joint(i), attr), getattr(td.joint(i), attr), 1e-12, 0)
        _compare("qposadr", mm.joint(i).qposadr, tm.joint(i).qposadr, 0, 0)
        assert tm.jnt(i).name == mm.jnt(i).name
    for i in range(mm.nu):
        name = mm.actuator(i).name
        if name:
            assert torsion.mj_name2id(tm, torsion.mjtObj.mjOBJ_ACTUATOR, name) == i
            td.actuator(name).ctrl = 0.25
            assert td.ctrl[i] == 0.25
        # moment: the actuator's row of the sparse moments, dense (nv,)
        adr, nnz = md.moment_rowadr[i], md.moment_rownnz[i]
        row = np.zeros(mm.nv)
        row[md.moment_colind[adr:adr + nnz]] = md.actuator_moment[adr:adr + nnz]
        _compare("actuator moment", row, td.actuator(i).moment, 1e-10, 1e-12)
    for i in range(mm.ngeom):
        _compare("geom xpos", md.geom(i).xpos, td.geom(i).xpos, 1e-9, 1e-12)
    with pytest.raises(KeyError):
        tm.body("no such body")
    with pytest.raises(IndexError):
        tm.body(mm.nbody)


def _check_moment_layout(mm, tm):
    """actuator_moment and its sparse rows: MuJoCo's shapes, then after mj_forward its
    counts, addresses, columns and values."""
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    assert tm.nJmom == mm.nJmom
    for name in ("actuator_moment", "moment_rownnz", "moment_rowadr", "moment_colind"):
        assert getattr(td, name).shape == getattr(md, name).shape, name
        assert getattr(td, name).dtype == getattr(md, name).dtype, name
    mujoco.mj_forward(mm, md)
    torsion.mj_forward(tm, td)
    used = int(md.moment_rowadr[-1] + md.moment_rownnz[-1]) if mm.nu else 0
    np.testing.assert_array_equal(td.moment_rownnz, md.moment_rownnz)
    np.testing.assert_array_equal(td.moment_rowadr, md.moment_rowadr)
    np.testing.assert_array_equal(td.moment_colind[:used], md.moment_colind[:used])
    np.testing.assert_allclose(td.actuator_moment[:used], md.actuator_moment[:used],
                               rtol=1e-10, atol=1e-12)


def test_actuator_moment_layout(pair):
    """actuator_moment and its sparse rows have MuJoCo 3.14's shapes (nJmom entries, nu
    rows) and values."""
    _check_moment_layout(*pair)


def test_actuator_moment_row_kinds():
    """The same with tendon, site, free and ball joint rows and explicit zeros."""
    path = os.path.join(REPO_ROOT, "tests", "models", "moment", "row_kinds.xml")
    _check_moment_layout(mujoco.MjModel.from_xml_path(path), torsion.MjModel.from_xml_path(path))


def _check_ten_j_layout(mm, tm):
    """ten_J and the model's static pattern of its rows: MuJoCo's shapes and entries, then
    after mj_forward the values on the pattern."""
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    assert tm.nJten == mm.nJten
    for name in ("ten_J_rownnz", "ten_J_rowadr", "ten_J_colind"):
        assert getattr(tm, name).shape == getattr(mm, name).shape, name
        np.testing.assert_array_equal(getattr(tm, name), getattr(mm, name), name)
    assert td.ten_J.shape == md.ten_J.shape
    assert td.ten_J.dtype == md.ten_J.dtype
    mujoco.mj_forward(mm, md)
    torsion.mj_forward(tm, td)
    np.testing.assert_allclose(td.ten_J, md.ten_J, rtol=1e-10, atol=1e-12)


def test_ten_j_layout(pair):
    """ten_J is sparse as MuJoCo 3.14's (nJten entries on the model's pattern)."""
    _check_ten_j_layout(*pair)


def test_ten_j_repeated_joint():
    """The same with a fixed tendon naming a joint twice and spatial tendons."""
    path = os.path.join(REPO_ROOT, "tests", "models", "tendon_sparse", "repeated_joint.xml")
    _check_ten_j_layout(mujoco.MjModel.from_xml_path(path), torsion.MjModel.from_xml_path(path))


def test_state_functions(pair):
    """mj_stateSize, mj_getState, mj_setState for several specs."""
    mm, tm = pair
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    ctrl = random_ctrl(mm, 5)
    for t in range(5):
        md.ctrl[:], td.ctrl[:] = ctrl[t], ctrl[t]
        mujoco.mj_step(mm, md)
        torsion.mj_step(tm, td)
    for spec in (mujoco.mjtState.mjSTATE_FULLPHYSICS, mujoco.mjtState.mjSTATE_INTEGRATION,
                 mujoco.mjtState.mjSTATE_CTRL | mujoco.mjtState.mjSTATE_QPOS):
        spec = int(spec)
        n = mujoco.mj_stateSize(mm, spec)
        assert torsion.mj_stateSize(tm, spec) == n
        a, b = np.empty(n), np.empty(n)
        mujoco.mj_getState(mm, md, a, spec)
        torsion.mj_getState(tm, td, b, spec)
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6)
        td2 = torsion.MjData(tm)
        torsion.mj_setState(tm, td2, b, spec)
        c = np.empty(n)
        torsion.mj_getState(tm, td2, c, spec)
        np.testing.assert_array_equal(c, b)


def test_inverse_and_derivatives(pair):
    """mj_inverse, mjd_transitionFD and mjd_inverseFD agree with MuJoCo's (both refuse the
    RK4 integrator with FatalError; the comparison then uses Euler in both)."""
    mm, tm = pair
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    if mm.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4:
        for m, d, mj in ((mm, md, mujoco), (tm, td, torsion)):
            with pytest.raises(mj.FatalError, match="RK4"):
                mj.mjd_transitionFD(m, d, 1e-6, False, None, None, None, None)
            m.opt.integrator = int(mj.mjtIntegrator.mjINT_EULER)
    for m, d, mj in ((mm, md, mujoco), (tm, td, torsion)):
        mj.mj_resetData(m, d)
        d.qvel[:] = 0.1
        mj.mj_forward(m, d)
        mj.mj_inverse(m, d)
    np.testing.assert_allclose(td.qfrc_inverse, md.qfrc_inverse, rtol=1e-6, atol=1e-6)
    nx = 2 * mm.nv + mm.na
    out = {}
    for m, d, mj in ((mm, md, mujoco), (tm, td, torsion)):
        A, B = np.zeros((nx, nx)), np.zeros((nx, mm.nu))
        mj.mjd_transitionFD(m, d, 1e-6, False, A, B, None, None)
        DfDq, DfDv = np.zeros((mm.nv, mm.nv)), np.zeros((mm.nv, mm.nv))
        mj.mjd_inverseFD(m, d, 1e-6, False, DfDq, DfDv, None, None, None, None, None)
        out[mj.__name__] = (A, B, DfDq, DfDv)
    for a, b in zip(out["mujoco"], out["torsion"]):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-4)


def test_jacobians_and_inertia(pair):
    """mj_jacBody, mj_jacSite, mj_jac, mj_fullM, mj_mulM, mj_rne."""
    mm, tm = pair
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    mujoco.mj_forward(mm, md)
    torsion.mj_forward(tm, td)
    nv = mm.nv
    for body in range(mm.nbody):
        a, b = np.zeros((3, nv)), np.zeros((3, nv))
        ar, br = np.zeros((3, nv)), np.zeros((3, nv))
        mujoco.mj_jacBody(mm, md, a, ar, body)
        torsion.mj_jacBody(tm, td, b, br, body)
        np.testing.assert_allclose(b, a, atol=1e-10)
        np.testing.assert_allclose(br, ar, atol=1e-10)
        mujoco.mj_jac(mm, md, a, None, md.xipos[body], body)
        torsion.mj_jac(tm, td, b, None, td.xipos[body], body)
        np.testing.assert_allclose(b, a, atol=1e-10)
    for site in range(mm.nsite):
        a, b = np.zeros((3, nv)), np.zeros((3, nv))
        mujoco.mj_jacSite(mm, md, a, None, site)
        torsion.mj_jacSite(tm, td, b, None, site)
        np.testing.assert_allclose(b, a, atol=1e-10)
    Ma, Mb = np.zeros((nv, nv)), np.zeros((nv, nv))
    mujoco.mj_fullM(mm, md, Ma)
    torsion.mj_fullM(tm, td, Mb)
    np.testing.assert_allclose(Mb, Ma, rtol=1e-10, atol=1e-12)
    vec = np.linspace(-1, 1, nv)
    ra, rb = np.zeros(nv), np.zeros(nv)
    mujoco.mj_mulM(mm, md, ra, vec)
    torsion.mj_mulM(tm, td, rb, vec)
    np.testing.assert_allclose(rb, ra, rtol=1e-10, atol=1e-12)
    mujoco.mj_rne(mm, md, 1, ra)
    torsion.mj_rne(tm, td, 1, rb)
    np.testing.assert_allclose(rb, ra, rtol=1e-9, atol=1e-9)


def test_views_are_writable_and_keep_owner_alive():
    """Arrays are live views: writes reach the engine; they outlive their MjData object."""
    m = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "hopper.xml"))
    d = torsion.MjData(m)
    d.qpos[2] = 3.0
    torsion.mj_kinematics(m, d)
    assert d.xpos[1, 2] != 0.0
    qpos, xpos = d.qpos, d.xpos
    m.body_mass[1] = 7.5
    assert m.body("torso").mass[0] == 7.5
    m.opt.timestep = 0.004
    assert m.opt.timestep == 0.004
    d.time = 1.5
    assert d.time == 1.5
    del d, m
    gc.collect()
    assert qpos[2] == 3.0
    assert xpos.shape[1] == 3


def test_load_errors():
    """Bad MJCF and missing files raise ValueError with the engine's message."""
    with pytest.raises(ValueError, match=r"\S"):
        torsion.MjModel.from_xml_string("<mujoco><bad/></mujoco>")
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string("<mujoco><bad/></mujoco>")
    with pytest.raises(ValueError, match="nonexistent"):
        torsion.MjModel.from_xml_path("/nonexistent/model.xml")
    with pytest.raises(TypeError):
        torsion.MjModel.from_xml_string(b"<mujoco/>")


def test_engine_error_raises_fatal_error(tmp_path):
    """A step that exhausts the arena (a capsule heap with <size memory="20K"/>, whose
    contacts overflow it once the capsules land) raises FatalError in both packages."""
    with open(os.path.join(REPO_ROOT, "tests", "models", "scenes", "capsule_heap.xml")) as f:
        text = f.read()
    path = tmp_path / "capsules_small.xml"
    start = text.index(">", text.index("<mujoco")) + 1
    path.write_text(text[:start] + '\n  <size memory="20K"/>' + text[start:])
    for mj in (mujoco, torsion):
        m = mj.MjModel.from_xml_path(str(path))
        d = mj.MjData(m)
        with pytest.raises(mj.FatalError, match="mj_stackAlloc"):
            mj.mj_step(m, d, nstep=400)


def test_bad_arguments_raise():
    """Wrong types, dtypes and sizes raise TypeError/ValueError, never crash."""
    m = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "hopper.xml"))
    d = torsion.MjData(m)
    n = torsion.mj_stateSize(m, int(torsion.mjtState.mjSTATE_FULLPHYSICS))
    with pytest.raises(TypeError):
        torsion.mj_step(d, m)
    with pytest.raises(TypeError):
        torsion.mj_getState(m, d, np.zeros(n, dtype=np.float32),
                            torsion.mjtState.mjSTATE_FULLPHYSICS)
    with pytest.raises(ValueError):
        torsion.mj_getState(m, d, np.zeros(n + 1), torsion.mjtState.mjSTATE_FULLPHYSICS)
    with pytest.raises(ValueError):
        torsion.mj_step(m, d, nstep=-1)
    other = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "ant.xml"))
    with pytest.raises(ValueError):
        torsion.mj_step(other, d)
    with pytest.raises(ValueError):
        torsion.mj_resetDataKeyframe(m, d, 5)


def test_assets_from_memory():
    """from_xml_string with assets (an included file and a mesh) compiles as MuJoCo's."""
    mesh_dir = os.path.join(REPO_ROOT, "tests", "models", "meshes")
    mesh = "tetra.stl"
    with open(os.path.join(mesh_dir, mesh), "rb") as f:
        mesh_bytes = f.read()
    part = b"""<mujoco><worldbody><body name="b" pos="0 0 1"><freejoint/>
      <geom type="mesh" mesh="m"/></body></worldbody></mujoco>"""
    xml = """<mujoco><asset><mesh name="m" file="%s"/></asset>
      <include file="part.xml"/></mujoco>""" % mesh
    assets = {mesh: mesh_bytes, "part.xml": part}
    mm = mujoco.MjModel.from_xml_string(xml, assets)
    tm = torsion.MjModel.from_xml_string(xml, assets)
    assert tm.nmesh == mm.nmesh == 1
    np.testing.assert_allclose(tm.body_mass, mm.body_mass, rtol=1e-10)
    np.testing.assert_allclose(tm.body_inertia, mm.body_inertia, rtol=1e-9)


def test_objects_are_freed_without_the_cycle_collector():
    """After arrays, structs and accessors were read, dropping the last reference frees
    the data and the model at once (no reference cycles that would hold engine memory)."""
    import weakref
    m = torsion.MjModel.from_xml_path(os.path.join(GYM_ASSETS, "hopper.xml"))
    d = torsion.MjData(m)
    torsion.mj_step(m, d)
    _ = (d.qpos, d.contact.dist, d.efc_J, d.warning[0].number, d.time, m.body_mass,
         m.opt.timestep, d.body(1).xpos, m.joint(1).range, d.joint(1).qpos)
    refs = [weakref.ref(d), weakref.ref(m)]
    gc.disable()
    try:
        del d, m, _
        assert [r() for r in refs] == [None, None]
    finally:
        gc.enable()
