//! Files that break the redundant fields, as modding tools write them. Each must decode fully,
//! with exactly the expected warnings at offsets worked out by hand from the file's layout
//! (docs/FORMATS.md §2), each in its place in the event order.

use gtastream::WarningKind::{self, *};
use testkit::ifp2::*;

/// Decodes `file`, checks the log against the reference decoder and the placement rules, and
/// returns its warnings.
fn decode(file: &[u8]) -> Vec<(WarningKind, u64)> {
    let log = log_whole(file);
    assert_eq!(
        log.last(),
        Some(&Ev::End),
        "sloppy files decode fully: {log:?}"
    );
    assert_eq!(
        log,
        reference(file).log(),
        "differs from the reference decoder"
    );
    check_placement(file, &log);
    warnings(&log)
}

/// Where each warning must sit in the event order.
fn check_placement(file: &[u8], log: &[Ev]) {
    for (i, ev) in log.iter().enumerate() {
        let &Ev::Warning(kind, offset) = ev else {
            continue;
        };
        let w = gtastream::Warning { kind, offset };
        let before = &log[i - 1];
        let after = &log[i + 1];
        match w.kind {
            TimeBackwards => match after {
                // Immediately before the offending frame, which starts at the warning's offset.
                Ev::Frame { bytes, .. } => {
                    let at = w.offset as usize;
                    assert_eq!(bytes.as_slice(), &file[at..at + bytes.len()]);
                }
                other => panic!("TimeBackwards followed by {other:?}"),
            },
            FrameDataSizeMismatch | CompressedFlagClear => {
                // After the animation's last bone_end (or its header when it has no bones),
                // before animation_end.
                assert!(
                    matches!(before, Ev::BoneEnd | Ev::Animation { .. } | Ev::Warning(..)),
                    "{w:?} after {before:?}"
                );
                assert!(
                    matches!(after, Ev::AnimationEnd | Ev::Warning(..)),
                    "{w:?} before {after:?}"
                );
            }
            SizeMismatch => {
                assert!(matches!(before, Ev::AnimationEnd | Ev::File { .. }));
                assert!(matches!(after, Ev::End | Ev::Warning(TrailingData, _)));
            }
            TrailingData => {
                assert_eq!(after, &Ev::End);
                assert!(!log[i + 1..].iter().any(|e| matches!(
                    e,
                    Ev::Animation { .. } | Ev::Bone { .. } | Ev::Frame { .. }
                )));
            }
            DuplicateBone => {
                // Right before the bone, whose header starts at the warning's offset.
                assert!(matches!(after, Ev::Bone { .. }), "{w:?} before {after:?}");
                let at = w.offset as usize;
                assert!(file[at..].starts_with(&bone_name(after)));
            }
            other => panic!("unexpected warning kind {other:?}"),
        }
    }
}

fn bone_name(ev: &Ev) -> Vec<u8> {
    match ev {
        Ev::Bone {
            name: Some(name), ..
        } => name.clone(),
        other => panic!("not a named bone: {other:?}"),
    }
}

fn count(log: &[Ev], pred: impl Fn(&Ev) -> bool) -> usize {
    log.iter().filter(|e| pred(e)).count()
}

// anp3_packed(): 0 header | 36 animation | 72 bone "Root" | 108 3 × 16 | 156 bone "L Thigh"
// | 192 2 × 10 | 212 end; the correct size is 212 − 8 = 204.
const PACKED_END: u64 = 212;

#[test]
fn the_base_fixture_has_the_layout_the_offsets_below_assume() {
    let file = anp3_packed().build();
    assert_eq!(file.len() as u64, PACKED_END);
    assert_eq!(&file[4..8], &204u32.to_le_bytes());
    assert!(decode(&file).is_empty());
}

#[test]
fn size_too_small() {
    assert_eq!(
        decode(&anp3_packed().size(194).build()),
        [(SizeMismatch, 4)]
    );
    assert_eq!(
        decode(&anp3_packed().size(203).build()),
        [(SizeMismatch, 4)]
    );
    assert_eq!(decode(&anp3_packed().size(0).build()), [(SizeMismatch, 4)]);
}

#[test]
fn size_too_large() {
    assert_eq!(
        decode(&anp3_packed().size(205).build()),
        [(SizeMismatch, 4)]
    );
    assert_eq!(
        decode(&anp3_packed().size(u32::MAX).build()),
        [(SizeMismatch, 4)]
    );
}

#[test]
fn size_counts_trailing_bytes_as_wrong() {
    // The size covers the content only; a size that includes the trailing bytes is wrong too.
    let trailing = [1u8; 12];
    let file = anp3_packed().size(204 + 12).trailing(&trailing).build();
    assert_eq!(
        decode(&file),
        [(SizeMismatch, 4), (TrailingData, PACKED_END)]
    );
    let file = anp3_packed().trailing(&trailing).build();
    assert_eq!(decode(&file), [(TrailingData, PACKED_END)]);
}

#[test]
fn size_of_an_empty_package() {
    // No animations: the content ends with the 36-byte header, so size must be 28.
    assert!(decode(&FileSpec::anp3("e", vec![]).size(28).build()).is_empty());
    assert_eq!(
        decode(&FileSpec::anp3("e", vec![]).size(36).build()),
        [(SizeMismatch, 4)]
    );
    assert_eq!(
        decode(&FileSpec::anp2("e", vec![]).trailing(b"x").build()),
        [(TrailingData, 36)]
    );
}

#[test]
fn trailing_bytes_are_reported_once_and_not_parsed() {
    // The trailing bytes form a whole extra animation: it must not appear.
    let file = anp3_packed().trailing(&trailing_animation()).build();
    assert_eq!(decode(&file), [(TrailingData, PACKED_END)]);
    let log = log_whole(&file);
    assert_eq!(count(&log, |e| matches!(e, Ev::Animation { .. })), 1);
    assert_eq!(count(&log, |e| matches!(e, Ev::Bone { .. })), 2);
    assert_eq!(count(&log, |e| matches!(e, Ev::Frame { .. })), 5);
    // Fed a byte at a time, still one warning.
    assert_eq!(warnings(&log_bytewise(&file)), [(TrailingData, PACKED_END)]);
}

#[test]
fn trailing_bytes_that_would_fail_to_parse_are_harmless() {
    // As an animation header these would declare 0xFFFFFFFF bones, as a file a bad magic.
    for garbage in [vec![0xFF; 100], b"XXXX".to_vec(), vec![1], vec![0xAB; 5000]] {
        let file = anp3_packed().trailing(&garbage).build();
        assert_eq!(decode(&file), [(TrailingData, PACKED_END)]);
    }
}

#[test]
fn zero_padding_after_the_content_is_silent() {
    // Archive sector padding: zeros after the content are not stale data.
    for n in [1, 3, 4, 2048 - 212] {
        let file = anp3_packed().trailing(&vec![0; n]).build();
        assert!(decode(&file).is_empty(), "{n} zeros");
        assert!(warnings(&log_bytewise(&file)).is_empty(), "{n} zeros");
    }
}

#[test]
fn trailing_data_is_reported_at_its_first_non_zero_byte() {
    let mut tail = vec![0; 30];
    tail[17] = 0x20;
    tail[25] = 0xFF;
    let file = anp3_packed().trailing(&tail).build();
    assert_eq!(decode(&file), [(TrailingData, PACKED_END + 17)]);
    // Wherever the zeros and the byte are cut.
    for cut in PACKED_END as usize..=file.len() {
        assert_eq!(
            warnings(&log_split(&file, &[cut])),
            [(TrailingData, PACKED_END + 17)],
            "cut {cut}"
        );
    }
    assert_eq!(
        warnings(&log_bytewise(&file)),
        [(TrailingData, PACKED_END + 17)]
    );
}

#[test]
fn wrong_frame_data_size() {
    // 36 "right" | 72 bone | 108 10 bytes | 118 "wrong" (says 10, has 16) | 154 bone
    // | 190 16 bytes | 206 "zero bones wrong" (says 4, has 0) | 242 end.
    let file = frame_data_size_wrong().build();
    assert_eq!(file.len(), 242);
    assert_eq!(
        decode(&file),
        [
            (FrameDataSizeMismatch, 118 + 28),
            (FrameDataSizeMismatch, 206 + 28)
        ]
    );
}

#[test]
fn frame_data_size_counts_every_bone_of_the_animation() {
    // Two bones: 2 × 16 + 3 × 10 = 62. Saying only one bone's share is wrong.
    let bones = || {
        vec![
            BoneSpec::new("a", 4, 0, vec![p4([0, 0, 0, ONE], 0, [0; 3]); 2]),
            BoneSpec::new("b", 3, 1, vec![p3([0, 0, 0, ONE], 0); 3]),
        ]
    };
    let ok = FileSpec::anp3("f", vec![AnimSpec::new("a", bones()).frame_data_size(62)]);
    assert!(decode(&ok.build()).is_empty());
    for wrong in [0, 30, 32, 61, 63, u32::MAX] {
        let bad = FileSpec::anp3(
            "f",
            vec![AnimSpec::new("a", bones()).frame_data_size(wrong)],
        );
        assert_eq!(
            decode(&bad.build()),
            [(FrameDataSizeMismatch, 36 + 28)],
            "{wrong}"
        );
    }
}

#[test]
fn anp2_has_no_frame_data_size_or_flags_to_check() {
    assert!(decode(&anp2_all_types().build()).is_empty());
}

#[test]
fn compressed_flag_clear_with_packed_frames() {
    // 36 "mixed" (flags 0) | 72 bone (type 1) | 108 20 bytes | 128 bone (type 3) | 164 10 bytes
    // | 174 "other bits" (0xFFFFFFFE) | 210 bone | 246 16 bytes | 262 "no frames" (flags 0)
    // | 298 bone (type 3, no frames) | 334 end.
    let file = flags_clear_packed().build();
    assert_eq!(file.len(), 334);
    assert_eq!(
        decode(&file),
        [
            (CompressedFlagClear, 36 + 32),
            (CompressedFlagClear, 174 + 32),
            (CompressedFlagClear, 262 + 32)
        ]
    );
}

#[test]
fn compressed_flag_clear_with_float_frames_is_fine() {
    assert!(decode(&flags_clear_float().build()).is_empty());
    // An animation without bones has nothing compressed either.
    let file = FileSpec::anp3("f", vec![AnimSpec::new("none", vec![]).flags(0)]).build();
    assert!(decode(&file).is_empty());
}

#[test]
fn compressed_flag_set_with_float_frames_is_fine() {
    let file = FileSpec::anp3(
        "f",
        vec![AnimSpec::new("a", vec![BoneSpec::new("r", 1, 0, vec![f1([0.0; 4], 0.0)])]).flags(1)],
    )
    .build();
    assert!(decode(&file).is_empty());
}

#[test]
fn time_going_backwards_is_reported_once_per_bone_before_the_frame() {
    // 72 "twice" (type 3): frames at 108 (t 0), 118 (10), 128 (5), 138 (3), 148 (20)
    // 158 "equal" (type 4): 194 (7), 210 (7)
    // 226 "second" (type 3): 262 (100), 272 (−100)
    // 282 "float" (type 2): 318 (0.5), 350 (0.25), 382 (0.125)
    // 414 "fresh" (type 3): 450 (0), 460 (1); 470 end.
    let file = time_backwards().build();
    assert_eq!(file.len(), 470);
    assert_eq!(
        decode(&file),
        [
            (TimeBackwards, 128),
            (TimeBackwards, 272),
            (TimeBackwards, 350)
        ]
    );
    // The frames are all still delivered, in file order.
    let times: Vec<f32> = keyframes(&log_whole(&file))
        .iter()
        .map(|k| k.time)
        .collect();
    assert_eq!(times.len(), 14);
    assert_eq!(
        times[..5],
        [0.0, 10.0 / 60.0, 5.0 / 60.0, 3.0 / 60.0, 20.0 / 60.0]
    );
}

#[test]
fn time_backwards_is_judged_on_the_stored_value() {
    // −1 tick after 0 is backwards; the times are signed.
    let q = [0, 0, 0, ONE];
    let file = FileSpec::anp3(
        "t",
        vec![AnimSpec::new(
            "a",
            vec![BoneSpec::new("b", 3, 0, vec![p3(q, 0), p3(q, -1)])],
        )],
    )
    .build();
    assert_eq!(decode(&file), [(TimeBackwards, 108 + 10)]);
    // Negative but increasing: fine.
    let file = FileSpec::anp3(
        "t",
        vec![AnimSpec::new(
            "a",
            vec![BoneSpec::new(
                "b",
                3,
                0,
                vec![p3(q, i16::MIN), p3(q, -1), p3(q, 0), p3(q, i16::MAX)],
            )],
        )],
    )
    .build();
    assert!(decode(&file).is_empty());
}

#[test]
fn several_oddities_in_one_file() {
    // 36 "a" (frameDataSize 0, flags 0) | 72 bone "x" (type 4, id −1): 108 (t 5), 124 (t 4)
    // | 140 bone "y" (type 3, id −1): 176 | 186 "b" | 222 bone "z": 258 (t 9), 268 (t 8)
    // | 278 end, then 10 trailing bytes whose first non-zero one is at 282; size 1.
    let file = all_oddities().build();
    assert_eq!(file.len(), 278 + 10);
    assert_eq!(
        decode(&file),
        [
            (TimeBackwards, 124),
            (FrameDataSizeMismatch, 36 + 28),
            (CompressedFlagClear, 36 + 32),
            (TimeBackwards, 268),
            (SizeMismatch, 4),
            (TrailingData, 282),
        ]
    );
}

#[test]
fn anp2_size_and_trailing() {
    // 36 "floats" (28) | 64 bone | 100 20 | 120 bone | 156 32 | 188 "packed" (28) | 216 bone
    // | 252 10 | 262 10 | 272 bone | 308 16 | 324 end.
    let file = anp2_all_types().size(3).trailing(b"\x01\x02\x03").build();
    assert_eq!(file.len(), 327);
    assert_eq!(decode(&file), [(SizeMismatch, 4), (TrailingData, 324)]);
}

#[test]
fn every_sloppy_fixture_decodes_with_warnings() {
    for (name, spec) in sloppy_specs() {
        let file = spec.build();
        let w = decode(&file);
        if name != "flags_clear_float" {
            assert!(!w.is_empty(), "{name}: expected a warning");
        }
    }
    for (name, spec) in valid_specs() {
        assert!(
            decode(&spec.build()).is_empty(),
            "{name}: no warning expected"
        );
    }
}

#[test]
fn a_repeated_bone_name_is_reported_at_the_second_bone() {
    // 36 "a" | 72 "Root" | 108 "L Thigh" | 144 "root": the third repeats the first (names
    // are looked up without regard to case); 180 "b" | 216 "Root" again: a new animation.
    let none = || BoneSpec::new("Root", 1, 0, vec![]);
    let file = FileSpec::anp3(
        "ped",
        vec![
            AnimSpec::new(
                "a",
                vec![
                    none(),
                    BoneSpec::new("L Thigh", 1, -1, vec![]),
                    BoneSpec::new("root", 1, -1, vec![]),
                ],
            ),
            AnimSpec::new("b", vec![none()]),
        ],
    )
    .build();
    assert_eq!(file.len(), 252);
    assert_eq!(decode(&file), [(DuplicateBone, 144)]);
    // ANP2: the same, with 28-byte animation headers.
    let file = FileSpec::anp2(
        "ped",
        vec![AnimSpec::new(
            "a",
            vec![
                none(),
                BoneSpec::new("Root", 3, 2, vec![p3([0, 0, 0, 1], 0)]),
            ],
        )],
    )
    .build();
    assert_eq!(decode(&file), [(DuplicateBone, 36 + 28 + 36)]);
}

#[test]
fn the_first_twenty_names_of_an_animation_are_kept() {
    // A repeat of the 21st name goes unseen (the documented bound); a repeat of the first is
    // seen however late.
    let mut bones: Vec<BoneSpec> = (0..24)
        .map(|k| BoneSpec::new(&format!("bone{k}"), 1, -1, vec![]))
        .collect();
    bones.push(BoneSpec::new("bone20", 1, -1, vec![]));
    bones.push(BoneSpec::new("BONE0", 1, -1, vec![]));
    let file = FileSpec::anp3("p", vec![AnimSpec::new("a", bones)]).build();
    assert_eq!(decode(&file), [(DuplicateBone, 72 + 25 * 36)]);
}
