//! The metrics listener's text read as a Prometheus scraper reads it.

/// The value of the first sample of `name` whose labels contain every one of `labels`.
pub fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| line.starts_with(name) && line[name.len()..].starts_with(['{', ' ']))
        .find(|line| labels.iter().all(|label| line.contains(label)))
        .and_then(|line| line.rsplit(' ').next()?.parse().ok())
}
