"""Fixture files packed by hand from docs/FORMATS.md (test code may know the formats; the
package under test may not)."""

import struct


def name_field(name, size, tail=b""):
    """The name, its NUL, then `tail` (what some exporters leave there) and zeros."""
    raw = name.encode("latin-1") + b"\0" + tail
    assert len(raw) <= size
    return raw + b"\0" * (size - len(raw))


# IFP version 2 (§2). A bone is (name, frame_type, bone_id, frames); a frame is the tuple of
# stored fields in file order: (qx, qy, qz, qw, time[, tx, ty, tz]), ints for types 3 and 4.
RECORD = {1: "<5f", 2: "<8f", 3: "<5h", 4: "<8h"}


def ifp2(animations, package="pkg", magic=b"ANP3", size=None, frame_data_size=None, flags=1,
         tail=b""):
    body = name_field(package, 24, tail) + struct.pack("<I", len(animations))
    for anim_name, bones in animations:
        records = b"".join(
            struct.pack(RECORD[t], *frame) for _, t, _, frames in bones for frame in frames)
        body += name_field(anim_name, 24, tail) + struct.pack("<I", len(bones))
        if magic == b"ANP3":
            declared = len(records) if frame_data_size is None else frame_data_size
            body += struct.pack("<II", declared, flags)
        for bone_name, frame_type, bone_id, frames in bones:
            body += name_field(bone_name, 24, tail)
            body += struct.pack("<IIi", frame_type, len(frames), bone_id)
            body += b"".join(struct.pack(RECORD[frame_type], *f) for f in frames)
    return magic + struct.pack("<I", len(body) if size is None else size) + body


def chunk(tag, payload, size=None):
    padding = b"\0" * (-len(payload) % 4)
    return tag + struct.pack("<I", len(payload) if size is None else size) + payload + padding


# ANPK (§1). A bone is (name, tag, bone_id, frames); frames hold the stored floats in file
# order (quaternion, [translation, [scale,]] time).
def anpk(animations, package="pkg", tail=b"", anim48=False):
    """``anim48``: GTA III's form of the ANIM chunk (48 bytes: two unused fields for the bone
    id), else Vice City's (44)."""
    info = chunk(b"INFO", struct.pack("<i", len(animations)) + package.encode() + b"\0")
    body = info
    for anim_name, bones in animations:
        objects = b""
        for bone_name, tag, bone_id, frames in bones:
            anim = chunk(b"ANIM", name_field(bone_name, 28, tail)
                         + struct.pack("<iiii", len(frames), 0, len(frames) - 1, bone_id)
                         + (struct.pack("<i", 0) if anim48 else b""))
            keyframes = b"".join(struct.pack(f"<{len(f)}f", *f) for f in frames)
            objects += chunk(b"CPAN", anim + chunk(tag, keyframes))
        dgan = chunk(b"DGAN", chunk(b"INFO", struct.pack("<ii", len(bones), 0)) + objects)
        body += chunk(b"NAME", anim_name.encode() + b"\0") + dgan
    return chunk(b"ANPK", body)


# Binary IPL (§4.1-4.3): instances are (position[3], rotation[4], model_id, interior, lod),
# cars (position[3], angle, eight ints).
def bnry(instances, cars):
    inst = b"".join(struct.pack("<3f4fiIi", *p, *r, m, i, l) for p, r, m, i, l in instances)
    car = b"".join(struct.pack("<3ff8i", *p, a, *ints) for p, a, ints in cars)
    inst_offset = 76
    cars_offset = inst_offset + len(inst)
    header = b"bnry" + struct.pack(
        "<6I12I", len(instances), 0, 0, 0, len(cars), 0,
        inst_offset, len(inst), 0, 0, 0, 0, 0, 0, cars_offset, len(car), 0, 0)
    assert len(header) == 76
    return header + inst + car
