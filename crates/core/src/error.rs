//! Error types of the core. Messages are lowercase and name the offending field.

use thiserror::Error;

/// A scenario, policy or preset value that cannot be used.
///
/// `key` names the field as the user wrote it (a `--set` key, a URL query key, a policy
/// parameter), so the CLI and the web page can point at it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{key}: {message}")]
pub struct ConfigError {
    pub key: String,
    pub message: String,
}

impl ConfigError {
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        Self { key: key.into(), message: readable(&message.into()) }
    }
}

/// Longest quoted value a message shows whole; longer ones show their start and end.
const QUOTED_CHARS: usize = 80;

/// A message as it is safe to show: messages quote what the user gave ('…'), which may hold
/// control or bidirectional-formatting characters (a right-to-left override reverses the rest
/// of the line where it is shown) or run to thousands of characters. Those characters are
/// written as escapes, and a long quoted value keeps its first and last characters. Whatever
/// shows text a user wrote (a script's name, what it threw, its notes) passes it through here.
pub fn readable(message: &str) -> String {
    let escaped: String = message
        .chars()
        .map(|c| {
            let bidi =
                matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            if bidi || (c.is_control() && c != '\n') { c.escape_unicode().to_string() } else { c.to_string() }
        })
        .collect();
    let parts: Vec<&str> = escaped.split('\'').collect();
    if parts.len() < 3 {
        return escaped;
    }
    // Odd parts are inside quotes (an unmatched last quote leaves its tail as is).
    let last = parts.len() - 1;
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let count = part.chars().count();
            if i % 2 == 1 && i < last && count > QUOTED_CHARS {
                let head: String = part.chars().take(QUOTED_CHARS / 2).collect();
                let tail: String = part.chars().skip(count - 16).collect();
                format!("{head}…{tail} ({count} characters)")
            } else {
                part.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("'")
}

/// Why the engine stopped: a policy asked for something the model forbids (a bug in the
/// policy; the engine refuses the decision instead of corrupting the state), or the run
/// outgrew the memory a simulation may use.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    #[error(
        "more than {limit} jobs are waiting at {}: the load is far beyond what the policy can serve; \
         lower `load` or `horizon`", at.describe()
    )]
    QueueLimit { at: Moment, limit: usize },
    #[error("policy bug: job {job} is not waiting")]
    NotWaiting { job: u64 },
    #[error("policy bug: no job of class {class} is waiting")]
    NoneWaiting { class: u32 },
    #[error("policy bug: a type-{job_type} arrival was routed to no server")]
    Unrouted { job_type: u16 },
    #[error("policy bug: server {server} does not exist")]
    NoSuchServer { server: u32 },
    #[error("policy bug: job {job} of size {size} does not fit server {server} (residual {residual})")]
    CapacityExceeded { job: u64, server: u32, size: u64, residual: u64 },
    #[error("policy bug: no job is arriving, so there is nothing to admit or reject")]
    NoArrival,
    #[error("policy bug: job {job} arrived and was neither admitted nor rejected")]
    Unanswered { job: u64 },
    #[error("policy bug: server {server} has no free slot for a type-{job_type} job")]
    NoSlot { server: u32, job_type: u16 },
    #[error("policy bug: server {server} holds no type-{job_type} job")]
    NoJobOfType { server: u32, job_type: u16 },
    #[error("policy bug: server {server} holds {jobs} jobs; its configuration may change only while it is empty")]
    ServerBusy { server: u32, jobs: u32 },
    #[error("policy bug: configuration {counts} does not fit a server")]
    InfeasibleConfiguration { counts: String },
    /// A scripted policy stopped: it exceeded a limit, threw, or made a decision the model
    /// refused. The message names the script's line ("script line 3: exceeded …").
    #[error("{message}")]
    Script { message: String },
    #[error("the upper bound's LP failed: {message}")]
    Bound { message: String },
}

/// When something happened, in the model's own time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// A slot of slotted time (PG-RR).
    Slot(u64),
    /// The whole time units elapsed in continuous time.
    Time(u64),
}

impl Moment {
    /// The slot or the whole time units, as a number of the model's time.
    pub fn value(&self) -> u64 {
        match *self {
            Self::Slot(t) | Self::Time(t) => t,
        }
    }

    fn describe(&self) -> String {
        match self {
            Self::Slot(t) => format!("slot {t}"),
            Self::Time(t) => format!("time {t}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_escape_controls_and_shorten_long_values() {
        let e = ConfigError::new("seed", "'12\u{202e}34' is not a number");
        assert_eq!(e.message, "'12\\u{202e}34' is not a number");
        let long = "x".repeat(5000);
        let e = ConfigError::new("classes", format!("'{long}' is not NEED@P; use NEED@P[@MEAN]"));
        assert!(e.message.len() < 200, "{}", e.message);
        assert!(e.message.contains("(5000 characters)") && e.message.ends_with("' is not NEED@P; use NEED@P[@MEAN]"));
        // Short values, apostrophes outside pairs and new lines stay as they are.
        for plain in ["'1e30' must be in 1..=10", "the policy's 'l' is 3", "a\nb", "it's"] {
            assert_eq!(ConfigError::new("k", plain).message, plain);
        }
    }
}
