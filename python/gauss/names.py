"""Names <-> ids on gauss.Model: model.body("torso").id, model.joint(0).name, ...

The lookups are added to the compiled Model class as methods; each returns an Element with the
kind, id and name, and raises KeyError (listing the valid names) for an unknown name."""
from typing import NamedTuple

from . import _gauss


class Element(NamedTuple):
    kind: str
    id: int
    name: str


# element kind -> the Model attribute listing the names of that kind
_KINDS = {
    "body": "body_names",
    "joint": "joint_names",
    "geom": "geom_names",
    "site": "site_names",
    "camera": "camera_names",
    "actuator": "actuator_names",
    "tendon": "tendon_names",
    "sensor": "sensor_names",
    "eq": "eq_names",
    "key": "key_names",
    "mesh": "mesh_names",
    "hfield": "hfield_names",
    "numeric": "numeric_names",
    "material": "material_names",
    "skin": "skin_names",
}


def _lookup(model, kind, names_attr, name_or_id):
    names = getattr(model, names_attr)
    if isinstance(name_or_id, str):
        try:
            return Element(kind, names.index(name_or_id), name_or_id)
        except ValueError:
            named = [n for n in names if n]
            shown = ", ".join(named[:20]) + (", ..." if len(named) > 20 else "")
            raise KeyError(f"no {kind} named '{name_or_id}' in model '{model.name}'; "
                           f"named {kind}s: {shown or 'none'}") from None
    index = int(name_or_id)
    if not 0 <= index < len(names):
        raise IndexError(f"{kind} id {index} out of range: model '{model.name}' has "
                         f"{len(names)} {kind}s")
    return Element(kind, index, names[index])


def _make_lookup(kind, names_attr):
    def lookup(self, name_or_id):
        return _lookup(self, kind, names_attr, name_or_id)
    lookup.__name__ = kind
    lookup.__doc__ = f"The {kind} with this name or id: Element(kind, id, name)."
    return lookup


for _kind, _attr in _KINDS.items():
    setattr(_gauss.Model, _kind, _make_lookup(_kind, _attr))
