//! Skeletons built from DFF records, binding as each game binds (one test per rule), posing in
//! model space, and the checks against a skeleton (each firing, each near miss).

use gtastream::check::{Finding, Games, Level, Rule};
use gtastream::record::{DffFrame, DffFrameName, DffHAnim, DffHAnimNode, Record};
use gtastream::rig::*;
use gtastream::{Decoder, Format, Sampler};
use testkit::ifp2::{f1, f2, AnimSpec, BoneSpec, FileSpec};
use testkit::rig::{iii_ped, quaternion, rest_axis_angle, sa_ped, ModelSpec};

fn track<'a>(index: u32, name: &'a str, id: Option<i32>, format: Format) -> Track<'a> {
    Track {
        index,
        name: Some(name.as_bytes()),
        bone_id: id,
        frame_count: 2,
        translation: false,
        format,
    }
}

fn anp3<'a>(index: u32, name: &'a str, id: i32) -> Track<'a> {
    track(index, name, Some(id), Format::Anp3)
}

fn bind(model: &ModelSpec, host: Host, t: &Track<'_>) -> Result<usize, Unbound> {
    resolve(&model.skeleton(), host, t).map(usize::from)
}

// ---------------------------------------------------------------------------------------
// The skeleton

#[test]
fn skeleton_holds_frames_names_ids_table_and_skin() {
    let model = sa_ped();
    let s = model.skeleton();
    assert_eq!(s.frames().len(), model.frames.len());
    assert!(s.is_skinned());
    assert_eq!(s.nodes().len(), 32);
    assert_eq!(s.hierarchy().map(|h| h.frame), Some(1));
    assert_eq!(s.inverse_binds().len(), 32);
    let pelvis = model.frame_of(1).unwrap();
    // Names as stored, blanks kept.
    assert_eq!(s.frames()[pelvis].name.unwrap().as_bytes(), b" Pelvis");
    assert_eq!(s.frames()[pelvis].node_id, Some(1));
    // Each node finds the frame carrying its id.
    for node in s.nodes() {
        assert_eq!(node.frame.map(usize::from), model.frame_of(node.id));
    }
    let iii = iii_ped().skeleton();
    assert!(!iii.is_skinned());
    assert!(iii.nodes().is_empty());
}

#[test]
fn a_skin_counts_only_on_the_last_atomic() {
    let model = sa_ped();
    let mut records = model.records();
    // A second atomic, of an unskinned geometry, after the skinned one.
    let mut extra = gtastream::record::DffAtomic::default();
    extra.geometry = 1;
    records.push(Record::DffAtomic(extra));
    let mut b = SkeletonBuilder::new();
    records.iter().for_each(|r| b.take(r));
    assert!(!b.build().unwrap().is_skinned());
}

#[test]
fn frames_past_the_bound_are_an_error_not_a_panic() {
    let mut b = SkeletonBuilder::new();
    let mut f = DffFrame::default();
    f.index = MAX_FRAMES as u32;
    b.take(&Record::DffFrame(f));
    assert_eq!(
        b.build().unwrap_err(),
        SkeletonError::TooManyFrames(MAX_FRAMES as u32)
    );
    let mut b = SkeletonBuilder::new();
    let mut n = DffHAnim::default();
    n.node_count = 1;
    b.take(&Record::DffHAnim(n));
    let mut node = DffHAnimNode::default();
    node.index = 100_000;
    b.take(&Record::DffHAnimNode(node));
    assert!(matches!(
        b.build(),
        Err(SkeletonError::TooManyNodes(100_000))
    ));
}

// ---------------------------------------------------------------------------------------
// Binding, one rule a test

#[test]
fn a_track_with_an_id_binds_to_the_node_with_that_id() {
    let m = sa_ped();
    for host in [Host::SanAndreas, Host::ViceCity, Host::Mta] {
        assert_eq!(
            bind(&m, host, &anp3(0, "whatever", 22)),
            Ok(m.frame_of(22).unwrap())
        );
    }
    // The id wins over the name.
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "Jaw", 5)),
        Ok(m.frame_of(5).unwrap())
    );
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "Head", 9)),
        Err(Unbound::NoSuchId)
    );
}

#[test]
fn on_a_skinned_model_names_go_through_the_engines_table_not_the_frames() {
    let m = sa_ped();
    let pelvis = m.frame_of(1).unwrap();
    for host in [Host::SanAndreas, Host::ViceCity] {
        // IFP2's −1: by name.
        assert_eq!(
            bind(&m, host, &anp3(0, "PELVIS", -1)),
            Ok(pelvis),
            "{host:?}"
        );
        // The DFF's own frame name does not bind: the table has no blank.
        assert_eq!(
            bind(&m, host, &anp3(0, " Pelvis", -1)),
            Err(Unbound::NameNotInTable),
            "{host:?}"
        );
    }
    // SA's table says "L Toe", not the biped "L Toe0".
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "l toe", -1)),
        Ok(m.frame_of(44).unwrap())
    );
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "L Toe0", -1)),
        Err(Unbound::NameNotInTable)
    );
    // VC's table stops at the fingers: R Finger01 is SA's alone.
    assert_eq!(
        bind(&m, Host::ViceCity, &anp3(0, "R Finger01", -1)),
        Err(Unbound::NameNotInTable)
    );
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "R Finger01", -1)),
        Ok(m.frame_of(26).unwrap())
    );
}

#[test]
fn a_table_name_of_a_bone_the_model_lacks_binds_nothing() {
    let mut m = sa_ped();
    // Drop the jaw from the table.
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes.retain(|&(id, _)| id != 8);
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "Jaw", -1)),
        Err(Unbound::NoSuchName)
    );
}

#[test]
fn on_an_unskinned_model_names_bind_to_frames_and_ids_never() {
    let m = iii_ped();
    let head = m.frame_named("Shead").unwrap();
    for host in Host::ALL {
        if host != Host::Mta {
            assert_eq!(bind(&m, host, &anp3(0, "SHEAD", -1)), Ok(head), "{host:?}");
        }
    }
    for host in [Host::SanAndreas, Host::ViceCity] {
        assert_eq!(
            bind(&m, host, &anp3(0, "Shead", 5)),
            Err(Unbound::IdOnUnskinned),
            "{host:?}"
        );
    }
    // Blanks are compared as stored.
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, " Shead", -1)),
        Err(Unbound::NoSuchName)
    );
    // The clump's own frame is not among the frames searched.
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "player", -1)),
        Err(Unbound::NoSuchName)
    );
}

#[test]
fn gta_iii_binds_by_frame_name_whatever_the_model() {
    let m = sa_ped();
    // On the SA ped, III reads the frames' names: blanks included, ids ignored.
    assert_eq!(
        bind(&m, Host::Iii, &anp3(0, " Pelvis", 3)),
        Ok(m.frame_of(1).unwrap())
    );
    assert_eq!(
        bind(&m, Host::Iii, &anp3(0, "Pelvis", -1)),
        Err(Unbound::NoSuchName)
    );
}

#[test]
fn sa_compares_ids_as_16_bits() {
    let mut m = sa_ped();
    // A custom bone with id 0x8000, as a child of the head.
    let head = m.frame_of(5).unwrap() as i32;
    m.frames.push(testkit::rig::FrameSpec {
        name: Some(b"custom".to_vec()),
        parent: head,
        rotation: testkit::rig::IDENTITY,
        position: [0.0; 3],
        node_id: Some(0x8000),
    });
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes.push((0x8000, 1));
    let custom = m.frames.len() - 1;
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "custom", 0x8000)),
        Err(Unbound::IdOutOfRange)
    );
    // Vice City compares the whole id.
    assert_eq!(
        bind(&m, Host::ViceCity, &anp3(0, "custom", 0x8000)),
        Ok(custom)
    );
    // The 16 bits survive: 0x10005 is 5 to SA.
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "x", 0x1_0005)),
        Ok(m.frame_of(5).unwrap())
    );
    assert_eq!(
        bind(&m, Host::ViceCity, &anp3(0, "x", 0x1_0005)),
        Err(Unbound::NoSuchId)
    );
}

#[test]
fn a_track_without_keys_binds_nothing() {
    let m = sa_ped();
    let mut t = anp3(0, "Head", 5);
    t.frame_count = 0;
    for host in Host::ALL {
        assert_eq!(bind(&m, host, &t), Err(Unbound::NoKeys));
    }
}

#[test]
fn of_two_tracks_on_one_bone_the_later_wins() {
    let s = sa_ped().skeleton();
    let tracks = [anp3(0, "Head", 5), anp3(1, "Neck", 4), anp3(2, "head", -1)];
    let mut got = Vec::new();
    bind_all(&s, Host::SanAndreas, tracks, |t, b| got.push((t.index, b)));
    let head = sa_ped().frame_of(5).unwrap() as u16;
    assert_eq!(got[0], (0, Binding::Overridden { frame: head, by: 2 }));
    assert!(matches!(got[1].1, Binding::Drives(_)));
    assert_eq!(got[2], (2, Binding::Drives(head)));
}

#[test]
fn anpk_tags_every_44_byte_track_on_sa_but_vc_takes_minus_one_as_by_name() {
    let m = sa_ped();
    let t = track(0, "Head", Some(-1), Format::Anpk);
    assert_eq!(bind(&m, Host::SanAndreas, &t), Err(Unbound::NoSuchId));
    assert_eq!(bind(&m, Host::ViceCity, &t), Ok(m.frame_of(5).unwrap()));
    // Without an id (a 40/48-byte ANIM) SA binds by name.
    let t = track(0, "Head", None, Format::Anpk);
    assert_eq!(bind(&m, Host::SanAndreas, &t), Ok(m.frame_of(5).unwrap()));
}

#[test]
fn mta_turns_names_into_ids_and_drops_the_names_it_does_not_know() {
    let m = sa_ped();
    // Spaces removed, any case: " Pelvis" binds on MTA where SA drops it.
    let t = track(0, " Pelvis", None, Format::Anpk);
    assert_eq!(bind(&m, Host::Mta, &t), Ok(m.frame_of(1).unwrap()));
    assert_eq!(bind(&m, Host::SanAndreas, &t), Err(Unbound::NameNotInTable));
    // ANPK: MTA ignores a stored id and looks at the name.
    let t = track(0, "Head", Some(22), Format::Anpk);
    assert_eq!(bind(&m, Host::Mta, &t), Ok(m.frame_of(5).unwrap()));
    // GTA III names map to SA bones.
    let t = track(0, "Swaist", None, Format::Anpk);
    assert_eq!(bind(&m, Host::Mta, &t), Ok(m.frame_of(1).unwrap()));
    let t = track(0, "tail", None, Format::Anpk);
    assert_eq!(bind(&m, Host::Mta, &t), Err(Unbound::NameNotInTable));
    // IFP2 with an id keeps it.
    assert_eq!(
        bind(&m, Host::Mta, &anp3(0, "tail", 3)),
        Ok(m.frame_of(3).unwrap())
    );
}

#[test]
fn a_node_whose_id_no_frame_carries_cannot_be_posed() {
    let mut m = sa_ped();
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes.push((99, 1));
    assert_eq!(
        bind(&m, Host::SanAndreas, &anp3(0, "x", 99)),
        Err(Unbound::NodeWithoutFrame)
    );
}

#[test]
fn of_two_frames_with_one_name_the_engine_finds_the_one_walked_last() {
    // Frame 0 the clump's; 1 and 2 children of 0, both "door"; children are walked newest
    // first, so frame 1 is walked last.
    let mut m = iii_ped();
    m.frames.truncate(1);
    for _ in 0..2 {
        m.frames.push(testkit::rig::FrameSpec {
            name: Some(b"door".to_vec()),
            parent: 0,
            rotation: testkit::rig::IDENTITY,
            position: [0.0; 3],
            node_id: None,
        });
    }
    assert_eq!(bind(&m, Host::SanAndreas, &anp3(0, "door", -1)), Ok(1));
    assert_eq!(Unbound::named("no_such_id"), Some(Unbound::NoSuchId));
    for u in Unbound::ALL {
        assert_eq!(Unbound::named(u.name()), Some(u));
    }
}

// ---------------------------------------------------------------------------------------
// Posing

fn close(a: &[f32; 16], b: &[f32; 16]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
}

#[test]
fn the_bind_pose_is_the_frames_as_stored() {
    let m = sa_ped();
    let s = m.skeleton();
    let mut out = vec![[0.0; 16]; s.frames().len()];
    assert_eq!(model_matrices(&s, |_| None, &mut out), s.frames().len());
    for (a, b) in out.iter().zip(m.model_matrices()) {
        assert!(close(a, &b));
    }
}

/// The quaternion convention, pinned: a track holding each bone's rest rotation, as the
/// quaternion of its axis and angle, reproduces the bind matrices; the conjugate does not.
#[test]
fn a_track_holding_the_bind_rotation_reproduces_the_bind_matrix() {
    let m = sa_ped();
    let s = m.skeleton();
    let rest = |f: u16| {
        let (axis, angle) = rest_axis_angle(usize::from(f) - 1);
        quaternion(axis, angle)
    };
    let mut out = vec![[0.0; 16]; s.frames().len()];
    model_matrices(
        &s,
        |f| {
            (f > 0).then(|| LocalPose {
                rotation: rest(f),
                translation: None,
            })
        },
        &mut out,
    );
    let bind = m.model_matrices();
    for (a, b) in out.iter().zip(&bind) {
        assert!(close(a, b), "{a:?} {b:?}");
    }
    model_matrices(
        &s,
        |f| {
            (f > 0).then(|| {
                let [x, y, z, w] = rest(f);
                LocalPose {
                    rotation: [-x, -y, -z, w],
                    translation: None,
                }
            })
        },
        &mut out,
    );
    assert!(out.iter().zip(&bind).skip(1).all(|(a, b)| !close(a, b)));
    // And the crate's own conversion agrees with the axis-angle one.
    for (f, frame) in s.frames().iter().enumerate().skip(1) {
        let q = rotation_quaternion(frame.rotation);
        let r = rest(f as u16);
        let dot: f32 = q.iter().zip(r).map(|(a, b)| a * b).sum();
        assert!(dot.abs() > 0.9999, "frame {f}");
    }
}

#[test]
fn rotations_are_normalised_and_translations_replace_positions() {
    let m = sa_ped();
    let s = m.skeleton();
    let pelvis = m.frame_of(1).unwrap() as u16;
    let mut a = vec![[0.0; 16]; s.frames().len()];
    let mut b = a.clone();
    let q = [0.1, 0.2, 0.3, 0.9];
    model_matrices(
        &s,
        |f| {
            (f == pelvis).then_some(LocalPose {
                rotation: q,
                translation: Some([1.0, 2.0, 3.0]),
            })
        },
        &mut a,
    );
    model_matrices(
        &s,
        |f| {
            (f == pelvis).then_some(LocalPose {
                rotation: q.map(|c| c * 3.0),
                translation: Some([1.0, 2.0, 3.0]),
            })
        },
        &mut b,
    );
    assert!(a.iter().zip(&b).all(|(x, y)| close(x, y)));
    // The pelvis' model position is its parent's matrix applied to the translation.
    let parent = &a[usize::from(s.frames()[usize::from(pelvis)].parent.unwrap())];
    let p = &a[usize::from(pelvis)];
    for r in 0..3 {
        let want = parent[r] + 2.0 * parent[4 + r] + 3.0 * parent[8 + r] + parent[12 + r];
        assert!((p[12 + r] - want).abs() < 1e-4);
    }
    // A quaternion of length 0 is the identity rotation.
    assert_eq!(normalise([0.0; 4]), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn an_animation_poses_the_frames_its_tracks_drive() {
    let m = sa_ped();
    let s = m.skeleton();
    let head = m.frame_of(5).unwrap();
    let (axis, angle) = rest_axis_angle(head - 1);
    let head_rest = quaternion(axis, angle);
    let file = FileSpec::anp3(
        "test",
        vec![AnimSpec::new(
            "idle",
            vec![
                BoneSpec::new(
                    "Root",
                    2,
                    0,
                    vec![f2([0.0, 0.0, 0.0, 1.0], 0.0, [0.0, 0.0, 1.0])],
                ),
                BoneSpec::new("Head", 1, 5, vec![f1(head_rest, 0.0), f1(head_rest, 1.0)]),
                BoneSpec::new("Tail", 1, 77, vec![f1([0.0, 0.0, 0.0, 1.0], 0.0)]),
            ],
        )],
    )
    .build();
    let sampler = Sampler::<32>::by_index(&file, 0).unwrap();
    let tracks = AnimationTracks::find(&file, None, 0).unwrap();
    assert_eq!(tracks.infos().len(), 3);
    let mut out = vec![[0.0; 16]; s.frames().len()];
    let mut frames = Vec::new();
    pose_animation(
        &s,
        Host::SanAndreas,
        &tracks,
        &sampler,
        0.5,
        false,
        &mut out,
        |t, f| frames.push((t, f)),
    )
    .unwrap();
    let root = m.frame_of(0).unwrap() as u16;
    assert_eq!(
        frames,
        vec![(0, Some(root)), (1, Some(head as u16)), (2, None)]
    );
    // The root: identity rotation, position (0, 0, 1) under the clump's frame.
    assert!(close(
        &out[usize::from(root)],
        &[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0]
    ));
    // The head holds its rest rotation: its matrix relative to its parent is the bind one.
    let bind = m.model_matrices();
    let parent = m.frames[head].parent as usize;
    let rel =
        |w: &[[f32; 16]]| testkit::rig::mul(&testkit::rig::inverse_rigid(&w[parent]), &w[head]);
    assert!(close(&rel(&out), &rel(&bind)));
}

// ---------------------------------------------------------------------------------------
// Checks against a skeleton

fn findings_of(skeleton: &Skeleton, file: &[u8], games: Games) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut checker = SkeletonChecker::new(skeleton, games, |f: &Finding| found.push(*f));
    Decoder::new().decode_slice(file, &mut checker).unwrap();
    drop(checker);
    found
}

fn rules(found: &[Finding]) -> Vec<Rule> {
    found.iter().map(|f| f.rule).collect()
}

fn one_anim(bones: Vec<BoneSpec>) -> Vec<u8> {
    FileSpec::anp3("test", vec![AnimSpec::new("a", bones)]).build()
}

fn rot(name: &str, id: i32) -> BoneSpec {
    BoneSpec::new(
        name,
        1,
        id,
        vec![f1([0.0, 0.0, 0.0, 1.0], 0.0), f1([0.0, 0.0, 0.0, 1.0], 1.0)],
    )
}

fn trans(name: &str, id: i32, from: [f32; 3], to: [f32; 3]) -> BoneSpec {
    let q = [0.0, 0.0, 0.0, 1.0];
    BoneSpec::new(name, 2, id, vec![f2(q, 0.0, from), f2(q, 1.0, to)])
}

#[test]
fn check_unbound_tracks() {
    let s = sa_ped().skeleton();
    let found = findings_of(
        &s,
        &one_anim(vec![rot("Head", 5), rot("Tail", 77)]),
        Games::SA,
    );
    let unbound: Vec<_> = found
        .iter()
        .filter(|f| f.rule == Rule::SkelTrackUnbound)
        .collect();
    assert_eq!(unbound.len(), 1);
    assert_eq!(unbound[0].context.bone.unwrap().index, 1);
    assert!(unbound[0].offset > 0);
    assert_eq!(unbound[0].level(), Level::Warning);
}

#[test]
fn check_names_the_engine_table_lacks_on_skinned_models() {
    let s = sa_ped().skeleton();
    let found = findings_of(&s, &one_anim(vec![rot(" Pelvis", -1)]), Games::SA);
    assert!(rules(&found).contains(&Rule::SkelNameNotInTable));
    let found = findings_of(&s, &one_anim(vec![rot("Pelvis", -1)]), Games::SA);
    assert!(!rules(&found).contains(&Rule::SkelNameNotInTable));
    // On MTA the blank is removed: no finding there.
    let found = findings_of(&s, &one_anim(vec![rot(" Pelvis", -1)]), Games::MTA);
    assert!(!rules(&found).contains(&Rule::SkelNameNotInTable));
    // Unskinned: frame names are used; not this rule.
    let iii = iii_ped().skeleton();
    let found = findings_of(&iii, &one_anim(vec![rot("Nothing", -1)]), Games::SA);
    assert!(!rules(&found).contains(&Rule::SkelNameNotInTable));
    assert!(rules(&found).contains(&Rule::SkelTrackUnbound));
}

#[test]
fn check_ids_on_unskinned_models() {
    let iii = iii_ped().skeleton();
    let found = findings_of(&iii, &one_anim(vec![rot("Shead", 5)]), Games::SA);
    assert!(rules(&found).contains(&Rule::SkelIdOnUnskinned));
    let found = findings_of(&iii, &one_anim(vec![rot("Shead", -1)]), Games::SA);
    assert!(!rules(&found).contains(&Rule::SkelIdOnUnskinned));
    let s = sa_ped().skeleton();
    let found = findings_of(&s, &one_anim(vec![rot("Head", 5)]), Games::SA);
    assert!(!rules(&found).contains(&Rule::SkelIdOnUnskinned));
}

#[test]
fn check_two_tracks_on_one_bone() {
    let s = sa_ped().skeleton();
    let found = findings_of(
        &s,
        &one_anim(vec![rot("Head", 5), rot("head", -1)]),
        Games::SA,
    );
    let dup: Vec<_> = found
        .iter()
        .filter(|f| f.rule == Rule::SkelDuplicateBone)
        .collect();
    assert_eq!(dup.len(), 1);
    assert_eq!(dup[0].context.bone.unwrap().index, 0);
    assert_eq!(dup[0].value, Some(1.0));
    let found = findings_of(
        &s,
        &one_anim(vec![rot("Head", 5), rot("Neck", 4)]),
        Games::SA,
    );
    assert!(!rules(&found).contains(&Rule::SkelDuplicateBone));
}

#[test]
fn check_translation_off_the_root() {
    let s = sa_ped().skeleton();
    let found = findings_of(
        &s,
        &one_anim(vec![trans("Spine", 2, [0.0, 0.1, 0.0], [0.0, 0.2, 0.0])]),
        Games::SA,
    );
    assert!(rules(&found).contains(&Rule::SkelTranslationNonRoot));
    assert!(!rules(&found).contains(&Rule::SkelTranslationZero));
    let found = findings_of(
        &s,
        &one_anim(vec![trans("Spine", 2, [0.0; 3], [0.0; 3])]),
        Games::SA,
    );
    assert!(rules(&found).contains(&Rule::SkelTranslationZero));
    // On the root: neither.
    let found = findings_of(
        &s,
        &one_anim(vec![trans("Root", 0, [0.0; 3], [0.0; 3])]),
        Games::SA,
    );
    assert!(!rules(&found).contains(&Rule::SkelTranslationZero));
    assert!(!rules(&found).contains(&Rule::SkelTranslationNonRoot));
}

#[test]
fn check_root_motion_on_the_pelvis() {
    let s = sa_ped().skeleton();
    let walk = trans("Pelvis", 1, [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
    let found = findings_of(&s, &one_anim(vec![walk.clone()]), Games::SA);
    let f = found
        .iter()
        .find(|f| f.rule == Rule::SkelPelvisRootMotion)
        .unwrap();
    assert_eq!(f.value, Some(1.0));
    // The root moves too: the movement comes from the root.
    let root = trans("Root", 0, [0.0; 3], [0.0, 1.0, 0.0]);
    let found = findings_of(&s, &one_anim(vec![root, walk]), Games::SA);
    assert!(!rules(&found).contains(&Rule::SkelPelvisRootMotion));
    // A sway below the bound.
    let sway = trans("Pelvis", 1, [0.0, 0.0, 0.0], [0.1, 0.0, 0.0]);
    let found = findings_of(&s, &one_anim(vec![sway]), Games::SA);
    assert!(!rules(&found).contains(&Rule::SkelPelvisRootMotion));
}

#[test]
fn check_bones_no_track_moves() {
    let s = sa_ped().skeleton();
    let found = findings_of(
        &s,
        &one_anim(vec![rot("Head", 5), rot("Neck", 4)]),
        Games::SA,
    );
    let f = found
        .iter()
        .find(|f| f.rule == Rule::SkelUnmovedBones)
        .unwrap();
    assert_eq!(f.value, Some(30.0));
    assert_eq!(f.level(), Level::Note);
    let all: Vec<BoneSpec> = s.nodes().iter().map(|n| rot("b", n.id)).collect();
    let found = findings_of(&s, &one_anim(all), Games::SA);
    assert!(!rules(&found).contains(&Rule::SkelUnmovedBones));
    assert!(found.is_empty(), "{found:?}");
}

fn report(model: &ModelSpec) -> Vec<Finding> {
    let mut found = Vec::new();
    check_skeleton(&model.skeleton(), Games::ALL, |f| found.push(*f));
    found
}

#[test]
fn the_report_of_a_sound_ped_has_only_the_blank_notes() {
    let found = report(&sa_ped());
    assert!(
        found.iter().all(|f| f.rule == Rule::SkelNameBlanks),
        "{found:?}"
    );
    // Every bone but Root starts with a blank.
    assert_eq!(found.len(), 31);
    assert!(report(&iii_ped()).is_empty());
}

#[test]
fn report_a_skinned_model_without_a_table() {
    let mut m = sa_ped();
    m.table = None;
    let found = report(&m);
    let f = found.iter().find(|f| f.rule == Rule::SkelNoTable).unwrap();
    assert_eq!(f.level(), Level::Error);
}

#[test]
fn report_node_ids_against_frame_ids() {
    let mut m = sa_ped();
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes.push((99, 1));
    // A frame id the table lacks: a new frame below the head.
    m.frames.push(testkit::rig::FrameSpec {
        name: Some(b"extra".to_vec()),
        parent: 5,
        rotation: testkit::rig::IDENTITY,
        position: [0.0; 3],
        node_id: Some(123),
    });
    let found = report(&m);
    let r = rules(&found);
    assert!(r.contains(&Rule::SkelNodeWithoutFrame));
    assert!(r.contains(&Rule::SkelFrameIdNotInTable));
    let f = found
        .iter()
        .find(|f| f.rule == Rule::SkelFrameIdNotInTable)
        .unwrap();
    assert_eq!(f.value, Some(123.0));
    assert!(!r.contains(&Rule::SkelDuplicateNodeId));
}

#[test]
fn report_duplicate_node_ids() {
    let mut m = sa_ped();
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes[7].0 = nodes[6].0;
    let found = report(&m);
    let f = found
        .iter()
        .find(|f| f.rule == Rule::SkelDuplicateNodeId)
        .unwrap();
    assert_eq!(f.value, Some(f64::from(m.table.as_ref().unwrap().1[6].0)));
}

#[test]
fn report_push_pop_parents_that_disagree_with_the_frames() {
    let mut m = sa_ped();
    let (_, nodes) = m.table.as_mut().unwrap();
    // The head's PUSH/POP dropped: the brows' parents shift.
    let i = nodes.iter().position(|n| n.0 == 6).unwrap();
    nodes[i].1 = 0;
    let r = rules(&report(&m));
    assert!(r.contains(&Rule::SkelPushPopParent));
    assert!(!r.contains(&Rule::SkelPopUnderflow));
}

#[test]
fn report_more_pops_than_pushes_but_not_the_last_nodes_pop() {
    let mut m = sa_ped();
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes[1].1 |= 1; // the pelvis pops with nothing pushed
    let r = rules(&report(&m));
    assert!(r.contains(&Rule::SkelPopUnderflow));
    // The sound table ends with a POP on an empty stack: no finding (near miss).
    let sound = sa_ped();
    let last = sound.table.as_ref().unwrap().1.last().unwrap().1;
    assert_eq!(last & 1, 1);
    assert!(!rules(&report(&sound)).contains(&Rule::SkelPopUnderflow));
}

#[test]
fn report_missing_standard_bones() {
    let mut m = sa_ped();
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes.retain(|n| n.0 != 24);
    let found = report(&m);
    let missing: Vec<_> = found
        .iter()
        .filter(|f| f.rule == Rule::SkelMissingBone)
        .collect();
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0].value, Some(24.0));
    // A conditional bone (R Finger01, 26) is not required.
    let mut m = sa_ped();
    let (_, nodes) = m.table.as_mut().unwrap();
    nodes.retain(|n| n.0 != 26);
    assert!(!rules(&report(&m)).contains(&Rule::SkelMissingBone));
}

#[test]
fn report_names_with_blanks() {
    let mut m = iii_ped();
    m.frames[3].name = Some(b"Shead ".to_vec());
    let found = report(&m);
    assert_eq!(rules(&found), vec![Rule::SkelNameBlanks]);
    assert_eq!(found[0].context.bone.unwrap().index, 3);
}

#[test]
fn records_by_hand_build_the_same_skeleton() {
    // A two-frame model fed record by record.
    let mut b = SkeletonBuilder::new();
    let mut root = DffFrame::default();
    root.parent = -1;
    root.rotation = testkit::rig::IDENTITY;
    let mut child = root;
    child.index = 1;
    child.parent = 0;
    child.position = [0.0, 0.0, 2.0];
    b.take(&Record::DffFrame(root));
    b.take(&Record::DffFrame(child));
    let mut name = DffFrameName::default();
    name.frame = 1;
    name.name = b"arm";
    b.take(&Record::DffFrameName(name));
    let s = b.build().unwrap();
    assert_eq!(frame_by_name(&s, b"ARM"), Some(1));
    let mut out = [[0.0; 16]; 2];
    model_matrices(&s, |_| None, &mut out);
    assert_eq!(out[1][14], 2.0);
}

#[test]
fn a_skeleton_read_from_dff_bytes_is_the_one_its_records_build() {
    for (name, model) in testkit::dff::shapes() {
        let bytes = model.bytes();
        let read = read_skeleton(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut builder = SkeletonBuilder::new();
        Decoder::new().decode_slice(&bytes, &mut builder).unwrap();
        let built = builder.build().unwrap();
        assert_eq!(read.frames(), built.frames(), "{name}");
        assert_eq!(read.nodes(), built.nodes(), "{name}");
        assert_eq!(read.rw_version(), Some(model.version), "{name}");
        assert_eq!(read.frames().len(), model.frames.len(), "{name}");
    }
    // Not a model, and a truncated one.
    let ifp = one_anim(vec![rot("Head", 5)]);
    assert_eq!(
        read_skeleton(&ifp).unwrap_err(),
        ReadError::NotModel(Format::Anp3)
    );
    let bytes = testkit::dff::sa_skin().bytes();
    match read_skeleton(&bytes[..200]) {
        Err(ReadError::Decode(e)) => assert!(e.offset <= 200),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_model_is_for_the_games_of_its_renderware_version() {
    use testkit::dff::{III, III_OLD, SA, VC, VC_OLD};
    assert_eq!(model_games(Some(SA)), Games::SA.union(Games::MTA));
    assert_eq!(model_games(Some(VC)), Games::VC);
    assert_eq!(model_games(Some(VC_OLD)), Games::VC);
    assert_eq!(model_games(Some(III)), Games::III);
    assert_eq!(model_games(Some(III_OLD)), Games::III);
    assert_eq!(model_games(None), Games::ALL);
    let vc = read_skeleton(&testkit::dff::vc_ped().bytes()).unwrap();
    assert_eq!(default_host(Format::Anpk, &vc), Host::ViceCity);
    assert_eq!(default_host(Format::Anp3, &vc), Host::SanAndreas);
}

#[test]
fn check_file_reports_a_model_alone_and_an_animation_on_it() {
    // A skinned SA model lacking the standard bones past the neck: skel.dff.missing_bone.
    let bytes = testkit::dff::duplicates().bytes();
    let mut found = Vec::new();
    let checked = check_file(&bytes, b"m.dff", None, None, |f| found.push(*f));
    assert_eq!(checked.format, Some(Format::Dff));
    assert_eq!(checked.games, Games::SA.union(Games::MTA));
    assert!(checked.from_file);
    let seen = rules(&found);
    assert!(seen.contains(&Rule::SkelMissingBone), "{seen:?}");
    assert!(seen.contains(&Rule::SkelDuplicateNodeId), "{seen:?}");
    // Named games: a VC check leaves out the SA-only rules.
    found.clear();
    let checked = check_file(&bytes, b"m.dff", Some(Games::VC), None, |f| found.push(*f));
    assert_eq!(checked.games, Games::VC);
    assert!(!rules(&found).contains(&Rule::SkelMissingBone));
    // An animation on the model: the checker's findings and the skeleton's.
    let skeleton = read_skeleton(&testkit::dff::sa_skin().bytes()).unwrap();
    let file = one_anim(vec![rot("Head", 5), rot("Nobody", 777)]);
    found.clear();
    let checked = check_file(&file, b"a.ifp", None, Some(&skeleton), |f| found.push(*f));
    assert_eq!(checked.format, Some(Format::Anp3));
    assert!(rules(&found).contains(&Rule::SkelTrackUnbound));
    found.clear();
    check_file(&file, b"a.ifp", None, None, |f| found.push(*f));
    assert!(!rules(&found).contains(&Rule::SkelTrackUnbound));
}
