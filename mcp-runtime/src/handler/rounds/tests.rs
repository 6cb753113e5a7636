//! The rounds' unit tests: sealing, opening, replays.
use super::*;

fn raw(s: &str) -> Box<RawValue> {
    RawValue::from_string(s.to_owned()).unwrap()
}

#[test]
fn digest_ignores_key_order_and_mrtr_members() {
    let a = raw(r#"{"name":"t","arguments":{"x":1,"y":[1,{"b":2,"a":1}]}}"#);
    let b = raw(
        r#"{"arguments":{"y":[1,{"a":1,"b":2}],"x":1},"name":"t","requestState":"s","inputResponses":{},"_meta":{"k":1}}"#,
    );
    assert_eq!(params_digest(Some(&a)), params_digest(Some(&b)));
    let c = raw(r#"{"name":"t","arguments":{"x":2}}"#);
    assert_ne!(params_digest(Some(&a)), params_digest(Some(&c)));
}

#[test]
fn a_key_ring_opens_what_any_of_its_keys_sealed() {
    let old = StateKey([1; 32], Vec::new());
    let token = seal(
        &old,
        "tools/call",
        "d",
        BTreeMap::new(),
        Duration::from_secs(60),
    );
    let rotated = StateKey([2; 32], vec![[1; 32]]);
    assert!(
        open(&rotated, &token, "tools/call", "d").is_ok(),
        "older key of the ring"
    );
    let fresh = seal(
        &rotated,
        "tools/call",
        "d",
        BTreeMap::new(),
        Duration::from_secs(60),
    );
    assert!(open(&StateKey([2; 32], Vec::new()), &fresh, "tools/call", "d").is_ok());
    assert!(
        open(&old, &fresh, "tools/call", "d").is_err(),
        "sealed by the first key"
    );
    let other = StateKey([3; 32], vec![[4; 32]]);
    let err = open(&other, &token, "tools/call", "d").unwrap_err();
    assert!(
        err.message.contains("integrity check failed"),
        "{}",
        err.message
    );
}

#[test]
fn sealed_state_round_trips_and_rejects_tampering() {
    let key = StateKey([7; 32], Vec::new());
    let mut answers = BTreeMap::new();
    answers.insert(
        "elicit-0".to_owned(),
        raw(r#"{"action":"accept","content":{"name":"Ada"}}"#),
    );
    let token = seal(&key, "tools/call", "d1", answers, Duration::from_secs(60));
    let opened = open(&key, &token, "tools/call", "d1").unwrap();
    assert_eq!(
        opened["elicit-0"].get(),
        r#"{"action":"accept","content":{"name":"Ada"}}"#
    );

    assert!(
        open(&key, &token, "prompts/get", "d1").is_err(),
        "other method"
    );
    assert!(
        open(&key, &token, "tools/call", "d2").is_err(),
        "other params"
    );
    assert!(
        open(&StateKey([8; 32], Vec::new()), &token, "tools/call", "d1").is_err(),
        "other key"
    );
    let (body, tag) = token.split_once('.').unwrap();
    let mut bytes = URL_SAFE_NO_PAD.decode(body).unwrap();
    let i = bytes.iter().position(|b| *b == b'A').unwrap();
    bytes[i] = b'B';
    let forged = format!("{}.{tag}", URL_SAFE_NO_PAD.encode(bytes));
    let err = open(&key, &forged, "tools/call", "d1").unwrap_err();
    assert_eq!(err.code, -32602);
    assert!(open(&key, "garbage", "tools/call", "d1").is_err());
    assert!(open(&key, "a.b.c", "tools/call", "d1").is_err());
}

#[test]
fn expired_state_is_rejected() {
    let key = StateKey([1; 32], Vec::new());
    let payload = Payload {
        m: "tools/call".into(),
        d: "d".into(),
        x: 1,
        a: BTreeMap::new(),
        n: "n".into(),
        h: None,
    };
    let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&payload).unwrap());
    let mut mac = HmacSha256::new_from_slice(&key.0).unwrap();
    mac.update(body.as_bytes());
    let token = format!(
        "{body}.{}",
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    );
    assert!(
        open(&key, &token, "tools/call", "d")
            .unwrap_err()
            .message
            .contains("expired")
    );
}

#[test]
fn a_state_opens_once_and_answers_need_their_state() {
    let key = StateKey([5; 32], Vec::new());
    let digest = params_digest(Some(&raw(r#"{"name":"t"}"#)));
    let token = seal(
        &key,
        "tools/call",
        &digest,
        BTreeMap::new(),
        Duration::from_secs(60),
    );
    assert!(open(&key, &token, "tools/call", &digest).is_ok());
    let again = open(&key, &token, "tools/call", &digest).unwrap_err();
    assert_eq!(
        (again.code, again.message.as_str()),
        (-32602, "invalid requestState: it was used already")
    );
    let unasked = raw(r#"{"name":"t","inputResponses":{"elicit-0":{"action":"decline"}}}"#);
    let err = Round::from_request(&key, "tools/call", Some(&unasked), "").unwrap_err();
    assert_eq!(
        (err.code, err.message.as_str()),
        (
            -32602,
            "`inputResponses` without the `requestState` of the round that asked for them"
        )
    );
}

#[test]
fn round_keys_and_answers() {
    let key = StateKey([2; 32], Vec::new());
    let state = seal(
        &key,
        "tools/call",
        &params_digest(Some(&raw(r#"{"name":"t"}"#))),
        BTreeMap::new(),
        Duration::from_secs(60),
    );
    let params = raw(&format!(
        r#"{{"name":"t","requestState":"{state}","inputResponses":{{"elicit-0":{{"action":"decline"}},"junk":1}}}}"#
    ));
    let round = Round::from_request(&key, "tools/call", Some(&params), "").unwrap();
    assert_eq!(round.key(Kind::Elicit, None), "elicit-0");
    assert_eq!(round.key(Kind::Elicit, None), "elicit-1");
    assert_eq!(round.key(Kind::Roots, None), "roots-0");
    assert_eq!(round.key(Kind::Sample, Some("mine".into())), "mine");
    assert!(round.answer("elicit-0").is_some());
    assert!(round.answer("elicit-1").is_none());
    round.ask("elicit-1".into(), InputRequest::list_roots());
    let (missing, used) = round.finish();
    assert_eq!(missing.keys().collect::<Vec<_>>(), ["elicit-1"]);
    assert_eq!(used.keys().collect::<Vec<_>>(), ["elicit-0"]);

    let bad = raw(r#"{"name":"t","requestState":"x.y","inputResponses":[1]}"#);
    assert_eq!(
        Round::from_request(&key, "tools/call", Some(&bad), "")
            .unwrap_err()
            .code,
        -32602
    );
    let forged = raw(r#"{"name":"t","requestState":"x.y"}"#);
    assert_eq!(
        Round::from_request(&key, "tools/call", Some(&forged), "")
            .unwrap_err()
            .code,
        -32602
    );
}

#[test]
fn a_held_state_opens_only_on_the_replica_holding_its_call_and_is_not_used_elsewhere() {
    let key = StateKey([9; 32], Vec::new());
    let (token, claim) = seal_held(
        &key,
        "tools/call",
        "d",
        BTreeMap::new(),
        Duration::from_secs(60),
        Some("a"),
    );
    let err = open_claimed(&key, &token, "tools/call", "d", "b").unwrap_err();
    assert_eq!(
        err.message,
        "invalid requestState: the call it continues is held open on replica 'a', not on this one"
    );
    assert_eq!(
        err.data,
        Some(serde_json::json!({"reason": "held_on_another_replica", "replica": "a"}))
    );
    // Refused before it was used: its holder still opens it, once.
    let (_, opened) = open_claimed(&key, &token, "tools/call", "d", "a").unwrap();
    assert!(opened.held);
    assert_eq!(opened, claim);
    let again = open_claimed(&key, &token, "tools/call", "d", "a").unwrap_err();
    assert_eq!(again.message, "invalid requestState: it was used already");
}
