//! `gift-server diff OLD.json` against the real binary: a saved `list --json`, edited to stand
//! for an older release, compared with the lists the binary has now.

use serde_json::{Value, json};

mod common;

use common::{Scratch, run};

fn tool<'a>(lists: &'a mut Value, name: &str) -> &'a mut Value {
    lists["tools/list"]["tools"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| t["name"] == name)
        .unwrap()
}

#[test]
fn the_lists_saved_now_have_no_changes() {
    let (code, listing, stderr) = run(&["list", "--json"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let eras: Value = serde_json::from_str(&listing).unwrap();
    let revisions: Vec<&String> = eras.as_object().unwrap().keys().collect();
    assert_eq!(revisions, ["2025-11-25", "2026-07-28"]);
    let scratch = Scratch::new("diff", "now");
    let path = scratch.file("now.json", &listing);
    assert_eq!(
        run(&["diff", &path]),
        (0, "no changes\n".into(), String::new())
    );
    // `list` (one revision) is a saved file too.
    let (_, plain, _) = run(&["list"]);
    let path = scratch.file("plain.json", &plain);
    assert_eq!(
        run(&["diff", &path]),
        (0, "no changes\n".into(), String::new())
    );
}

#[test]
fn an_older_release_is_reported_and_a_breaking_change_exits_seven() {
    let (_, listing, _) = run(&["list", "--json"]);
    let mut eras: Value = serde_json::from_str(&listing).unwrap();
    for lists in eras.as_object_mut().unwrap().values_mut() {
        // The old release: `budget` was optional, `occasion` took one more value, there was
        // no `recipient`, and a tool that is gone now.
        let suggest = tool(lists, "suggest_gifts");
        let schema = &mut suggest["inputSchema"];
        schema["required"] = json!(["occasion"]);
        schema["properties"]["occasion"]["enum"]
            .as_array_mut()
            .unwrap()
            .push(json!("retirement"));
        schema["properties"]
            .as_object_mut()
            .unwrap()
            .remove("recipient");
        lists["tools/list"]["tools"].as_array_mut().unwrap().push(
            json!({"name": "wrap_gift", "inputSchema": {"type": "object", "properties": {}}}),
        );
    }
    let scratch = Scratch::new("diff", "older");
    let path = scratch.file("old.json", &serde_json::to_string_pretty(&eras).unwrap());
    let (code, stdout, stderr) = run(&["diff", &path]);
    assert_eq!(
        stdout,
        "tool suggest_gifts: argument \"budget\": now required (breaking)\n\
         tool suggest_gifts: argument \"occasion\": enum value \"retirement\" removed (breaking)\n\
         tool suggest_gifts: argument \"recipient\": added, optional (compatible)\n\
         tool wrap_gift: removed (breaking)\n\
         3 breaking changes, 1 compatible change\n"
    );
    assert_eq!(
        (code, stderr),
        (7, format!("gift-server: 3 breaking changes since {path}\n"))
    );

    // Only the compatible change: exit 0.
    for lists in eras.as_object_mut().unwrap().values_mut() {
        let suggest = tool(lists, "suggest_gifts");
        suggest["inputSchema"]["required"] = json!(["occasion", "budget"]);
        suggest["inputSchema"]["properties"]["occasion"]["enum"]
            .as_array_mut()
            .unwrap()
            .pop();
        let tools = lists["tools/list"]["tools"].as_array_mut().unwrap();
        tools.retain(|t| t["name"] != "wrap_gift");
    }
    let path = scratch.file("compatible.json", &eras.to_string());
    assert_eq!(
        run(&["diff", &path]),
        (
            0,
            "tool suggest_gifts: argument \"recipient\": added, optional (compatible)\n\
             0 breaking changes, 1 compatible change\n"
                .into(),
            String::new()
        )
    );
}

#[test]
fn a_file_that_is_not_saved_lists_exits_one() {
    let scratch = Scratch::new("diff", "not-lists");
    let missing = scratch.path("no-such-file.json");
    let (code, stdout, stderr) = run(&["diff", &missing]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.starts_with(&format!("gift-server: cannot read {missing}: ")),
        "{stderr}"
    );
    let path = scratch.file("other.json", r#"{"name": "not lists"}"#);
    assert_eq!(
        run(&["diff", &path]),
        (
            1,
            String::new(),
            format!(
                "gift-server: {path}: `name` is not a revision: not the output of `list` or `list --json`\n"
            )
        )
    );
    let path = scratch.file("truncated.json", r#"{"tools/list": {"tools": []}}"#);
    assert_eq!(
        run(&["diff", &path]),
        (
            1,
            String::new(),
            format!(
                "gift-server: {path}: the saved lists have no `resources/list` with `resources`\n"
            )
        )
    );
    assert_eq!(
        run(&["diff"]),
        (
            2,
            String::new(),
            "gift-server: missing the saved lists OLD.json; usage: gift-server diff OLD.json\n"
                .into()
        )
    );
}
