//! URDF XML: any bytes, as text, through the URDF reader and a few steps.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ferrobody_fuzz::urdf_text(text);
    }
});
