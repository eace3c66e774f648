//! A task CSV: one task per line, `submit_time,duration,size,priority`, as tools that cut
//! cluster traces write them (a header line naming these columns, in any order, is optional;
//! `#` starts a comment). Times are in the simulation's time units, sizes a fraction of a
//! server, priorities the Google trace's 0 to 11. The file is read whole (it is small next to
//! a `task_events` trace); every error names the line and the field (key `trace`).

use crate::ConfigError;

use super::KEY;

/// Most tasks a task CSV may hold.
pub const MAX_TASKS: usize = 2_000_000;
/// The columns, in their default order.
pub const COLUMNS: [&str; 4] = ["submit_time", "duration", "size", "priority"];

/// One task of the file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaskRow {
    pub submit: f64,
    pub duration: f64,
    /// A fraction of a server, in [0, 1].
    pub size: f64,
    /// 0..=11.
    pub priority: u8,
}

/// The tasks of a task CSV, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskTable {
    pub tasks: Vec<TaskRow>,
}

impl TaskTable {
    /// Parses a task CSV (see the module docs).
    pub fn from_csv(text: &str) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(KEY, m);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .comment(Some(b'#'))
            .trim(csv::Trim::All)
            .flexible(true)
            .from_reader(text.as_bytes());
        // Column of each field: the default order, or a header's.
        let mut order = [0usize, 1, 2, 3];
        // Only the first line that is not blank or a comment may be a header.
        let mut first = true;
        let mut tasks = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| err(format!("CSV: {e}")))?;
            let line = record.position().map_or(0, |p| p.line());
            if record.iter().all(str::is_empty) {
                continue;
            }
            if record.len() == 1 && record[0].contains(';') {
                return Err(err(format!("line {line}: fields are separated by ';'; separate them by commas")));
            }
            if std::mem::take(&mut first) && record.get(0).is_some_and(|f| f.parse::<f64>().is_err()) {
                order = header_order(&record).map_err(|m| err(format!("line {line}: {m}")))?;
                continue;
            }
            if record.len() != 4 {
                return Err(err(format!("line {line}: {} fields; expected 4 ({})", record.len(), COLUMNS.join(", "))));
            }
            if tasks.len() == MAX_TASKS {
                return Err(err(format!("line {line}: more than {MAX_TASKS} tasks; cut the trace")));
            }
            let field = |i: usize| &record[order[i]];
            let number = |i: usize, what: &str| -> Result<f64, ConfigError> {
                let text = field(i);
                match text.parse::<f64>() {
                    Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
                    _ => Err(err(format!("line {line}: {} '{text}' must be {what}", COLUMNS[i]))),
                }
            };
            let submit = number(0, "a number >= 0")?;
            let duration = number(1, "a number >= 0")?;
            let size = number(2, "a number in [0, 1] (a fraction of a server)")?;
            if size > 1.0 {
                return Err(err(format!(
                    "line {line}: size '{}' must be a number in [0, 1] (a fraction of a server)",
                    field(2)
                )));
            }
            let priority: u8 = field(3).parse().ok().filter(|p| *p <= 11).ok_or_else(|| {
                err(format!("line {line}: priority '{}' must be an integer in 0..=11 (the Google trace's)", field(3)))
            })?;
            tasks.push(TaskRow { submit, duration, size, priority });
        }
        if tasks.is_empty() {
            return Err(err(format!("the CSV holds no task lines ({})", COLUMNS.join(", "))));
        }
        Ok(Self { tasks })
    }

    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// A hash of the tasks as read: links name a loaded file by it.
    pub fn fingerprint(&self) -> u64 {
        super::fingerprint(
            self.tasks
                .iter()
                .flat_map(|t| [t.submit.to_bits(), t.duration.to_bits(), t.size.to_bits(), u64::from(t.priority)]),
        )
    }
}

fn header_order(record: &csv::StringRecord) -> Result<[usize; 4], String> {
    let names: Vec<String> = record.iter().map(|f| f.to_ascii_lowercase()).collect();
    let aliases: [&[&str]; 4] =
        [&["submit_time", "submit", "arrival"], &["duration", "runtime"], &["size"], &["priority"]];
    let mut order = [0; 4];
    for (i, alias) in aliases.iter().enumerate() {
        order[i] = names
            .iter()
            .position(|n| alias.contains(&n.as_str()))
            .ok_or_else(|| format!("the header '{}' has no column '{}'", names.join(","), COLUMNS[i]))?;
    }
    if names.len() != 4 {
        return Err(format!("the header has {} columns; expected 4 ({})", names.len(), COLUMNS.join(", ")));
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_follow_the_header() {
        let t =
            TaskTable::from_csv("# a trace\nsize,priority,submit_time,duration\n0.3,0,5,1\n\n0,11,1,0.5\n").unwrap();
        assert_eq!(
            t.tasks,
            [
                TaskRow { submit: 5.0, duration: 1.0, size: 0.3, priority: 0 },
                TaskRow { submit: 1.0, duration: 0.5, size: 0.0, priority: 11 }
            ]
        );
        assert_ne!(t.fingerprint(), TaskTable::from_csv("5,1,0.3,0").unwrap().fingerprint());
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, needle) in [
            ("1,2,0.5", "line 1: 3 fields; expected 4"),
            ("0,1,0.5,0\n1,-2,0.5,0", "line 2: duration '-2' must be a number >= 0"),
            ("0,1,0.5,0\n1,2,1.5,0", "line 2: size '1.5' must be a number in [0, 1]"),
            ("0,1,0.5,12", "line 1: priority '12' must be an integer in 0..=11"),
            ("0,1,0.5,high", "priority 'high'"),
            ("nan,1,0.5,1", "submit_time 'nan' must be a number >= 0"),
            ("submit_time,duration,size,priority\nabc,1,0.5,0", "line 2: submit_time 'abc' must be a number"),
            ("start,duration,size,priority\n", "header 'start,duration,size,priority' has no column 'submit_time'"),
            ("0;1;0.5;0\n", "separated by ';'"),
            ("# nothing\n", "no task lines"),
        ] {
            let e = TaskTable::from_csv(text).unwrap_err();
            assert_eq!(e.key, "trace");
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }
}
