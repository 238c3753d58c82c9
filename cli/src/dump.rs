//! `gtastream dump --json`: the whole decoded file as JSON, collected from the decoder's
//! events (whatever the format) and written only once the file has decoded.

use gtastream::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, FrameType, IplCar, IplInstance, Keyframe,
    Keyframes, SectionLine, Visitor, Warning,
};

use crate::json::JsonWriter;
use crate::names;

/// Everything the decoder reported.
#[derive(Default)]
pub struct Document {
    format: Option<Format>,
    /// The first package's name: an `ANLF` container's blocks are listed as one package.
    name: Option<String>,
    files: u32,
    warnings: Vec<Warning>,
    animations: Vec<Animation>,
    instances: Vec<Instance>,
    cars: Vec<IplCar>,
    section_lines: Vec<Line>,
}

/// An [`IplInstance`], owned.
struct Instance {
    position: [f32; 3],
    rotation: [f32; 4],
    model_id: i32,
    interior: u32,
    lod: i32,
    model_name: Option<String>,
    scale: Option<[f32; 3]>,
}

struct Line {
    section: &'static str,
    text: String,
}

struct Animation {
    name: String,
    frame_data_size: Option<u32>,
    flags: Option<u32>,
    duration: Option<f32>,
    bones: Vec<Bone>,
}

struct Bone {
    name: Option<String>,
    bone_id: Option<i32>,
    bone_key: Option<u32>,
    frame_type: FrameType,
    frames: Vec<Keyframe>,
}

impl Visitor for Document {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        if self.files == 0 {
            self.format = Some(info.format);
            self.name = info.name.map(names::latin1);
        }
        self.files += 1;
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.animations.push(Animation {
            name: names::latin1(info.name),
            frame_data_size: info.frame_data_size,
            flags: info.flags,
            duration: info.duration,
            bones: Vec::new(),
        });
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        if let Some(animation) = self.animations.last_mut() {
            animation.bones.push(Bone {
                name: info.name.map(names::latin1),
                bone_id: info.bone_id,
                bone_key: info.bone_key,
                frame_type: info.frame_type,
                frames: Vec::new(),
            });
        }
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if let Some(bone) = self.animations.last_mut().and_then(|a| a.bones.last_mut()) {
            bone.frames.extend(frames.iter());
        }
        Flow::Continue
    }

    fn instance(&mut self, instance: &IplInstance<'_>) -> Flow {
        self.instances.push(Instance {
            position: instance.position,
            rotation: instance.rotation,
            model_id: instance.model_id,
            interior: instance.interior,
            lod: instance.lod,
            model_name: instance.model_name.map(names::latin1),
            scale: instance.scale,
        });
        Flow::Continue
    }

    fn car(&mut self, car: &IplCar) -> Flow {
        self.cars.push(*car);
        Flow::Continue
    }

    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        self.section_lines.push(Line {
            section: line.section,
            text: names::latin1(line.text),
        });
        Flow::Continue
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        self.warnings.push(warning);
        Flow::Continue
    }
}

impl Document {
    /// The JSON text, ending with a newline.
    pub fn json(&self) -> String {
        let mut w = JsonWriter::new();
        w.begin_object(false);
        w.key("format");
        match self.format {
            Some(format) => w.string(format.name()),
            None => w.null(),
        }
        w.key("name");
        w.opt_string(self.name.as_deref());
        w.key("warnings");
        w.begin_array(false);
        for warning in &self.warnings {
            write_warning(&mut w, warning);
        }
        w.end();
        if self.format.is_some_and(|f| !f.is_animation()) {
            self.write_placements(&mut w);
        } else {
            w.key("animations");
            w.begin_array(false);
            for animation in &self.animations {
                write_animation(&mut w, animation);
            }
            w.end();
        }
        w.end();
        w.finish()
    }

    /// Placement files (IPL): instances, car generators and the other sections' lines.
    fn write_placements(&self, w: &mut JsonWriter) {
        w.key("instances");
        w.begin_array(false);
        for instance in &self.instances {
            write_instance(w, instance);
        }
        w.end();
        w.key("cars");
        w.begin_array(false);
        for car in &self.cars {
            write_car(w, car);
        }
        w.end();
        w.key("section_lines");
        w.begin_array(false);
        for line in &self.section_lines {
            w.begin_object(true);
            w.key("section");
            w.string(line.section);
            w.key("text");
            w.string(&line.text);
            w.end();
        }
        w.end();
    }
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
