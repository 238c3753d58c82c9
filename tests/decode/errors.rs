//! Errors: each kind at the offset of the unit that failed, nothing reported after it, sticky
//! until `reset`; `Finished` after a clean `finish`; aborts from the visitor.

use gtastream::{Decoder, ErrorKind, Format, FrameType, WarningKind};
use testkit::ifp2::*;

fn only_error(log: &[Ev]) -> (ErrorKind, u64) {
    match log.last() {
        Some(Ev::Error(kind, offset)) => (*kind, *offset),
        other => panic!("expected an error, got {other:?}"),
    }
}

// ---- Bad magic -----------------------------------------------------------------------------

/// Without the `ipl-text` feature, text is recognised but not decoded: the `Unsupported` error
/// at 0, with no event, however it is fed, as a placement file or not; and the encoder does not
/// write text.
#[test]
#[cfg(not(feature = "ipl-text"))]
fn text_without_the_feature_is_unsupported() {
    use gtastream::encode::{EncodeError, EncodeOptions, Encoder, SliceSink};
    for text in [
        &b"inst\n1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n"[..],
        b"hello",
        b"#",
    ] {
        let expected = [Ev::error(ErrorKind::Unsupported, 0)];
        assert_eq!(log_whole(text), expected, "{text:?}");
        assert_eq!(log_bytewise(text), expected, "{text:?} byte by byte");
    }
    let mut buf = [0u8; 64];
    let encoder = Encoder::new(
        Format::IplText,
        SliceSink::new(&mut buf),
        EncodeOptions::default(),
    );
    assert!(matches!(
        encoder,
        Err(EncodeError::UnsupportedFormat(Format::IplText))
    ));
}

#[test]
fn bad_magic_is_an_error_at_zero_with_no_events() {
    // Four printable bytes may begin a text IPL file, so a bad magic is one with a byte that
    // is not text.
    let good = anp3_packed().build();
    for magic in [
        b"ANP\x04",
        b"\x80NP3",
        b"AN\xd03",
        b"\0\0\0\0",
        b"\xff\xff\xff\xff",
        b"ANP\0",
        b"\x1bNP2",
    ] {
        let mut file = good.clone();
        file[..4].copy_from_slice(magic);
        assert_eq!(
            log_whole(&file),
            [Ev::error(ErrorKind::BadMagic, 0)],
            "{magic:?}"
        );
        // Four bytes are enough.
        assert_eq!(
            log_whole(magic),
            [Ev::error(ErrorKind::BadMagic, 0)],
            "{magic:?}"
        );
    }
}

// ---- Foreign formats -----------------------------------------------------------------------

/// A RenderWare chunk header (id, size, library id), then a struct chunk's header.
fn chunk(id: u32, library: u32) -> Vec<u8> {
    [id, 0x1234, library, 1, 12, library]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

/// Files of formats that are not ours, each named by its error kind (docs/FORMATS.md §8.1),
/// at 0 with no event, however the input is cut; and the near misses, still `bad_magic`.
#[test]
fn foreign_files_are_named() {
    let mut col3 = b"COL3".to_vec();
    // A collision file's size, then its model name: the magic is printable ASCII, the rest not.
    col3.extend_from_slice(&[0x41, 0x01, 0, 0]);
    col3.extend_from_slice(b"lae_house\0\0\0\xff\xfe");
    let cases: Vec<(Vec<u8>, ErrorKind)> = vec![
        (
            b"COLL\x20\x00\x00\x00box".to_vec(),
            ErrorKind::CollisionFile,
        ),
        (b"COL2\x41\x00\x00\x00A".to_vec(), ErrorKind::CollisionFile),
        (col3, ErrorKind::CollisionFile),
        (b"COL4".to_vec(), ErrorKind::CollisionFile),
        (
            b"VERF\x9a\x13\x77\x02\x00\x10".to_vec(),
            ErrorKind::Fastman92Img,
        ),
        (
            [0x52, 0x2A, 0x4E, 0xA9, 3, 0, 0, 0, 9, 0, 0, 0].to_vec(),
            ErrorKind::Gta4Img,
        ),
        (chunk(0x16, 0x1803_FFFF), ErrorKind::TextureDictionary),
        (chunk(0x16, 0x0401_FFFF), ErrorKind::TextureDictionary),
    ];
    // A clump is a model, read since the DFF reader: San Andreas (3.6.0.3), Vice City
    // (3.3.0.2), GTA III PS2 (unstamped 3.1).
    for version in [0x1803_FFFF, 0x0C02_FFFF, 0x0000_0310] {
        let outcome = testkit::driver::drive_cut(
            &chunk(0x10, version),
            &testkit::driver::Cut::Whole,
            Policy::Continue,
            true,
        );
        assert_eq!(
            outcome.format(),
            Some(gtastream::Format::Dff),
            "{version:#x}"
        );
    }
    for (file, kind) in &cases {
        assert!(kind.is_foreign(), "{kind:?}");
        for cut in
            testkit::driver::Cut::every_split(file.len()).chain([testkit::driver::Cut::Chunk(1)])
        {
            let outcome = testkit::driver::drive_cut(file, &cut, Policy::Continue, true);
            assert_eq!(
                outcome.logged(),
                [Ev::error(*kind, 0)],
                "{file:02x?} {cut:?}"
            );
        }
    }
    // Near misses: not the chunk ids, a word that is no RenderWare 3 library id, a header cut
    // before its version word, other archive magics, lower case.
    let mut near: Vec<Vec<u8>> = vec![
        chunk(0x11, 0x1803_FFFF),
        chunk(0x10, 0),
        chunk(0x10, 0xDEAD_BEEF),
        chunk(0x16, 0x0000_0200),
        chunk(0x10, 0x0000_0400),
        chunk(0x10, 0x2000_0000),
        chunk(0x10, 0x1803_FFFF)[..11].to_vec(),
        [0x10, 0, 0, 0].to_vec(),
        [0x52, 0x2A, 0x4E, 0xA8, 0, 0, 0, 0].to_vec(),
        b"VERF"[..3].iter().chain(b"\xff").copied().collect(),
    ];
    near.push(chunk(0x0110, 0x1803_FFFF));
    for file in &near {
        assert_eq!(
            log_whole(file),
            [Ev::error(ErrorKind::BadMagic, 0)],
            "{file:02x?}"
        );
        assert_eq!(
            log_bytewise(file),
            [Ev::error(ErrorKind::BadMagic, 0)],
            "{file:02x?}"
        );
    }
    // `col3`, `VERG` are text to the sniff: text that is no placement file (or, without text
    // IPL built in, text the build does not read).
    let text = crate::text_error(ErrorKind::BadMagic);
    for file in [&b"col3\x41\x01\x00\x00"[..], b"VERG\x02\x00\x00\x00"] {
        assert_eq!(log_whole(file), [Ev::error(text, 0)], "{file:02x?}");
    }
    // The message names the format.
    let e = Decoder::new().decode_slice(b"VERF\0\0\0\0", &mut Recorder::new(Policy::Continue));
    let message = e.unwrap_err().to_string();
    assert!(
        message.contains("Fastman92") && message.contains("encrypted"),
        "{message}"
    );
    assert_eq!(ErrorKind::Fastman92Img.name(), "fastman92_img");
}

// ---- Unknown frame types -------------------------------------------------------------------

#[test]
fn unknown_frame_type_fails_at_its_bone_header() {
    // 36 "ok" | 72 bone (type 3) | 108 10 bytes | 118 "bad" | 154 bone (type 1) | 190 20 bytes
    // | 210 bone of the unknown type.
    let fixtures = error_fixtures();
    for name in ["unknown_type_0", "unknown_type_5", "unknown_type_max"] {
        let file = &fixtures.iter().find(|(n, _)| *n == name).unwrap().1;
        let log = log_whole(file);
        assert_eq!(
            only_error(&log),
            (ErrorKind::UnknownFrameType, 210),
            "{name}"
        );
        // Everything before the bad bone was reported; the bad bone was not.
        assert_eq!(log[log.len() - 2], Ev::BoneEnd, "{name}");
        assert_eq!(
            log.iter().filter(|e| matches!(e, Ev::Bone { .. })).count(),
            2,
            "{name}"
        );
    }
}

#[test]
fn unknown_frame_type_without_frames_still_fails() {
    for t in [0, 5, 6, 0x100, u32::MAX] {
        let file = FileSpec::anp2(
            "u",
            vec![AnimSpec::new("a", vec![BoneSpec::new("b", t, 0, vec![])])],
        )
        .build();
        // ANP2: the bone header follows a 28-byte animation header.
        assert_eq!(
            only_error(&log_whole(&file)),
            (ErrorKind::UnknownFrameType, 36 + 28),
            "type {t}"
        );
    }
}

// ---- Counts --------------------------------------------------------------------------------

#[test]
fn huge_animation_count_fails_at_the_file_header() {
    for spec in [anp3_packed(), anp2_all_types()] {
        let file = spec.count(u32::MAX).build();
        assert_eq!(log_whole(&file), [Ev::error(ErrorKind::CountTooLarge, 0)]);
    }
}

#[test]
fn huge_bone_count_fails_at_the_animation_header() {
    // Second animation of two, at 36 + 36 + 36 + 10 = 118.
    let file = FileSpec::anp3(
        "b",
        vec![
            AnimSpec::new("a", vec![BoneSpec::new("x", 3, 0, vec![p3([0; 4], 0)])]),
            AnimSpec::new("b", vec![]).count(u32::MAX),
        ],
    )
    .build();
    let log = log_whole(&file);
    assert_eq!(only_error(&log), (ErrorKind::CountTooLarge, 118));
    assert_eq!(log[log.len() - 2], Ev::AnimationEnd);
}

#[test]
fn huge_frame_count_fails_at_the_bone_header() {
    // anp3_packed's second bone header is at 156.
    let mut spec = anp3_packed();
    spec.animations[0].bones[1].frame_count = Some(u32::MAX);
    assert_eq!(
        only_error(&log_whole(&spec.build())),
        (ErrorKind::CountTooLarge, 156)
    );
    // ANP2, first bone: 36 + 28.
    for t in 1..=4 {
        let file = FileSpec::anp2(
            "f",
            vec![AnimSpec::new(
                "a",
                vec![BoneSpec::new("b", t, 0, vec![]).count(u32::MAX)],
            )],
        )
        .build();
        assert_eq!(
            only_error(&log_whole(&file)),
            (ErrorKind::CountTooLarge, 64),
            "type {t}"
        );
    }
}

/// Decodes `file` and expects the counts to be accepted: it ends truncated at `next`, the
/// first unit the count promised.
fn accepted(file: &[u8], next: u64) {
    assert_eq!(
        only_error(&log_whole(file)),
        (ErrorKind::Truncated, next),
        "count accepted, then more input wanted"
    );
}

#[test]
fn count_limits_are_exactly_four_gib() {
    const GIB4: u64 = 1 << 32;

    // Animations (ANP3, 36 bytes each after the 36-byte header): 36 + n × 36 ≤ 2^32.
    let n: u32 = 119_304_646;
    assert!(36 + n as u64 * 36 <= GIB4 && 36 + (n as u64 + 1) * 36 > GIB4);
    accepted(&FileSpec::anp3("a", vec![]).count(n).build(), 36);
    assert_eq!(
        log_whole(&FileSpec::anp3("a", vec![]).count(n + 1).build()),
        [Ev::error(ErrorKind::CountTooLarge, 0)]
    );

    // Animations (ANP2, 28 bytes each): 36 + n × 28 ≤ 2^32.
    let n: u32 = 153_391_687;
    assert!(36 + n as u64 * 28 <= GIB4 && 36 + (n as u64 + 1) * 28 > GIB4);
    accepted(&FileSpec::anp2("a", vec![]).count(n).build(), 36);
    assert_eq!(
        log_whole(&FileSpec::anp2("a", vec![]).count(n + 1).build()),
        [Ev::error(ErrorKind::CountTooLarge, 0)]
    );

    // Bones (36 bytes each) after the animation header that ends at 72: 72 + n × 36 ≤ 2^32.
    let n: u32 = 119_304_645;
    assert!(72 + n as u64 * 36 <= GIB4 && 72 + (n as u64 + 1) * 36 > GIB4);
    let bones = |n| FileSpec::anp3("b", vec![AnimSpec::new("a", vec![]).count(n)]).build();
    accepted(&bones(n), 72);
    assert_eq!(
        only_error(&log_whole(&bones(n + 1))),
        (ErrorKind::CountTooLarge, 36)
    );

    // Frames (at least 10 bytes each) after the bone header that ends at 108.
    let n: u32 = 429_496_718;
    assert!(108 + n as u64 * 10 <= GIB4 && 108 + (n as u64 + 1) * 10 > GIB4);
    let frames = |n| {
        FileSpec::anp3(
            "f",
            vec![AnimSpec::new(
                "a",
                vec![BoneSpec::new("b", 3, 0, vec![]).count(n)],
            )],
        )
        .build()
    };
    accepted(&frames(n), 108);
    assert_eq!(
        only_error(&log_whole(&frames(n + 1))),
        (ErrorKind::CountTooLarge, 72)
    );

    // Records that end exactly at 4 GiB fit. Bone "b" (two 16-byte frames) ends at
    // 108 + 32 = 140; bone "c" after it ends at 176, and 176 + 429_496_712 × 10 = 2^32.
    let n: u32 = 429_496_712;
    assert_eq!(176 + n as u64 * 10, GIB4);
    let exact = |n| {
        FileSpec::anp3(
            "f",
            vec![AnimSpec::new(
                "a",
                vec![
                    BoneSpec::new("b", 4, 0, vec![p4([0; 4], 0, [0; 3]); 2]),
                    BoneSpec::new("c", 3, 1, vec![]).count(n),
                ],
            )],
        )
        .build()
    };
    accepted(&exact(n), 176);
    assert_eq!(
        only_error(&log_whole(&exact(n + 1))),
        (ErrorKind::CountTooLarge, 140)
    );
}

#[test]
fn zero_counts_are_valid() {
    let file = FileSpec::anp3("none", vec![]).build();
    assert_eq!(
        log_whole(&file),
        [
            Ev::File {
                format: Format::Anp3,
                name: Some(b"none".to_vec()),
                animation_count: 0,
                instance_count: None,
                car_count: None,
            },
            Ev::End
        ]
    );

    let file = FileSpec::anp3("p", vec![AnimSpec::new("no bones", vec![])]).build();
    assert_eq!(
        log_whole(&file)[1..],
        [
            Ev::Animation {
                index: 0,
                name: b"no bones".to_vec(),
                bone_count: 0,
                frame_data_size: Some(0),
                flags: Some(1),
                duration: None,
            },
            Ev::AnimationEnd,
            Ev::End
        ]
    );

    let file = FileSpec::anp2(
        "p",
        vec![AnimSpec::new(
            "a",
            vec![BoneSpec::new("no frames", 4, 3, vec![])],
        )],
    )
    .build();
    assert_eq!(
        log_whole(&file)[1..],
        [
            Ev::Animation {
                index: 0,
                name: b"a".to_vec(),
                bone_count: 1,
                frame_data_size: None,
                flags: None,
                duration: None,
            },
            Ev::Bone {
                index: 0,
                name: Some(b"no frames".to_vec()),
                bone_id: Some(3),
                bone_key: None,
                frame_type: FrameType::Ifp2PackedRotTrans,
                frame_count: 0
            },
            Ev::BoneEnd,
            Ev::AnimationEnd,
            Ev::End
        ]
    );
}

// ---- Abort -----------------------------------------------------------------------------------

#[test]
fn abort_at_each_event_stops_at_that_unit() {
    // Whole-input visitor calls of anp3_packed and the unit each belongs to: file header 0,
    // animation header 36, bone 72, its frames from 108, its end at 156, bone 156, frames from
    // 192, bone end 212, animation end 212, end 212.
    let file = anp3_packed().build();
    let full = log_whole(&file);
    let offsets = [0, 36, 72, 108, 156, 156, 192, 212, 212, 212];
    for (k, at) in offsets.into_iter().enumerate() {
        let run = decode_chunks(&[&file], Policy::AbortAt(k));
        let (last, before) = run.events.split_last().unwrap();
        assert_eq!(
            *last,
            Ev::error(ErrorKind::Aborted, at),
            "abort at call {k}"
        );
        // Everything up to and including the aborting event was reported, nothing after.
        assert_eq!(before, &full[..before.len()], "abort at call {k}");
        assert_eq!(run.calls, k + 1, "no call after the abort");
    }
    // There are exactly ten calls.
    assert_eq!(decode_chunks(&[&file], Policy::AbortAt(10)).events, full);
}

#[test]
fn abort_at_a_time_warning_stops_at_the_offending_frame() {
    // time_backwards: the first warning (call index 4: file, animation, bone, batch of two
    // frames) is for the frame at 128.
    let file = time_backwards().build();
    let run = decode_chunks(&[&file], Policy::AbortAt(4));
    assert_eq!(
        run.events[run.events.len() - 2],
        Ev::warning(WarningKind::TimeBackwards, 128)
    );
    assert_eq!(run.events.last(), Some(&Ev::error(ErrorKind::Aborted, 128)));
}

#[test]
fn abort_at_the_trailing_data_warning() {
    let file = anp3_packed().trailing(&[1, 2, 3]).build();
    // Calls: the ten of anp3_packed minus end, then the trailing warning (index 9).
    let run = decode_chunks(&[&file], Policy::AbortAt(9));
    assert_eq!(
        run.events[run.events.len() - 2..],
        [
            Ev::warning(WarningKind::TrailingData, 212),
            Ev::error(ErrorKind::Aborted, 212)
        ]
    );
}

#[test]
fn abort_at_end_fails_finish_and_sticks() {
    let file = anp3_packed().build();
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::AbortAt(9));
    d.feed(&file, &mut v).unwrap();
    let e = d.finish(&mut v).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Aborted, 212));
    assert_eq!(v.events.last(), Some(&Ev::End));
    assert_eq!(d.finish(&mut v), Err(e));
    assert_eq!(d.feed(b"more", &mut v), Err(e));
    assert_eq!(d.error(), Some(e));
}

#[test]
fn abort_offsets_do_not_depend_on_chunking() {
    // Abort at the k-th event that is not a keyframe batch (those are chunk-independent).
    for (name, file) in fixtures() {
        for k in 0.. {
            let whole = decode_chunks(&[&file], Policy::AbortAtNonFrame(k));
            let aborted = matches!(whole.events.last(), Some(Ev::Error(ErrorKind::Aborted, _)));
            let bytewise = decode_chunks(
                &file.chunks(1).collect::<Vec<_>>(),
                Policy::AbortAtNonFrame(k),
            );
            assert_eq!(bytewise.events, whole.events, "{name}: abort at {k}");
            for cut in (0..=file.len()).step_by(11) {
                let split = decode_chunks(&chunks_at(&file, &[cut]), Policy::AbortAtNonFrame(k));
                assert_eq!(
                    split.events, whole.events,
                    "{name}: abort at {k}, cut {cut}"
                );
            }
            if !aborted {
                break;
            }
        }
    }
}

// ---- Sticky errors, finish, reset ----------------------------------------------------------

#[test]
fn errors_are_sticky() {
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::Continue);
    let e = d.feed(b"\xffXXX", &mut v).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::BadMagic, 0));
    let good = anp3_packed().build();
    assert_eq!(d.feed(&good, &mut v), Err(e));
    assert_eq!(d.feed(&[], &mut v), Err(e));
    assert_eq!(d.finish(&mut v), Err(e));
    assert_eq!(d.error(), Some(e));
    assert!(v.events.is_empty());

    // Mid-file: the error comes back for every later call, and nothing more is reported.
    let fixtures = error_fixtures();
    let file = &fixtures
        .iter()
        .find(|(n, _)| *n == "unknown_type_0")
        .unwrap()
        .1;
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::Continue);
    let e = d.feed(file, &mut v).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::UnknownFrameType, 210));
    let seen = v.events.len();
    assert_eq!(d.feed(&file[..10], &mut v), Err(e));
    assert_eq!(d.finish(&mut v), Err(e));
    assert_eq!(v.events.len(), seen);
}

#[test]
fn truncation_is_sticky_too() {
    let file = anp3_packed().build();
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::Continue);
    d.feed(&file[..100], &mut v).unwrap();
    let e = d.finish(&mut v).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::Truncated, 72));
    // The rest arriving late does not revive it.
    assert_eq!(d.feed(&file[100..], &mut v), Err(e));
    assert_eq!(d.finish(&mut v), Err(e));
    assert!(!v.events.contains(&Ev::End));
}

#[test]
fn finish_twice_and_feed_after_finish() {
    let file = anp3_packed().build();
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::Continue);
    d.feed(&file, &mut v).unwrap();
    d.finish(&mut v).unwrap();
    let ends = v.events.len();
    let e = d.finish(&mut v).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Finished);
    let e = d.feed(&file, &mut v).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Finished);
    let e = d.feed(&[], &mut v).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Finished);
    assert_eq!(v.events.len(), ends, "nothing reported after the end");
    assert_eq!(d.error(), None, "Finished is not a decoding error");
}

#[test]
fn reset_starts_over() {
    let a = anp3_packed().build();
    let b = anp2_all_types().build();
    let expected_b = log_whole(&b);

    // After an error.
    let mut d = Decoder::new();
    let mut v = Recorder::new(Policy::Continue);
    d.feed(b"\0NOPE", &mut v).unwrap_err();
    d.reset();
    assert_eq!(d.error(), None);
    assert_eq!(d.position(), 0);
    let mut v = Recorder::new(Policy::Continue);
    d.feed(&b, &mut v).unwrap();
    d.finish(&mut v).unwrap();
    assert_eq!(v.events, expected_b);

    // After a clean finish.
    d.reset();
    let mut v = Recorder::new(Policy::Continue);
    d.feed(&b, &mut v).unwrap();
    d.finish(&mut v).unwrap();
    assert_eq!(v.events, expected_b);

    // In the middle of a file, with a unit half carried.
    for cut in [2, 50, 110, 200] {
        let mut d = Decoder::new();
        let mut v = Recorder::new(Policy::Continue);
        d.feed(&a[..cut], &mut v).unwrap();
        d.reset();
        assert_eq!(d.position(), 0);
        let mut v = Recorder::new(Policy::Continue);
        for chunk in b.chunks(7) {
            d.feed(chunk, &mut v).unwrap();
        }
        d.finish(&mut v).unwrap();
        assert_eq!(
            v.events, expected_b,
            "reset after {cut} bytes of another file"
        );
    }
}

#[test]
fn error_reasons_are_distinct() {
    let kinds = [
        ErrorKind::BadMagic,
        ErrorKind::Truncated,
        ErrorKind::UnknownFrameType,
        ErrorKind::CountTooLarge,
        ErrorKind::Malformed,
        ErrorKind::SeekRequired,
        ErrorKind::Aborted,
        ErrorKind::Limit,
        ErrorKind::Finished,
    ];
    for (i, a) in kinds.iter().enumerate() {
        assert!(!a.reason().is_empty());
        for b in &kinds[i + 1..] {
            assert_ne!(a.reason(), b.reason());
        }
    }
    let e = log_whole(b"\0XXX");
    let Ev::Error(kind, offset) = e[0] else {
        unreachable!()
    };
    let e = gtastream::Error { kind, offset };
    let text = e.to_string();
    assert!(
        text.contains(e.kind.reason()) && text.contains('0'),
        "{text}"
    );
}
