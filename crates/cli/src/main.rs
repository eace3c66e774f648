//! `packlab`: the command line of packlab. Parsing lives in `args`, scenario resolution in
//! `setup`, one module per subcommand, shared printing in `output`.

mod args;
mod bench;
mod bounds;
mod catalog;
mod events;
mod exercise;
mod output;
mod run;
mod setup;
mod soak;
mod stability;
mod sweep;
mod trace;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = io::stdout().lock();
    let result = dispatch(&cli.command, &mut stdout).and_then(|()| Ok(stdout.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `packlab presets | head`: the reader left; that is not a failure of ours.
        Err(e) if e.chain().any(is_broken_pipe) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(command: &Command, out: &mut dyn Write) -> anyhow::Result<()> {
    match command {
        Command::Presets(a) => match &a.describe {
            Some(id) => catalog::describe_preset(id, out),
            None => catalog::list_presets(out),
        },
        Command::Policies => catalog::list_policies(out),
        Command::Tours => catalog::list_tours(out),
        Command::Exercise(a) => exercise::command(a, out),
        Command::Run(a) => run::command(a, out),
        Command::Sweep(a) => sweep::command(a, out),
        Command::Merge(a) => sweep::merge(a, out),
        Command::Stability(a) => stability::command(a, out),
        Command::Bench(a) => bench::command(a, out),
        Command::Bounds(a) => bounds::command(a, out),
        Command::Soak(a) => soak::command(a, out),
        Command::Trace(c) => trace::command(c, out),
    }
}

fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
