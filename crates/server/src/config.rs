//! `swapboard serve --config FILE`: a TOML file whose keys are the command's long options.
//!
//! The file holds no list of its own: each key is looked up among the arguments clap
//! declares for the command, its value checked by that argument's own parser, and set as the
//! argument's default. clap then parses the command line as usual, so the command line comes
//! first, the environment (`env = "SWAPBOARD_..."`) second, the file third and the built-in
//! default last, and an option added to [`crate::ServeOptions`] is a key of the file at once.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{anyhow, bail};
use clap::builder::Resettable;
use clap::{Arg, ArgAction, Command, Id};

/// The keys a file may not set: the file itself, and clap's own flags.
const NOT_IN_FILE: [&str; 3] = ["config", "help", "version"];

/// `serve` (the command whose options are `ServeOptions`) with the values of the TOML file
/// at `path` as its options' defaults. Refuses, naming the file and the key, a file that
/// cannot be read or is not TOML, an unknown key, a section, and a value its option refuses.
pub fn with_config_file(serve: Command, path: &Path) -> anyhow::Result<Command> {
    let file = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| anyhow!("{file}: cannot read it: {e}"))?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        // Its text is a heading, an excerpt of the file, and the reason last.
        let text = e.to_string();
        let reason = text
            .lines()
            .rfind(|line| !line.trim().is_empty())
            .unwrap_or_default();
        anyhow!("{file}: not TOML: {}: {}", one_line(&text), reason.trim())
    })?;
    let mut serve = serve;
    for (key, value) in &table {
        let Some(arg) = option_named(&serve, key) else {
            let hint = option_named(&serve, &key.replace('_', "-"))
                .and_then(Arg::get_long)
                .map(|long| format!(" (did you mean `{long}`?)"))
                .unwrap_or_default();
            bail!(
                "{file}: unknown key `{key}`{hint}: the keys are the long options of \
                 `swapboard serve --help`, without their dashes"
            );
        };
        let values = texts(arg, value).map_err(|e| anyhow!("{file}: {key}: {e}"))?;
        check(arg, &values).map_err(|e| anyhow!("{file}: {key}: {e}"))?;
        let id = arg.get_id().clone();
        serve = serve.mut_arg(id, |arg| arg.default_values(values));
    }
    Ok(serve)
}

/// The option of `serve` whose long name is `key`, if the file may set it.
fn option_named<'a>(serve: &'a Command, key: &str) -> Option<&'a Arg> {
    serve
        .get_arguments()
        .filter(|arg| {
            arg.get_long()
                .is_some_and(|long| !NOT_IN_FILE.contains(&long))
        })
        .find(|arg| arg.get_long() == Some(key))
}

/// A flag: present or not, set in the file by a boolean.
fn is_flag(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::SetTrue | ArgAction::SetFalse)
}

/// The value of a key as the command line would write it: one word, or one per element of
/// an array for a repeatable option (split at the option's delimiter, as clap splits it).
fn texts(arg: &Arg, value: &toml::Value) -> anyhow::Result<Vec<String>> {
    let repeatable = matches!(arg.get_action(), ArgAction::Append);
    let word = |value: &toml::Value| match value {
        toml::Value::String(text) => Ok(text.clone()),
        toml::Value::Integer(n) => Ok(n.to_string()),
        toml::Value::Float(x) => Ok(x.to_string()),
        toml::Value::Boolean(_) if !is_flag(arg) => bail!("takes a value, not true or false"),
        toml::Value::Boolean(yes) => Ok(yes.to_string()),
        toml::Value::Datetime(_) => bail!("takes no date: write it as a string"),
        toml::Value::Array(_) => bail!("a list inside a list"),
        toml::Value::Table(_) => {
            bail!("sections are not read: every key stands at the top of the file")
        }
    };
    if is_flag(arg) && !value.is_bool() {
        bail!("is a flag: write true or false");
    }
    let words = match value {
        toml::Value::Array(items) if repeatable => items.iter().map(word).collect(),
        toml::Value::Array(_) => bail!("takes one value, not a list"),
        other => word(other).map(|text| vec![text]),
    }?;
    Ok(match arg.get_value_delimiter() {
        Some(delimiter) => words
            .iter()
            .flat_map(|word| word.split(delimiter).map(str::to_owned))
            .collect(),
        None => words,
    })
}

/// Checks each value with the option's own parser and range, as clap would on the command
/// line: a command of that one option parses `--KEY=VALUE` (a flag's boolean needs none).
fn check(arg: &Arg, values: &[String]) -> anyhow::Result<()> {
    if is_flag(arg) {
        return Ok(());
    }
    let Some(long) = arg.get_long() else {
        return Ok(());
    };
    // Alone, the option must not name the others it requires or excludes.
    let alone = arg
        .clone()
        .requires(Resettable::<Id>::Reset)
        .conflicts_with(Resettable::<Id>::Reset)
        .required(false);
    let mut words = vec![OsString::from("serve")];
    words.extend(
        values
            .iter()
            .map(|value| OsString::from(format!("--{long}={value}"))),
    );
    Command::new("serve")
        .arg(alone)
        .try_get_matches_from(words)
        .map(drop)
        .map_err(|e| {
            let text = e.to_string();
            let line = one_line(&text);
            anyhow!(
                "{}",
                line.strip_prefix("error: ").unwrap_or(line).to_owned()
            )
        })
}

/// The first line of an error's text (clap and toml add hints and excerpts below it).
fn one_line(text: &str) -> &str {
    text.lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory as _, FromArgMatches as _, Parser};

    use swapboard_testkit::TempFile;

    use super::with_config_file;
    use crate::options::ServeOptions;

    #[derive(Parser, Debug)]
    struct Serve {
        #[command(flatten)]
        serve: ServeOptions,
    }

    fn parse(file: &TempFile, args: &[&str]) -> anyhow::Result<ServeOptions> {
        let command = with_config_file(Serve::command(), file.path())?;
        let mut matches = command.try_get_matches_from(args)?;
        Ok(Serve::from_arg_matches_mut(&mut matches)?.serve)
    }

    #[test]
    fn the_command_line_comes_before_the_file_and_the_file_before_the_default() {
        let file = TempFile::new(
            "config-order",
            "toml",
            "db-connections = 7\nvacation-days = 3\nbehind-tls = true\n\
             trusted-proxy = [\"127.0.0.1\", \"10.0.0.0/8\"]\n\
             limit-signup-per-address = \"2/1d\"\nlimit-sockets = 500\n",
        );
        let options = parse(&file, &["serve", "--vacation-days", "9"]).unwrap();
        assert_eq!(options.db_connections, 7);
        assert_eq!(options.vacation_days, 9);
        assert!(options.behind_tls);
        assert_eq!(options.trusted_proxies.len(), 2);
        assert_eq!(options.limits.signup_per_address.to_string(), "2/1d");
        assert_eq!(options.limits.sockets, 500);
        // Untouched by the file: the default.
        assert_eq!(options.guest_days, 30);
        // An option given on the command line, the others it needs in the file.
        let file = TempFile::new(
            "config-mail",
            "toml",
            "mail-from = \"a@example.org\"\npublic-url = \"https://play.example.org\"\n",
        );
        let options = parse(&file, &["serve", "--smtp", "smtp://127.0.0.1"]).unwrap();
        assert_eq!(options.mail_from.as_deref(), Some("a@example.org"));
        assert_eq!(
            options.limits.connections,
            crate::limits::Limits::DEFAULT.connections
        );
    }

    #[test]
    fn unknown_keys_sections_and_bad_values_are_refused_by_name() {
        for (text, words) in [
            ("adress = \"127.0.0.1:1\"", &["unknown key `adress`"][..]),
            (
                "db_connections = 4",
                &["`db_connections`", "did you mean `db-connections`"],
            ),
            ("config = \"other.toml\"", &["unknown key `config`"]),
            ("[limits]\nsockets = 3", &["unknown key `limits`"]),
            ("[log]\nlevel = \"warn\"", &["log: sections are not read"]),
            ("db-connections = 0", &["db-connections:", "0"]),
            ("db-connections = [4]", &["db-connections: takes one value"]),
            ("addr = \"nowhere\"", &["addr:", "--addr"]),
            ("behind-tls = \"yes\"", &["behind-tls: is a flag"]),
            (
                "limit-moves-per-account = \"0/1m\"",
                &["limit-moves-per-account:", "burst"],
            ),
            (
                "limit-request-time = \"2h\"",
                &["limit-request-time:", "1s to 1h"],
            ),
            ("log = ", &["not TOML"]),
        ] {
            let file = TempFile::new("config-refused", "toml", text);
            let refused = parse(&file, &["serve"]).unwrap_err().to_string();
            let name = file.text_path();
            assert!(refused.starts_with(name), "{text}: {refused}");
            for word in words {
                assert!(refused.contains(word), "{text}: {refused}");
            }
            assert_eq!(refused.lines().count(), 1, "{refused}");
        }
        let missing = with_config_file(Serve::command(), "/nonexistent/swapboard.toml".as_ref());
        assert!(missing.unwrap_err().to_string().contains("cannot read it"));
    }
}
