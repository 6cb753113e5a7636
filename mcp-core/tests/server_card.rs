//! The Server Card types against the vendored `schema.json` (`tests/schemas/server-card/`):
//! every example accepted or refused as its folder says, the valid ones read into a
//! `ServerCard` and written back unchanged, and a card using every member validated.

use std::path::PathBuf;

use mcp_runtime_core::server_card::{
    AiCatalog, CatalogEntry, Input, KeyValueInput, Remote, Repository, ServerCard,
};
use mcp_runtime_core::{Icon, Meta};
use serde_json::{Value, json};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/server-card")
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(dir().join("schema.json")).unwrap();
    let mut root: Value = serde_json::from_str(&text).unwrap();
    root["$ref"] = json!("#/$defs/ServerCard");
    jsonschema::validator_for(&root).unwrap()
}

fn examples(folder: &str) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> =
        std::fs::read_dir(dir().join("examples/ServerCard").join(folder))
            .unwrap()
            .map(|e| {
                let path = e.unwrap().path();
                let text = std::fs::read_to_string(&path).unwrap();
                (
                    path.file_name().unwrap().to_string_lossy().into_owned(),
                    serde_json::from_str(&text).unwrap(),
                )
            })
            .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn every_example_is_accepted_or_refused_as_its_folder_says() {
    let v = validator();
    let valid = examples("valid");
    let names: Vec<&str> = valid.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["minimal.json", "templated-remote.json"]);
    for (name, card) in &valid {
        let errors: Vec<String> = v.iter_errors(card).map(|e| e.to_string()).collect();
        assert_eq!(errors, Vec::<String>::new(), "{name}");
        let typed: ServerCard = serde_json::from_value(card.clone()).unwrap();
        assert_eq!(
            &serde_json::to_value(&typed).unwrap(),
            card,
            "{name} round trip"
        );
    }
    let invalid = examples("invalid");
    let names: Vec<&str> = invalid.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "bad-name-pattern.json",
            "date-versioned-schema.json",
            "missing-name.json",
            "missing-schema.json",
            "wrong-schema-name.json"
        ]
    );
    for (name, card) in &invalid {
        assert!(!v.is_valid(card), "{name} must be refused");
    }
}

#[test]
fn a_card_with_every_member_and_its_catalog_validate() {
    let mut meta = Meta::new();
    meta.insert("com.example/tier".into(), json!("free"));
    let card = ServerCard::new("com.example/weather", "1.0.0", "Forecasts by city.")
        .with_title("Weather")
        .with_icons(vec![
            Icon::new("https://example.com/icon.png").with_mime_type("image/png"),
        ])
        .with_repository(
            Repository::new("github", "https://github.com/example/weather")
                .with_subfolder("server"),
        )
        .with_website_url("https://example.com")
        .with_remotes(vec![
            Remote::streamable_http("https://example.com/mcp")
                .with_supported_protocol_versions(vec![
                    "2025-11-25".to_owned(),
                    "2026-07-28".to_owned(),
                ])
                .with_headers(vec![
                    KeyValueInput::new("Authorization")
                        .with_input(
                            Input::new()
                                .with_is_required(true)
                                .with_is_secret(true)
                                .with_value("Bearer {token}"),
                        )
                        .with_variables([("token".to_owned(), Input::new().with_is_secret(true))]),
                ]),
        ])
        .with_meta(meta);
    let value = serde_json::to_value(&card).unwrap();
    let errors: Vec<String> = validator()
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(serde_json::from_value::<ServerCard>(value).unwrap(), card);
    let catalog = AiCatalog::new(vec![CatalogEntry::data(
        "urn:air:example.com:mcp:weather",
        card,
    )]);
    let value = serde_json::to_value(&catalog).unwrap();
    assert_eq!(
        value["entries"][0]["type"],
        "application/mcp-server-card+json"
    );
    assert!(validator().is_valid(&value["entries"][0]["data"]));
}
