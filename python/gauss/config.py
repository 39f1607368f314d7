"""Building a C++ gauss::Config from Python values: a YAML-shaped dict or a YAML file, then
`--set` keys. The same parser and the same error messages as the `gauss` command line."""
import json
import os

from . import _gauss


def setting_text(value):
    """The --set spelling of a Python value: booleans as true/false, sequences comma-separated."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(setting_text(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def make_config(config=None, set_keys=None):
    """(dict | YAML path | None, {key: value}) => _gauss._Config.

    A dict is serialized as JSON (which is YAML) and parsed by the same strict parser as a file,
    so unknown keys and bad values raise gauss.Error naming the key and the valid choices."""
    if config is None:
        cfg = _gauss._Config()
    elif isinstance(config, dict):
        cfg = _gauss._parse_config(json.dumps(config, indent=1), "<config dict>")
    elif isinstance(config, (str, os.PathLike)):
        cfg = _gauss._load_config_file(os.fspath(config))
    else:
        raise TypeError("config must be a dict, a YAML file path or None, got "
                        + type(config).__name__)
    for key, value in (set_keys or {}).items():
        cfg.apply_setting(key.replace("__", ".") + "=" + setting_text(value))
    return cfg
