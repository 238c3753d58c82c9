//! `gtastream dump --json`: the whole decoded file as JSON.

use gtastream::{Animation, Bone, Keyframe, Package, Warning};

use crate::json::JsonWriter;
use crate::names;

/// The JSON document for a decoded package.
pub fn json(package: &Package) -> String {
    let mut w = JsonWriter::new();
    w.begin_object(false);
    w.key("format");
    w.string(package.format.name());
    w.key("name");
    w.opt_string(package.name.as_deref());
    w.key("warnings");
    w.begin_array(false);
    for warning in &package.warnings {
        write_warning(&mut w, warning);
    }
    w.end();
    w.key("animations");
    w.begin_array(false);
    for animation in &package.animations {
        write_animation(&mut w, animation);
    }
    w.end();
    w.end();
    w.finish()
}

fn write_warning(w: &mut JsonWriter, warning: &Warning) {
    w.begin_object(true);
    w.key("kind");
    w.string(&names::warning_kind(warning.kind));
    w.key("reason");
    w.string(warning.kind.reason());
    w.key("offset");
    w.uint(warning.offset);
    w.end();
}

fn write_animation(w: &mut JsonWriter, animation: &Animation) {
    w.begin_object(false);
    w.key("name");
    w.string(&animation.name);
    w.key("frame_data_size");
    w.opt_uint(animation.frame_data_size.map(u64::from));
    w.key("flags");
    w.opt_uint(animation.flags.map(u64::from));
    w.key("bones");
    w.begin_array(false);
    for bone in &animation.bones {
        write_bone(w, bone);
    }
    w.end();
    w.end();
}

fn write_bone(w: &mut JsonWriter, bone: &Bone) {
    w.begin_object(false);
    w.key("name");
    w.opt_string(bone.name.as_deref());
    w.key("bone_id");
    w.opt_int(bone.bone_id.map(i64::from));
    w.key("frame_type");
    w.string(&names::frame_type(bone.frame_type));
    w.key("frames");
    w.begin_array(false);
    let translation = bone.frame_type.has_translation();
    let scale = bone.frame_type.has_scale();
    for frame in &bone.frames {
        write_frame(w, frame, translation, scale);
    }
    w.end();
    w.end();
}

fn write_frame(w: &mut JsonWriter, frame: &Keyframe, translation: bool, scale: bool) {
    w.begin_object(true);
    w.key("time");
    w.float(frame.time);
    w.key("rotation");
    w.floats(&frame.rotation);
    if translation {
        w.key("translation");
        w.floats(&frame.translation);
    }
    if scale {
        w.key("scale");
        w.floats(&frame.scale);
    }
    w.end();
}
