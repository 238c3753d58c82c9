//! Context in messages: the JSON document's warnings name their animation, bone and line, its
//! raw fields hold the units as stored, and a failure says where it happened and what was
//! decoded before it (docs/FORMATS.md §7, §10). Offsets worked out by hand from the layout of
//! §2 (36-byte file, animation and bone headers; 10-byte packed keyframes).
#![cfg(feature = "alloc")]

use gtastream::context::{self, Decoded};
use gtastream::{Decoder, ErrorKind, Options};
use testkit::ifp2::{AnimSpec, BoneSpec, FileSpec};

/// Two animations; bone 2 of animation 1 ("b2") has a time that goes back (at offset 322).
///
/// ```text
/// 0 file | 36 "first" | 72 "a" | 108 frames | 128 "second" | 164 "b0" | 200 frames
/// | 220 "b1" | 256 frames | 276 "b2" | 312 frame | 322 frame (time -1) | 332 end
/// ```
fn file() -> FileSpec {
    let bone = BoneSpec::packed;
    FileSpec::anp3(
        "ctx",
        vec![
            AnimSpec::new("first", vec![bone("a", &[0, 1])]),
            AnimSpec::new(
                "second",
                vec![
                    bone("b0", &[0, 1]),
                    bone("b1", &[0, 1]),
                    bone("b2", &[1, -1]),
                ],
            ),
        ],
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn warnings_carry_their_animation_and_bone() {
    let data = file().build();
    let doc = gtastream::json::to_string(&data, Options::default()).unwrap();
    assert!(
        doc.contains(
            "{\"kind\": \"time_backwards\", \"reason\": \"keyframe time goes backwards\", \
             \"offset\": 322, \"animation\": 1, \"bone\": 2, \"line\": null}"
        ),
        "{doc}"
    );
}

#[test]
fn raw_fields_hold_the_units_as_stored() {
    let data = file().trailing(b"\x01\xab").build();
    let doc = gtastream::json::to_string(&data, Options::default()).unwrap();
    let field = |key: &str, bytes: &[u8]| format!("\"{key}\": \"{}\"", hex(bytes));
    assert!(doc.contains(&field("raw", &data[..36])), "{doc}");
    assert!(doc.contains(&field("trailing", &data[332..])), "{doc}");
    // Each header after its contents: a bone's after its frames, an animation's after its
    // bones, the file's after the animations.
    let raws: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.trim().strip_prefix("\"raw\": \""))
        .map(|raw| raw.trim_end_matches([',', '"']))
        .collect();
    let expected: Vec<String> = [72, 36, 164, 220, 276, 128, 0]
        .iter()
        .map(|&at| hex(&data[at..at + 36]))
        .collect();
    assert_eq!(raws, expected);
    // Nothing after the content: null.
    let doc = gtastream::json::to_string(&file().build(), Options::default()).unwrap();
    let end = "\"trailing\": null,\n  \"blocks\": null,\n  \"container_size\": null\n}\n";
    assert!(doc.ends_with(end), "{doc}");
}

#[test]
fn a_cut_file_says_what_was_decoded() {
    let data = file().build();
    let failure = context::decode_slice(&mut Decoder::new(), &data[..317], &mut Count)
        .expect_err("cut inside the first keyframe of b2");
    assert_eq!(failure.error.kind, ErrorKind::Truncated);
    assert_eq!(
        failure.decoded,
        Decoded {
            animations: 2,
            bones: 4,
            keyframes: 6,
            ..Decoded::default()
        }
    );
    assert_eq!(
        failure.to_string(),
        "file cut short: it ends before the data at offset 312 is complete (animation 1 \"second\", bone 2 \"b2\"; \
         after 2 animations, 4 bones, 6 keyframes)"
    );
    // The JSON document gives the same failure.
    let from_json = gtastream::json::to_string(&data[..317], Options::default()).unwrap_err();
    assert_eq!(from_json, failure);
    // Before anything is decoded, the error alone.
    let failure = context::decode_slice(&mut Decoder::new(), b"XXXXXXXX", &mut Count).unwrap_err();
    assert_eq!(failure.to_string(), "unknown file magic at offset 0");
}

#[test]
fn a_cut_placement_file_counts_its_records() {
    use testkit::ipl::{bnry, samples_car, samples_inst, CAR, HEADER, INSTANCE};
    let cars_at = HEADER + 3 * INSTANCE;
    let data = bnry(
        &samples_inst(3),
        HEADER as u32,
        &samples_car(1),
        cars_at as u32,
    );
    let cut = &data[..cars_at + CAR - 4];
    let failure = context::decode_slice(&mut Decoder::new(), cut, &mut Count).unwrap_err();
    assert_eq!(
        failure.to_string(),
        format!(
            "file cut short: it ends before the data at offset {cars_at} is complete (after 3 instances, 0 cars, 0 lines)"
        )
    );
}

#[cfg(feature = "ipl-text")]
#[test]
fn a_text_failure_names_its_line() {
    let mut text = b"inst\n1, box, 0, 1, 2, 3, 0, 0, 0, 1, -1\n".to_vec();
    let at = text.len();
    text.extend(std::iter::repeat_n(b'x', gtastream::MAX_LINE + 1));
    text.extend_from_slice(b"\nend\n");
    let failure = context::decode_slice(&mut Decoder::new(), &text, &mut Count).unwrap_err();
    assert_eq!(failure.error.kind, ErrorKind::Limit);
    assert_eq!(
        failure.to_string(),
        format!(
            "exceeds a bound of the decoder at offset {at} (line 3; after 1 instance, 0 cars, \
             0 lines)"
        )
    );
}

/// A visitor that takes every event (the counting is the tracker's).
struct Count;
impl gtastream::Visitor for Count {}
