//! The rules of the five games over HTTP: `GET /api/rules` and `GET /api/rules/{game}`, for
//! anyone, each diagram the engine's SVG with its caption, as the play crate words them.

use swapboard_testkit::{Client, TestDb, each_database, generous, start};

async fn rules(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);

    let list = client.get("/api/rules", &[]).await;
    assert_eq!(list.status, 200, "{}", list.text);
    let games = list.json["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        ["swaptimum", "flipstop", "scware", "rapid-transit", "swap61"]
    );
    assert_eq!(games[3]["author"], "Phil Leduc");
    assert_eq!(games[3]["year"], "2022/2024");
    assert_eq!(games[3]["board"], true);
    assert_eq!(games[4]["board"], false);
    for game in games {
        assert!(
            game["picture"].as_str().unwrap().starts_with("<svg"),
            "{game}"
        );
        assert!(!game["summary"].as_str().unwrap().is_empty(), "{game}");
    }

    for rules in swapboard_play::rules::ALL {
        let page = client.get(&format!("/api/rules/{}", rules.id()), &[]).await;
        assert_eq!(page.status, 200, "{}", page.text);
        assert_eq!(page.json["name"], rules.name());
        assert_eq!(page.json["author"], rules.author());
        let sections = page.json["sections"].as_array().unwrap();
        assert_eq!(sections.len(), rules.sections.len());
        let diagrams: Vec<_> = sections
            .iter()
            .flat_map(|s| s["diagrams"].as_array().unwrap())
            .collect();
        assert_eq!(diagrams.len(), rules.diagrams().count(), "{}", rules.id());
        for (served, diagram) in diagrams.iter().zip(rules.diagrams()) {
            assert_eq!(served["caption"], diagram.caption);
            assert_eq!(served["svg"], diagram.svg());
            let pictures = served["pictures"].as_array().unwrap();
            assert_eq!(
                pictures.len(),
                diagram.pictures().len(),
                "{}",
                diagram.caption
            );
            assert_eq!(
                served["notes"].as_array().unwrap().len(),
                diagram.notes().len()
            );
        }
        for (served, section) in sections.iter().zip(rules.sections) {
            assert_eq!(served["source"], section.source.as_str());
            assert_eq!(
                served["sheet"].as_array().unwrap().len(),
                section.sheet.len()
            );
        }
        assert_eq!(
            page.json["links"].as_array().unwrap().len(),
            rules.links.len()
        );
    }
    let rapid = client.get("/api/rules/rapid-transit", &[]).await;
    let credit = rapid.json["credit"].to_string();
    assert!(credit.contains("All rights are reserved"), "{credit}");
    assert_eq!(
        rapid.json["links"][0]["href"],
        "mailto:philleduc.pled@gmail.com"
    );

    let missing = client.get("/api/rules/chess", &[]).await;
    missing.assert_error(404, "not_found");
    assert!(
        missing.message().contains("swap61"),
        "{}",
        missing.message()
    );

    // Both routes are in the OpenAPI document.
    let doc = client.get("/api/openapi.json", &[]).await.json;
    assert!(doc["paths"]["/api/rules"]["get"].is_object());
    assert!(doc["paths"]["/api/rules/{game}"]["get"].is_object());
    db
}

each_database!(
    the_rules_of_every_game_are_served_with_the_engines_pictures,
    rules
);
