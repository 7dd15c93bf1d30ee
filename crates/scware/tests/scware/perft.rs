//! The perft data file.

use std::path::Path;

use swapboard_conformance::{check_perft_file, perft_budget};
use swapboard_scware::Scware;

#[test]
fn perft_counts_match_the_data_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scware.perft");
    let checked = check_perft_file::<Scware>(&path, perft_budget());
    assert!(checked >= 20, "only {checked} counts checked");
}
