"""gtastream: decode the animation packages (IFP ANP3/ANP2/ANPK/ANLF, Stories .anim) and item
placement files (binary and text IPL) of the RenderWare-era GTA games.

The decoding is done by the Rust library gtastream; this package adds no format logic.

- ``decode(data)`` gives the structure ``gtastream dump --json`` prints, as a dict.
- ``check(data, name=None, games=None)`` gives what ``gtastream check --json`` prints, as a
  dict: the findings of the games' loading rules (docs/CHECKS.md).
- ``check_folder(folder, game=None, base=None)`` gives what ``gtastream check --json DIR``
  prints: a game or mod folder (a path, or a mapping of relative paths to bytes, or a
  callable that opens a path) checked as the game loads it; :class:`FolderError` says why a
  folder cannot be checked at all.
- ``load(path_or_bytes)`` gives a :class:`Package` (animation files), each bone's keyframes
  as numpy arrays, or a :class:`Placement` (IPL files) with numpy columns.
- ``events(f)`` streams the decoder's events from a binary file object in constant memory.
- ``write(obj, path=None, format=None)`` writes a :class:`Package` as ANP3, ANP2 or ANPK,
  a :class:`Placement` as binary or text IPL, losslessly (the bytes when ``path`` is None).
- ``sample(data, animation, time, loop=False)`` gives the games' pose at a time (the structure
  ``gtastream sample --json`` prints), or, for many times, numpy arrays (docs/ANIMATION.md).
- ``convert(data, format)`` gives the bytes ``gtastream convert --to FORMAT`` writes.
- ``to_gltf(data, skeleton)`` gives an animation file's animations as glTF 2.0 on a model's
  skeleton (the ``.glb`` ``gtastream convert --to glb --skeleton MODEL`` writes);
  ``from_gltf(glb)`` the IFP ``gtastream convert --to anp3 IN.glb OUT.ifp`` writes.
- ``write_archive(entries)`` builds an IMG archive in memory; ``img_new``, ``img_add``,
  ``img_remove`` and ``img_rebuild`` make and edit archives on disk as ``gtastream img``
  does (written beside, checked, renamed); :class:`ArchiveError` says why one cannot be.
- :class:`DecodeError` is raised where a file does not decode (``.kind``, ``.reason``,
  ``.offset``); :class:`EncodeError` where it cannot be written as asked (``.kind``).
"""

from ._native import (
    DECODER_SIZE,
    Animation,
    ArchiveError,
    Bone,
    DecodeError,
    EncodeError,
    EventReader,
    FolderError,
    Package,
    Placement,
    check,
    check_folder,
    decode,
    convert,
    events,
    from_gltf,
    img_add,
    img_new,
    img_rebuild,
    img_remove,
    load,
    sample,
    to_gltf,
    write,
    write_archive,
)

__all__ = [
    "DECODER_SIZE",
    "Animation",
    "ArchiveError",
    "Bone",
    "DecodeError",
    "EncodeError",
    "EventReader",
    "FolderError",
    "Package",
    "Placement",
    "check",
    "check_folder",
    "decode",
    "convert",
    "events",
    "from_gltf",
    "img_add",
    "img_new",
    "img_rebuild",
    "img_remove",
    "load",
    "sample",
    "to_gltf",
    "write",
    "write_archive",
]
