use super::*;

#[test]
fn every_row_parses_back_and_names_are_unique() {
    let mut names = std::collections::HashSet::new();
    for m in Method::all() {
        let name = m.name().unwrap();
        assert!(names.insert(name), "{name} twice");
        assert_eq!(Method::parse(name), m);
    }
    assert_eq!(names.len(), TABLE.len());
    for (i, row) in TABLE.iter().enumerate() {
        assert_eq!(row.1 as usize, i, "{} out of order", row.0);
    }
    assert_eq!(Method::Unknown as usize, TABLE.len());
    assert_eq!(Method::parse(""), Method::Unknown);
    assert_eq!(Method::parse("tasks/other"), Method::Unknown);
}

#[test]
fn directions() {
    let client_requests: Vec<_> = Method::all()
        .filter(|m| Method::client_request(m.name().unwrap()) == *m)
        .collect();
    assert_eq!(client_requests.len(), 23);
    assert!(client_requests.iter().all(|m| m.is_request()));
    assert_eq!(Method::client_request("ping"), Method::Ping);
    assert_eq!(Method::server_request("ping"), Method::Ping);
    assert_eq!(Method::server_request("tasks/get"), Method::TaskGet);
    assert_eq!(
        Method::client_request("elicitation/create"),
        Method::Unknown
    );
    assert_eq!(
        Method::client_notification("notifications/roots/list_changed"),
        Method::RootsListChanged
    );
    assert_eq!(
        Method::server_notification("notifications/progress"),
        Method::Progress
    );
    assert_eq!(
        Method::client_request("notifications/progress"),
        Method::Unknown
    );
    assert_eq!(Method::client_notification("tools/call"), Method::Unknown);
}

#[test]
fn era_rules_and_targets() {
    assert!(Method::TaskResult.handshake_only() && Method::TaskResult.is_task());
    assert!(!Method::TaskUpdate.handshake_only());
    assert_eq!(Method::TaskList.target(), None);
    assert_eq!(Method::GetPrompt.mirrored_target(), Some(Target::Name));
    assert_eq!(Method::Unsubscribe.mirrored_target(), None);
    assert_eq!(Target::TaskId.member(), "taskId");
}
