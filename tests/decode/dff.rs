//! RenderWare models (`.dff`, docs/FORMATS.md §11): every real shape decodes to the events
//! its description gives; any chunking, pause or seek gives the same; fields are pinned
//! byte by byte; hostile files fail with their kind and offset, never a panic.

use gtastream::{rw_version, Decoder, ErrorKind, Format, WarningKind};
use testkit::bytes::Writer;
use testkit::dff::*;
use testkit::driver::{drive_cut, Cut, Ev, Policy, Recorder};

fn log(data: &[u8]) -> Vec<Ev> {
    let mut recorder = Recorder::default();
    let result = Decoder::new().decode_slice(data, &mut recorder);
    let mut events = recorder.events;
    if let Err(e) = result {
        events.push(Ev::Error(e.kind, e.offset));
    }
    events
}

fn models(log: &[Ev]) -> Vec<&str> {
    log.iter()
        .filter_map(|e| match e {
            Ev::Model(m) => Some(m.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn every_shape_decodes_as_described() {
    for (name, model) in shapes() {
        let data = model.bytes();
        assert_eq!(log(&data), model.expected(), "{name}");
    }
}

#[test]
fn shapes_hold_what_they_claim() {
    let cutscene = log(&cutscene_ped().bytes());
    let nodes = models(&cutscene)
        .iter()
        .filter(|m| m.starts_with("DffHAnimNode"))
        .count();
    assert_eq!(nodes, 54);
    assert!(models(&cutscene)
        .iter()
        .any(|m| m.contains("node_id: 5022")));
    let head = log(&gta3_skinned_head().bytes());
    assert!(models(&head)
        .iter()
        .any(|m| m.starts_with("DffSkin(") && m.contains("layout: 0")));
    let vehicle = log(&gta3_vehicle().bytes());
    assert!(!models(&vehicle).iter().any(|m| m.starts_with("DffHAnim")));
    assert!(models(&vehicle)
        .iter()
        .any(|m| m.starts_with("RwSection") && m.contains(&format!("id: {COLLISION}"))));
    let padded = sa_skin().bytes();
    assert_eq!(padded.len() % 2048, 0);
}

#[test]
fn every_split_and_byte_by_byte_equal_whole() {
    for (name, model) in shapes() {
        let data = model.bytes();
        let whole = drive_cut(&data, &Cut::Whole, Policy::Continue, false).logged();
        for can_seek in [false, true] {
            let bytes = drive_cut(&data, &Cut::bytewise(), Policy::Continue, can_seek);
            assert_eq!(bytes.logged(), whole, "{name} byte by byte");
            let paused = drive_cut(&data, &Cut::Chunk(7), Policy::PauseEvery, can_seek);
            assert_eq!(paused.logged(), whole, "{name} paused");
        }
        // Every split of the small ones (the big ones: every 13th).
        let step = if data.len() > 6000 { 13 } else { 1 };
        for k in (0..=data.len()).step_by(step) {
            let cut = drive_cut(&data, &Cut::At(vec![k]), Policy::Continue, false);
            assert_eq!(cut.logged(), whole, "{name} split at {k}");
        }
    }
}

#[test]
fn truncation_at_every_byte_is_an_error_never_a_panic() {
    for (name, model) in [
        ("sa_skin", sa_skin_other_exporter()),
        ("head", gta3_skinned_head()),
        ("vehicle", gta3_vehicle()),
    ] {
        let data = model.bytes();
        let whole = log(&data);
        for len in 1..data.len() {
            let cut = log(&data[..len]);
            match cut.last() {
                Some(Ev::Error(kind, at)) => {
                    assert!(
                        matches!(kind, ErrorKind::Truncated | ErrorKind::BadMagic),
                        "{name} cut at {len}: {kind:?}"
                    );
                    assert!(*at <= data.len() as u64, "{name} cut at {len}: offset {at}");
                    // What came before the cut is what the whole file reports first.
                    let n = cut.len() - 1;
                    assert_eq!(cut[..n], whole[..n], "{name} cut at {len}");
                }
                other => panic!("{name} cut at {len}: {other:?}"),
            }
        }
    }
}

#[test]
fn version_is_decoded_as_the_libraries_do() {
    assert_eq!(rw_version(SA), (0x36003, 0xFFFF));
    assert_eq!(rw_version(VC), (0x34003, 0xFFFF));
    assert_eq!(rw_version(VC_OLD), (0x33002, 0xFFFF));
    assert_eq!(rw_version(III), (0x32000, 0xFFFF));
    assert_eq!(rw_version(UNSTAMPED), (0x31000, 0));
    let mut recorder = Recorder::default();
    Decoder::new()
        .decode_slice(&animated_object().bytes(), &mut recorder)
        .unwrap();
    assert!(matches!(
        recorder.events[0],
        Ev::File {
            format: Format::Dff,
            ..
        }
    ));
}

/// A clump with one frame of hand-written bytes: each field lands where it is stored.
#[test]
fn a_frame_an_hanim_and_a_skin_header_are_read_field_by_field() {
    let mut w = Writer::new();
    let v = SA;
    let section = |w: &mut Writer, id: u32, body: &[u8]| {
        w.u32(id).u32(body.len() as u32).u32(v).bytes(body);
    };
    // Frame list: one frame.
    let mut frames = Writer::new();
    frames.u32(1);
    for x in 1..=12 {
        frames.f32(x as f32);
    }
    frames.i32(-1).u32(0x0002_0003);
    let mut hanim = Writer::new();
    hanim.u32(0x100).i32(77).u32(2).u32(0x1000).u32(36);
    hanim.i32(77).i32(0).u32(PUSH).i32(78).i32(1).u32(POP);
    let mut ext = Writer::new();
    section(&mut ext, HANIM, &hanim.out);
    section(&mut ext, NODE_NAME, b"Bone\0\0");
    let mut list = Writer::new();
    section(&mut list, STRUCT, &frames.out);
    section(&mut list, EXTENSION, &ext.out);
    // Geometry list: one geometry, 2 vertices, a skin of 2 bones (new layout).
    let mut g = Writer::new();
    g.u32(0x0001_0006).u32(9).u32(2).u32(1);
    let mut geometry = Writer::new();
    section(&mut geometry, STRUCT, &g.out);
    let mut materials = Writer::new();
    materials.u32(3);
    let mut material_list = Writer::new();
    section(&mut material_list, STRUCT, &materials.out);
    section(&mut geometry, MATERIAL_LIST, &material_list.out);
    let mut skin = Writer::new();
    skin.bytes(&[2, 1, 3, 0, 1]); // bones, used, weights, padding; used bone 1
    skin.bytes(&[0; 2 * 20]);
    for m in 0..32 {
        skin.f32(m as f32 * 0.5);
    }
    skin.bytes(&[0; 12]);
    let mut gext = Writer::new();
    section(&mut gext, SKIN, &skin.out);
    section(&mut geometry, EXTENSION, &gext.out);
    let mut glist = Writer::new();
    section(&mut glist, STRUCT, &1u32.to_le_bytes());
    section(&mut glist, GEOMETRY, &geometry.out);
    let mut atomic = Writer::new();
    let mut a = Writer::new();
    a.u32(0).u32(0).u32(5).u32(0);
    section(&mut atomic, STRUCT, &a.out);
    let mut clump = Writer::new();
    section(&mut clump, STRUCT, &[1, 0, 0, 0]);
    section(&mut clump, FRAME_LIST, &list.out);
    section(&mut clump, GEOMETRY_LIST, &glist.out);
    section(&mut clump, ATOMIC, &atomic.out);
    section(&mut w, CLUMP, &clump.out);
    let events = log(&w.out);
    let got = models(&events);
    assert_eq!(
        got,
        [
            "DffClump(DffClump { atomics: 1, lights: None, cameras: None })",
            "DffFrame(DffFrame { index: 0, rotation: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], \
             position: [10.0, 11.0, 12.0], parent: -1, flags: 131075 })",
            "DffHAnim(DffHAnim { frame: 0, version: 256, node_id: 77, node_count: 2, \
             flags: Some(4096), key_frame_size: Some(36) })",
            "DffHAnimNode(DffHAnimNode { frame: 0, index: 0, node_id: 77, node_index: 0, flags: 2 })",
            "DffHAnimNode(DffHAnimNode { frame: 0, index: 1, node_id: 78, node_index: 1, flags: 1 })",
            "DffFrameName(DffFrameName { frame: 0, name: [66, 111, 110, 101] })",
            "DffGeometry(DffGeometry { index: 0, flags: 65542, triangles: 9, vertices: 2, \
             morph_targets: 1, materials: 3 })",
            "DffSkin(DffSkin { geometry: 0, bones: 2, used_bones: 1, max_weights: 3, layout: 1 })",
            "DffSkinBone(DffSkinBone { geometry: 0, bone: 0, inverse_bind: [0.0, 0.5, 1.0, 1.5, \
             2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5] })",
            "DffSkinBone(DffSkinBone { geometry: 0, bone: 1, inverse_bind: [8.0, 8.5, 9.0, 9.5, \
             10.0, 10.5, 11.0, 11.5, 12.0, 12.5, 13.0, 13.5, 14.0, 14.5, 15.0, 15.5] })",
            "DffAtomic(DffAtomic { index: 0, frame: 0, geometry: 0, flags: 5 })",
        ]
    );
    assert_eq!(events.last(), Some(&Ev::End));
}

#[test]
fn old_skin_layout_skips_the_marker_before_each_matrix() {
    let head = gta3_skinned_head();
    let events = log(&head.bytes());
    let bones: Vec<_> = models(&events)
        .into_iter()
        .filter(|m| m.starts_with("DffSkinBone"))
        .collect();
    assert_eq!(bones.len(), 7);
    // The identity's diagonal where it belongs: the marker was not read as a float.
    assert!(
        bones[0].contains("inverse_bind: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0"),
        "{}",
        bones[0]
    );
}

#[test]
fn a_section_past_its_parent_is_malformed_at_its_header() {
    let model = animated_object();
    let mut data = model.bytes();
    // The frame list's struct (at 12 + 12 + clump struct 12 + frame list header 12): its
    // size now runs past the frame list.
    let at = 12 + 24 + 12;
    data[at + 4..at + 8].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    assert_eq!(
        log(&data).last(),
        Some(&Ev::Error(ErrorKind::Malformed, at as u64))
    );
}

#[test]
fn absurd_counts_are_errors_not_work() {
    // The frame count (after the clump's header, its 12-byte struct, the frame list's header
    // and its struct's): far more frames than the struct holds.
    let data = sa_skin_other_exporter().bytes();
    let at = 12 + 24 + 12 + 12;
    let mut bad = data.clone();
    bad[at..at + 4].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    assert_eq!(
        log(&bad).last(),
        Some(&Ev::Error(ErrorKind::Malformed, (at - 12) as u64))
    );
    // An HAnim table of 2^31 nodes, on the root bone (the first HAnim section).
    let data = gta3_skinned_head().bytes();
    let root = data
        .windows(12)
        .position(|w| w[..4] == HANIM.to_le_bytes() && w[8..12] == III.to_le_bytes())
        .expect("an HAnim section");
    let mut bad = data.clone();
    let count = root + 12 + 8;
    bad[count..count + 4].copy_from_slice(&0x8000_0000u32.to_le_bytes());
    assert_eq!(
        log(&bad).last(),
        Some(&Ev::Error(ErrorKind::Malformed, root as u64))
    );
}

#[test]
fn a_long_node_name_is_a_limit() {
    let mut model = animated_object();
    model.frames[1].name = Some(vec![b'x'; 300]);
    let events = log(&model.bytes());
    assert!(matches!(
        events.last(),
        Some(Ev::Error(ErrorKind::Limit, _))
    ));
}

#[test]
fn padding_inside_a_section_is_a_warning() {
    let mut model = animated_object();
    // A 5-byte section in the clump's extension, then the extension claims 3 bytes more.
    model.clump_extras.push(Extra::new(0x1234, 5));
    let mut data = model.bytes();
    let clump_size = u32::from_le_bytes(data[4..8].try_into().unwrap());
    data[4..8].copy_from_slice(&(clump_size + 3).to_le_bytes());
    let ext_at = data.len() - (12 + 12 + 5);
    let size = u32::from_le_bytes(data[ext_at + 4..ext_at + 8].try_into().unwrap());
    data[ext_at + 4..ext_at + 8].copy_from_slice(&(size + 3).to_le_bytes());
    data.extend_from_slice(&[0; 3]);
    let events = log(&data);
    assert!(events.contains(&Ev::Warning(
        WarningKind::TrailingData,
        data.len() as u64 - 3
    )));
    assert_eq!(events.last(), Some(&Ev::End));
}
