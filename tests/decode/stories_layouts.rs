//! Stories `.anim` files in every layout the writer makes (depth first, grouped, backward),
//! LCS and VCS records, with and without padding after the offset table: the streaming decoder
//! must report what the random-access reference decoder reports, however it is fed, following
//! seeks; without seeking it must stop with `SeekRequired` at the first unit behind it, having
//! reported nothing that differs from the full log.

use gtastream::{ErrorKind, Format, FrameType, WarningKind};
use testkit::anpk_stories::*;
use testkit::stories::*;

const LAYOUTS: [Layout; 3] = [Layout::DepthFirst, Layout::Grouped, Layout::Backward];

/// Every layout × LCS/VCS × padding (none, 4 and 12 bytes) of the sample content.
fn variants() -> Vec<(String, Vec<u8>)> {
    let anims = sample();
    let mut out = Vec::new();
    for layout in LAYOUTS {
        for vcs in [false, true] {
            for pad in [0, 4, 12] {
                let name = format!("{layout:?} vcs={vcs} pad={pad}");
                out.push((name, write(&anims, layout, vcs, pad)));
            }
        }
    }
    out
}

fn feeds() -> Vec<Feed> {
    vec![
        Feed::Whole,
        Feed::Chunk(1),
        Feed::Chunk(7),
        Feed::Chunk(64),
        Feed::Chunk(4096),
    ]
}

#[test]
fn the_reference_reads_the_sample_as_written() {
    // A check of the reference itself against the content the writer was given, so that the
    // comparisons below compare against the right thing.
    let anims = sample();
    for (name, file) in variants() {
        let r = stories_reference(&file);
        let log = r.log();
        assert!(
            !r.cut_by_relocations,
            "{name}: sample frames must not look like offsets"
        );
        assert_eq!(log.last(), Some(&Ev::End), "{name}");
        assert_eq!(
            log[0],
            Ev::File {
                format: Format::Anim,
                name: None,
                animation_count: anims.len() as u32,
                instance_count: None,
                car_count: None,
            },
            "{name}"
        );
        let names: Vec<Vec<u8>> = log
            .iter()
            .filter_map(|e| match e {
                Ev::Animation { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        let expected: Vec<Vec<u8>> = anims.iter().map(|a| a.name.as_bytes().to_vec()).collect();
        assert_eq!(names, expected, "{name}");
        let frames: usize = anims
            .iter()
            .flat_map(|a| &a.bones)
            .map(|b| b.frames.len())
            .sum();
        assert_eq!(keyframes(&log).len(), frames, "{name}");
        // The one bone whose time goes back (0.25, 0.625, 0.5, 1.0), and nothing else.
        let times: Vec<f32> = keyframes(&log).iter().map(|k| k.time).collect();
        assert_eq!(times[5..9], [0.25, 0.625, 0.5, 1.0], "{name}");
        let w = warnings(&log);
        assert_eq!(w.len(), 1, "{name}: {w:?}");
        assert_eq!(w[0].0, WarningKind::TimeBackwards, "{name}");
    }
}

#[test]
fn every_layout_decodes_like_the_reference_at_every_chunk_size() {
    for (name, file) in variants() {
        let r = stories_reference(&file);
        for feed in feeds() {
            let run = decode(&file, &feed, true, Policy::Continue);
            assert_eq!(run.log, r.log(), "{name} {feed:?}");
            assert_eq!(run.seeks, r.seeks(), "{name} {feed:?}: seeks");
        }
    }
}

#[test]
fn a_large_file_in_every_layout_at_every_chunk_size() {
    for layout in LAYOUTS {
        let file = big(layout);
        let r = stories_reference(&file);
        assert_eq!(r.log().last(), Some(&Ev::End));
        for feed in feeds() {
            let run = decode(&file, &feed, true, Policy::Continue);
            assert_eq!(run.log, r.log(), "{layout:?} {feed:?}");
            assert_eq!(run.seeks, r.seeks(), "{layout:?} {feed:?}: seeks");
        }
        assert_eq!(log_no_seek(&file, &Feed::Chunk(4096)), r.no_seek_log());
    }
}

#[test]
fn every_layout_gives_the_same_log() {
    // The content does not depend on where the writer put it (only warning offsets do).
    let kinds = |log: &[Ev]| warnings(log).iter().map(|w| w.0).collect::<Vec<_>>();
    let variants = variants();
    let first = log_of(&variants[0].1, &Feed::Whole);
    for (name, file) in &variants {
        let log = log_of(file, &Feed::Whole);
        assert_eq!(without_warnings(&log), without_warnings(&first), "{name}");
        assert_eq!(kinds(&log), kinds(&first), "{name}");
    }
}

#[test]
fn backward_layouts_need_more_seeks_than_forward_ones() {
    let anims = sample();
    let seeks = |layout| {
        decode(
            &write(&anims, layout, false, 0),
            &Feed::Whole,
            true,
            Policy::Continue,
        )
        .seeks
    };
    let depth_first = seeks(Layout::DepthFirst);
    let backward = seeks(Layout::Backward);
    // Depth first: back to the table for each of the 4 animations, and back to each bone row
    // that follows a bone with keyframes (rows 1 and 2 of "walk_player", row 1 of "idle"; row
    // 3 of "walk_player" follows a bone without keyframes, so it is read straight on).
    assert_eq!(depth_first.len(), 4 + 2 + 1, "{depth_first:?}");
    assert!(backward.len() > depth_first.len(), "{backward:?}");
    assert_eq!(
        depth_first[0], 0x20,
        "after the relocation table, back to the offset table"
    );
}

#[test]
fn every_two_way_split_gives_the_same_log() {
    for vcs in [false, true] {
        let file = write(&sample(), Layout::Backward, vcs, 4);
        let expected = stories_reference(&file).log();
        for cut in 0..=file.len() {
            assert_eq!(
                log_of(&file, &Feed::At(vec![cut])),
                expected,
                "vcs={vcs} cut at {cut}"
            );
        }
    }
}

#[test]
fn a_caller_that_cannot_seek_gets_seek_required_and_nothing_wrong_before() {
    for (name, file) in variants() {
        let r = stories_reference(&file);
        let full = r.log();
        let expected = r.no_seek_log();
        let Some((ErrorKind::SeekRequired, at)) = error_of(&expected) else {
            panic!("{name}: the sample needs a seek: {expected:?}");
        };
        for feed in feeds() {
            let log = log_no_seek(&file, &feed);
            assert_eq!(log, expected, "{name} {feed:?}");
            assert_eq!(
                log[..log.len() - 1],
                full[..log.len() - 1],
                "{name}: a prefix"
            );
        }
        // The relocation table is read first; the table entries lie behind it.
        assert_eq!(at, 0x20, "{name}");
    }
}

#[test]
fn every_truncation_is_truncated_at_the_first_unit_missing() {
    for (name, file) in variants() {
        // Also inside the magic: the start of a binary magic cut short is a truncation. (Cut
        // at 0 nothing is left: the empty input's own error, in tests/errors.rs.)
        for cut in 1..file.len() {
            let data = &file[..cut];
            let expected = stories_reference(data).log();
            let Some((ErrorKind::Truncated, at)) = error_of(&expected) else {
                panic!("{name}: cut at {cut}: {expected:?}");
            };
            // A truncation is reported at a unit that starts at or before the cut, or at the
            // place the decoder had to skip to.
            assert!(at <= file.len() as u64, "{name} cut {cut}");
            for feed in [Feed::Whole, Feed::Chunk(7)] {
                let log = log_of(data, &feed);
                assert_eq!(log, expected, "{name} cut at {cut} {feed:?}");
            }
        }
    }
}

#[test]
fn truncated_files_fed_byte_by_byte() {
    let file = write(&sample(), Layout::Grouped, true, 12);
    for cut in (0..file.len()).step_by(5) {
        let data = &file[..cut];
        assert_eq!(
            log_of(data, &Feed::Chunk(1)),
            stories_reference(data).log(),
            "cut at {cut}"
        );
    }
}

#[test]
fn pause_at_every_event_reproduces_the_log() {
    for (name, file) in variants() {
        let expected = stories_reference(&file).log();
        for feed in [Feed::Whole, Feed::Chunk(7)] {
            let run = decode(&file, &feed, true, Policy::PauseEvery);
            assert_eq!(run.log, expected, "{name} {feed:?}");
            // Every call but `end` (reported by finish, which does not pause) paused.
            assert_eq!(run.pauses, run.calls - run.finish_calls, "{name} {feed:?}");
        }
    }
}

#[test]
fn pause_at_each_single_event() {
    let file = write(&sample(), Layout::Backward, false, 0);
    let expected = stories_reference(&file).log();
    for feed in [Feed::Whole, Feed::Chunk(5)] {
        let calls = decode(&file, &feed, true, Policy::Continue).calls;
        for k in 0..calls {
            let run = decode(&file, &feed, true, Policy::PauseAt(k));
            assert_eq!(run.log, expected, "pause at {k} {feed:?}");
            assert_eq!(run.pauses, usize::from(k + 1 < calls), "pause at {k}");
        }
    }
}

#[test]
fn vcs_records_are_four_bytes_longer_and_their_last_field_is_not_read() {
    let anims = sample();
    for layout in LAYOUTS {
        let lcs = write(&anims, layout, false, 0);
        let mut vcs = write(&anims, layout, true, 0);
        assert_eq!(vcs.len(), lcs.len() + 4 * anims.len(), "{layout:?}");
        // The same events; only the offset of the warning (TimeBackwards) moves.
        let expected = without_warnings(&log_of(&lcs, &Feed::Whole));
        assert_eq!(
            without_warnings(&log_of(&vcs, &Feed::Whole)),
            expected,
            "{layout:?}"
        );
        assert_eq!(
            stories_reference(&vcs).log(),
            log_of(&vcs, &Feed::Whole),
            "{layout:?}"
        );
        // Scribbling over the trailing i32 of every VCS record changes nothing.
        for i in 0..anims.len() {
            let record = get_u32(&vcs, 0x20 + 4 * i as u64);
            put_u32(&mut vcs, u64::from(record) + 0x24, 0xFFFF_FFFF);
        }
        let log = log_of(&vcs, &Feed::Chunk(3));
        assert_eq!(without_warnings(&log), expected, "{layout:?}");
    }
}

#[test]
fn bones_report_their_type_id_and_key() {
    let file = write(&sample(), Layout::Grouped, false, 0);
    let bones: Vec<(Option<i32>, Option<u32>, FrameType, u32)> = log_of(&file, &Feed::Whole)
        .into_iter()
        .filter_map(|e| match e {
            Ev::Bone {
                bone_id,
                bone_key,
                frame_type,
                frame_count: frames,
                name,
                ..
            } => {
                assert_eq!(name, None, "Stories bones have no name");
                Some((bone_id, bone_key, frame_type, frames))
            }
            _ => None,
        })
        .collect();
    use FrameType::{StoriesRot as R, StoriesRotTrans as RT};
    assert_eq!(
        bones,
        [
            (Some(0), Some(0x1A2B_0000), RT, 3),
            (Some(-1), Some(0xFFFF_FFFF), R, 2),
            (None, Some(0xDEAD_BEEF), R, 0),
            (None, Some(0x0000_0020), R, 4),
            (Some(-32767), Some(0x1234_8001), RT, 1),
            (None, Some(0x0BAD_F00D), R, 2),
            (Some(32767), Some(0x0000_7FFF), R, 0),
        ]
    );
}
