//! Every diagram of the rules says something about its position; this checks each claim
//! through the engines ([`Claim::check`]), so a picture that tells something the rules do not
//! fails here.

use swapboard_core::{Outcome, Player, Rule};
use swapboard_play::rules::{self, Board, Claim, Diagram, HexRound, Source};
use swapboard_swap61::DEFAULT_VARIATIONS;

/// Every claim of every diagram of every game holds, every diagram draws, and every rule
/// section of the board games shows at least one diagram.
#[test]
fn every_diagram_claims_what_the_engine_says() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for game in rules::ALL {
        for diagram in game.diagrams() {
            assert!(
                !diagram.claims.is_empty(),
                "{}: {}",
                game.id(),
                diagram.caption
            );
            for claim in diagram.claims {
                checked += 1;
                if let Err(e) = claim.check(&diagram.board) {
                    failures.push(format!(
                        "{}: {:?}: {claim:?}: {e}",
                        game.id(),
                        diagram.caption
                    ));
                }
            }
            assert!(diagram.svg().starts_with("<svg"), "{}", diagram.caption);
            assert!(
                diagram
                    .text()
                    .contains(diagram.caption.split_whitespace().next().unwrap())
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 50, "{checked} claims");
}

/// A claim the engine contradicts is caught: the checks above can fail.
#[test]
fn a_wrong_claim_is_caught() {
    const CROSSCUT: &str = "swaptimum ...R./...B./.B.../.RB../....R R";
    let board = Board::Square(CROSSCUT);
    let wrong = [
        Claim::Refused {
            mv: "c3",
            rule: Rule::PlacementRestriction,
        },
        Claim::Plays {
            mv: "c3",
            after: None,
        },
        Claim::Plays {
            mv: "a1",
            after: Some(CROSSCUT),
        },
        Claim::Result(Some(Outcome::Draw)),
        Claim::MoveCount(3),
        Claim::Moves(&["pass"]),
        Claim::Note("Red networks (1), largest first: 1"),
        Claim::Scores(&[1]),
        Claim::Ends {
            mv: "c3:b3-c3",
            result: Some(Outcome::Win(Player::First)),
        },
        Claim::Ends {
            mv: "c3",
            result: None,
        },
        Claim::Says {
            mv: "c3",
            words: "words no refusal says",
        },
        Claim::Says {
            mv: "a1",
            words: "",
        },
    ];
    for claim in &wrong {
        assert!(claim.check(&board).is_err(), "{claim:?} passed");
    }
    let right = Claim::Refused {
        mv: "c3",
        rule: Rule::SwapRequired,
    };
    assert_eq!(right.check(&board), Ok(()));
    let goes_on = Claim::Ends {
        mv: "c3:b3-c3",
        result: None,
    };
    assert_eq!(goes_on.check(&board), Ok(()));
}

/// Every board game covers the topics of issue 25: a diagram of each rule it names.
#[test]
fn each_game_shows_its_rules() {
    let refused = |id: &str| -> Vec<Rule> {
        rules::of(id)
            .unwrap()
            .diagrams()
            .flat_map(|d: &Diagram| d.claims.iter())
            .filter_map(|c| match c {
                Claim::Refused { rule, .. } => Some(*rule),
                _ => None,
            })
            .collect()
    };
    assert!(refused("swaptimum").contains(&Rule::PlacementRestriction));
    assert!(refused("flipstop").contains(&Rule::PlacementRestriction));
    for rule in [
        Rule::DiagonalRestriction,
        Rule::GroupGrownTwice,
        Rule::NotAGrowth,
        Rule::BalancingMove,
    ] {
        assert!(refused("scware").contains(&rule), "{rule}");
    }
    for rule in [
        Rule::NotTerminal,
        Rule::NetworksNotAdjacent,
        Rule::BlockFormed,
        Rule::TooFewNeighbours,
    ] {
        assert!(refused("rapid-transit").contains(&rule), "{rule}");
    }
    for id in ["swaptimum", "flipstop", "scware", "rapid-transit"] {
        let wins = rules::of(id)
            .unwrap()
            .diagrams()
            .flat_map(|d| d.claims.iter())
            .any(|c| matches!(c, Claim::Result(Some(Outcome::Win(_)))));
        assert!(wins, "{id} shows no win");
    }
    let skipped = |id: &str| {
        rules::of(id)
            .unwrap()
            .diagrams()
            .flat_map(|d| d.claims.iter())
            .any(|c| matches!(c, Claim::Moves(m) if m == &["pass"]))
    };
    for id in ["swaptimum", "flipstop", "rapid-transit"] {
        assert!(skipped(id), "{id} shows no skipped turn");
    }
    // Swap 61 plays the pregame and each round up to the last variation the sheet describes,
    // each with the sheet's variation for it.
    let hex_rounds: Vec<&HexRound> = rules::of("swap61")
        .unwrap()
        .diagrams()
        .filter_map(|d| match &d.board {
            Board::Hex(round) => Some(round),
            Board::Square(_) => None,
        })
        .collect();
    for (number, variation) in DEFAULT_VARIATIONS.iter().enumerate().take(5) {
        let shown = hex_rounds
            .iter()
            .any(|r| r.round == number && r.variation == *variation);
        assert!(shown, "Swap 61's round {number} has no picture");
    }
}

/// No section of any game's rules is told in words alone.
#[test]
fn every_section_has_a_picture() {
    for game in rules::ALL {
        for section in game.sections {
            assert!(
                !section.diagrams.is_empty(),
                "{}: {}",
                game.id(),
                section.heading
            );
        }
    }
}

/// The terminal text holds the credit, every heading and every caption.
#[test]
fn the_text_holds_credit_headings_and_captions() {
    for game in rules::ALL {
        let text = game.text();
        assert!(text.contains(game.author()), "{}", game.id());
        for section in game.sections {
            assert!(text.contains(section.heading), "{}", section.heading);
        }
    }
    // Phil Leduc's terms, word for word where they bind: "for now", the reserved rights, and
    // the contact his sheet gives.
    let rapid = rules::of("rapid-transit").unwrap().text();
    let rapid = rapid.split_whitespace().collect::<Vec<_>>().join(" ");
    for words in [
        "Copyright (c) 2022 and 2024, Phil Leduc",
        "for now these game rules may be duplicated",
        "All rights are reserved",
        "philleduc.pled@gmail.com",
    ] {
        assert!(rapid.contains(words), "{words}: {rapid}");
    }
    let steere = rules::of("swaptimum").unwrap().text();
    assert!(steere.contains("Mark Steere (2023)") && steere.contains("unchanged"));
}

/// Each page keeps the sheet's rules, swapboard's readings and its choices apart, in that
/// order, and every board game names where its author can be found.
#[test]
fn sheet_readings_and_choices_stand_apart() {
    for game in rules::ALL {
        let sources: Vec<Source> = game.sections.iter().map(|s| s.source).collect();
        let rank = |s: &Source| match s {
            Source::Sheet => 0,
            Source::Reading => 1,
            Source::Choice => 2,
        };
        assert!(
            sources.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])),
            "{}: {sources:?}",
            game.id()
        );
        assert_eq!(sources.first(), Some(&Source::Sheet), "{}", game.id());
        assert!(
            sources.iter().any(|s| *s != Source::Sheet),
            "{}: no reading or choice is told apart",
            game.id()
        );
        if game.id() != "swap61" {
            assert!(
                !game.links.is_empty(),
                "{}: no link to its author",
                game.id()
            );
        }
        let text = game.text();
        for section in game.sections {
            assert!(text.contains(section.source.label()), "{}", section.heading);
            for quote in section.sheet {
                let first = quote
                    .split_whitespace()
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(text.contains(&first), "{}: {quote}", section.heading);
            }
        }
    }
    // The words that were wrong before stay gone.
    let rapid = rules::of("rapid-transit").unwrap().text();
    assert!(!rapid.contains("Only terminal pieces may be moved"));
    let swap61 = rules::of("swap61").unwrap().text();
    assert!(!swap61.contains("Round 5 has no variation"));
}

/// A picture of bids never lists them as swaps: the round's text says which edges were bid
/// on and which swapped.
#[test]
fn swap61_pictures_tell_bids_from_swaps() {
    let swap61 = rules::of("swap61").unwrap();
    for diagram in swap61.diagrams() {
        let Board::Hex(round) = &diagram.board else {
            continue;
        };
        let text = diagram.text();
        if round.after {
            assert!(!text.contains("bid on this round"), "{text}");
            let svg = diagram.svg();
            assert!(!svg.contains("bid on this round"), "{}", diagram.caption);
        } else if !round.bids.is_empty() {
            assert!(text.contains("bid on this round"), "{text}");
            assert!(!text.contains("swapped this round"), "{text}");
            let svg = diagram.svg();
            assert!(svg.contains("bid on this round") && !svg.contains("swapped last round"));
        }
    }
}

/// A diagram of a move shows it before and after; a refused move is drawn unlike an
/// allowed one.
#[test]
fn moves_are_shown_before_and_after_and_refusals_apart() {
    let mut pairs = 0;
    for game in rules::ALL {
        for diagram in game.diagrams() {
            let pictures = diagram.pictures();
            let plays = diagram.claims.iter().any(
                |c| matches!(c, Claim::Plays { mv, .. } | Claim::Ends { mv, .. } if *mv != "pass"),
            );
            if plays {
                pairs += 1;
                assert_eq!(pictures.len(), 2, "{}", diagram.caption);
                assert_eq!(pictures[0].0, "before");
                assert!(pictures[1].0.starts_with("after "), "{}", pictures[1].0);
            } else {
                assert_eq!(pictures.len(), 1, "{}", diagram.caption);
            }
            let refused = diagram
                .claims
                .iter()
                .any(|c| matches!(c, Claim::Refused { .. }));
            if refused && !diagram.marked.is_empty() {
                // The dashed frame of a refused move, never the green frame of an allowed one.
                assert!(
                    pictures[0].1.contains("stroke-dasharray"),
                    "{}",
                    diagram.caption
                );
                assert!(!pictures[0].1.contains("#2ca02c\" stroke-width=\"3\""));
            }
        }
    }
    assert!(pairs >= 10, "{pairs} moves shown");
}
