//! The `gtastream` binary, run as a user runs it, on fixtures built in code by the encoder.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};

use gtastream::{Animation, Bone, Format, FrameType, Keyframe, Package};
use support::Json;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gtastream"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> &str {
    std::str::from_utf8(&output.stdout).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).expect("stderr is UTF-8")
}

/// Writes `bytes` to a file of that name in the tests' scratch directory.
fn fixture(name: &str, bytes: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

fn frame(time: f32, rotation: [f32; 4], translation: [f32; 3]) -> Keyframe {
    Keyframe {
        time,
        rotation,
        translation,
        scale: [0.0; 3],
    }
}

fn bone(name: &str, id: i32, frame_type: FrameType, frames: Vec<Keyframe>) -> Bone {
    Bone {
        name: Some(name.into()),
        bone_id: Some(id),
        frame_type,
        frames,
    }
}

fn animation(name: &str, bones: Vec<Bone>) -> Animation {
    Animation {
        name: name.into(),
        frame_data_size: None,
        flags: None,
        bones,
    }
}

const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// The package name: a quote, a backslash, a control character and a Latin-1 letter.
const ODD_NAME: &str = "q\"b\\\u{1}\u{e9}!";

/// Every IFP2 frame type, a −1 bone id, a bone without frames, a NaN, and a package name that
/// needs escaping, with garbage after its NUL.
fn varied_package() -> Package {
    let half = [0.5, -0.5, 0.5, 0.5];
    Package {
        format: Format::Anp3,
        name: Some(ODD_NAME.into()),
        animations: vec![
            animation(
                "packed",
                vec![
                    bone(
                        "Root",
                        0,
                        FrameType::Ifp2PackedRotTrans,
                        vec![
                            frame(0.0, IDENTITY, [0.0; 3]),
                            frame(0.5, half, [1.0, -2.0, 0.5]),
                        ],
                    ),
                    bone(
                        "Bip01",
                        -1,
                        FrameType::Ifp2PackedRot,
                        vec![frame(1.0 / 60.0, [0.25, 0.0, 0.0, 0.96875], [0.0; 3])],
                    ),
                ],
            ),
            animation(
                "floats",
                vec![
                    bone(
                        "F1",
                        7,
                        FrameType::Ifp2Rot,
                        vec![
                            frame(0.25, [0.1, 0.2, 0.3, 0.9], [0.0; 3]),
                            frame(0.75, [f32::NAN, 0.0, 0.0, 1.0], [0.0; 3]),
                        ],
                    ),
                    bone(
                        "F2",
                        12,
                        FrameType::Ifp2RotTrans,
                        vec![frame(1.0 / 3.0, IDENTITY, [1.5, -0.001, 1e-7])],
                    ),
                    bone("Empty", 3, FrameType::Ifp2PackedRot, vec![]),
                ],
            ),
        ],
        warnings: vec![],
    }
}

fn varied_bytes() -> Vec<u8> {
    let mut bytes = gtastream::encode::ifp2(&varied_package()).unwrap();
    // Bytes after the name's NUL are never data: make them garbage.
    let after_nul = 8 + ODD_NAME.chars().count() + 1;
    bytes[after_nul..8 + 24].fill(b'X');
    bytes
}

#[test]
fn dump_json_shape_and_values() {
    let path = fixture("varied.ifp", &varied_bytes());
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let json = Json::parse(stdout(&output)).expect("valid JSON");

    assert_eq!(json.get("format").str(), "ANP3");
    assert_eq!(json.get("name").str(), ODD_NAME);
    assert_eq!(json.get("warnings").arr(), &[]);
    let expected = varied_package();
    let animations = json.get("animations").arr();
    assert_eq!(animations.len(), expected.animations.len());
    for (a, want) in animations.iter().zip(&expected.animations) {
        assert_eq!(a.get("name").str(), want.name);
        let bones = a.get("bones").arr();
        assert_eq!(bones.len(), want.bones.len());
        for (b, want) in bones.iter().zip(&want.bones) {
            assert_eq!(Some(b.get("name").str()), want.name.as_deref());
            assert_eq!(Some(b.get("bone_id").i64()), want.bone_id.map(i64::from));
            assert_eq!(b.get("frame_type").str(), format!("{:?}", want.frame_type));
            let frames = b.get("frames").arr();
            assert_eq!(frames.len(), want.frames.len());
            for (f, want_frame) in frames.iter().zip(&want.frames) {
                let translation = want.frame_type.has_translation();
                let keys: &[&str] = if translation {
                    &["time", "rotation", "translation"]
                } else {
                    &["time", "rotation"]
                };
                assert_eq!(f.keys(), keys);
                assert_eq!(f.get("time").f32(), want_frame.time);
                // NaN is written as null and read back as NaN: compare bit patterns of
                // finite values, and NaN-ness otherwise.
                let rotation = f.get("rotation").f32s();
                for (got, want) in rotation.iter().zip(want_frame.rotation) {
                    assert!(
                        got == &want || (got.is_nan() && want.is_nan()),
                        "{got} {want}"
                    );
                }
                if translation {
                    assert_eq!(f.get("translation").f32s(), want_frame.translation);
                }
            }
        }
    }

    // Spot checks of the decoding itself, against values worked out by hand.
    let root = &animations[0].get("bones").arr()[0];
    let second = &root.get("frames").arr()[1];
    assert_eq!(second.get("time").f32(), 0.5);
    assert_eq!(second.get("rotation").f32s(), [0.5, -0.5, 0.5, 0.5]);
    assert_eq!(second.get("translation").f32s(), [1.0, -2.0, 0.5]);
    let bip = &animations[0].get("bones").arr()[1];
    assert_eq!(bip.get("bone_id").i64(), -1);
    let nan = &animations[1].get("bones").arr()[0].get("frames").arr()[1];
    assert_eq!(nan.get("rotation").arr()[0], Json::Null);
    assert_eq!(animations[1].get("bones").arr()[2].get("frames").arr(), &[]);
    // ANP3 keeps its animation header fields.
    assert_eq!(animations[0].get("flags").i64(), 1);
    assert_eq!(animations[0].get("frame_data_size").i64(), 2 * 16 + 10);
    // The text itself: escapes as the JSON spec asks, Latin-1 as UTF-8.
    assert!(stdout(&output).contains(r#""name": "q\"b\\\u0001é!""#));
}

/// ANP2, one bone, two frames: the whole output, written out by hand.
#[test]
fn dump_json_exact_text() {
    let package = Package {
        format: Format::Anp2,
        name: Some("tiny".into()),
        animations: vec![animation(
            "a",
            vec![bone(
                "b",
                5,
                FrameType::Ifp2PackedRotTrans,
                vec![
                    frame(0.0, IDENTITY, [0.0; 3]),
                    frame(1.0, [0.0, 0.0, 0.5, 0.5], [1.0, 0.5, -0.25]),
                ],
            )],
        )],
        warnings: vec![],
    };
    let path = fixture("tiny.ifp", &gtastream::encode::ifp2(&package).unwrap());
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = r#"{
  "format": "ANP2",
  "name": "tiny",
  "warnings": [],
  "animations": [
    {
      "name": "a",
      "frame_data_size": null,
      "flags": null,
      "bones": [
        {
          "name": "b",
          "bone_id": 5,
          "frame_type": "Ifp2PackedRotTrans",
          "frames": [
            {"time": 0, "rotation": [0, 0, 0, 1], "translation": [0, 0, 0]},
            {"time": 1, "rotation": [0, 0, 0.5, 0.5], "translation": [1, 0.5, -0.25]}
          ]
        }
      ]
    }
  ]
}
"#;
    assert_eq!(stdout(&output), expected);
}

/// The tiny ANP2 file's layout: file header 36, animation header 28, bone header 36 at 64,
/// frames of 16 bytes at 100 and 116; 132 bytes in all.
fn tiny_anp2() -> Vec<u8> {
    let package = Package {
        format: Format::Anp2,
        name: Some("tiny".into()),
        animations: vec![animation(
            "a",
            vec![bone(
                "b",
                5,
                FrameType::Ifp2PackedRotTrans,
                vec![
                    frame(0.0, IDENTITY, [0.0; 3]),
                    frame(1.0, IDENTITY, [0.0; 3]),
                ],
            )],
        )],
        warnings: vec![],
    };
    let bytes = gtastream::encode::ifp2(&package).unwrap();
    assert_eq!(bytes.len(), 132);
    bytes
}

#[test]
fn truncated_file_fails_with_offset_and_no_output() {
    let bytes = tiny_anp2();
    // Cut inside the second frame, inside the bone header, inside the animation header.
    for (cut, unit) in [(120, 116), (70, 64), (40, 36), (2, 0)] {
        let path = fixture(&format!("cut{cut}.ifp"), &bytes[..cut]);
        for args in [&["dump", "--json", &path][..], &["info", &path][..]] {
            let output = run(args);
            assert_eq!(output.status.code(), Some(1), "{args:?}");
            assert_eq!(stdout(&output), "", "{args:?}");
            assert_eq!(
                stderr(&output),
                format!("gtastream: {path}: input ends inside a unit at offset {unit}\n"),
                "{args:?}"
            );
        }
    }
}

#[test]
fn bad_magic_and_unreadable_files() {
    let path = fixture("magic.ifp", b"ANPKxxxxxxxx");
    let output = run(&["dump", "--json", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        format!("gtastream: {path}: unknown file magic at offset 0\n")
    );

    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no such file.ifp");
    let missing = missing.to_str().unwrap();
    for args in [&["dump", "--json", missing][..], &["info", missing][..]] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout(&output), "");
        let err = stderr(&output);
        assert!(err.starts_with(&format!("gtastream: {missing}: ")), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// A file the games load although it breaks every redundant field the format has.
fn sloppy() -> (Vec<u8>, usize) {
    let package = Package {
        format: Format::Anp3,
        name: Some("sloppy".into()),
        animations: vec![animation(
            "back",
            vec![bone(
                "Root",
                0,
                FrameType::Ifp2PackedRot,
                vec![
                    frame(0.0, IDENTITY, [0.0; 3]),
                    frame(2.0 / 60.0, IDENTITY, [0.0; 3]),
                    frame(1.0 / 60.0, IDENTITY, [0.0; 3]),
                ],
            )],
        )],
        warnings: vec![],
    };
    let mut bytes = gtastream::encode::ifp2(&package).unwrap();
    let end = bytes.len();
    let patch = |bytes: &mut Vec<u8>, at: usize, f: &dyn Fn(u32) -> u32| {
        let old = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        bytes[at..at + 4].copy_from_slice(&f(old).to_le_bytes());
    };
    patch(&mut bytes, 4, &|size| size + 100); // size field
    patch(&mut bytes, 36 + 28, &|n| n + 1); // frameDataSize
    patch(&mut bytes, 36 + 32, &|_| 0); // flags: compressed bit clear
    bytes.extend_from_slice(&[0xAB; 12]); // stale bytes after the last animation
    (bytes, end)
}

/// (reason, offset, kind) of each warning the sloppy file gives, in file order.
fn sloppy_warnings(end: usize) -> [(&'static str, usize, &'static str); 5] {
    [
        // The third frame (at 36 + 36 + 36 + 2 × 10) goes back in time.
        ("keyframe time goes backwards", 128, "TimeBackwards"),
        (
            "frameDataSize disagrees with the keyframes",
            64,
            "FrameDataSizeMismatch",
        ),
        (
            "compressed flag clear on compressed keyframes",
            68,
            "CompressedFlagClear",
        ),
        ("size field disagrees with the data", 4, "SizeMismatch"),
        ("bytes after the last record", end, "TrailingData"),
    ]
}

#[test]
fn info_counts_and_warnings() {
    let (bytes, end) = sloppy();
    let path = fixture("sloppy.ifp", &bytes);
    let output = run(&["info", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let text = stdout(&output);
    for line in [
        "format:      ANP3",
        "package:     \"sloppy\"",
        "animations:  1",
        "bones:       1",
        "keyframes:   3",
        "frame types: type 3 (packed rotation, 10 bytes)",
        "warnings:    5",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == line),
            "{line:?} in\n{text}"
        );
    }
    let warnings: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("warnings:"))
        .skip(1)
        .map(str::trim)
        .collect();
    let expected: Vec<String> = sloppy_warnings(end)
        .iter()
        .map(|(reason, offset, kind)| format!("{reason} at offset {offset} ({kind})"))
        .collect();
    assert_eq!(warnings, expected);
}

#[test]
fn dump_lists_warnings_and_still_succeeds() {
    let (bytes, end) = sloppy();
    let path = fixture("sloppy-dump.ifp", &bytes);
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    let got: Vec<(String, i64, String)> = json
        .get("warnings")
        .arr()
        .iter()
        .map(|w| {
            let kind = w.get("kind").str().to_owned();
            (
                w.get("reason").str().to_owned(),
                w.get("offset").i64(),
                kind,
            )
        })
        .collect();
    let want: Vec<(String, i64, String)> = sloppy_warnings(end)
        .iter()
        .map(|&(r, o, k)| (r.to_owned(), o as i64, k.to_owned()))
        .collect();
    assert_eq!(got, want);
    // The stored values, wrong as they are.
    let animation = &json.get("animations").arr()[0];
    assert_eq!(animation.get("flags").i64(), 0);
    assert_eq!(animation.get("frame_data_size").i64(), 31);
}

/// Larger than the 64 KiB read size: `info` sees it in several pieces, with units split
/// between them, and counts exactly.
#[test]
fn info_reads_large_files_in_pieces() {
    let frames: Vec<Keyframe> = (0..10_000)
        .map(|i| frame(i as f32 / 60.0, IDENTITY, [0.0, i as f32 / 1024.0, 0.0]))
        .collect();
    let package = Package {
        format: Format::Anp3,
        name: Some("big".into()),
        animations: vec![
            animation(
                "long",
                vec![bone("Root", 0, FrameType::Ifp2PackedRotTrans, frames)],
            ),
            animation(
                "short",
                vec![bone("Head", 5, FrameType::Ifp2PackedRot, vec![])],
            ),
        ],
        warnings: vec![],
    };
    let bytes = gtastream::encode::ifp2(&package).unwrap();
    assert!(bytes.len() > 2 * 64 * 1024);
    let path = fixture("big.ifp", &bytes);
    let output = run(&["info", "--animations", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for line in [
        "animations:  2",
        "bones:       2",
        "keyframes:   10000",
        "warnings:    none",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == line),
            "{line:?} in\n{text}"
        );
    }
    let words: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for line in [
        "\"long\" 1 bones 10000 keyframes 166.650 s",
        "\"short\" 1 bones 0 keyframes 0.000 s",
    ] {
        assert!(words.iter().any(|l| l == line), "{line:?} in\n{text}");
    }
}

/// The commands the README gives a newcomer.
#[test]
fn readme_commands_on_the_sample() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/walk.ifp");
    let output = run(&["dump", "--json", sample]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(json.get("name").str(), "demo");
    let names: Vec<&str> = json
        .get("animations")
        .arr()
        .iter()
        .map(|a| a.get("name").str())
        .collect();
    assert_eq!(names, ["walk", "run", "idle"]);

    let output = run(&["info", sample]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("warnings:    none"));
}

#[test]
fn help_and_usage() {
    let output = run(&["--help"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("info"));
    assert!(stdout(&output).contains("dump"));
    let output = run(&["dump", "--help"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("JSON layout"));
    // `--json` is required: a usage error, status 2.
    let output = run(&["dump", "samples/walk.ifp"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
}
