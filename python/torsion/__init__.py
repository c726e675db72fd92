"""torsion: Torsion's physics engine in process, with MuJoCo's Python names.

    import torsion as mujoco
    m = mujoco.MjModel.from_xml_path("humanoid.xml")
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, nstep=10)

MjModel/MjData expose every array as a numpy view under MuJoCo's names; the mj_* functions
take MuJoCo's arguments; engine errors raise torsion.FatalError. torsion.batch.SimBatch
steps many environments in C threads; torsion.rollout mirrors mujoco.rollout;
torsion.Client talks to a torsiond daemon; torsion.gym holds Gymnasium vector environments."""

from . import _core
from ._core import FatalError
from ._enums import CONSTANTS, ENUMS
from ._enums import *  # noqa: F401,F403  (mjtObj, mjtState, ..., mjNREF, ...)
from ._model import MjModel
from ._data import MjData
from . import batch, rollout
from .client import Client, ServerError

# the engine functions with MuJoCo's names (mj_step, mjd_transitionFD, ...)
globals().update({name: getattr(_core, name) for name in dir(_core)
                  if name.startswith(("mj_", "mjd_", "tn_"))})

mjNWARNING = _core.mjNWARNING
__version__ = _core.TORSION_VERSION
MJTNUM_DTYPE = __import__("numpy").float64

__all__ = (["MjModel", "MjData", "FatalError", "batch", "rollout", "Client", "ServerError",
            "MJTNUM_DTYPE"]
           + [n for n in dir(_core) if n.startswith(("mj_", "mjd_"))]
           + list(ENUMS) + list(CONSTANTS))
