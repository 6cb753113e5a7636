//! The sequential-thinking tool through the real client, in-process.

use mcp_runtime::serde_json::{Value, json};
use mcp_runtime::testing::{self, CallError};

#[mcp_runtime::test]
async fn thoughts_branches_and_lenient_arguments() {
    let server = mcp_server_sequential_thinking::server(false)
        .build()
        .unwrap();
    let session = testing::connect(&server).await.unwrap();
    let first = session
        .call_text(
            "sequentialthinking",
            json!({"thought": "a", "nextThoughtNeeded": true, "thoughtNumber": 1, "totalThoughts": 3}),
        )
        .await
        .unwrap();
    assert_eq!(
        first,
        "{\n  \"thoughtNumber\": 1,\n  \"totalThoughts\": 3,\n  \"nextThoughtNeeded\": true,\n  \"branches\": [],\n  \"thoughtHistoryLength\": 1\n}"
    );
    // Strings for the booleans and numbers, as the original takes them; the total grows to
    // the thought's number.
    let second: Value = session
        .call(
            "sequentialthinking",
            json!({"thought": "b", "nextThoughtNeeded": "False", "thoughtNumber": "5",
                   "totalThoughts": 3, "branchFromThought": 1, "branchId": "alt"}),
        )
        .await
        .unwrap();
    assert_eq!(
        second,
        json!({"thoughtNumber": 5, "totalThoughts": 5, "nextThoughtNeeded": false,
               "branches": ["alt"], "thoughtHistoryLength": 2})
    );
    let refused = session
        .call::<Value>(
            "sequentialthinking",
            json!({"thought": "c", "nextThoughtNeeded": "maybe", "thoughtNumber": 1, "totalThoughts": 1}),
        )
        .await
        .unwrap_err();
    assert!(matches!(refused, CallError::Tool { .. }), "{refused}");
    let third: Value = session
        .call(
            "sequentialthinking",
            json!({"thought": "d", "nextThoughtNeeded": true, "thoughtNumber": 2, "totalThoughts": 5,
                   "branchFromThought": 1, "branchId": "b2"}),
        )
        .await
        .unwrap();
    // A refused call records nothing.
    assert_eq!(third["thoughtHistoryLength"], json!(3));
    assert_eq!(third["branches"], json!(["alt", "b2"]));
}
