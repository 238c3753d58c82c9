"""gtastream: decode the animation packages (IFP ANP3/ANP2/ANPK/ANLF, Stories .anim) and item
placement files (binary and text IPL) of the RenderWare-era GTA games.

The decoding is done by the Rust library gtastream; this package adds no format logic.

- ``decode(data)`` gives the structure ``gtastream dump --json`` prints, as a dict.
- ``load(path_or_bytes)`` gives a :class:`Package` (animation files), each bone's keyframes
  as numpy arrays, or a :class:`Placement` (IPL files) with numpy columns.
- ``events(f)`` streams the decoder's events from a binary file object in constant memory.
- :class:`DecodeError` is raised where a file does not decode (``.kind``, ``.reason``,
  ``.offset``).

Writing files is not offered yet.
"""

from ._native import (
    DECODER_SIZE,
    Animation,
    Bone,
    DecodeError,
    EventReader,
    Package,
    Placement,
    decode,
    events,
    load,
)

__all__ = [
    "DECODER_SIZE",
    "Animation",
    "Bone",
    "DecodeError",
    "EventReader",
    "Package",
    "Placement",
    "decode",
    "events",
    "load",
]
