"""events(): the streaming reader over file objects."""

import io
import json
import math
import re
import struct
import tracemalloc

import numpy as np
import pytest

import gtastream
from formats import ifp2

CLI_ERROR = re.compile(r"^gtastream: .*?: (?P<message>(?P<reason>.+?) at offset (?P<offset>\d+).*)$")


def rebuild(events):
    """The decode() document, put together from the events (the keyframe batches joined)."""
    doc = {"format": None, "name": None, "warnings": []}
    frames = None
    model = {}
    for name, payload in events:
        if name == "file":
            if doc["format"] is None:
                doc["format"], doc["name"] = payload["format"], payload["name"]
                if payload["format"] == "dff":
                    # A model's document: what the core's ModelBuilder gathers from the records.
                    del doc["name"], doc["warnings"]
                    doc.update(rw_version=f"0x{payload['rw_version']:08X}", frames=[], hanim=None,
                               skin=None, atomics=[], geometries=[])
                elif payload["format"] in ("bnry", "text"):
                    doc.update(instances=[], cars=[], section_lines=[])
                elif payload["format"] == "ide":
                    doc.update(objects=[], section_lines=[])
                else:
                    doc["animations"] = []
        elif name == "warning":
            doc["warnings"].append(payload)
        elif name == "animation":
            doc["animations"].append({
                "name": payload["name"], "frame_data_size": payload["frame_data_size"],
                "flags": payload["flags"], "duration": payload["duration"], "bones": []})
        elif name == "bone":
            bone = {k: payload[k] for k in ("name", "bone_id", "bone_key", "frame_type")}
            bone["frames"] = frames = []
            has = (payload["has_translation"], payload["has_scale"])
            doc["animations"][-1]["bones"].append(bone)
        elif name == "keyframes":
            assert payload.dtype == np.float32 and payload.shape[1] == 5 + 3 * sum(has)
            for row in payload.tolist():
                frame = {"time": row[0], "rotation": row[1:5]}
                rest = row[5:]
                if has[0]:
                    frame["translation"], rest = rest[:3], rest[3:]
                if has[1]:
                    frame["scale"] = rest[:3]
                frames.append(frame)
        elif name == "instance":
            doc["instances"].append(payload)
        elif name == "car":
            doc["cars"].append(payload)
        elif name == "section_line":
            doc["section_lines"].append(payload)
        elif name == "ide_object":
            doc["objects"].append(payload)
        elif name == "dff_frame":
            doc["frames"].append({"index": payload["index"], "parent": payload["parent"],
                                  "name": None, "rotation": payload["rotation"],
                                  "position": payload["position"], "bone_id": None})
        elif name == "dff_frame_name":
            if payload["frame"] < len(doc["frames"]):
                doc["frames"][payload["frame"]]["name"] = payload["name"]
        elif name == "dff_hanim":
            if payload["frame"] < len(doc["frames"]):
                doc["frames"][payload["frame"]]["bone_id"] = payload["node_id"]
            if payload["flags"] is not None and doc["hanim"] is None:
                doc["hanim"] = {"flags": payload["flags"], "nodes": []}
                model["hanim_frame"] = payload["frame"]
        elif name == "dff_hanim_node":
            if doc["hanim"] is not None and model.get("hanim_frame") == payload["frame"]:
                doc["hanim"]["nodes"].append({"id": payload["node_id"],
                                              "index": payload["node_index"],
                                              "flags": payload["flags"]})
        elif name == "dff_geometry":
            doc["geometries"].append({k: payload[k] for k in ("vertices", "triangles", "materials")})
        elif name == "dff_skin":
            if doc["skin"] is None:
                doc["skin"] = {k: payload[k] for k in ("bones", "used_bones", "max_weights")}
                doc["skin"]["inverse_bind"] = []
                model["skin_geometry"] = payload["geometry"]
        elif name == "dff_skin_bone":
            if doc["skin"] is not None and model.get("skin_geometry") == payload["geometry"]:
                doc["skin"]["inverse_bind"].append(payload["inverse_bind"])
        elif name == "dff_atomic":
            doc["atomics"].append({"frame": payload["frame"], "geometry": payload["geometry"]})
        elif name in ("rw_section", "dff_clump"):
            pass
        else:
            assert name in ("bone_end", "animation_end", "end") and payload is None
    return doc


ABSENT = {"summary", "raw", "trailing", "stored", "blocks", "container_size", "animation", "bone",
          "line"}


def same(a, b):
    """Equal as documents: numbers as float32 (the JSON has f32 text, None for NaN)."""
    if isinstance(a, dict):
        # The events carry no summary (test_sample.py checks it), no stored units and no
        # warning places (their events say where): a rebuilt document has none of them.
        if isinstance(b, dict):
            absent = {k for k in ABSENT if (k in a) != (k in b)}
            a = {k: v for k, v in a.items() if k not in absent}
            b = {k: v for k, v in b.items() if k not in absent}
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return (a is None or math.isnan(a)) and (b is None or math.isnan(b))
        return np.float32(a) == np.float32(b)
    return a == b


def test_rebuilt_events_match_decode_on_every_seed_whatever_the_chunk_size(seeds):
    for name, data in seeds.items():
        try:
            expected = gtastream.decode(data)
        except gtastream.DecodeError as error:
            # A refused seed: the same error, whatever the chunk size.
            for chunk_size in (1, 5, 64, 65536):
                with pytest.raises(gtastream.DecodeError) as caught:
                    list(gtastream.events(io.BytesIO(data), chunk_size=chunk_size))
                assert (caught.value.kind, caught.value.offset) == (error.kind, error.offset)
            continue
        for chunk_size in (1, 5, 64, 65536):
            events = list(gtastream.events(io.BytesIO(data), chunk_size=chunk_size))
            assert events[0][0] in ("file", "warning") and events[-1] == ("end", None)
            assert same(rebuild(events), expected), (name, chunk_size)


class Stream:
    """A file object that can only be read (a pipe, a socket)."""

    def __init__(self, data):
        self.file = io.BytesIO(data)
        self.read = self.file.read


def test_unseekable_files_decode_as_dump_no_seek(seeds, cli, tmp_path):
    outcomes = set()
    for name, data in seeds.items():
        path = tmp_path / name
        path.write_bytes(data)
        run = cli("dump", "--json", "--no-seek", path)
        try:
            got = rebuild(gtastream.events(Stream(data)))
        except gtastream.DecodeError as error:
            assert run.returncode == 1, name
            match = CLI_ERROR.match(run.stderr.strip())
            assert (error.reason, error.offset) == (match["reason"], int(match["offset"])), name
            # The place and what decoded before it, as the command says them.
            assert str(error) == match["message"], name
            outcomes.add(error.kind)
        else:
            assert run.returncode == 0, (name, run.stderr)
            assert same(got, json.loads(run.stdout)), name
            outcomes.add("ok")
    # Every Stories seed needs a seek; the other formats read front to back (a few seeds are
    # refused whatever the reading: an empty file, text that is not a placement).
    assert {"ok", "seek_required"} <= outcomes
    assert outcomes - {"ok", "seek_required"} <= {"empty", "bad_magic"}


def test_offsets_count_from_where_the_file_object_stood(seeds):
    """A file inside an archive: seeks (Stories) land relative to tell() at the start."""
    for name, data in seeds.items():
        try:
            expected = gtastream.decode(data)
        except gtastream.DecodeError:
            continue
        prefix = b"\xff" * 1000
        f = io.BytesIO(prefix + data)
        f.seek(len(prefix))
        got = rebuild(gtastream.events(f, chunk_size=300))
        assert same(got, expected), name


def test_event_order_and_payloads():
    data = ifp2([("walk", [("Root", 4, 0, [(0, 0, 0, 4096, 0, 1024, 0, 0)] * 3),
                           ("Spine", 1, 2, [(0.0, 0.0, 0.0, 1.0, 0.5)])])], package="demo")
    events = list(gtastream.events(io.BytesIO(data)))
    assert [name for name, _ in events] == [
        "file", "animation", "bone", "keyframes", "bone_end", "bone", "keyframes", "bone_end",
        "animation_end", "end"]
    assert events[0][1] == {"format": "ANP3", "name": "demo", "animation_count": 1,
                            "instance_count": None, "car_count": None, "rw_version": None}
    assert events[1][1] == {"index": 0, "name": "walk", "bone_count": 2, "frame_data_size": 68,
                            "flags": 1, "duration": None}
    assert events[2][1] == {"index": 0, "name": "Root", "bone_id": 0, "bone_key": None,
                            "frame_type": "ifp2_packed_rot_trans", "frame_count": 3,
                            "has_translation": True, "has_scale": False}
    np.testing.assert_array_equal(events[3][1], np.array([[0, 0, 0, 0, 1, 1, 0, 0]] * 3,
                                                         dtype=np.float32))
    np.testing.assert_array_equal(events[6][1], np.array([[0.5, 0, 0, 0, 1]], dtype=np.float32))


def test_events_before_an_error_come_first():
    data = ifp2([("walk", [("Root", 3, 0, [(0, 0, 0, 4096, t) for t in range(10)])])])
    reader = gtastream.events(io.BytesIO(data[:-15]), chunk_size=50)
    names = []
    with pytest.raises(gtastream.DecodeError) as caught:
        for name, payload in reader:
            names.append(name)
    assert (caught.value.kind, caught.value.offset) == ("truncated", len(data) - 20)
    assert names[:3] == ["file", "animation", "bone"] and set(names[3:]) == {"keyframes"}
    with pytest.raises(StopIteration):
        next(reader)


class VirtualAnp3:
    """An ANP3 file of one bone with `frames` packed keyframes, made as it is read: the
    whole file never exists in memory. Counts the bytes read."""

    RECORD = struct.pack("<5h", 0, 0, 0, 4096, 0)

    def __init__(self, frames):
        header = ifp2([("big", [("Root", 3, 0, [])])])
        header = header[:100] + struct.pack("<I", frames) + header[104:]
        self.head, self.size = header, len(header) + 10 * frames
        self.position = 0

    def read(self, n):
        start, end = self.position, min(self.position + n, self.size)
        out = bytearray()
        if start < len(self.head):
            out += self.head[start:min(end, len(self.head))]
        body_start = max(start, len(self.head))
        if body_start < end:
            offset = (body_start - len(self.head)) % 10
            count = (end - body_start + offset + 9) // 10
            out += (self.RECORD * count)[offset:offset + end - body_start]
        self.position = end
        return bytes(out)


def test_constant_memory_on_a_large_stream():
    frames = 3_000_000  # 30 MB of keyframes
    f = VirtualAnp3(frames)
    reader = gtastream.events(f, chunk_size=16384)
    assert next(reader)[0] == "file" and f.position <= 16384
    tracemalloc.start()
    try:
        seen = 0
        warnings = []
        for name, payload in reader:
            if name == "keyframes":
                seen += len(payload)
            elif name == "warning":
                warnings.append(payload)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seen == frames and f.position == f.size
    # The header was written for a bone without keyframes: both sizes disagree.
    assert [(w["kind"], w["offset"]) for w in warnings] == [
        ("frame_data_size_mismatch", 36 + 28), ("size_mismatch", 4)]
    assert peak < 1_000_000, f"peak {peak} bytes while streaming {f.size} bytes"


class BytearrayReader:
    """A reader whose read() gives bytearrays (some socket and custom readers do)."""

    def __init__(self, data):
        self.file = io.BytesIO(data)

    def read(self, n):
        return bytearray(self.file.read(n))


def test_readers_returning_other_buffers(seeds):
    data = seeds["anp3"]
    got = rebuild(gtastream.events(BytearrayReader(data), chunk_size=7))
    assert same(got, gtastream.decode(data))


def test_wrong_file_objects():
    with pytest.raises(TypeError):
        list(gtastream.events(io.StringIO("inst\nend\n")))
    with pytest.raises(ValueError):
        gtastream.events(io.BytesIO(b""), chunk_size=0)
    with pytest.raises(AttributeError):
        list(gtastream.events(object()))
    # An empty file is an error of its own, as for decode().
    with pytest.raises(gtastream.DecodeError) as caught:
        list(gtastream.events(io.BytesIO(b"")))
    assert caught.value.kind == "empty"


def test_errors_name_their_place_as_decode_does():
    data = ifp2([("walk", [("root", 3, 0, [(0, 0, 0, 4096, 0)] * 3)])])[:-4]
    with pytest.raises(gtastream.DecodeError) as decoded:
        gtastream.decode(data)
    for chunk_size in (1, 7, 65536):
        with pytest.raises(gtastream.DecodeError) as caught:
            for _ in gtastream.events(io.BytesIO(data), chunk_size=chunk_size):
                pass
        error = caught.value
        assert (error.animation, error.bone, error.line) == (0, 0, None), chunk_size
        assert str(error) == str(decoded.value), chunk_size
        assert "after 1 animation, 1 bone, 2 keyframes" in str(error)
