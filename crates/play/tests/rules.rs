//! Every diagram of the rules says something about its position; this checks each claim
//! through the engines (the board games' `play_text`, legal moves, outcome and view; the
//! Swap 61 crate's neighbours, submission check, resolution and scores), so a picture that
//! tells something the rules do not fails here.

use swapboard_core::{MoveError, Outcome, Rule};
use swapboard_play::AnyPosition;
use swapboard_play::rules::{self, Board, Claim, Diagram, HexRound};
use swapboard_swap61::DEFAULT_VARIATIONS;

/// Checks one claim of a diagram; the error says what the engine found instead.
fn check(board: &Board, claim: &Claim) -> Result<(), String> {
    match board {
        Board::Square(text) => check_square(text, claim),
        Board::Hex(round) => check_hex(round, claim),
    }
}

fn check_square(text: &str, claim: &Claim) -> Result<(), String> {
    let position: AnyPosition = text.parse().map_err(|e| format!("refused: {e}"))?;
    match *claim {
        Claim::Plays { mv, after } => {
            let mut played = position.clone();
            played
                .play_text(mv)
                .map_err(|e| format!("{mv} is not legal: {e}"))?;
            match after {
                Some(expected) if played.to_string() != expected => {
                    Err(format!("{mv} leads to {played}, not {expected}"))
                }
                _ => Ok(()),
            }
        }
        Claim::Refused { mv, rule } => match position.clone().play_text(mv) {
            Err(MoveError::Illegal { reason, .. }) if reason.rule == rule => Ok(()),
            Err(e) => Err(format!("{mv} is refused otherwise than under {rule}: {e}")),
            Ok(_) => Err(format!("{mv} is legal")),
        },
        Claim::Moves(expected) => {
            let mut moves = position.legal_moves(10_000).ok_or("too many moves")?;
            let mut expected: Vec<String> = expected.iter().map(|m| m.to_string()).collect();
            moves.sort();
            expected.sort();
            (moves == expected)
                .then_some(())
                .ok_or(format!("the legal moves are {moves:?}"))
        }
        Claim::MoveCount(count) => {
            let moves = position.legal_moves(10_000).ok_or("too many moves")?;
            (moves.len() == count)
                .then_some(())
                .ok_or(format!("{} legal moves: {moves:?}", moves.len()))
        }
        Claim::Result(expected) => (position.outcome() == expected)
            .then_some(())
            .ok_or(format!("the outcome is {:?}", position.outcome())),
        Claim::Marks { mark, cells } => {
            let view = position.view();
            let mut found: Vec<String> = view
                .marks
                .iter()
                .filter(|&&(_, m)| m == mark)
                .map(|(c, _)| c.to_string())
                .collect();
            let mut expected: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
            found.sort();
            expected.sort();
            (found == expected)
                .then_some(())
                .ok_or(format!("{mark:?} marks {found:?}"))
        }
        Claim::Note(line) => {
            let notes = position.view().notes;
            notes
                .iter()
                .any(|n| n == line)
                .then_some(())
                .ok_or(format!("the notes are {notes:?}"))
        }
        _ => Err(format!("{claim:?} is a claim about a Swap 61 grid")),
    }
}

fn check_hex(round: &HexRound, claim: &Claim) -> Result<(), String> {
    swapboard_swap61::Board::parse(round.grid, round.seats).map_err(|e| e.to_string())?;
    match *claim {
        Claim::Touching { a, b, touching } => {
            let tile = |name: &str| swapboard_swap61::parse_tile(name).ok_or(format!("{name}?"));
            let found = swapboard_swap61::are_neighbours(tile(a)?, tile(b)?);
            (found == touching)
                .then_some(())
                .ok_or(format!("{a} and {b} touching: {found}"))
        }
        Claim::Rejects { seat, line, reason } => {
            let outcome = round.play();
            let found = outcome
                .rejections
                .iter()
                .find(|(s, r)| s.number() == seat && r.line == line)
                .map(|(_, r)| r.reason.to_string());
            (found.as_deref() == Some(reason))
                .then_some(())
                .ok_or(format!("seat {seat} line {line}: {found:?}"))
        }
        Claim::Resolves(lines) => {
            let found: Vec<String> = round
                .play()
                .resolution
                .edges
                .iter()
                .map(ToString::to_string)
                .collect();
            (found == lines)
                .then_some(())
                .ok_or(format!("resolved as {found:?}"))
        }
        Claim::Scores(expected) => {
            let found = round.play().scores;
            (found.as_deref() == Some(expected))
                .then_some(())
                .ok_or(format!("scores {found:?}"))
        }
        _ => Err(format!("{claim:?} is a claim about a square board")),
    }
}

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
                if let Err(e) = check(&diagram.board, claim) {
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
    ];
    for claim in &wrong {
        assert!(check(&board, claim).is_err(), "{claim:?} passed");
    }
    let right = Claim::Refused {
        mv: "c3",
        rule: Rule::SwapRequired,
    };
    assert_eq!(check(&board, &right), Ok(()));
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
    let rapid = rules::of("rapid-transit").unwrap().text();
    assert!(rapid.contains("contact him for permission"), "{rapid}");
    let steere = rules::of("swaptimum").unwrap().text();
    assert!(steere.contains("Mark Steere (2023)") && steere.contains("unchanged"));
}
