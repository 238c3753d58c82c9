//! A stand-in for the C library on thumbv7em-none-eabihf, to measure the decoder's code size
//! there (see Cargo.toml). Every event reaches C: keyframe batches decoded into a stack array,
//! the others as a number, so that no part of the decoder is optimised away.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]

use core::ffi::c_void;
use core::mem::MaybeUninit;

use gtastream::{
    AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Keyframes, Record, Status, Visitor, Warning,
    MAX_BATCH,
};

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// A decoded keyframe: time, rotation, translation, scale.
pub type Frame = [f32; 11];

/// The host's callbacks.
#[repr(C)]
pub struct Host {
    pub on_keyframes: extern "C" fn(user: *mut c_void, frames: *const Frame, count: usize) -> i32,
    pub on_event: extern "C" fn(user: *mut c_void, kind: u32, value: u64) -> i32,
    pub user: *mut c_void,
}

struct Bridge<'a>(&'a Host);

fn flow(answer: i32) -> Flow {
    match answer {
        0 => Flow::Continue,
        1 => Flow::Pause,
        _ => Flow::Abort,
    }
}

impl Bridge<'_> {
    fn event(&mut self, kind: u32, value: u64) -> Flow {
        flow((self.0.on_event)(self.0.user, kind, value))
    }
}

impl Visitor for Bridge<'_> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.event(1, u64::from(info.animation_count))
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.event(2, info.name.len() as u64)
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.event(3, u64::from(info.frame_count))
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let mut batch = [const { MaybeUninit::<Frame>::uninit() }; MAX_BATCH];
        let mut count = 0;
        frames.iter().for_each(|k| {
            if let Some(slot) = batch.get_mut(count) {
                let mut f = [0.0; 11];
                f[0] = k.time;
                f[1..5].copy_from_slice(&k.rotation);
                f[5..8].copy_from_slice(&k.translation);
                f[8..].copy_from_slice(&k.scale);
                slot.write(f);
                count += 1;
            }
        });
        flow((self.0.on_keyframes)(
            self.0.user,
            batch.as_ptr().cast(),
            count,
        ))
    }
    fn bone_end(&mut self) -> Flow {
        self.event(4, 0)
    }
    fn animation_end(&mut self) -> Flow {
        self.event(5, 0)
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(instance) => self.event(6, instance.model_id as u64),
            Record::Car(car) => self.event(7, car.model_id as u64),
            Record::SectionLine(line) => self.event(8, line.text.len() as u64),
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        self.event(9, warning.offset)
    }
    fn end(&mut self) -> Flow {
        self.event(10, 0)
    }
}

/// Sets up a decoder in caller storage.
#[no_mangle]
pub extern "C" fn gts_size_init(decoder: &mut MaybeUninit<Decoder>) {
    decoder.write(Decoder::new());
}

/// Feeds `len` bytes; returns the status (0 more, 1 paused, 2 done, 3 seek) or 100 + error.
///
/// # Safety
/// `data` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn gts_size_feed(
    decoder: &mut Decoder,
    data: *const u8,
    len: usize,
    host: &Host,
    consumed: &mut usize,
) -> u32 {
    // SAFETY: the caller's contract.
    let input = unsafe { core::slice::from_raw_parts(data, len) };
    match decoder.feed(input, &mut Bridge(host)) {
        Ok(progress) => {
            *consumed = progress.consumed;
            match progress.status {
                Status::NeedInput => 0,
                Status::Paused => 1,
                Status::Done => 2,
                Status::Seek(_) => 3,
            }
        }
        Err(error) => 100 + error.kind as u32,
    }
}

/// Ends the input.
#[no_mangle]
pub extern "C" fn gts_size_finish(decoder: &mut Decoder, host: &Host) -> u32 {
    match decoder.finish(&mut Bridge(host)) {
        Ok(()) => 0,
        Err(error) => 100 + error.kind as u32,
    }
}

/// The decoder's position, for seeks.
#[no_mangle]
pub extern "C" fn gts_size_position(decoder: &Decoder) -> u64 {
    decoder.position()
}
