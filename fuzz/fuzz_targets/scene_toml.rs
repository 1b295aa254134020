//! Scene TOML: any bytes, as text, through the scene loader and a few steps.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ferrobody_fuzz::scene_text(text);
    }
});
