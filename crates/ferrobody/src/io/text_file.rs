//! Reading OpenSim's and ROS's text files (.osim, .sto/.mot, URDF, VTP) as OpenSim reads them.
//!
//! OpenSim's XML reader (Simbody's `Xml`, on TinyXML) keeps a file's bytes as they are, so an
//! .osim file may declare UTF-8 and still hold Latin-1 bytes: OpenSim 3.x models carry them in
//! their credits and publications (authors' names), and OpenSim 4.x writes them back unchanged
//! when such a model is re-saved. A file that is valid UTF-8 is read as UTF-8; any other is
//! read as Latin-1 (ISO 8859-1: byte b is the character U+00b), which maps distinct bytes to
//! distinct characters, so names that refer to one another still match.

use crate::error::{Error, Result};
use std::path::Path;

/// The text of `path`: UTF-8 if it is valid UTF-8, Latin-1 otherwise (see the module
/// documentation). `doing` says what the read was for in an error ("cannot read the file").
pub fn read_text_file(path: &Path, doing: &str) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, doing, e))?;
    Ok(decode_text(bytes))
}

/// `bytes` as UTF-8 when valid, as Latin-1 otherwise.
pub fn decode_text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_stays_utf8_and_other_bytes_read_as_latin1() {
        assert_eq!(decode_text("Müller °".as_bytes().to_vec()), "Müller °");
        // "Müller" in Latin-1: ü is the single byte 0xFC, not valid UTF-8.
        assert_eq!(decode_text(b"M\xfcller".to_vec()), "Müller");
        // Distinct bytes stay distinct characters.
        assert_ne!(decode_text(b"\xe9".to_vec()), decode_text(b"\xe8".to_vec()));
    }
}
