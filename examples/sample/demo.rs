//! The procedural "demo" package behind `samples/walk.ifp`.
//!
//! Shared by `examples/make_sample.rs` (which writes the file) and `tests/decode/samples.rs` (which
//! checks that the committed file is exactly what this code makes), so the sample is provably
//! ours: every byte comes from the formulas below and `gtastream::encode::ifp2`.
//!
//! The motion is a stylised human: a Root bone (frame type 4) that travels forward and bobs,
//! and packed-rotation bones (type 3) that swing on sine curves. The sine is computed here with
//! plain IEEE-754 arithmetic (range reduction and a fixed polynomial) rather than the platform's
//! `libm`, so the output is the same on every machine.

use gtastream::{Animation, Bone, Format, FrameType, Keyframe, Package};

/// Where the sample lives, relative to the workspace root.
pub const SAMPLE_PATH: &str = "samples/walk.ifp";

/// Ticks per second of IFP version 2 keyframe times.
const TICKS_PER_SECOND: f64 = 60.0;

const PI: f64 = core::f64::consts::PI;
const TAU: f64 = core::f64::consts::TAU;

/// The encoded sample file.
pub fn bytes() -> Vec<u8> {
    gtastream::encode::ifp2(&package()).expect("the demo package is encodable")
}

/// The sample as a package: "walk", "run" and "idle".
pub fn package() -> Package {
    Package {
        format: Format::Anp3,
        name: Some("demo".into()),
        animations: vec![
            // 64 ticks per cycle at 1.9 m/s: a walk.
            gait(
                "walk",
                &Gait {
                    cycle_ticks: 64,
                    key_ticks: 4,
                    speed: 1.9,
                    bob: 0.025,
                    swing: 25.0,
                },
            ),
            // 40 ticks per cycle at 4.5 m/s: a jog.
            gait(
                "run",
                &Gait {
                    cycle_ticks: 40,
                    key_ticks: 4,
                    speed: 4.5,
                    bob: 0.05,
                    swing: 40.0,
                },
            ),
            idle(),
        ],
        warnings: Vec::new(),
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

/// Parameters of a looping locomotion cycle.
struct Gait {
    cycle_ticks: u32,
    key_ticks: u32,
    /// Metres per second along +y.
    speed: f64,
    /// Vertical bob amplitude in metres (twice per cycle: once per step).
    bob: f64,
    /// Thigh swing amplitude in degrees.
    swing: f64,
}

fn gait(name: &str, g: &Gait) -> Animation {
    let keys = keys(g.cycle_ticks, g.key_ticks);
    // Phase of the cycle, 0..2π, at a given time in seconds.
    let period = f64::from(g.cycle_ticks) / TICKS_PER_SECOND;
    let phase = move |t: f64| TAU * t / period;
    let s = g.swing;
    Animation {
        name: name.into(),
        frame_data_size: None,
        flags: None,
        duration: None,
        bones: vec![
            bone("Root", 0, FrameType::Ifp2PackedRotTrans, &keys, |t| {
                let p = phase(t);
                let rotation = axis_angle(Z, 3.0 * sin(p));
                let translation = [0.01 * sin(p), g.speed * t, g.bob * cos(2.0 * p)];
                (rotation, translation)
            }),
            bone("Pelvis", 1, FrameType::Ifp2PackedRot, &keys, |t| {
                let p = phase(t);
                let roll = axis_angle(Y, 4.0 * sin(p));
                let twist = axis_angle(Z, 5.0 * cos(p));
                (mul(roll, twist), [0.0; 3])
            }),
            bone("Spine", 2, FrameType::Ifp2PackedRot, &keys, |t| {
                let p = phase(t);
                let counter = axis_angle(Z, -6.0 * cos(p));
                let lean = axis_angle(X, 4.0 + 2.0 * cos(2.0 * p));
                (mul(lean, counter), [0.0; 3])
            }),
            bone("L Thigh", 41, FrameType::Ifp2PackedRot, &keys, |t| {
                (axis_angle(X, s * sin(phase(t))), [0.0; 3])
            }),
            bone("R Thigh", 51, FrameType::Ifp2PackedRot, &keys, |t| {
                (axis_angle(X, s * sin(phase(t) + PI)), [0.0; 3])
            }),
            // No id: matched to the skeleton by name, as many stock bones are.
            bone("Head", -1, FrameType::Ifp2PackedRot, &keys, |t| {
                (axis_angle(X, -2.0 * cos(2.0 * phase(t))), [0.0; 3])
            }),
        ],
        raw: Vec::new(),
    }
}

/// Standing still and breathing: two seconds, a slow sway.
fn idle() -> Animation {
    let keys = keys(120, 10);
    let phase = |t: f64| TAU * t / 2.0;
    Animation {
        name: "idle".into(),
        frame_data_size: None,
        flags: None,
        duration: None,
        bones: vec![
            bone("Root", 0, FrameType::Ifp2PackedRotTrans, &keys, |t| {
                let p = phase(t);
                (
                    axis_angle(Z, 1.5 * sin(p)),
                    [0.015 * sin(p), 0.0, 0.005 * cos(2.0 * p)],
                )
            }),
            bone("Spine", 2, FrameType::Ifp2PackedRot, &keys, |t| {
                (axis_angle(X, 2.0 + 1.5 * sin(phase(t))), [0.0; 3])
            }),
            bone("Head", -1, FrameType::Ifp2PackedRot, &keys, |t| {
                let p = phase(t);
                let look = axis_angle(Z, 8.0 * sin(0.5 * p));
                let nod = axis_angle(X, -cos(p));
                (mul(look, nod), [0.0; 3])
            }),
        ],
        raw: Vec::new(),
    }
}

/// Key times in ticks: 0, step, 2·step, …, cycle (the last key repeats the first pose).
fn keys(cycle_ticks: u32, key_ticks: u32) -> Vec<u32> {
    (0..=cycle_ticks).step_by(key_ticks as usize).collect()
}

type Pose = ([f64; 4], [f64; 3]);

fn bone(
    name: &str,
    bone_id: i32,
    frame_type: FrameType,
    keys: &[u32],
    pose: impl Fn(f64) -> Pose,
) -> Bone {
    let frames = keys
        .iter()
        .map(|&tick| {
            let t = f64::from(tick) / TICKS_PER_SECOND;
            let (rotation, translation) = pose(t);
            Keyframe {
                time: t as f32,
                rotation: rotation.map(|v| v as f32),
                translation: translation.map(|v| v as f32),
                scale: [0.0; 3],
            }
        })
        .collect();
    Bone {
        name: Some(name.into()),
        bone_id: Some(bone_id),
        bone_key: None,
        frame_type,
        frames,
        raw: Vec::new(),
    }
}

const X: [f64; 3] = [1.0, 0.0, 0.0];
const Y: [f64; 3] = [0.0, 1.0, 0.0];
const Z: [f64; 3] = [0.0, 0.0, 1.0];

/// The unit quaternion `[x, y, z, w]` turning `degrees` about the unit vector `axis`.
fn axis_angle(axis: [f64; 3], degrees: f64) -> [f64; 4] {
    let half = degrees * PI / 360.0;
    let s = sin(half);
    [axis[0] * s, axis[1] * s, axis[2] * s, cos(half)]
}

/// Hamilton product `a · b` of quaternions `[x, y, z, w]`.
fn mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// Sine from `+ - * /` and rounding only, all of which IEEE-754 defines exactly.
fn sin(x: f64) -> f64 {
    // Reduce to [-π, π], then fold into [-π/2, π/2] where the series converges fast.
    let mut r = x - (x / TAU).round() * TAU;
    if r > PI / 2.0 {
        r = PI - r;
    } else if r < -PI / 2.0 {
        r = -PI - r;
    }
    // Taylor series to r^17: the error is below 1e-13 on [-π/2, π/2].
    let r2 = r * r;
    let mut sum = 0.0;
    let mut term = r;
    for n in 1..=9u32 {
        sum += term;
        let k = f64::from(2 * n);
        term = -term * r2 / (k * (k + 1.0));
    }
    sum
}

fn cos(x: f64) -> f64 {
    sin(x + PI / 2.0)
}
