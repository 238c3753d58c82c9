"""sample(): the games' pose, worked out by hand; many times at once as numpy arrays."""

import math

import numpy as np
import pytest

import gtastream
from formats import ifp2

# Root: identity at 0 s, 180° about z at 2 s (120 ticks), translation (0,0,0) to (2,0,-2);
# Head: one key. At 1 s the games' slerp gives both weights sin(π/4): (0, 0, √½, √½).
FILE = ifp2([("walk", [
    ("Root", 4, 0, [(0, 0, 0, 4096, 0, 0, 0, 0), (0, 0, 4096, 0, 120, 2048, 0, -2048)]),
    ("Head", 3, 5, [(2048, 2048, 2048, 2048, 0)]),
])], flags=1)


def test_one_time_is_the_cli_document():
    pose = gtastream.sample(FILE, "walk", 1.0)
    half = 0.70710677
    assert pose["animation"] == "walk" and pose["time"] == 1
    root, head = pose["bones"]
    assert (root["name"], root["bone_id"], root["translation"]) == ("Root", 0, [1, 0, -1])
    assert root["rotation"] == [0, 0, half, half]
    assert head == {"name": "Head", "bone_id": 5, "rotation": [0.5, 0.5, 0.5, 0.5],
                    "translation": None}
    # Looped, 5 s wraps by the length (2 s) to 1 s; the name matches in any case.
    assert gtastream.sample(FILE, " WALK", 5, loop=True)["bones"] == pose["bones"]
    assert gtastream.decode(FILE)["animations"][0]["summary"]["length"] == 2


def test_many_times_give_arrays():
    times = np.array([0.0, 0.5, 1.0, 2.0, 3.0], dtype=np.float32)
    poses = gtastream.sample(FILE, "walk", times)
    assert poses["times"].shape == (5,)
    root, head = poses["bones"]
    assert root["rotation"].shape == (5, 4) and root["rotation"].dtype == np.float32
    assert root["translation"].shape == (5, 3)
    assert head["translation"] is None
    # Each row is the one-time pose.
    for i, t in enumerate(times):
        one = gtastream.sample(FILE, "walk", float(t))["bones"][0]
        np.testing.assert_array_equal(root["rotation"][i], np.float32(one["rotation"]))
    # 0.5 s: a quarter of the way, 45° about z; past the end the last key is held.
    assert root["rotation"][1].tolist() == pytest.approx(
        [0, 0, math.sin(math.pi / 8), math.cos(math.pi / 8)], abs=2e-6)
    assert root["rotation"][4].tolist() == [0, 0, 1, 0]


def test_errors():
    with pytest.raises(gtastream.DecodeError) as info:
        gtastream.sample(FILE, "run", 0.0)
    assert info.value.kind == "not_found"
