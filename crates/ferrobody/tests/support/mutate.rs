//! Text mutations of scene and model files, shared by the mutation tests of the library
//! (`parser_mutations.rs`) and of the command line (`ferrobody-cli/tests/cli_mutations.rs`):
//! values swapped for NaN, ±inf, denormals, huge numbers and wrong types; lines deleted,
//! duplicated, swapped or cut short; the text truncated.

/// Replacements for a value: the kinds that broke loaders before (issue 22's list).
pub const VALUES: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "1e-320",
    "5e-324",
    "1e308",
    "-1e308",
    "1e30",
    "0",
    "-1",
    "0.0",
    "\"x\"",
    "true",
    "[]",
    "[nan, nan, nan]",
    "[1e308, 1e308, 1e308]",
    "{}",
    "-0.0",
];

/// One edit of a text: `kind` picks it, `a` and `b` place it, `v` picks a value.
pub fn mutate(text: &str, kind: u8, a: usize, b: usize, v: usize, xml: bool) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let n = lines.len().max(1);
    let (i, j) = (a % n, b % n);
    let value = VALUES[v % VALUES.len()];
    match kind % 6 {
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(j, l);
        }
        2 => lines.swap(i, j),
        3 => {
            let l = &lines[i];
            let cut = (0..=b % (l.len() + 1))
                .rev()
                .find(|&k| l.is_char_boundary(k))
                .unwrap_or(0);
            lines[i].truncate(cut);
        }
        4 => lines[i] = replace_value(&lines[i], value, b, xml),
        _ => {
            let joined = lines.join("\n");
            let cut = (0..=a % (joined.len() + 1))
                .rev()
                .find(|&k| joined.is_char_boundary(k))
                .unwrap_or(0);
            return joined[..cut].to_string();
        }
    }
    lines.join("\n")
}

/// Replaces the value on a line: after `=` (TOML), or the text between `>` and `</` (XML); when
/// the value is a list, one element of it (picked by `b`) half of the time.
fn replace_value(line: &str, value: &str, b: usize, xml: bool) -> String {
    let (start, end) = if xml {
        match (line.find('>'), line.rfind("</")) {
            (Some(o), Some(c)) if o < c => (o + 1, c),
            _ => return line.to_string(),
        }
    } else {
        match line.find('=') {
            Some(e) => (e + 1, line.len()),
            None => return line.to_string(),
        }
    };
    let old = &line[start..end];
    let separator = if xml { ' ' } else { ',' };
    let parts: Vec<&str> = old.split(separator).collect();
    let new = if parts.len() > 1 && b % 2 == 0 && !value.starts_with('[') {
        let k = (b / 2) % parts.len();
        let mut parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
        let bare = value.trim_matches('"');
        parts[k] = if xml {
            bare.into()
        } else {
            format!(" {value}")
        };
        parts.join(&separator.to_string())
    } else if xml {
        value.trim_matches('"').to_string()
    } else {
        format!(" {value}")
    };
    format!("{}{new}{}", &line[..start], &line[end..])
}
