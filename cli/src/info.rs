//! `gtastream info`: a short summary, counted by a visitor as the streaming decoder reads.

use std::fmt::Write as _;

use gtastream::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, FrameType, Keyframes, Record, Visitor, Warning,
};

use gtastream::context::Context;

use crate::names;

/// Counts what the decoder reports.
#[derive(Default)]
pub struct Summary {
    pub format: Option<Format>,
    /// One per package: an `ANLF` container holds several.
    packages: Vec<Option<String>>,
    animations: u64,
    bones: u64,
    keyframes: u64,
    frame_types: Vec<FrameType>,
    /// Placement files: instances, car generators, lines of other sections.
    instances: u64,
    cars: u64,
    section_lines: u64,
    /// IDE files: model definitions.
    objects: u64,
    warnings: Vec<Warning>,
    /// Where each warning came: its animation and bone (issue 22: context in every message).
    places: Vec<Context>,
    context: Context,
    /// Per animation, when asked for.
    list: Option<Vec<AnimationSummary>>,
    summarizer: gtastream::Summarizer,
    /// Models: what the DFF reader reported.
    pub model: gtastream::model::ModelCounts,
}

struct AnimationSummary {
    name: String,
    bones: u64,
    keyframes: u64,
    /// The stored duration (Stories), else the latest keyframe time, in seconds.
    stored_duration: Option<f32>,
    latest: f32,
    /// Length by the games' rule, bones and storage (set at the animation's end).
    summary: gtastream::AnimationSummary,
}

/// The counts `info --json` prints.
pub struct Counts<'a> {
    pub format: Option<Format>,
    pub animations: u64,
    pub bones: u64,
    pub keyframes: u64,
    pub instances: u64,
    pub cars: u64,
    pub warnings: &'a [Warning],
    /// Where each warning came.
    pub places: &'a [Context],
}

impl Summary {
    pub fn counts(&self) -> Counts<'_> {
        Counts {
            format: self.format,
            animations: self.animations,
            bones: self.bones,
            keyframes: self.keyframes,
            instances: self.instances,
            cars: self.cars,
            warnings: &self.warnings,
            places: &self.places,
        }
    }

    pub fn new(list_animations: bool) -> Self {
        Summary {
            list: list_animations.then(Vec::new),
            ..Summary::default()
        }
    }

    fn current(&mut self) -> Option<&mut AnimationSummary> {
        self.list.as_mut()?.last_mut()
    }
}

impl Visitor for Summary {
    fn unit(&mut self, unit: &gtastream::Unit<'_>) {
        self.context.unit(unit);
    }

    fn bone_end(&mut self) -> Flow {
        self.context.bone_end();
        Flow::Continue
    }

    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.context.file();
        self.format.get_or_insert(info.format);
        self.packages.push(info.name.map(names::latin1));
        self.model.file(info);
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation(info);
        self.animations += 1;
        if let Some(list) = self.list.as_mut() {
            list.push(AnimationSummary {
                name: names::latin1(info.name),
                bones: 0,
                keyframes: 0,
                stored_duration: info.duration,
                latest: 0.0,
                summary: gtastream::AnimationSummary::default(),
            });
        }
        self.summarizer.animation(info);
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.context.bone(info);
        self.bones += 1;
        if !self.frame_types.contains(&info.frame_type) {
            self.frame_types.push(info.frame_type);
        }
        if let Some(animation) = self.current() {
            animation.bones += 1;
        }
        self.summarizer.bone(info);
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.keyframes += frames.len() as u64;
        self.summarizer.keyframes(frames);
        if let Some(animation) = self.current() {
            animation.keyframes += frames.len() as u64;
            for frame in frames.iter() {
                animation.latest = animation.latest.max(frame.time);
            }
        }
        Flow::Continue
    }

    fn animation_end(&mut self) -> Flow {
        self.context.animation_end();
        let summary = self.summarizer.animation_end();
        if let Some(animation) = self.current() {
            animation.summary = summary;
        }
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(_instance) => {
                self.instances += 1;
                Flow::Continue
            }
            Record::Car(_car) => {
                self.cars += 1;
                Flow::Continue
            }
            Record::SectionLine(_line) => {
                self.section_lines += 1;
                Flow::Continue
            }
            Record::IdeObject(_object) => {
                self.objects += 1;
                Flow::Continue
            }
            record => self.model.record(record),
        }
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        self.warnings.push(warning);
        self.places.push(self.context);
        Flow::Continue
    }
}

/// The package line: `"demo"`, `(none)` for formats without names, every block's name for
/// an `ANLF` container.
fn packages(summary: &Summary) -> String {
    let name = |n: &Option<String>| n.as_deref().map_or("(none)".into(), |n| format!("{n:?}"));
    match summary.packages.as_slice() {
        [] => "(none)".into(),
        [one] => name(one),
        many => format!(
            "{} ({} packages)",
            many.iter().map(name).collect::<Vec<_>>().join(", "),
            many.len()
        ),
    }
}

impl Summary {
    /// Whether the file is a text IPL (whose warnings name lines).
    pub fn is_text(&self) -> bool {
        matches!(self.format, Some(Format::IplText | Format::Ide))
    }

    /// The offsets of the warnings, in order.
    pub fn warning_offsets(&self) -> Vec<u64> {
        self.warnings.iter().map(|w| w.offset).collect()
    }
}

/// The summary as text, for `path`; `seeks` is how often the decoder asked to seek; `lines`,
/// for a text file, the line of each warning.
pub fn report(path: &str, summary: &Summary, seeks: u64, lines: &[u32]) -> String {
    let mut out = String::new();
    let format = summary.format.map_or("?", Format::name);
    let frame_types = if summary.frame_types.is_empty() {
        "none".into()
    } else {
        summary
            .frame_types
            .iter()
            .map(|&t| names::frame_type_label(t))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "{path}");
    let _ = writeln!(out, "  format:      {format}");
    if summary.format == Some(Format::Dff) {
        let m = &summary.model;
        let mut version = String::new();
        let _ = gtastream::model::write_version(&mut version, m.rw_version);
        let _ = writeln!(out, "  rw version:  {version} (0x{:08X})", m.rw_version);
        let _ = writeln!(
            out,
            "  frames:      {} ({} named)",
            m.frames, m.named_frames
        );
        let _ = writeln!(out, "  bones:       {}", m.bones);
        let skin = m
            .skin_bones
            .map_or("no".to_string(), |b| format!("yes ({b} bones)"));
        let _ = writeln!(out, "  skinned:     {skin}");
        let _ = writeln!(out, "  geometries:  {}", m.geometries);
        let _ = writeln!(out, "  atomics:     {}", m.atomics);
        let _ = writeln!(out, "  skipped:     {} sections", m.skipped_sections);
    } else if summary.format == Some(Format::Ide) {
        let _ = writeln!(out, "  objects:     {}", summary.objects);
        let _ = writeln!(out, "  other lines: {}", summary.section_lines);
    } else if summary.format.is_some_and(|f| f.is_placement()) {
        let _ = writeln!(out, "  instances:   {}", summary.instances);
        let _ = writeln!(out, "  cars:        {}", summary.cars);
        let _ = writeln!(out, "  other lines: {}", summary.section_lines);
    } else {
        let _ = writeln!(out, "  package:     {}", packages(summary));
        let _ = writeln!(out, "  animations:  {}", summary.animations);
        let _ = writeln!(out, "  bones:       {}", summary.bones);
        let _ = writeln!(out, "  keyframes:   {}", summary.keyframes);
        let _ = writeln!(out, "  frame types: {frame_types}");
    }
    let _ = writeln!(out, "  seeks:       {seeks}");
    if summary.warnings.is_empty() {
        let _ = writeln!(out, "  warnings:    none");
    } else {
        let _ = writeln!(out, "  warnings:    {}", summary.warnings.len());
        for (k, warning) in summary.warnings.iter().enumerate() {
            let line = lines
                .get(k)
                .map_or(String::new(), |l| format!(", line {l}"));
            // Animation formats: the animation and bone the warning belongs to.
            let place = summary
                .places
                .get(k)
                .filter(|c| c.animation.is_some())
                .map_or(String::new(), |c| format!(", {c}"));
            let _ = writeln!(out, "    {warning}{place}{line} ({})", warning.kind.name());
        }
    }
    if let Some(list) = summary.list.as_ref().filter(|list| !list.is_empty()) {
        let _ = writeln!(out, "  per animation:");
        let width = list
            .iter()
            .map(|a| a.name.chars().count())
            .max()
            .unwrap_or(0);
        for animation in list {
            let s = &animation.summary;
            let storage = match (s.packed, s.float) {
                (0, 0) => "no bones",
                (_, 0) => "packed",
                (0, _) => "float",
                _ => "mixed packed/float",
            };
            let _ = writeln!(
                out,
                "    {:<width$}  {:>3} bones  {:>6} keyframes  {:>8.3} s  (length {:.3} s, \
                 {} standard bones, {} unmatched, {storage})",
                format!("{:?}", animation.name),
                animation.bones,
                animation.keyframes,
                animation.stored_duration.unwrap_or(animation.latest),
                s.length,
                s.standard.count_ones(),
                s.unmatched,
                width = width + 2,
            );
        }
    }
    out
}
