"""Times gtastream.load() on an animation file against the command-line tool and a pure-Python
reader of the kind Blender add-ons carry (struct.unpack, one keyframe at a time).

    cargo run --release --features alloc --example bench_file -- target/bench-4mib.ifp 4
    cargo build --release -p gtastream-cli
    python bindings/python/bench/bench_load.py target/bench-4mib.ifp --cli target/release/gtastream

The pure-Python reader handles ANP3/ANP2 (docs/FORMATS.md §2) only, and is checked against
load() before it is timed, so both do the same work: every keyframe of every bone, converted.
"""

import argparse
import io
import pathlib
import resource
import struct
import subprocess
import time

import numpy as np

import gtastream


def python_ifp2(data):
    """ANP3/ANP2 into [(animation, [(bone, bone_id, times, rotations, translations)])]."""
    magic = data[:4]
    assert magic in (b"ANP3", b"ANP2"), magic
    (count,) = struct.unpack_from("<I", data, 32)
    at = 36
    animations = []
    for _ in range(count):
        name = data[at:at + 24].split(b"\0", 1)[0].decode("latin-1")
        (bone_count,) = struct.unpack_from("<I", data, at + 24)
        at += 36 if magic == b"ANP3" else 28
        bones = []
        for _ in range(bone_count):
            bone = data[at:at + 24].split(b"\0", 1)[0].decode("latin-1")
            frame_type, frames, bone_id = struct.unpack_from("<IIi", data, at + 24)
            at += 36
            times, rotations, translations = [], [], []
            if frame_type in (3, 4):
                size = 10 if frame_type == 3 else 16
                layout = "<5h" if frame_type == 3 else "<8h"
                for _ in range(frames):
                    v = struct.unpack_from(layout, data, at)
                    rotations.append((v[0] / 4096, v[1] / 4096, v[2] / 4096, v[3] / 4096))
                    times.append(v[4] / 60)
                    if frame_type == 4:
                        translations.append((v[5] / 1024, v[6] / 1024, v[7] / 1024))
                    at += size
            else:
                size = 20 if frame_type == 1 else 32
                layout = "<5f" if frame_type == 1 else "<8f"
                for _ in range(frames):
                    v = struct.unpack_from(layout, data, at)
                    rotations.append(v[0:4])
                    times.append(v[4])
                    if frame_type == 2:
                        translations.append(v[5:8])
                    at += size
            bones.append((bone, bone_id, times, rotations, translations))
        animations.append((name, bones))
    return animations


def check_same(package, animations):
    assert len(package.animations) == len(animations)
    for animation, (name, bones) in zip(package.animations, animations):
        assert animation.name == name and len(animation.bones) == len(bones)
        for bone, (bone_name, bone_id, times, rotations, translations) in zip(
                animation.bones, bones):
            assert (bone.name, bone.bone_id) == (bone_name, bone_id)
            np.testing.assert_array_equal(bone.times, np.array(times, dtype=np.float32))
            np.testing.assert_array_equal(
                bone.rotations, np.array(rotations, dtype=np.float32).reshape(-1, 4))
            if bone.translations is not None:
                np.testing.assert_array_equal(
                    bone.translations, np.array(translations, dtype=np.float32).reshape(-1, 3))


def cpu():
    """CPU seconds of this process and its finished children: stable on a busy machine."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def best(function, repeat):
    """The best wall-clock and the best CPU time of `repeat` runs, in seconds."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), cpu()
        function()
        walls.append(time.perf_counter() - start)
        cpus.append(cpu() - start_cpu)
    return min(walls), min(cpus)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=pathlib.Path)
    parser.add_argument("--cli", type=pathlib.Path, help="the gtastream binary (release)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data = args.file.read_bytes()
    package = gtastream.load(data)
    frames = sum(len(b) for a in package.animations for b in a.bones)
    check_same(package, python_ifp2(data))
    mib = len(data) / (1 << 20)
    print(f"{args.file}: {len(data)} bytes ({mib:.1f} MiB), {len(package.animations)} "
          f"animations, {frames} keyframes; best of {args.repeat}")

    def events():
        for _ in gtastream.events(io.BytesIO(data)):
            pass

    rows = [
        ("gtastream.load(path)", lambda: gtastream.load(str(args.file))),
        ("gtastream.load(bytes)", lambda: gtastream.load(data)),
        ("gtastream.events(BytesIO) iterated", events),
        ("gtastream.decode(bytes) (dicts built in Rust)", lambda: gtastream.decode(data)),
        ("pure Python, struct.unpack_from per keyframe", lambda: python_ifp2(data)),
    ]
    if args.cli:
        for command in (["info"], ["dump", "--json"]):
            argv = [str(args.cli), *command, str(args.file)]
            rows.append((f"CLI `gtastream {' '.join(command)}` (process, output discarded)",
                         lambda argv=argv: subprocess.run(argv, check=True,
                                                          stdout=subprocess.DEVNULL)))
    results = [(label, *best(f, args.repeat)) for label, f in rows]
    base = results[0][2]
    print(f"  {'':58} {'wall':>9}     {'CPU':>9}     {'MiB/s (CPU)':>11}  vs load")
    for label, wall, seconds in results:
        print(f"  {label:58} {wall * 1000:9.1f} ms  {seconds * 1000:9.1f} ms  "
              f"{mib / max(seconds, 1e-9):11.1f}  {seconds / base:7.2f}x")


if __name__ == "__main__":
    main()
