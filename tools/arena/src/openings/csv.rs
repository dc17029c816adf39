//! CSV opening tables: the header's opening columns and the rows read through them, each
//! filled column cross-checked against the others.

use super::formats::{finish, parse_moves, parse_point};
use super::*;

/// What a CSV column holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Column {
    /// Not an opening column.
    Ignore,
    /// A whole opening in a format, with the column name.
    Line(Format, String),
    /// One stone as a Gomocup `x,y`; such columns together form an opening.
    Point,
}

/// The columns of a CSV header, or `None` when the line is not a header with an opening
/// column.
pub(super) fn csv_header(line: &str) -> Option<Vec<Column>> {
    let text = line.trim().trim_start_matches('\u{feff}');
    if !text.contains(',') {
        return None;
    }
    let fields = split_csv(text).ok()?;
    let columns: Vec<Column> = fields
        .iter()
        .map(|f| {
            let name = f.trim().to_ascii_lowercase();
            match name.as_str() {
                "offset_line" | "offset" => Column::Line(Format::Offset, name),
                "renju_notation" | "renju" => Column::Line(Format::Renju, name),
                "pos_line" | "pos" => Column::Line(Format::Pos, name),
                "moves" | "opening" => Column::Line(Format::Auto, name),
                _ if name.starts_with("gomocup_xy") => Column::Point,
                _ => Column::Ignore,
            }
        })
        .collect();
    columns
        .iter()
        .any(|c| *c != Column::Ignore)
        .then_some(columns)
}

/// One CSV data row: every filled opening column must agree.
pub(super) fn parse_csv_row(
    line: &str,
    columns: &[Column],
    size: usize,
) -> Result<Opening, String> {
    let fields = split_csv(line.trim()).map_err(|e| fail(line, &e))?;
    let mut found: Vec<(String, Opening)> = Vec::new();
    let mut points = Vec::new();
    for (field, column) in fields.iter().zip(columns) {
        let value = field.trim();
        if value.is_empty() {
            continue;
        }
        match column {
            Column::Ignore => {}
            Column::Point => points.push(parse_point(value).map_err(|e| fail(line, &e))?),
            Column::Line(format, name) => {
                let o = parse_moves(value, size, *format)
                    .map_err(|e| fail(line, &format!("column `{name}`: {e}")))?;
                found.push((name.clone(), o));
            }
        }
    }
    if !points.is_empty() {
        let o = finish(&points, size).map_err(|e| fail(line, &format!("gomocup_xy: {e}")))?;
        found.push(("gomocup_xy".to_string(), o));
    }
    let Some((first_name, first)) = found.first() else {
        return Err(fail(line, "no opening column is filled"));
    };
    for (name, o) in &found[1..] {
        if o != first {
            return Err(fail(
                line,
                &format!(
                    "columns `{first_name}` ({}) and `{name}` ({}) disagree",
                    first.to_renju(size),
                    o.to_renju(size)
                ),
            ));
        }
    }
    Ok(first.clone())
}

/// Split a CSV line: fields separated by commas; a field in double quotes may hold commas,
/// and `""` inside it is one quote.
pub(super) fn split_csv(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
        } else if c == '"' && at_start {
            quoted = true;
            at_start = false;
        } else if c == ',' {
            fields.push(std::mem::take(&mut field));
            at_start = true;
        } else {
            field.push(c);
            at_start = false;
        }
    }
    if quoted {
        return Err("unterminated quoted CSV field".to_string());
    }
    fields.push(field);
    Ok(fields)
}
