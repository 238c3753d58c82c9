//! The skeleton calls (`gts_skeleton_*`, `gts_pose_model`) give what the core gives: the
//! model's frames, nodes, skin and inverse binds as read, each track's binding, the
//! model-space matrices and the findings.

use core::ffi::c_void;
use core::ptr::null_mut;

use gtastream_core::check::{Games, Rule};
use gtastream_core::rig::{self, Host};
use gtastream_core::Sampler;
use testkit::dff::{self, Model};
use testkit::ifp2::{f1, f2, AnimSpec, BoneSpec, FileSpec};

use crate::*;

fn storage() -> Box<gts_skeleton> {
    Box::new(gts_skeleton {
        opaque: [0; GTS_SKELETON_WORDS],
    })
}

const SIZE: usize = core::mem::size_of::<gts_skeleton>();

fn read(model: &Model) -> Box<gts_skeleton> {
    let bytes = model.bytes();
    let mut s = storage();
    // SAFETY: valid storage and bytes.
    let status =
        unsafe { gts_skeleton_read(&mut *s, SIZE, bytes.as_ptr(), bytes.len(), null_mut()) };
    assert_eq!(status, gts_status::GTS_OK);
    s
}

#[test]
fn a_read_skeleton_gives_the_models_frames_nodes_skin_and_binds() {
    for (name, model) in dff::shapes() {
        let s = read(&model);
        let core = rig::read_skeleton(&model.bytes()).unwrap();
        // SAFETY: a read skeleton; `out` is writable.
        unsafe {
            assert_eq!(gts_skeleton_frame_count(&*s), model.frames.len(), "{name}");
            for (i, f) in model.frames.iter().enumerate() {
                let mut info: gts_frame_info = core::mem::zeroed();
                assert_eq!(
                    gts_skeleton_frame_info(&*s, i, &mut info),
                    gts_status::GTS_OK
                );
                assert_eq!(info.rotation, f.rotation, "{name} {i}");
                assert_eq!(info.position, f.position, "{name} {i}");
                let parent = core.parent_of(i).map_or(-1, |p| p as i32);
                assert_eq!(info.parent, parent, "{name} {i}");
                let stored = core::slice::from_raw_parts(info.name, info.name_len);
                assert_eq!(Some(stored.to_vec()), f.name, "{name} {i}");
                match &f.hanim {
                    Some(h) => assert_eq!((info.has_node_id, info.node_id), (1, h.node_id)),
                    None => assert_eq!(info.has_node_id, 0),
                }
            }
            let mut info: gts_frame_info = core::mem::zeroed();
            assert_eq!(
                gts_skeleton_frame_info(&*s, model.frames.len(), &mut info),
                gts_status::GTS_ERR_NOT_FOUND
            );
            assert_eq!(gts_skeleton_node_count(&*s), core.nodes().len(), "{name}");
            for (i, n) in core.nodes().iter().enumerate() {
                let mut info = gts_node_info::default();
                assert_eq!(
                    gts_skeleton_node_info(&*s, i, &mut info),
                    gts_status::GTS_OK
                );
                assert_eq!(
                    (info.id, info.index, info.flags, info.frame),
                    (n.id, n.index, n.flags, n.frame.map_or(-1, i32::from))
                );
            }
            let mut skin = gts_skin_info::default();
            let status = gts_skeleton_skin(&*s, &mut skin);
            match core.skin() {
                Some(k) => {
                    assert_eq!(status, gts_status::GTS_OK);
                    assert_eq!((skin.bones, skin.layout), (k.bones, k.layout), "{name}");
                    let mut m = [0.0f32; 16];
                    for b in 0..k.bones as usize {
                        assert_eq!(
                            gts_skeleton_inverse_bind(&*s, b, m.as_mut_ptr()),
                            gts_status::GTS_OK
                        );
                        assert_eq!(m, dff::Skin::matrix(b as u32), "{name} bone {b}");
                    }
                    assert_eq!(
                        gts_skeleton_inverse_bind(&*s, k.bones as usize, m.as_mut_ptr()),
                        gts_status::GTS_ERR_NOT_FOUND
                    );
                }
                None => assert_eq!(status, gts_status::GTS_ERR_NOT_FOUND, "{name}"),
            }
        }
    }
}

#[test]
fn reading_refuses_what_is_no_model_and_storage_never_read() {
    let mut s = storage();
    let ifp = testkit::ifp2::anp3_multi().build();
    let dff = dff::sa_skin().bytes();
    let mut offset = u64::MAX;
    // SAFETY: valid storage and bytes.
    unsafe {
        assert_eq!(gts_skeleton_frame_count(&*s), 0);
        let mut info = gts_node_info::default();
        assert_eq!(
            gts_skeleton_node_info(&*s, 0, &mut info),
            gts_status::GTS_ERR_NOT_INITIALIZED
        );
        assert_eq!(
            gts_skeleton_read(&mut *s, SIZE, ifp.as_ptr(), ifp.len(), &mut offset),
            gts_status::GTS_ERR_BAD_MAGIC
        );
        assert_eq!(offset, 0);
        let status = gts_skeleton_read(&mut *s, SIZE, dff.as_ptr(), 100, &mut offset);
        assert_ne!(status, gts_status::GTS_OK);
        assert!(offset <= 100, "{offset}");
        assert_eq!(
            gts_skeleton_read(&mut *s, SIZE - 8, dff.as_ptr(), dff.len(), &mut offset),
            gts_status::GTS_ERR_SIZE_MISMATCH
        );
        assert_eq!(
            gts_skeleton_read(null_mut(), SIZE, dff.as_ptr(), dff.len(), &mut offset),
            gts_status::GTS_ERR_INVALID_ARGUMENT
        );
    }
}

const Q: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// Head (id 5) turned and moved, a name the engine lacks, an unknown id, the pelvis by name.
fn animation() -> Vec<u8> {
    let turn = [0.0, 0.0, 0.6, 0.8];
    FileSpec::anp3(
        "t",
        vec![AnimSpec::new(
            "a",
            vec![
                BoneSpec::new(
                    "Head",
                    2,
                    5,
                    vec![f2(turn, 0.0, [0.5, 0.0, 0.0]), f2(Q, 1.0, [0.0; 3])],
                ),
                BoneSpec::new(" Pelvis", 1, -1, vec![f1(Q, 0.0), f1(turn, 1.0)]),
                BoneSpec::new("x", 1, 777, vec![f1(Q, 0.0), f1(Q, 1.0)]),
                BoneSpec::new("Pelvis", 1, -1, vec![f1(Q, 0.0), f1(turn, 1.0)]),
            ],
        )],
    )
    .build()
}

#[test]
fn binding_and_posing_follow_the_core() {
    let model = dff::sa_skin();
    let s = read(&model);
    let core = rig::read_skeleton(&model.bytes()).unwrap();
    let file = animation();
    let tracks = rig::AnimationTracks::find(&file, None, 0).unwrap();
    for (game, host) in [
        (0u32, Host::SanAndreas),
        (2, Host::ViceCity),
        (8, Host::Mta),
    ] {
        let mut expected = Vec::new();
        rig::bind_all(&core, host, tracks.tracks(), |t, b| {
            expected.push(crate::skeleton::binding(t.index, b));
        });
        let mut out = [gts_track_binding::default(); 8];
        let mut count = 0;
        // SAFETY: a read skeleton, live arrays of the given lengths.
        let status = unsafe {
            gts_skeleton_bind(
                &*s,
                file.as_ptr(),
                file.len(),
                0,
                game,
                out.as_mut_ptr(),
                8,
                &mut count,
                null_mut(),
            )
        };
        assert_eq!(status, gts_status::GTS_OK);
        assert_eq!(&out[..count], expected.as_slice(), "game {game}");
        // The pose: the core's matrices.
        let sampler = Sampler::<256>::by_index(&file, 0).unwrap();
        let mut core_out = vec![[0.0f32; 16]; core.frames().len()];
        rig::pose_animation(
            &core,
            host,
            &tracks,
            &sampler,
            0.4,
            false,
            &mut core_out,
            |_, _| {},
        )
        .unwrap();
        let mut flat = vec![0.0f32; 16 * core.frames().len()];
        // SAFETY: as above; `flat` holds 16 floats per frame.
        let status = unsafe {
            gts_pose_model(
                &*s,
                file.as_ptr(),
                file.len(),
                0,
                game,
                0.4,
                0,
                flat.as_mut_ptr(),
                core.frames().len(),
                &mut count,
                null_mut(),
            )
        };
        assert_eq!(status, gts_status::GTS_OK);
        assert_eq!(count, core.frames().len());
        assert_eq!(flat, core_out.concat(), "game {game}");
    }
    // The head moved off its bind pose: the pose is not the bind pose.
    let mut flat = vec![0.0f32; 16 * model.frames.len()];
    let mut count = 0;
    let head = 1 + dff::SA_BONES.iter().position(|b| b.0 == 5).unwrap();
    // SAFETY: as above.
    unsafe {
        gts_pose_model(
            &*s,
            file.as_ptr(),
            file.len(),
            0,
            0,
            0.0,
            0,
            flat.as_mut_ptr(),
            model.frames.len(),
            &mut count,
            null_mut(),
        );
    }
    let mut rest = [[0.0f32; 16]; 64];
    rig::model_matrices(&core, |_| None, &mut rest);
    assert_ne!(flat[16 * head..16 * head + 16], rest[head]);
    assert_eq!(flat[..16], rest[0]);
    // A short array: the first frames, and the count of all.
    let mut two = [0.0f32; 32];
    // SAFETY: as above.
    let status = unsafe {
        gts_pose_model(
            &*s,
            file.as_ptr(),
            file.len(),
            0,
            0,
            0.0,
            0,
            two.as_mut_ptr(),
            2,
            &mut count,
            null_mut(),
        )
    };
    assert_eq!(status, gts_status::GTS_OK);
    assert_eq!(count, model.frames.len());
    assert_eq!(two[..], flat[..32]);
    // Errors: no such animation; two games at once; a bad time.
    // SAFETY: as above.
    unsafe {
        let mut out = [gts_track_binding::default(); 8];
        assert_eq!(
            gts_skeleton_bind(
                &*s,
                file.as_ptr(),
                file.len(),
                3,
                0,
                out.as_mut_ptr(),
                8,
                &mut count,
                null_mut()
            ),
            gts_status::GTS_ERR_NOT_FOUND
        );
        assert_eq!(
            gts_skeleton_bind(
                &*s,
                file.as_ptr(),
                file.len(),
                0,
                12,
                out.as_mut_ptr(),
                8,
                &mut count,
                null_mut()
            ),
            gts_status::GTS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            gts_pose_model(
                &*s,
                file.as_ptr(),
                file.len(),
                0,
                0,
                -1.0,
                0,
                flat.as_mut_ptr(),
                2,
                &mut count,
                null_mut()
            ),
            gts_status::GTS_ERR_BAD_TIME
        );
    }
}

unsafe extern "C" fn collect(user: *mut c_void, finding: *const gts_finding) {
    // SAFETY: `user` is the Vec the test passed; `finding` is valid during the call.
    unsafe { (*user.cast::<Vec<u32>>()).push((*finding).rule) };
}

#[test]
fn checks_give_the_cores_findings() {
    let model = dff::duplicates();
    let mut s = read(&model);
    let core = rig::read_skeleton(&model.bytes()).unwrap();
    let file = animation();
    let mut expected = Vec::new();
    let mut expected_errors = 0;
    rig::check_file(&file, b"t.ifp", None, Some(&core), |f| {
        expected.push(f.rule.code());
        expected_errors += u32::from(f.level() == gtastream_core::check::Level::Error);
    });
    let mut got: Vec<u32> = Vec::new();
    let mut errors = u32::MAX;
    // SAFETY: a read skeleton; `got` outlives the call.
    let status = unsafe {
        gts_skeleton_check(
            &mut *s,
            file.as_ptr(),
            file.len(),
            c"t.ifp".as_ptr(),
            0,
            Some(collect),
            (&mut got as *mut Vec<u32>).cast(),
            &mut errors,
        )
    };
    assert_eq!(status, gts_status::GTS_OK);
    assert_eq!(got, expected);
    assert!(got.contains(&Rule::SkelTrackUnbound.code()));
    assert!(got.contains(&Rule::SkelNameNotInTable.code()));
    // MTA misreads the float frames: an error.
    assert_eq!(errors, expected_errors);
    assert_eq!(errors, 1);
    // The model alone: for the games of its version (SA), or those named.
    let mut expected = Vec::new();
    rig::check_skeleton(&core, Games::SA.union(Games::MTA), |f| {
        expected.push(f.rule.code())
    });
    got.clear();
    // SAFETY: as above.
    let status = unsafe {
        gts_skeleton_report(
            &mut *s,
            0,
            Some(collect),
            (&mut got as *mut Vec<u32>).cast(),
            &mut errors,
        )
    };
    assert_eq!(status, gts_status::GTS_OK);
    assert_eq!(got, expected);
    assert!(got.contains(&Rule::SkelMissingBone.code()));
    got.clear();
    // SAFETY: as above.
    unsafe {
        gts_skeleton_report(
            &mut *s,
            GTS_CHECK_VC,
            Some(collect),
            (&mut got as *mut Vec<u32>).cast(),
            null_mut(),
        );
    }
    assert!(!got.contains(&Rule::SkelMissingBone.code()));
    assert!(got.contains(&Rule::SkelDuplicateNodeId.code()));
    // SAFETY: unknown game bits are refused.
    let status = unsafe { gts_skeleton_report(&mut *s, 0x10, None, null_mut(), null_mut()) };
    assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
}

/// A finding callback that reads a model into the skeleton being checked: refused.
unsafe extern "C" fn read_into_checked(user: *mut c_void, _: *const gts_finding) {
    // SAFETY: `user` is the test's `Reentry`, alive for the call.
    let reentry = unsafe { &mut *user.cast::<Reentry>() };
    // SAFETY: the skeleton's storage and the model's bytes are valid; the call must refuse.
    reentry.status = unsafe {
        gts_skeleton_read(
            reentry.skeleton,
            SIZE,
            reentry.model.as_ptr(),
            reentry.model.len(),
            null_mut(),
        )
    };
}

struct Reentry {
    skeleton: *mut gts_skeleton,
    model: Vec<u8>,
    status: gts_status,
}

#[test]
fn a_finding_callback_cannot_rewrite_the_skeleton_it_is_checked_against() {
    let model = dff::duplicates();
    let mut s = read(&model);
    let mut reentry = Reentry {
        skeleton: &mut *s,
        model: model.bytes(),
        status: gts_status::GTS_OK,
    };
    // SAFETY: a read skeleton, reached only through `reentry.skeleton` from here on.
    let status = unsafe {
        gts_skeleton_report(
            reentry.skeleton,
            0,
            Some(read_into_checked),
            (&mut reentry as *mut Reentry).cast(),
            null_mut(),
        )
    };
    assert_eq!(status, gts_status::GTS_OK);
    assert_eq!(reentry.status, gts_status::GTS_ERR_REENTRANT);
    // Free again once the check is over.
    // SAFETY: as above.
    let again = unsafe {
        gts_skeleton_read(
            reentry.skeleton,
            SIZE,
            reentry.model.as_ptr(),
            reentry.model.len(),
            null_mut(),
        )
    };
    assert_eq!(again, gts_status::GTS_OK);
}
