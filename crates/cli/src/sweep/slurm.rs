//! The script of `sweep … --emit slurm`: `slurm.sh`, with the sweep's values written in as
//! shell-quoted words. Values go into the script's text rather than through `sbatch --export`,
//! whose list splits on commas, so paths with commas, spaces or quotes reach the jobs intact.

use std::path::Path;

// The core's quoting, as `shards::quote` (which imports this module, so not through it).
use packlab_core::link::shell_quote as quote;

/// The values the Slurm script is written with.
pub struct Script<'a> {
    /// The preset's id: job names and shard file names.
    pub id: &'a str,
    pub shards: u64,
    /// The packlab binary, by absolute path.
    pub packlab: &'a Path,
    /// The output directory, absolute.
    pub out: &'a Path,
    /// The sweep's arguments, without `--shard` and `--out`.
    pub sweep_args: &'a [String],
    /// Options of every `sbatch` (resources).
    pub sbatch_opts: &'a [String],
    /// At most this many shards at once.
    pub max_running: Option<u64>,
}

const TEMPLATE: &str = include_str!("slurm.sh");

impl Script<'_> {
    /// The script's text.
    pub fn text(&self) -> String {
        let words = |items: &[String]| items.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ");
        let fill = |name: &str| -> Option<String> {
            Some(match name {
                "ID" => quote(self.id),
                "SHARDS" => self.shards.to_string(),
                "VERSION" => env!("CARGO_PKG_VERSION").to_string(),
                "PACKLAB" => quote(&self.packlab.display().to_string()),
                "OUT" => quote(&self.out.display().to_string()),
                "ARGS" => words(self.sweep_args),
                "SBATCH_OPTS" => words(self.sbatch_opts),
                "MAX_RUNNING" => self.max_running.map(|k| k.to_string()).unwrap_or_default(),
                _ => return None,
            })
        };
        // One pass over the template, so a value holding `@NAME@` is never filled in itself;
        // bash's own `@` (`"${a[@]}"`) is left alone.
        let mut text = String::with_capacity(TEMPLATE.len() + 1024);
        let mut rest = TEMPLATE;
        while let Some(at) = rest.find('@') {
            text.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let name_len = after.find(|c: char| !(c.is_ascii_uppercase() || c == '_')).unwrap_or(after.len());
            match (after[name_len..].starts_with('@'), fill(&after[..name_len])) {
                (true, Some(value)) if name_len > 0 => {
                    text.push_str(&value);
                    rest = &after[name_len + 1..];
                }
                _ => {
                    text.push('@');
                    rest = after;
                }
            }
        }
        text.push_str(rest);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_filled_and_values_are_quoted() {
        let args = ["--link".to_string(), "?preset=x&seed=1".to_string()];
        let opts = ["--time=10".to_string()];
        let script = Script {
            id: "x",
            shards: 3,
            packlab: Path::new("/opt/pack lab/packlab"),
            out: Path::new("/data/a,b/it's @OUT@"),
            sweep_args: &args,
            sbatch_opts: &opts,
            max_running: Some(2),
        };
        let text = script.text();
        assert!(text.contains("PACKLAB='/opt/pack lab/packlab'\n"), "{text}");
        assert!(text.contains(r"OUT='/data/a,b/it'\''s @OUT@'"), "a value is not filled in again: {text}");
        assert!(
            text.contains("SHARDS=3\n") && text.contains("MAX_RUNNING=2\n") && text.contains("SBATCH_OPTS=(--time=10)")
        );
        assert!(text.contains("sweep --link '?preset=x&seed=1' --shard"), "{text}");
        assert!(text.contains(r#""${arrays[@]}""#), "bash's [@] stays");
        let placeholder = |line: &str| {
            line.match_indices('@').any(|(at, _)| {
                let after = &line[at + 1..];
                let n = after.find(|c: char| !(c.is_ascii_uppercase() || c == '_')).unwrap_or(after.len());
                n > 0 && after[n..].starts_with('@')
            })
        };
        let left: Vec<&str> = text.lines().filter(|l| !l.starts_with("OUT=") && placeholder(l)).collect();
        assert!(left.is_empty(), "placeholders left: {left:?}");
        assert!(placeholder(TEMPLATE), "the check finds the template's placeholders");
    }
}
