//! The `gtastream` binary, run as a user runs it, on fixtures built in code by the encoder.

#[allow(dead_code)]
mod support;

use std::path::PathBuf;
use std::process::Command;

use gtastream::{Format, FrameType, Keyframe, Package};
use support::stories::{self, Anim, Frame, Layout};
use support::{run, stderr, stdout, Json};
use testkit::anpk::{anim, bone, kf};

/// Writes `bytes` to a file of that name in the tests' scratch directory.
fn fixture(name: &str, bytes: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
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
            anim(
                "packed",
                vec![
                    bone(
                        "Root",
                        Some(0),
                        FrameType::Ifp2PackedRotTrans,
                        vec![
                            kf(0.0, IDENTITY, [0.0; 3], [0.0; 3]),
                            kf(0.5, half, [1.0, -2.0, 0.5], [0.0; 3]),
                        ],
                    ),
                    bone(
                        "Bip01",
                        Some(-1),
                        FrameType::Ifp2PackedRot,
                        vec![kf(
                            1.0 / 60.0,
                            [0.25, 0.0, 0.0, 0.96875],
                            [0.0; 3],
                            [0.0; 3],
                        )],
                    ),
                ],
            ),
            anim(
                "floats",
                vec![
                    bone(
                        "F1",
                        Some(7),
                        FrameType::Ifp2Rot,
                        vec![
                            kf(0.25, [0.1, 0.2, 0.3, 0.9], [0.0; 3], [0.0; 3]),
                            kf(0.75, [f32::NAN, 0.0, 0.0, 1.0], [0.0; 3], [0.0; 3]),
                        ],
                    ),
                    bone(
                        "F2",
                        Some(12),
                        FrameType::Ifp2RotTrans,
                        vec![kf(1.0 / 3.0, IDENTITY, [1.5, -0.001, 1e-7], [0.0; 3])],
                    ),
                    bone("Empty", Some(3), FrameType::Ifp2PackedRot, vec![]),
                ],
            ),
        ],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
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
            assert_eq!(b.get("frame_type").str(), want.frame_type.name());
            assert_eq!(b.get("bone_key"), &Json::Null);
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
        animations: vec![anim(
            "a",
            vec![bone(
                "b",
                Some(5),
                FrameType::Ifp2PackedRotTrans,
                vec![
                    kf(0.0, IDENTITY, [0.0; 3], [0.0; 3]),
                    kf(1.0, [0.0, 0.0, 0.5, 0.5], [1.0, 0.5, -0.25], [0.0; 3]),
                ],
            )],
        )],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
    };
    let path = fixture("tiny.ifp", &gtastream::encode::ifp2(&package).unwrap());
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The headers as stored, after their contents: the bone's name field ("b", NUL-filled to
    // 24), type 4, 2 frames, id 5; the animation's name field and 1 bone; the file's `ANP2`,
    // size 124 (132 bytes − 8), name "tiny", 1 animation.
    let expected = r#"{
  "format": "ANP2",
  "name": "tiny",
  "warnings": [],
  "animations": [
    {
      "name": "a",
      "frame_data_size": null,
      "flags": null,
      "duration": null,
      "bones": [
        {
          "name": "b",
          "bone_id": 5,
          "bone_key": null,
          "frame_type": "ifp2_packed_rot_trans",
          "frames": [
            {"time": 0, "rotation": [0, 0, 0, 1], "translation": [0, 0, 0]},
            {"time": 1, "rotation": [0, 0, 0.5, 0.5], "translation": [1, 0.5, -0.25]}
          ],
          "raw": "620000000000000000000000000000000000000000000000040000000200000005000000"
        }
      ],
      "summary": {"length": 1, "bones": 1, "empty_bones": 0, "keyframes": 2, "bones_with_id": 1, "bones_without_id": 0, "unmatched_bones": 0, "standard_bones": ["Head"], "storage": {"packed": 1, "float": 0, "translation": 1, "scale": 0}, "mixed": false},
      "raw": "61000000000000000000000000000000000000000000000001000000"
    }
  ],
  "raw": "414e50327c00000074696e79000000000000000000000000000000000000000001000000",
  "trailing": null,
  "blocks": null,
  "container_size": null
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
        animations: vec![anim(
            "a",
            vec![bone(
                "b",
                Some(5),
                FrameType::Ifp2PackedRotTrans,
                vec![
                    kf(0.0, IDENTITY, [0.0; 3], [0.0; 3]),
                    kf(1.0, IDENTITY, [0.0; 3], [0.0; 3]),
                ],
            )],
        )],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
    };
    let bytes = gtastream::encode::ifp2(&package).unwrap();
    assert_eq!(bytes.len(), 132);
    bytes
}

#[test]
fn truncated_file_fails_with_offset_and_no_output() {
    let bytes = tiny_anp2();
    // Cut inside the second frame, inside the bone header, inside the animation header,
    // inside the file header: the place and what was decoded before the cut.
    for (cut, unit, context) in [
        (
            120,
            116,
            " (animation 0 \"a\", bone 0 \"b\"; after 1 animation, 1 bone, 1 keyframe)",
        ),
        (
            70,
            64,
            " (animation 0 \"a\"; after 1 animation, 0 bones, 0 keyframes)",
        ),
        (40, 36, ""),
        (6, 0, ""),
    ] {
        let path = fixture(&format!("cut{cut}.ifp"), &bytes[..cut]);
        let message = format!(
            "file cut short: it ends before the data at offset {unit} is complete{context}"
        );
        for args in [&["dump", "--json", &path][..], &["info", &path][..]] {
            let output = run(args);
            assert_eq!(output.status.code(), Some(1), "{args:?}");
            assert_eq!(
                stderr(&output),
                format!("gtastream: {path}: {message}\n"),
                "{args:?}"
            );
            // `info` summarises what was decoded before the cut, if anything was.
            if args[0] == "info" && !context.is_empty() {
                assert!(
                    stdout(&output).ends_with(&format!("  error:       {message}\n")),
                    "{}",
                    stdout(&output)
                );
            } else {
                assert_eq!(stdout(&output), "", "{args:?}");
            }
        }
    }
}

#[test]
fn bad_magic_and_unreadable_files() {
    // Not a magic, and not text either (text is sniffed as a text IPL file).
    let path = fixture("magic.ifp", b"\x89PNG\r\n\x1a\nxxxx");
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
        animations: vec![anim(
            "back",
            vec![bone(
                "Root",
                Some(0),
                FrameType::Ifp2PackedRot,
                vec![
                    kf(0.0, IDENTITY, [0.0; 3], [0.0; 3]),
                    kf(2.0 / 60.0, IDENTITY, [0.0; 3], [0.0; 3]),
                    kf(1.0 / 60.0, IDENTITY, [0.0; 3], [0.0; 3]),
                ],
            )],
        )],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
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
        ("keyframe time goes backwards", 128, "time_backwards"),
        (
            "frameDataSize disagrees with the keyframes",
            64,
            "frame_data_size_mismatch",
        ),
        (
            "compressed flag clear on compressed keyframes",
            68,
            "compressed_flag_clear",
        ),
        ("size field disagrees with the data", 4, "size_mismatch"),
        ("bytes after the last record", end, "trailing_data"),
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
        "seeks:       0",
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
    // Warnings inside an animation name it, and the bone (issue 22: context in messages).
    let place = |kind: &str| match kind {
        "time_backwards" => ", animation 0 \"back\", bone 0 \"Root\"",
        "frame_data_size_mismatch" | "compressed_flag_clear" => ", animation 0 \"back\"",
        _ => "",
    };
    let expected: Vec<String> = sloppy_warnings(end)
        .iter()
        .map(|(reason, offset, kind)| {
            format!("{reason} at offset {offset}{} ({kind})", place(kind))
        })
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

/// Larger than the decoder's read size (16 KiB) many times over: `info` sees it in several
/// pieces, with units split between them, and counts exactly.
#[test]
fn info_reads_large_files_in_pieces() {
    let frames: Vec<Keyframe> = (0..10_000)
        .map(|i| {
            kf(
                i as f32 / 60.0,
                IDENTITY,
                [0.0, i as f32 / 1024.0, 0.0],
                [0.0; 3],
            )
        })
        .collect();
    let package = Package {
        format: Format::Anp3,
        name: Some("big".into()),
        animations: vec![
            anim(
                "long",
                vec![bone("Root", Some(0), FrameType::Ifp2PackedRotTrans, frames)],
            ),
            anim(
                "short",
                vec![bone("Head", Some(5), FrameType::Ifp2PackedRot, vec![])],
            ),
        ],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
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
        "\"long\" 1 bones 10000 keyframes 166.650 s (length 166.650 s, 1 standard bones, 0 \
         unmatched, packed)",
        "\"short\" 1 bones 0 keyframes 0.000 s (length 0.000 s, 1 standard bones, 0 unmatched, \
         packed)",
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

const README: &str = include_str!("../../README.md");
const RUST_GUIDE: &str = include_str!("../../docs/RUST.md");

/// The first code block after `marker` in `doc` (the README or a guide).
fn doc_block(doc: &str, marker: &str) -> String {
    let after = &doc[doc.find(marker).expect("marker in the document")..];
    let start = after.find("```").unwrap();
    let body = &after[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_owned()
}

/// What the README shows the newcomer's commands print, run from the repository root as it
/// says: `info` exactly, `dump --json` as a prefix.
#[test]
fn readme_shows_the_real_output() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let run_in_root = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_gtastream"))
            .args(args)
            .current_dir(root)
            .output()
            .unwrap()
    };
    let info = run_in_root(&["info", "samples/walk.ifp"]);
    assert!(info.status.success(), "{}", stderr(&info));
    assert_eq!(stdout(&info), doc_block(README, "`info` prints:"));
    let dump = run_in_root(&["dump", "--json", "samples/walk.ifp"]);
    assert!(dump.status.success(), "{}", stderr(&dump));
    let shown = doc_block(README, "and `dump --json` begins:");
    assert!(stdout(&dump).starts_with(&shown), "{shown}");
    // The Stories excerpt of docs/RUST.md is the start of the document the Stories test checks.
    assert!(STORIES_JSON.starts_with(&doc_block(RUST_GUIDE, "A Stories file, as `dump --json`")));
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

/// An ANPK package with every ANPK frame type: a 44-byte ANIM chunk (bone id), a 48-byte one
/// (GTA III: no bone id), KRTS with scale, and an object without keyframes.
fn anpk_package() -> Package {
    Package {
        format: Format::Anpk,
        name: Some("ped".into()),
        animations: vec![anim(
            "walk_civi",
            vec![
                bone(
                    "Root",
                    Some(0),
                    FrameType::Krt0,
                    vec![
                        kf(0.0, IDENTITY, [0.0, 0.0, 1.0], [0.0; 3]),
                        kf(0.5, [0.5, -0.5, 0.5, 0.5], [0.25, 0.0, 1.0], [0.0; 3]),
                    ],
                ),
                bone(
                    "Head",
                    None,
                    FrameType::Kr00,
                    vec![kf(0.0, IDENTITY, [0.0; 3], [0.0; 3])],
                ),
                bone(
                    "Prop",
                    Some(3),
                    FrameType::Krts,
                    vec![kf(1.0, IDENTITY, [1.0, 2.0, 3.0], [1.5, 1.0, 0.5])],
                ),
                bone("Empty", Some(7), FrameType::Kr00, vec![]),
            ],
        )],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

/// The package's bytes, with Head's one KR00 frame overwritten by stored values chosen by
/// hand. Layout: ANPK 8, INFO 8 + 4 + "ped\0", NAME 8 + 12 at 24, DGAN 8 at 44, INFO 8 + 8
/// at 52, Root: CPAN 8 + ANIM 8 + 44 at 68, KRT0 8 + 2 × 32 at 128; Head: CPAN + ANIM 8 +
/// 48 at 200, KR00 8 at 264, its frame at 272; Prop at 292; Empty at 404; 464 bytes in all.
fn anpk_bytes() -> Vec<u8> {
    let mut bytes = gtastream::encode::anpk(&anpk_package()).unwrap();
    assert_eq!(bytes.len(), 464);
    assert_eq!(&bytes[264..268], b"KR00");
    // Stored conjugated, time last: reported as (-0.5, 0.25, -0.125, 0.75) at 0.125 s.
    for (i, v) in [0.5f32, -0.25, 0.125, 0.75, 0.125].iter().enumerate() {
        bytes[272 + 4 * i..276 + 4 * i].copy_from_slice(&v.to_le_bytes());
    }
    bytes
}

#[test]
fn dump_json_anpk_exact_text() {
    let path = fixture("ped.ifp", &anpk_bytes());
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let expected = r#"{
  "format": "ANPK",
  "name": "ped",
  "warnings": [],
  "animations": [
    {
      "name": "walk_civi",
      "frame_data_size": null,
      "flags": null,
      "duration": null,
      "bones": [
        {
          "name": "Root",
          "bone_id": 0,
          "bone_key": null,
          "frame_type": "krt0",
          "frames": [
            {"time": 0, "rotation": [0, 0, 0, 1], "translation": [0, 0, 1]},
            {"time": 0.5, "rotation": [0.5, -0.5, 0.5, 0.5], "translation": [0.25, 0, 1]}
          ],
          "raw": "4350414e7c000000414e494d2c000000526f6f74000000000000000000000000000000000000000000000000020000000000000001000000000000004b52543040000000"
        },
        {
          "name": "Head",
          "bone_id": null,
          "bone_key": null,
          "frame_type": "kr00",
          "frames": [
            {"time": 0.125, "rotation": [-0.5, 0.25, -0.125, 0.75]}
          ],
          "raw": "4350414e54000000414e494d300000004865616400000000000000000000000000000000000000000000000001000000000000000000000000000000000000004b52303014000000"
        },
        {
          "name": "Prop",
          "bone_id": 3,
          "bone_key": null,
          "frame_type": "krts",
          "frames": [
            {"time": 1, "rotation": [0, 0, 0, 1], "translation": [1, 2, 3], "scale": [1.5, 1, 0.5]}
          ],
          "raw": "4350414e68000000414e494d2c00000050726f70000000000000000000000000000000000000000000000000010000000000000000000000030000004b5254532c000000"
        },
        {
          "name": "Empty",
          "bone_id": 7,
          "bone_key": null,
          "frame_type": "kr00",
          "frames": [],
          "raw": "4350414e34000000414e494d2c000000456d70747900000000000000000000000000000000000000000000000000000000000000ffffffff07000000"
        }
      ],
      "summary": {"length": 1, "bones": 4, "empty_bones": 1, "keyframes": 4, "bones_with_id": 3, "bones_without_id": 1, "unmatched_bones": 0, "standard_bones": ["Root", "Spine1", "Head", "R Brow"], "storage": {"packed": 0, "float": 4, "translation": 2, "scale": 1}, "mixed": false},
      "raw": "4e414d450a00000077616c6b5f636976690000004447414e9c010000494e464f080000000400000000000000"
    }
  ],
  "raw": "414e504bc8010000494e464f080000000100000070656400",
  "trailing": null,
  "blocks": null,
  "container_size": null
}
"#;
    assert_eq!(stdout(&output), expected);
    // ANPK is read front to back: a reader that cannot seek gets the same document.
    let streamed = run(&["dump", "--json", "--no-seek", &path]);
    assert!(streamed.status.success(), "{}", stderr(&streamed));
    assert_eq!(stdout(&streamed), expected);
}

/// GTA III's container of ANPK blocks: `ANLF`, size, count, then the blocks.
fn anlf_bytes() -> Vec<u8> {
    let second = Package {
        name: Some("extra".into()),
        animations: vec![anim(
            "wave",
            vec![bone(
                "Arm",
                Some(2),
                FrameType::Kr00,
                vec![kf(0.0, IDENTITY, [0.0; 3], [0.0; 3])],
            )],
        )],
        ..anpk_package()
    };
    let blocks = [anpk_bytes(), gtastream::encode::anpk(&second).unwrap()].concat();
    let mut bytes = b"ANLF".to_vec();
    bytes.extend_from_slice(&(4 + blocks.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&2u32.to_le_bytes());
    bytes.extend_from_slice(&blocks);
    bytes
}

#[test]
fn anpk_and_anlf_info() {
    let path = fixture("ped-info.ifp", &anpk_bytes());
    let output = run(&["info", "--animations", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for line in [
        "format:      ANPK",
        "package:     \"ped\"",
        "animations:  1",
        "bones:       4",
        "keyframes:   4",
        "frame types: krt0 (rotation + translation, 32 bytes), kr00 (rotation, 20 bytes), \
         krts (rotation + translation + scale, 44 bytes)",
        "seeks:       0",
        "warnings:    none",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == line),
            "{line:?} in\n{text}"
        );
    }
    assert!(text.contains("\"walk_civi\"    4 bones       4 keyframes     1.000 s"));

    let path = fixture("container.ifp", &anlf_bytes());
    let output = run(&["info", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for line in [
        "format:      ANPK",
        "package:     \"ped\", \"extra\" (2 packages)",
        "animations:  2",
        "bones:       5",
        "warnings:    none",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == line),
            "{line:?} in\n{text}"
        );
    }
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(json.get("name").str(), "ped");
    let names: Vec<&str> = json
        .get("animations")
        .arr()
        .iter()
        .map(|a| a.get("name").str())
        .collect();
    assert_eq!(names, ["walk_civi", "wave"]);
}

/// An ANLF's document holds each block's header as stored and its share of the animations,
/// and the container's stored size: what its blocks' file events carry.
#[test]
fn dump_json_anlf_blocks() {
    let bytes = anlf_bytes();
    let json = |bytes: &[u8], name| {
        let output = run(&["dump", "--json", &fixture(name, bytes)]);
        assert!(output.status.success(), "{}", stderr(&output));
        Json::parse(stdout(&output)).unwrap()
    };
    // Each block's header, as the block's own document gives it.
    let first = anpk_bytes();
    let headers = [&first[..], &bytes[12 + first.len()..]].map(|block| {
        let doc = json(block, "block.ifp");
        assert_eq!(doc.get("blocks"), &Json::Null);
        assert_eq!(doc.get("container_size"), &Json::Null);
        doc.get("raw").str().to_string()
    });
    let doc = json(&bytes, "blocks.ifp");
    assert_eq!(doc.get("raw").str(), headers[0]);
    let blocks = doc.get("blocks").arr();
    assert_eq!(blocks.len(), 2);
    for ((block, name), header) in blocks.iter().zip(["ped", "extra"]).zip(&headers) {
        assert_eq!(block.keys(), ["name", "raw", "animations"]);
        assert_eq!(block.get("name").str(), name);
        assert_eq!(block.get("raw").str(), header);
        assert_eq!(block.get("animations").i64(), 1);
    }
    let size = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    assert_eq!(doc.get("container_size").i64(), i64::from(size));
    let keys = doc.keys();
    assert_eq!(
        keys[keys.len() - 4..],
        ["raw", "trailing", "blocks", "container_size"]
    );

    // An ANLF of no blocks: no block, the size as stored (here not what it should be).
    let empty = json(b"ANLF\x08\x00\x00\x00\x00\x00\x00\x00", "none.ifp");
    assert_eq!(empty.get("blocks").arr(), &[]);
    assert_eq!(empty.get("container_size").i64(), 8);
}

/// A binary IPL whose records are instances then cars needs no `stored`: the lists are the
/// file. With the cars first, `stored` gives the records in file order, without bytes.
#[test]
fn dump_json_binary_ipl_stored_order() {
    use testkit::ipl::{bnry, Car, Inst};
    let (instances, cars) = ([Inst::sample(1), Inst::sample(2)], [Car::sample(1)]);
    let stored = |inst_at, car_at| {
        let path = fixture("order.ipl", &bnry(&instances, inst_at, &cars, car_at));
        let output = run(&["dump", "--json", &path]);
        assert!(output.status.success(), "{}", stderr(&output));
        let doc = Json::parse(stdout(&output)).unwrap();
        assert_eq!(doc.keys().last(), Some(&"stored"));
        doc.get("stored").clone()
    };
    assert_eq!(stored(76, 76 + 80), Json::Null);
    let Json::Arr(items) = stored(76 + 48, 76) else {
        panic!("a list")
    };
    let items: Vec<(&str, i64, &Json)> = items
        .iter()
        .map(|i| (i.get("item").str(), i.get("index").i64(), i.get("raw")))
        .collect();
    let null = &Json::Null;
    assert_eq!(
        items,
        [
            ("car", 0, null),
            ("instance", 0, null),
            ("instance", 1, null)
        ]
    );
}

/// Half-float bits used below.
const H_QUARTER: u16 = 0x3400;
const H_HALF: u16 = 0x3800;
const H_ONE: u16 = 0x3C00;
const H_TWO: u16 = 0x4000;
const NEG: u16 = 0x8000;

/// Two animations: "walk" with a translated bone whose key holds bone id 5 (flag 0x10), a
/// rotation-only bone without id, and a bone without keyframes whose id is −1; "idle"
/// without bones.
fn stories_anims() -> Vec<Anim> {
    let f = |rotation: [u16; 4], dt: u16, translation: Option<[u16; 3]>| Frame {
        rotation,
        dt,
        translation,
    };
    let q = [NEG | H_QUARTER, H_QUARTER, NEG | H_QUARTER, H_ONE];
    vec![
        Anim {
            name: "walk",
            duration: 1.5,
            bones: vec![
                stories::BoneRow {
                    flags: 0x01 | 0x02 | 0x10,
                    key: 0xABCD_0005,
                    frames: vec![
                        f(
                            [H_HALF, NEG | H_QUARTER, H_QUARTER, H_ONE],
                            0,
                            Some([H_ONE, H_TWO, NEG | 0x4200]),
                        ),
                        f(
                            [NEG | H_HALF, H_HALF, NEG | H_HALF, H_HALF],
                            H_HALF,
                            Some([H_HALF, 0, 0]),
                        ),
                        f([H_HALF; 4], H_ONE, Some([0, 0, H_ONE])),
                    ],
                    garbage_offset: 0,
                },
                stories::BoneRow {
                    flags: 0x01,
                    key: 0x1234_5678,
                    frames: vec![f(q, H_HALF, None), f(q, H_HALF, None)],
                    garbage_offset: 0,
                },
                stories::BoneRow {
                    flags: 0x01 | 0x10,
                    key: 0xFFFF_FFFF,
                    frames: vec![],
                    garbage_offset: 0,
                },
            ],
        },
        Anim {
            name: "idle",
            duration: 0.25,
            bones: vec![],
        },
    ]
}

/// Worked out by hand from `stories_anims`: quaternions conjugated (x, y, z negated), times
/// the running sum of the deltas (0, 0.5, 1.5; 0.5, 1), bone id the key's low 16 bits as i16.
const STORIES_JSON: &str = r#"{
  "format": "ANIM",
  "name": null,
  "warnings": [],
  "animations": [
    {
      "name": "walk",
      "frame_data_size": null,
      "flags": null,
      "duration": 1.5,
      "bones": [
        {
          "name": null,
          "bone_id": 5,
          "bone_key": 2882338821,
          "frame_type": "stories_rot_trans",
          "frames": [
            {"time": 0, "rotation": [-0.5, 0.25, -0.25, 1], "translation": [1, 2, -3]},
            {"time": 0.5, "rotation": [0.5, -0.5, 0.5, 0.5], "translation": [0.5, 0, 0]},
            {"time": 1.5, "rotation": [-0.5, -0.5, -0.5, 0.5], "translation": [0, 0, 1]}
          ],
          "raw": null
        },
        {
          "name": null,
          "bone_id": null,
          "bone_key": 305419896,
          "frame_type": "stories_rot",
          "frames": [
            {"time": 0.5, "rotation": [0.25, -0.25, 0.25, 1]},
            {"time": 1, "rotation": [0.25, -0.25, 0.25, 1]}
          ],
          "raw": null
        },
        {
          "name": null,
          "bone_id": -1,
          "bone_key": 4294967295,
          "frame_type": "stories_rot",
          "frames": [],
          "raw": null
        }
      ],
      "summary": {"length": 1.5, "bones": 3, "empty_bones": 1, "keyframes": 5, "bones_with_id": 1, "bones_without_id": 2, "unmatched_bones": 2, "standard_bones": ["Head"], "storage": {"packed": 0, "float": 3, "translation": 1, "scale": 0}, "mixed": false},
      "raw": null
    },
    {
      "name": "idle",
      "frame_data_size": null,
      "flags": null,
      "duration": 0.25,
      "bones": [],
      "summary": {"length": 0, "bones": 0, "empty_bones": 0, "keyframes": 0, "bones_with_id": 0, "bones_without_id": 0, "unmatched_bones": 0, "standard_bones": [], "storage": {"packed": 0, "float": 0, "translation": 0, "scale": 0}, "mixed": false},
      "raw": null
    }
  ],
  "raw": null,
  "trailing": null,
  "blocks": null,
  "container_size": null
}
"#;

#[test]
fn dump_json_stories_exact_text() {
    let anims = stories_anims();
    for layout in [Layout::DepthFirst, Layout::Backward] {
        let bytes = stories::write(&anims, layout, anims.len());
        let path = fixture(&format!("walk-{layout:?}.anim"), &bytes);
        let output = run(&["dump", "--json", &path]);
        assert!(output.status.success(), "{layout:?}: {}", stderr(&output));
        assert_eq!(stderr(&output), "");
        assert_eq!(stdout(&output), STORIES_JSON, "{layout:?}");
    }
}

#[test]
fn stories_info() {
    let anims = stories_anims();
    let bytes = stories::write(&anims, Layout::Backward, anims.len());
    let path = fixture("walk-info.anim", &bytes);
    let output = run(&["info", "--animations", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for line in [
        "format:      ANIM",
        "package:     (none)",
        "animations:  2",
        "bones:       3",
        "keyframes:   5",
        "frame types: stories_rot_trans (half-float rotation + translation, 16 bytes), \
         stories_rot (half-float rotation, 10 bytes)",
        "seeks:       5",
        "warnings:    none",
    ] {
        assert!(
            text.lines().any(|l| l.trim() == line),
            "{line:?} in\n{text}"
        );
    }
    // The stored durations, not the last keyframe's time.
    assert!(text.contains("\"walk\"    3 bones       5 keyframes     1.500 s"));
    assert!(text.contains("\"idle\"    0 bones       0 keyframes     0.250 s"));
}

/// Stories files need seeks; `--no-seek` reads as a stream would, and fails at the first
/// record behind the current position: the offset table at 0x20, after the relocation table.
#[test]
fn no_seek_fails_on_stories_files() {
    let anims = stories_anims();
    let bytes = stories::write(&anims, Layout::DepthFirst, anims.len());
    let path = fixture("walk-stream.anim", &bytes);
    for args in [
        &["dump", "--json", "--no-seek", &path][..],
        &["info", "--no-seek", &path][..],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout(&output), "", "{args:?}");
        assert_eq!(
            stderr(&output),
            format!(
                "gtastream: {path}: record lies behind the current position (cannot seek) \
                 at offset 32\n"
            ),
            "{args:?}"
        );
    }
}

/// Counts the seeks the decoder asks for when fed the whole file from memory.
fn seeks_in_memory(bytes: &[u8]) -> u64 {
    struct Ignore;
    impl gtastream::Visitor for Ignore {}
    let mut decoder = gtastream::Decoder::new();
    let mut at = 0;
    let mut seeks = 0;
    loop {
        let progress = decoder.feed(&bytes[at..], &mut Ignore).unwrap();
        match progress.status {
            gtastream::Status::Seek(offset) => {
                seeks += 1;
                at = offset as usize;
            }
            gtastream::Status::Paused => at += progress.consumed,
            _ => break,
        }
    }
    decoder.finish(&mut Ignore).unwrap();
    seeks
}

/// `n` animations of `bones` bones each (every third without keyframes, 3 keyframes
/// otherwise, alternately with translation).
fn stories_grid(n: usize, bones: usize) -> Vec<Anim> {
    let frame = |dt| Frame {
        rotation: [0, 0, 0, H_ONE],
        dt,
        translation: Some([0, H_ONE, 0]),
    };
    (0..n)
        .map(|i| Anim {
            name: ["a", "b", "c", "d", "e", "f", "g", "h"][i],
            duration: 1.0,
            bones: (0..bones)
                .map(|j| stories::BoneRow {
                    flags: if j % 2 == 0 { 0x03 } else { 0x01 },
                    key: j as u32,
                    frames: if j % 3 == 2 {
                        vec![]
                    } else {
                        let mut frames = vec![frame(0), frame(H_HALF), frame(H_HALF)];
                        if j % 2 == 1 {
                            frames.iter_mut().for_each(|f| f.translation = None);
                        }
                        frames
                    },
                    garbage_offset: 0,
                })
                .collect(),
        })
        .collect()
}

/// The seek counts of docs/RUST.md "Seeking (Stories files)": `info` reports what the decoder asked
/// for, the same as feeding from memory; each within the bound derived from the machine.
#[test]
fn seek_counts() {
    // docs/RUST.md: seeks ≤ 1 + ⌈C/512⌉ + N + B + K for C candidate entries.
    let bound = |candidates: u64, n: u64, bones: u64, keyed: u64| {
        1 + candidates.div_ceil(512) + n + bones + keyed
    };
    let mut seen = Vec::new();
    // (animations, bones each, entries listed in the relocation table, seeks depth-first and
    // backward: the table of docs/RUST.md)
    for (n, b, listed, expected) in [
        (2, 5, 2, [8, 12]),
        (4, 6, 4, [20, 24]),
        (8, 4, 8, [24, 40]),
        (4, 6, 3, [15, 18]),
        (8, 4, 1, [3, 5]),
    ] {
        let anims = stories_grid(n, b);
        let keyed = (0..b).filter(|j| j % 3 != 2).count() * n;
        for (layout, expected) in [Layout::DepthFirst, Layout::Backward]
            .into_iter()
            .zip(expected)
        {
            let bytes = stories::write(&anims, layout, listed);
            let seeks = seeks_in_memory(&bytes);
            assert_eq!(seeks, expected, "{layout:?} {n} {b} {listed}");
            let path = fixture(&format!("grid-{n}-{b}-{listed}-{layout:?}.anim"), &bytes);
            let output = run(&["info", &path]);
            assert!(output.status.success(), "{}", stderr(&output));
            let text = stdout(&output);
            assert!(text.contains(&format!("animations:  {listed}\n")), "{text}");
            assert!(text.contains(&format!("seeks:       {seeks}\n")), "{text}");
            let decoded_bones = (listed * b) as u64;
            let decoded_keyed = (keyed / n * listed) as u64;
            let limit = bound(n as u64, listed as u64, decoded_bones, decoded_keyed);
            assert!(seeks <= limit, "{seeks} > {limit}");
            seen.push(format!(
                "{layout:?}: {n} entries ({listed} listed), {decoded_bones} bones \
                 ({decoded_keyed} with keyframes): {seeks} seeks (bound {limit})"
            ));
        }
    }
    println!("{}", seen.join("\n"));
}

/// A worst case of the seek count, built by hand: one animation whose bones' keyframe
/// offsets point at their own rows, so every row and every keyframe block lies behind the
/// position (2 seeks a bone), and 64 offset-table entries of which the relocation table lists
/// only the first (one pass over the relocation table finds the gap, then one seek back to
/// the offset table).
#[test]
fn seek_count_worst_cases() {
    let u32s = |bytes: &mut Vec<u8>, at: usize, v: usize| {
        if bytes.len() < at + 4 {
            bytes.resize(at + 4, 0);
        }
        bytes[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
    };
    let finish = |mut bytes: Vec<u8>, relocs: &[usize]| {
        let reloc_at = bytes.len();
        for &r in relocs {
            bytes.extend_from_slice(&(r as u32).to_le_bytes());
        }
        bytes[..4].copy_from_slice(b"mina");
        let end = bytes.len();
        for (at, v) in [(8, end), (12, reloc_at), (16, reloc_at), (20, relocs.len())] {
            u32s(&mut bytes, at, v);
        }
        bytes
    };
    // 10 bones of 2 rotation keyframes (20 bytes) each; table at 0x24, record after it.
    let (table, bones) = (0x24, 10);
    let record = table + 12 * bones;
    let mut bytes = vec![0; 0x20];
    u32s(&mut bytes, 0x20, record);
    let mut relocs = vec![0x20, record];
    for j in 0..bones {
        let row = table + 12 * j;
        u32s(&mut bytes, row, 1 | 2 << 16); // flags 0x01, 2 keyframes
        u32s(&mut bytes, row + 4, row);
        relocs.push(row + 4);
    }
    u32s(&mut bytes, record, table);
    u32s(&mut bytes, record + 0x1C, bones);
    u32s(&mut bytes, record + 0x20, 0); // duration; the record's 0x24 bytes end here
    relocs.sort();
    let overlapping = finish(bytes, &relocs);
    // N + B + K: 1 + 10 + 10.
    assert_eq!(seeks_in_memory(&overlapping), 21);

    let record = 0x20 + 4 * 64;
    let mut bytes = vec![0; 0x20];
    for i in 0..64 {
        u32s(&mut bytes, 0x20 + 4 * i, record);
    }
    u32s(&mut bytes, record, record + 0x24); // no bones
    u32s(&mut bytes, record + 0x20, 0);
    let unlisted = finish(bytes, &[0x20, record]);
    // One pass over the relocation table (ahead: no seek), then 1 seek to the offset table.
    assert_eq!(seeks_in_memory(&unlisted), 1);

    for (name, bytes, seeks, animations) in [
        ("overlap.anim", overlapping, 21, 1),
        ("unlisted.anim", unlisted, 1, 1),
    ] {
        let path = fixture(name, &bytes);
        let output = run(&["info", &path]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains(&format!("animations:  {animations}\n")),
            "{text}"
        );
        assert!(text.contains(&format!("seeks:       {seeks}\n")), "{text}");
    }
}

#[test]
fn text_ipl_info_and_json() {
    let text =
        "# a comment\r\ninst\r\n1337, prop_a, 13, 1.5, -2, 3.25, 0, 0, 0.5, 1, -1\r\nend\r\n\
                cars\r\n10.5, 20, 5, 1.5, 400, -1, -1, 3, 0, 100, 0, 10000\r\nend\r\n\
                cull\r\n1, 2, 3\r\nend\r\n";
    let path = fixture("map.ipl", text.as_bytes());
    let output = run(&["info", "--animations", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        format!(
            "{path}\n  format:      text\n  instances:   1\n  cars:        1\n  \
             other lines: 1\n  seeks:       0\n  warnings:    none\n"
        )
    );
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = r##"{
  "format": "text",
  "name": null,
  "warnings": [],
  "instances": [
    {"model_id": 1337, "model_name": "prop_a", "interior": 13, "position": [1.5, -2, 3.25], "rotation": [0, 0, 0.5, 1], "scale": null, "lod": -1}
  ],
  "cars": [
    {"position": [10.5, 20, 5], "angle": 1.5, "model_id": 400, "primary_color": -1, "secondary_color": -1, "flags": 3, "alarm_chance": 0, "door_lock_chance": 100, "min_delay": 0, "max_delay": 10000}
  ],
  "section_lines": [
    {"section": "cull", "text": "1, 2, 3"}
  ],
  "raw": null,
  "trailing": null,
  "stored": [
    {"item": "text", "index": null, "raw": "# a comment\u000d\u000a"},
    {"item": "text", "index": null, "raw": "inst\u000d\u000a"},
    {"item": "instance", "index": 0, "raw": "1337, prop_a, 13, 1.5, -2, 3.25, 0, 0, 0.5, 1, -1\u000d\u000a"},
    {"item": "text", "index": null, "raw": "end\u000d\u000a"},
    {"item": "text", "index": null, "raw": "cars\u000d\u000a"},
    {"item": "car", "index": 0, "raw": "10.5, 20, 5, 1.5, 400, -1, -1, 3, 0, 100, 0, 10000\u000d\u000a"},
    {"item": "text", "index": null, "raw": "end\u000d\u000a"},
    {"item": "text", "index": null, "raw": "cull\u000d\u000a"},
    {"item": "section_line", "index": 0, "raw": "1, 2, 3\u000d\u000a"},
    {"item": "text", "index": null, "raw": "end\u000d\u000a"}
  ]
}
"##;
    assert_eq!(stdout(&output), expected);
}

/// A vanilla binary IPL: the 76-byte header, one instance at 76, one car generator at 116.
#[test]
fn binary_ipl_json() {
    let mut bytes = vec![0u8; 76];
    bytes[..4].copy_from_slice(b"bnry");
    for (at, v) in [
        (0x04, 1u32),
        (0x14, 1),
        (0x1C, 76),
        (0x20, 40),
        (0x3C, 116),
        (0x40, 48),
    ] {
        bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    for v in [1.0f32, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for v in [620i32, 0x10D, -1] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for v in [-5.0f32, 0.25, 10.0, 3.0] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for v in [-1i32, 1, 2, 1, 50, 25, 0, 0] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let path = fixture("stream.ipl", &bytes);
    let output = run(&["dump", "--json", "--no-seek", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(json.get("format").str(), "bnry");
    assert_eq!(json.member("animations"), None);
    let instance = &json.get("instances").arr()[0];
    assert_eq!(instance.get("model_id").i64(), 620);
    assert_eq!(instance.get("interior").i64(), 0x10D);
    assert_eq!(instance.get("model_name"), &Json::Null);
    assert_eq!(instance.get("position").f32s(), [1.0, 2.0, 3.0]);
    assert_eq!(instance.get("rotation").f32s(), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(instance.get("lod").i64(), -1);
    let car = &json.get("cars").arr()[0];
    assert_eq!(car.get("position").f32s(), [-5.0, 0.25, 10.0]);
    assert_eq!(car.get("angle").f32(), 3.0);
    assert_eq!(car.get("model_id").i64(), -1);
    assert_eq!(car.get("door_lock_chance").i64(), 25);
    assert_eq!(json.get("section_lines").arr(), &[]);
}

#[test]
fn text_that_is_no_placement_file_and_empty_files_fail() {
    // The workspace's own Cargo.toml and README.md: text, but no placement files.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["Cargo.toml", "README.md"] {
        let path = root.join(name);
        let path = path.to_str().unwrap();
        for args in [&["info", path][..], &["dump", "--json", path][..]] {
            let output = run(args);
            assert_eq!(output.status.code(), Some(1), "{args:?}");
            assert_eq!(stdout(&output), "");
            assert_eq!(
                stderr(&output),
                format!("gtastream: {path}: unknown file magic at offset 0\n")
            );
        }
    }
    let path = fixture("empty.ipl", b"");
    let output = run(&["info", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!("gtastream: {path}: empty input at offset 0\n")
    );
    // A real EMPTY.IPL, one line break, is an empty placement file.
    let path = fixture("EMPTY.IPL", b"\n");
    let output = run(&["info", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("instances:   0\n"));
}

/// A San Andreas file with a locale decimal comma, a broken float and a bad `cars` line.
const QUIRKY_IPL: &[u8] = b"# quirks\r\ninst\r\n\
    1, a, 0, 1.0, 2.0, 3.0, 0, 0, 0, 1, -1\r\n\
    2, comma, 0, 10.5, 20, 2499,8149, 0.0, 0.0, 1.0, 1.62921e-007, -1\r\n\
    3, broken, 0, 2\xb550.66, 1, 2, 0, 0, 0, 1, -1\r\n\
    end\r\ncars\r\n1, 2, 3, 0.5, 400, -1, -1, 0, 0, 0\r\nend\r\n";

#[test]
fn text_ipl_bad_lines_are_warnings_with_their_lines() {
    let path = fixture("quirks.ipl", QUIRKY_IPL);
    let output = run(&["info", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let comma_rest = QUIRKY_IPL.windows(7).position(|w| w == b".62921e").unwrap();
    let broken = QUIRKY_IPL
        .windows(9)
        .position(|w| w == b"3, broken")
        .unwrap();
    let cars = QUIRKY_IPL
        .windows(12)
        .position(|w| w == b"1, 2, 3, 0.5")
        .unwrap();
    assert_eq!(
        stdout(&output),
        format!(
            "{path}\n  format:      text\n  instances:   2\n  cars:        0\n  \
             other lines: 2\n  seeks:       0\n  warnings:    3\n    \
             text after the last field, ignored at offset {comma_rest}, line 4 (trailing_text)\n    \
             line the game cannot read, skipped at offset {broken}, line 5 (malformed_line)\n    \
             line the game cannot read, skipped at offset {cars}, line 8 (malformed_line)\n"
        )
    );
}

#[test]
fn game_option_fixes_the_inst_layout() {
    // The decimal-comma line first: twelve fields, which the file alone takes for GTA III.
    let text = b"inst\n2, comma, 0, 10.5, 20, 2499,8149, 0.0, 0.0, 1.0, 1.62921e-007, -1\nend\n";
    let path = fixture("comma.ipl", text);
    let instance = |args: &[&str]| {
        let output = run(args);
        assert!(output.status.success(), "{}", stderr(&output));
        let json = stdout(&output).to_owned();
        let line = json
            .lines()
            .find(|l| l.contains("\"model_id\""))
            .expect("an instance")
            .trim()
            .to_owned();
        line
    };
    assert_eq!(
        instance(&["dump", "--json", &path]),
        r#"{"model_id": 2, "model_name": "comma", "interior": 0, "position": [0, 10.5, 20], "rotation": [0, 1, 0.000000162921, -1], "scale": [2499, 8149, 0], "lod": -1}"#
    );
    assert_eq!(
        instance(&["dump", "--json", "--game", "sa", &path]),
        r#"{"model_id": 2, "model_name": "comma", "interior": 0, "position": [10.5, 20, 2499], "rotation": [8149, 0, 0, 1], "scale": null, "lod": 1}"#
    );
    let output = run(&["info", "--game", "vc", &path]);
    assert!(output.status.success());
    assert!(
        stdout(&output).contains("(malformed_line)"),
        "{}",
        stdout(&output)
    );
    // Not a game: a usage error.
    let output = run(&["info", "--game", "lcs", &path]);
    assert_eq!(output.status.code(), Some(2));
}

/// `check`: status 0 for a clean file, 1 for an error finding, 2 for an unreadable input; the
/// JSON document and the text line carry the rule, games, offset, animation and bone.
#[test]
fn check_statuses_json_and_lines() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/walk.ifp");
    assert_eq!(run(&["check", sample]).status.code(), Some(0));
    // SA text IPL: an id past the model table is an error at its line.
    let ipl = fixture(
        "check_ids.ipl",
        b"inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n",
    );
    let out = run(&["check", "--json", &ipl]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = Json::parse(stdout(&out)).unwrap();
    let input = &doc.get("inputs").arr()[0];
    assert_eq!(input.get("format").str(), "text");
    let finding = input
        .get("findings")
        .arr()
        .iter()
        .find(|f| f.get("rule").str() == "iplsa.inst.id_range")
        .expect("the id rule");
    assert_eq!(finding.get("severity").str(), "error");
    assert_eq!(finding.get("games").arr()[0].str(), "sa");
    assert_eq!(finding.get("offset").i64(), 5);
    assert_eq!(
        finding.keys(),
        [
            "rule",
            "severity",
            "games",
            "offset",
            "entry",
            "animation",
            "bone",
            "message"
        ]
    );
    assert!(finding.get("message").str().starts_with("line 2: "));
    // A III file (12 fields), checked for III only: one text line per finding.
    let iii = fixture(
        "check_iii.ipl",
        b"inst\n20000, x, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n",
    );
    let text = run(&["check", "--game", "iii", &iii]);
    assert!(stdout(&text).contains(": error ipl3.inst.id_range (iii) at 5, line 2: "));
    // A game that does not load the format has nothing to say.
    assert_eq!(
        run(&["check", "--game", "mta", &ipl]).status.code(),
        Some(0)
    );
    let missing = run(&["check", "no/such/file.ifp"]);
    assert_eq!(missing.status.code(), Some(2));
}

/// `convert` checks what it wrote: float frames in ANP3 are named for MTA (with the way out),
/// packed frames in ANP2 for San Andreas; `--check` refuses an output with an error finding and
/// leaves OUT as it was.
#[test]
fn convert_consults_the_checker() {
    // Float keyframes off the packed steps stay floats in ANP3.
    let key = |time: f32, rotation: [f32; 4]| Keyframe {
        time,
        rotation,
        translation: [0.0; 3],
        scale: [0.0; 3],
    };
    let frames = vec![
        key(0.0, [0.1, 0.2, 0.3, 0.9]),
        key(0.0123, [0.2, 0.1, 0.3, 0.9]),
    ];
    let package = Package {
        format: Format::Anpk,
        name: Some("demo".into()),
        animations: vec![gtastream::Animation {
            name: "a".into(),
            frame_data_size: None,
            flags: None,
            duration: None,
            bones: vec![gtastream::Bone {
                name: Some("b".into()),
                bone_id: Some(0),
                bone_key: None,
                frame_type: FrameType::Kr00,
                frames,
                raw: Vec::new(),
            }],
            raw: Vec::new(),
        }],
        warnings: Vec::new(),
        raw: Vec::new(),
        trailing: Vec::new(),
    };
    let anpk = fixture(
        "check_convert.ifp",
        &gtastream::encode::anpk(&package).unwrap(),
    );
    let anp3 = fixture("check_convert_out.ifp", b"");
    let out = run(&["convert", "--to", "anp3", &anpk, &anp3]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("error mta.ifp.float_frames (mta)"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("--quantize"), "{}", stderr(&out));
    let quantized = run(&["convert", "--quantize", "--to", "anp3", &anpk, &anp3]);
    assert!(
        !stderr(&quantized).contains("mta.ifp.float_frames"),
        "{}",
        stderr(&quantized)
    );
    let anp2 = fixture("check_convert_out2.ifp", b"");
    let packed = run(&["convert", "--to", "anp2", &anp3, &anp2]);
    // ANP2 takes the frame class from the first bone (issue 30): the retired
    // `ifp.anp2.compressed_types` is never reported.
    assert!(packed.status.success(), "{}", stderr(&packed));
    assert!(
        !stderr(&packed).contains("ifp.anp2.compressed_types"),
        "{}",
        stderr(&packed)
    );
    // An id past SA's model table, written to a binary IPL: refused with --check.
    let ipl = fixture(
        "check_convert.ipl",
        b"inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n",
    );
    let bnry = fixture("check_convert_out.ipl", b"before");
    let refused = run(&["convert", "--check", "--to", "bnry", &ipl, &bnry]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("error bnry.inst.id_range (sa)"),
        "{}",
        stderr(&refused)
    );
    assert!(
        stderr(&refused).contains("refused (--check)"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(std::fs::read(&bnry).unwrap(), b"before");
    let written = run(&["convert", "--to", "bnry", &ipl, &bnry]);
    assert!(written.status.success());
    assert_ne!(std::fs::read(&bnry).unwrap(), b"before");
}

/// `sample`: the pose at a time, worked out by hand. Root: identity at 0 s and 180° about z at
/// 2 s, so at 1 s θ = acos 0 and both slerp weights are sin(π/4); the translation halfway.
/// Head: one key, held. Names match in any case, trimmed; --loop wraps by the length (2 s).
#[test]
fn sample_json_by_hand() {
    let package = Package {
        format: Format::Anp3,
        name: Some("s".into()),
        animations: vec![anim(
            "walk",
            vec![
                bone(
                    "Root",
                    Some(0),
                    FrameType::Ifp2RotTrans,
                    vec![
                        kf(0.0, IDENTITY, [0.0; 3], [0.0; 3]),
                        kf(2.0, [0.0, 0.0, 1.0, 0.0], [2.0, 0.0, -2.0], [0.0; 3]),
                    ],
                ),
                bone(
                    "Head",
                    Some(5),
                    FrameType::Ifp2Rot,
                    vec![kf(0.0, [0.5; 4], [0.0; 3], [0.0; 3])],
                ),
            ],
        )],
        warnings: vec![],
        raw: Vec::new(),
        trailing: Vec::new(),
    };
    let path = fixture("sample.ifp", &gtastream::encode::ifp2(&package).unwrap());
    let expected = r#"{"animation": "walk", "time": TIME, "bones": [
  {"name": "Root", "bone_id": 0, "rotation": [0, 0, 0.70710677, 0.70710677], "translation": [1, 0, -1]},
  {"name": "Head", "bone_id": 5, "rotation": [0.5, 0.5, 0.5, 0.5], "translation": null}
]}
"#;
    for (args, time) in [
        (
            &[
                "sample",
                "--json",
                "--animation",
                "walk",
                "--time",
                "1",
                &path,
            ][..],
            "1",
        ),
        (
            &[
                "sample",
                "--json",
                "--animation",
                " WALK",
                "--time",
                "5",
                "--loop",
                &path,
            ][..],
            "5",
        ),
    ] {
        let output = run(args);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stdout(&output), expected.replace("TIME", time), "{args:?}");
    }
    let text = run(&["sample", "--animation", "walk", "--time", "1", &path]);
    assert!(stdout(&text).contains("Root"), "{}", stdout(&text));
    let missing = run(&["sample", "--animation", "run", "--time", "1", &path]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("no animation named \"run\""));
    // A time outside the domain names the option, not a place in the file (it said `... at
    // offset 0`, an offset of a file that has no fault).
    for time in ["-1", "NaN", "inf"] {
        for json in [&[][..], &["--json"][..]] {
            let mut args = vec!["sample", "--animation", "walk", "--time", time];
            args.extend_from_slice(json);
            args.push(&path);
            let output = run(&args);
            assert_eq!(output.status.code(), Some(1), "{args:?}");
            let message = stderr(&output);
            assert!(
                message.starts_with(&format!("gtastream: --time {time}: not a time to sample")),
                "{message}"
            );
            assert!(!message.contains("offset"), "{message}");
        }
    }
}

/// A mod's text IPL holding a section the games do not know: a placement file, its lines
/// passed through under that section's name; a record before any section, under none.
#[test]
fn text_ipl_with_an_unknown_section() {
    let path = fixture(
        "sniff_wanted.ipl",
        b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\nwanted\n3, 2\n\t1, 2488.5, -1666.25, 13.3\nend\n",
    );
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    assert_eq!(json.get("format").str(), "text");
    let lines: Vec<(&str, &str)> = json
        .get("section_lines")
        .arr()
        .iter()
        .map(|l| (l.get("section").str(), l.get("text").str()))
        .collect();
    assert_eq!(
        lines,
        [
            ("", "1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1"),
            ("wanted", "3, 2"),
            ("wanted", "1, 2488.5, -1666.25, 13.3"),
        ]
    );
    // A Cargo.toml is still no placement file.
    let path = fixture(
        "sniff_Cargo.toml",
        b"[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
    );
    let output = run(&["info", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("unknown file magic"),
        "{}",
        stderr(&output)
    );
}
