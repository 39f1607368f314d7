"""Gauss physics engine from Python: a thin layer over the C++ Model, Engine and Data.

    import gauss
    model = gauss.load_model("models/double_pendulum.xml")
    engine = gauss.Engine(model, integrator="rk4", timestep=0.001)
    d = engine.make_data()
    engine.step(d, n=1000)          # the GIL is released while stepping
    print(d.time, d.qpos)           # NumPy views of the C++ buffers

See docs/python.md.
"""
from . import _gauss
from ._gauss import Batch, Data, Error, Model, TransitionFD, WARNING_NAMES, config_keys
from ._gauss import (STATE_ACT, STATE_CTRL, STATE_EQ_ACTIVE, STATE_FULL_PHYSICS,  # noqa: F401
                     STATE_INTEGRATION, STATE_MOCAP, STATE_PHYSICS, STATE_QFRC_APPLIED,
                     STATE_QPOS, STATE_QVEL, STATE_TIME, STATE_USER, STATE_WARMSTART,
                     STATE_XFRC_APPLIED)
from .config import make_config
from .names import Element

__all__ = ["Batch", "Data", "Element", "Engine", "Error", "Model", "TransitionFD",
           "WARNING_NAMES", "config_keys",
           "load_model", "plugins", "plugin_search_paths", "GaussEnv", "CartPoleEnv", "Box"]


def load_model(path_or_xml):
    """Compiles an MJCF model from a file path or from XML text (text starting with '<').

    Bad input raises gauss.Error with the file, line, element and attribute."""
    import os
    if isinstance(path_or_xml, os.PathLike):
        return _gauss._load_model_file(os.fspath(path_or_xml))
    if not isinstance(path_or_xml, str):
        raise TypeError("load_model expects a file path or MJCF XML text, got "
                        + type(path_or_xml).__name__)
    if path_or_xml.lstrip().startswith("<"):
        return _gauss._load_model_string(path_or_xml)
    return _gauss._load_model_file(path_or_xml)


class Engine(_gauss._Engine):
    """A model bound to its options and plugins.

    Engine(model, config=None, **set_keys)
      config:   a dict with the structure of a YAML run configuration (docs/config.md), or
                the path of a YAML file;
      set_keys: `--set` settings, applied after `config` (highest precedence). Dots in keys
                are written as double underscores (flags__energy=True) or passed with
                **{"flags.energy": True}.
    """

    def __init__(self, model, config=None, **set_keys):
        if isinstance(model, str):
            raise TypeError("Engine expects a gauss.Model; load one with gauss.load_model(path)")
        super().__init__(model, make_config(config, set_keys))


def plugins(paths=()):
    """The plugin registry: every plugin found on the search path (as `gauss plugins` lists).

    Returns a list of dicts with kind, name, version, file, description, usable,
    capabilities (list of names) and params (the declared parameters: list of dicts with name,
    type, default, description). `paths` are extra
    directories searched first (like plugins.paths)."""
    found, _search_paths = _gauss._plugins([str(p) for p in paths])
    return found


def plugin_search_paths(paths=()):
    """The directories the registry searches, in order, each with the reason it is searched."""
    return _gauss._plugins([str(p) for p in paths])[1]


from .env import Box, CartPoleEnv, GaussEnv  # noqa: E402  (env uses Engine)
