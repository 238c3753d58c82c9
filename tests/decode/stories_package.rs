//! Stories files as whole packages (`Package::parse`, feature `alloc`) and through readers
//! (`io::decode_reader` and `io::decode_stream`, feature `std`), also when the file begins
//! inside a larger buffer.
#![cfg(feature = "alloc")]

use gtastream::{ErrorKind, Format, FrameType, Package, WarningKind};
use testkit::anpk_stories::*;
use testkit::stories::*;

fn variants() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for layout in [Layout::DepthFirst, Layout::Grouped, Layout::Backward] {
        for vcs in [false, true] {
            for pad in [0, 8] {
                let file = write(&sample(), layout, vcs, pad);
                out.push((format!("{layout:?} vcs={vcs} pad={pad}"), file));
            }
        }
    }
    out
}

#[test]
fn parse_gives_the_package_of_the_reference_log() {
    for (name, file) in variants()
        .into_iter()
        .chain([("big".into(), big(Layout::Backward))])
    {
        let expected = package_from_log(&stories_reference(&file).log());
        assert_eq!(Package::parse(&file).unwrap(), expected, "{name}");
    }
}

#[test]
fn the_parsed_sample_holds_what_was_written() {
    let file = write(&sample(), Layout::Backward, true, 8);
    let p = Package::parse(&file).unwrap();
    assert_eq!(p.format, Format::Anim);
    assert_eq!(p.name, None);
    let names: Vec<&str> = p.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        ["walk_player", "abcdefghijklmnopqrstuvwx", "empty", "idle"]
    );
    let durations: Vec<Option<f32>> = p.animations.iter().map(|a| a.duration).collect();
    assert_eq!(durations, [Some(1.0), Some(0.5), Some(0.0), Some(2.0)]);
    let walk = p.animation("WALK_PLAYER").unwrap();
    assert_eq!(walk.bones.len(), 4);
    let root = walk.bone_by_id(0).unwrap();
    assert_eq!(root.bone_key, Some(0x1A2B_0000));
    assert_eq!(root.name, None);
    assert_eq!(root.frame_type, FrameType::StoriesRotTrans);
    let times: Vec<f32> = root.frames.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 0.5, 1.0]);
    assert_eq!(root.frames[1].rotation, [0.5, -0.25, -0.75, 0.375]);
    assert_eq!(root.frames[2].translation, [2.0, -8.0, 1024.0]);
    assert_eq!(walk.bone_by_id(-1).unwrap().frames.len(), 2);
    assert!(walk.bones[2].frames.is_empty());
    // The one warning: time going backwards in "walk_player"'s fourth bone.
    assert_eq!(p.warnings.len(), 1);
    assert_eq!(p.warnings[0].kind, WarningKind::TimeBackwards);
}

#[test]
fn parse_fails_where_decoding_fails() {
    let file = write(&sample(), Layout::Grouped, false, 0);
    for cut in (7..file.len()).step_by(7) {
        let e = Package::parse(&file[..cut]).unwrap_err();
        let expected = error_of(&stories_reference(&file[..cut]).log());
        assert_eq!(Some((e.kind, e.offset)), expected, "cut at {cut}");
        assert_eq!(e.kind, ErrorKind::Truncated);
    }
}

#[test]
fn parse_accepts_sector_padding_and_warns_about_garbage_past_file_end() {
    let file = write(&sample(), Layout::DepthFirst, false, 0);
    let expected = Package::parse(&file).unwrap();
    let mut padded = file.clone();
    padded.resize(2048, 0);
    assert_eq!(Package::parse(&padded).unwrap(), expected);
    padded[1000] = 0x5A;
    let p = Package::parse(&padded).unwrap();
    assert_eq!(p.animations, expected.animations);
    let last = p.warnings.last().unwrap();
    assert_eq!((last.kind, last.offset), (WarningKind::TrailingData, 1000));
}

#[cfg(feature = "std")]
mod readers {
    use super::*;
    use gtastream::io::{decode_reader, decode_stream, ReadError};
    use gtastream::{Decoder, Options};
    use std::io::Cursor;
    use testkit::log::Recorder;

    /// The log of decoding with `decode_reader` from `data` starting at `base`.
    fn reader_log(data: Vec<u8>, base: u64) -> Vec<Ev> {
        let mut cursor = Cursor::new(data);
        cursor.set_position(base);
        let mut log = Recorder::new(Policy::Continue);
        let mut decoder = Decoder::new();
        let result = decode_reader(&mut decoder, &mut cursor, &mut log);
        let mut events = log.events;
        match result {
            Ok(()) => {}
            Err(ReadError::Decode(e)) => events.push(Ev::Error(e.kind, e.offset)),
            Err(ReadError::Io(e)) => panic!("{e}"),
        }
        events
    }

    #[test]
    fn decode_reader_gives_the_reference_log() {
        for (name, file) in variants()
            .into_iter()
            .chain([("big".into(), big(Layout::Backward))])
        {
            let expected = stories_reference(&file).log();
            assert_eq!(reader_log(file, 0), expected, "{name}");
        }
    }

    #[test]
    fn decode_reader_of_a_file_inside_a_larger_buffer() {
        for (name, file) in variants()
            .into_iter()
            .chain([("big".into(), big(Layout::Backward))])
        {
            let expected = stories_reference(&file).log();
            // Garbage before the file (which offsets must not count), zero padding after it.
            let mut data = vec![0xA5; 1000];
            data.extend_from_slice(&file);
            data.resize(data.len() + 3000, 0);
            assert_eq!(reader_log(data, 1000), expected, "{name}");
            // Garbage after it too: a warning at its offset from the file's start.
            let mut data = vec![0xA5; 17];
            data.extend_from_slice(&file);
            data.extend_from_slice(&[0, 0, 9, 9]);
            let mut with_garbage = expected.clone();
            with_garbage.insert(
                expected.len() - 1,
                Ev::Warning(WarningKind::TrailingData, file.len() as u64 + 2),
            );
            assert_eq!(reader_log(data, 17), with_garbage, "{name}");
        }
    }

    #[test]
    fn decode_reader_of_anpk_bytes() {
        // ANPK needs no seek; the reader gives what the slice gives (here, the hand-written
        // `ODD` file is not at hand: a tiny one-animation file written by the encoder).
        let p = Package {
            format: Format::Anpk,
            name: Some("x".into()),
            animations: vec![gtastream::Animation {
                name: "y".into(),
                frame_data_size: None,
                flags: None,
                duration: None,
                bones: vec![gtastream::Bone {
                    name: Some("z".into()),
                    bone_id: Some(3),
                    bone_key: None,
                    frame_type: FrameType::Krts,
                    frames: vec![gtastream::Keyframe::default(); 3],
                    raw: Vec::new(),
                }],
                raw: Vec::new(),
            }],
            warnings: Vec::new(),
            raw: Vec::new(),
            trailing: Vec::new(),
        };
        let file = gtastream::encode::anpk(&p).unwrap();
        let expected = anpk_reference(&file).log;
        let mut data = vec![1; 5];
        data.extend_from_slice(&file);
        assert_eq!(reader_log(data, 5), expected);
    }

    #[test]
    fn decode_stream_fails_at_the_first_seek() {
        for (name, file) in variants() {
            let expected = stories_reference(&file).no_seek_log();
            for can_seek in [false, true] {
                let mut log = Recorder::new(Policy::Continue);
                let mut decoder = Decoder::with_options(Options {
                    can_seek,
                    ..Options::DEFAULT
                });
                let mut reader: &[u8] = &file;
                let e = match decode_stream(&mut decoder, &mut reader, &mut log) {
                    Err(ReadError::Decode(e)) => e,
                    other => panic!("{name}: {other:?}"),
                };
                let mut got = log.events;
                got.push(Ev::Error(e.kind, e.offset));
                assert_eq!(got, expected, "{name} can_seek={can_seek}");
                assert_eq!((e.kind, e.offset), (ErrorKind::SeekRequired, 0x20));
            }
        }
    }
}
