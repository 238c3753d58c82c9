"""Times gtastream.decode() (the document of `dump --json` as dicts and lists), load() (numpy)
and events() (streaming) against a pure-Python reader of the same bytes, and measures each one's
peak memory in a process of its own (its peak resident set, less that of a process that only
reads the file). Times are CPU time; the ways take turns, one run each a round, and each figure
is the median over --rounds, the ratio to the peer the median of each round's ratio (on a busy
machine wall-clock time says more about the neighbours, and turns share its drift).

    cargo run --release --features alloc --example bench_file -- target/bench-4mib.ifp 4
    python bindings/python/bench/bench_decode.py target/bench-4mib.ifp

The peer is rwfury's `Ifp.from_bytes` (pip install rwfury) when it is installed; the
pure-Python reader below (struct, one object per keyframe, as such peers are written) is always
timed as well. The goal (issue 26): decode() at least 10x faster than the peer, with no more
memory.
"""

import argparse
import gc
import io
import resource
import statistics
import struct
import subprocess
import sys
import time

import gtastream


class Frame:
    __slots__ = ("time", "rotation", "translation")

    def __init__(self, time, rotation, translation):
        self.time = time
        self.rotation = rotation
        self.translation = translation


def python_anp3(data):
    """ANP3 into [(animation, [(bone, bone_id, [Frame])])], struct.unpack per keyframe."""
    assert data[:4] == b"ANP3", data[:4]
    (count,) = struct.unpack_from("<I", data, 32)
    at = 36
    animations = []
    for _ in range(count):
        name = data[at:at + 24].split(b"\0", 1)[0].decode("latin-1")
        (bone_count,) = struct.unpack_from("<I", data, at + 24)
        at += 36
        bones = []
        for _ in range(bone_count):
            bone = data[at:at + 24].split(b"\0", 1)[0].decode("latin-1")
            frame_type, count_frames, bone_id = struct.unpack_from("<IIi", data, at + 24)
            at += 36
            frames = []
            for _ in range(count_frames):
                if frame_type >= 3:
                    qx, qy, qz, qw, t = struct.unpack_from("<5h", data, at)
                    at += 10
                    rotation = (qx / 4096, qy / 4096, qz / 4096, qw / 4096)
                    translation = None
                    if frame_type == 4:
                        tx, ty, tz = struct.unpack_from("<3h", data, at)
                        at += 6
                        translation = (tx / 1024, ty / 1024, tz / 1024)
                    frames.append(Frame(t / 60, rotation, translation))
                else:
                    qx, qy, qz, qw, t = struct.unpack_from("<5f", data, at)
                    at += 20
                    translation = None
                    if frame_type == 2:
                        translation = struct.unpack_from("<3f", data, at)
                        at += 12
                    frames.append(Frame(t, (qx, qy, qz, qw), translation))
            bones.append((bone, bone_id, frames))
        animations.append((name, bones))
    return animations


def rwfury_parse():
    try:
        from rwfury.ifp import Ifp
    except ImportError:
        return None
    return Ifp.from_bytes


def events(data):
    count = 0
    for _ in gtastream.events(io.BytesIO(data)):
        count += 1
    return count


def ways(data):
    found = {
        "pure Python (struct, an object per keyframe)": lambda: python_anp3(data),
        "gtastream.decode(bytes)": lambda: gtastream.decode(data),
        "gtastream.load(bytes) (numpy)": lambda: gtastream.load(data),
        "gtastream.events(BytesIO) iterated": lambda: events(data),
        "none": lambda: None,
    }
    peer = rwfury_parse()
    if peer is not None:
        found = {"rwfury Ifp.from_bytes": lambda: peer(data), **found}
    return found


def peak_resident():
    """Bytes: this process's peak resident set (Linux's VmHWM, which, unlike ru_maxrss, does
    not start from the parent's peak when a child process is started)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--memory", help=argparse.SUPPRESS)
    args = parser.parse_args()
    with open(args.file, "rb") as f:
        data = f.read()
    table = ways(data)
    if args.memory:
        kept = table[args.memory]()
        print(peak_resident(), type(kept).__name__)
        return

    def peak(way):
        run = subprocess.run([sys.executable, __file__, args.file, "--memory", way],
                             capture_output=True, text=True, check=True)
        return int(run.stdout.split()[0])

    idle = peak("none")
    print(f"{args.file}: {len(data)} bytes")
    ways_timed = [way for way in table if way != "none"]
    times = {way: [] for way in ways_timed}
    for _ in range(args.rounds):
        for way in ways_timed:
            started = time.process_time()
            kept = table[way]()
            times[way].append((time.process_time() - started) * 1000)
            del kept
            gc.collect()
    results = {}
    for way in ways_timed:
        mb = (peak(way) - idle) / 1e6
        results[way] = (statistics.median(times[way]), mb)
        print(f"{way:46} {results[way][0]:9.1f} ms CPU {mb:8.1f} MB peak")
    peer = "rwfury Ifp.from_bytes" if "rwfury Ifp.from_bytes" in results \
        else "pure Python (struct, an object per keyframe)"
    ours = "gtastream.decode(bytes)"
    ratio = statistics.median(p / o for p, o in zip(times[peer], times[ours]))
    print(f"goal: decode() {ratio:.1f}x faster than {peer} (>= 10; median of the rounds' "
          f"ratios), {results[ours][1] / results[peer][1]:.2f}x its memory (<= 1)")


if __name__ == "__main__":
    main()
