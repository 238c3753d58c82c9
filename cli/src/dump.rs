//! `gtastream dump --json`: the whole decoded file as JSON, collected from the decoder's
//! events (whatever the format) and written only once the file has decoded.

use gtastream::{
    Animation, AnimationInfo, Bone, BoneInfo, FileInfo, Flow, Format, Instance, IplCar,
    IplInstance, Keyframe, Keyframes, PackageBuilder, Placement, PlacementBuilder, SectionLine,
    Visitor, Warning,
};

use crate::json::JsonWriter;

/// Everything the decoder reported, collected by the library's builders: the package's for
/// animation files, the placement's for IPL files (the `file` event says which).
#[derive(Default)]
pub struct Document {
    format: Option<Format>,
    package: PackageBuilder,
    placement: PlacementBuilder,
}

impl Document {
    fn animations(&self) -> bool {
        self.format.is_none_or(Format::is_animation)
    }
}

impl Visitor for Document {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        let format = *self.format.get_or_insert(info.format);
        // Each builder refuses (aborts at) the other kind's file: the one that fits gets it.
        if format.is_animation() {
            self.package.file(info)
        } else {
            self.placement.file(info)
        }
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.package.animation(info)
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.package.bone(info)
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.package.keyframes(frames)
    }

    fn instance(&mut self, instance: &IplInstance<'_>) -> Flow {
        self.placement.instance(instance)
    }

    fn car(&mut self, car: &IplCar) -> Flow {
        self.placement.car(car)
    }

    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        self.placement.section_line(line)
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        // Warnings may come before the `file` event: both builders keep them.
        self.package.warning(warning);
        self.placement.warning(warning)
    }
}

impl Document {
    /// The JSON text, ending with a newline.
    pub fn json(self) -> String {
        let mut w = JsonWriter::new();
        w.begin_object(false);
        w.key("format");
        match self.format {
            Some(format) => w.string(format.name()),
            None => w.null(),
        }
        if self.animations() {
            let package = self.package.finish();
            w.key("name");
            w.opt_string(package.as_ref().and_then(|p| p.name.as_deref()));
            write_warnings(&mut w, package.as_ref().map_or(&[], |p| &p.warnings[..]));
            w.key("animations");
            w.begin_array(false);
            for animation in package.iter().flat_map(|p| &p.animations) {
                write_animation(&mut w, animation);
            }
            w.end();
        } else {
            let placement = self.placement.finish();
            w.key("name");
            w.null();
            write_warnings(&mut w, placement.as_ref().map_or(&[], |p| &p.warnings[..]));
            if let Some(placement) = &placement {
                write_placements(&mut w, placement);
            }
        }
        w.end();
        w.finish()
    }
}

fn write_warnings(w: &mut JsonWriter, warnings: &[Warning]) {
    w.key("warnings");
    w.begin_array(false);
    for warning in warnings {
        write_warning(w, warning);
    }
    w.end();
}

/// Placement files (IPL): instances, car generators and the other sections' lines.
fn write_placements(w: &mut JsonWriter, placement: &Placement) {
    w.key("instances");
    w.begin_array(false);
    for instance in &placement.instances {
        write_instance(w, instance);
    }
    w.end();
    w.key("cars");
    w.begin_array(false);
    for car in &placement.cars {
        write_car(w, car);
    }
    w.end();
    w.key("section_lines");
    w.begin_array(false);
    for line in &placement.section_lines {
        w.begin_object(true);
        w.key("section");
        w.string(line.section);
        w.key("text");
        w.string(&line.text);
        w.end();
    }
    w.end();
}

fn write_instance(w: &mut JsonWriter, instance: &Instance) {
    w.begin_object(true);
    w.key("model_id");
    w.int(i64::from(instance.model_id));
    w.key("model_name");
    w.opt_string(instance.model_name.as_deref());
    w.key("interior");
    w.uint(u64::from(instance.interior));
    w.key("position");
    w.floats(&instance.position);
    w.key("rotation");
    w.floats(&instance.rotation);
    w.key("scale");
    match &instance.scale {
        Some(scale) => w.floats(scale),
        None => w.null(),
    }
    w.key("lod");
    w.int(i64::from(instance.lod));
    w.end();
}

fn write_car(w: &mut JsonWriter, car: &IplCar) {
    w.begin_object(true);
    w.key("position");
    w.floats(&car.position);
    w.key("angle");
    w.float(car.angle);
    for (key, value) in [
        ("model_id", car.model_id),
        ("primary_color", car.primary_color),
        ("secondary_color", car.secondary_color),
        ("flags", car.flags),
        ("alarm_chance", car.alarm_chance),
        ("door_lock_chance", car.door_lock_chance),
        ("min_delay", car.min_delay),
        ("max_delay", car.max_delay),
    ] {
        w.key(key);
        w.int(i64::from(value));
    }
    w.end();
}

fn write_warning(w: &mut JsonWriter, warning: &Warning) {
    w.begin_object(true);
    w.key("kind");
    w.string(warning.kind.name());
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
    w.key("duration");
    match animation.duration {
        Some(duration) => w.float(duration),
        None => w.null(),
    }
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
    w.key("bone_key");
    w.opt_uint(bone.bone_key.map(u64::from));
    w.key("frame_type");
    w.string(bone.frame_type.name());
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
