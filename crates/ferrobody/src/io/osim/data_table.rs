//! OpenSim's `.sto`/`.mot` tables as its `Storage` reads them: header lines up to `endheader`
//! (none in a bare table), a row of column labels (tab-, comma- or space-separated) starting
//! with `time`, then rows of numbers. Every value must be finite and time must increase
//! strictly; errors name the file and line.
//!
//! Source: OpenSim 4.6 `OpenSim/Common/Storage.cpp` (`Storage(fileName)`).

use crate::error::{Error, ParseError, Result};

/// A table: its labels after `time`, the labels' line, the times and one column per label.
#[derive(Clone, Debug)]
pub struct Table {
    /// The column labels after `time`.
    pub labels: Vec<String>,
    /// The line of the labels (1-based).
    pub label_line: usize,
    /// The time column.
    pub times: Vec<f64>,
    /// One column per label.
    pub columns: Vec<Vec<f64>>,
}

/// Parses a table; `file` names it in errors and `columns_are` says what the columns after
/// time hold ("one column per actuator").
pub fn parse(text: &str, file: &str, columns_are: &str) -> Result<Table> {
    let err = |line: usize, message: String| {
        Error::Parse(ParseError::in_file(file, message).at_line(line))
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    if text.lines().any(|l| l.trim() == "endheader") {
        for (_, l) in lines.by_ref() {
            if l.trim() == "endheader" {
                break;
            }
        }
    }
    let (label_line, labels) = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| err(1, format!("no column labels (time, then {columns_are})")))?;
    let labels: Vec<&str> = labels.split(['\t', ',']).map(str::trim).collect();
    let labels: Vec<&str> = if labels.len() == 1 {
        labels[0].split_whitespace().collect()
    } else {
        labels
    };
    if labels.first().map(|l| l.to_ascii_lowercase()) != Some("time".into()) || labels.len() < 2 {
        return Err(err(
            label_line,
            format!("the first column must be 'time', followed by {columns_are}"),
        ));
    }
    let mut times = Vec::new();
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); labels.len() - 1];
    for (n, l) in lines.filter(|(_, l)| !l.trim().is_empty()) {
        let row: Vec<&str> = l
            .split(|c: char| c == '\t' || c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        if row.len() != labels.len() {
            return Err(err(
                n,
                format!("{} values, but {} columns", row.len(), labels.len()),
            ));
        }
        for (k, text) in row.iter().enumerate() {
            let v: f64 = text.parse().map_err(|_| {
                err(
                    n,
                    format!("column '{}': '{text}' is not a number", labels[k]),
                )
            })?;
            if !v.is_finite() {
                return Err(err(
                    n,
                    format!("column '{}' is {v}: values must be finite", labels[k]),
                ));
            }
            if k == 0 {
                if times.last().is_some_and(|&t| v <= t) {
                    return Err(err(n, format!("time {v} does not increase")));
                }
                times.push(v);
            } else {
                columns[k - 1].push(v);
            }
        }
    }
    if times.is_empty() {
        return Err(err(label_line, "no rows of data".into()));
    }
    Ok(Table {
        labels: labels[1..].iter().map(|l| l.to_string()).collect(),
        label_line,
        times,
        columns,
    })
}
