//! Requests built from arguments: each style, body encoding and credential, byte for byte.

use mcp_runtime_openapi::{Api, BuildError, Credential, HttpRequest, Options};
use serde_json::{Value, json};

fn request(params: Value, body: Option<Value>, args: Value) -> Result<HttpRequest, BuildError> {
    let mut op = json!({"operationId": "op", "parameters": params});
    if let Some(b) = body {
        op["requestBody"] = b;
    }
    let doc = json!({"openapi": "3.1.0", "paths": {"/r/{p}": {"post": op}}});
    let api = Api::from_value(&doc, &Options::new()).unwrap();
    api.tools[0].plan.build(&args, "http://h/base/", &|_| None)
}

fn path_param(style: &str, explode: bool) -> Value {
    json!([{"name": "p", "in": "path", "required": true, "style": style, "explode": explode}])
}

fn url(params: Value, args: Value) -> String {
    request(params, None, args).unwrap().url
}

#[test]
fn path_styles_and_escaping() {
    let simple = path_param("simple", false);
    assert_eq!(
        url(simple.clone(), json!({"p": "a/b c?é"})),
        "http://h/base/r/a%2Fb%20c%3F%C3%A9"
    );
    assert_eq!(url(simple.clone(), json!({"p": 5})), "http://h/base/r/5");
    assert_eq!(
        url(simple.clone(), json!({"p": [1, 2]})),
        "http://h/base/r/1,2"
    );
    assert_eq!(
        url(simple, json!({"p": {"a": 1, "b": "x"}})),
        "http://h/base/r/a,1,b,x"
    );
    assert_eq!(
        url(path_param("simple", true), json!({"p": {"a": 1, "b": "x"}})),
        "http://h/base/r/a=1,b=x"
    );
    assert_eq!(
        url(path_param("label", false), json!({"p": [1, 2]})),
        "http://h/base/r/.1,2"
    );
    assert_eq!(
        url(path_param("label", true), json!({"p": [1, 2]})),
        "http://h/base/r/.1.2"
    );
    assert_eq!(
        url(path_param("matrix", false), json!({"p": [1, 2]})),
        "http://h/base/r/;p=1,2"
    );
    assert_eq!(
        url(path_param("matrix", true), json!({"p": [1, 2]})),
        "http://h/base/r/;p=1;p=2"
    );
    assert_eq!(
        url(path_param("matrix", true), json!({"p": {"a": 1}})),
        "http://h/base/r/;a=1"
    );
}

fn query(style: &str, explode: bool, value: Value) -> String {
    let params = json!([{"name": "p", "in": "path", "required": true},
        {"name": "q v", "in": "query", "style": style, "explode": explode}]);
    url(params, json!({"p": "x", "q v": value}))
        .trim_start_matches("http://h/base/r/x")
        .to_owned()
}

#[test]
fn query_styles() {
    assert_eq!(
        query("form", true, json!(["a", "b,c"])),
        "?q%20v=a&q%20v=b%2Cc"
    );
    assert_eq!(query("form", false, json!(["a", "b"])), "?q%20v=a,b");
    assert_eq!(
        query("form", true, json!({"x": 1, "y": true})),
        "?x=1&y=true"
    );
    assert_eq!(
        query("form", false, json!({"x": 1, "y": true})),
        "?q%20v=x,1,y,true"
    );
    assert_eq!(
        query("spaceDelimited", false, json!([1, 2, 3])),
        "?q%20v=1%202%203"
    );
    assert_eq!(
        query("pipeDelimited", false, json!([1, 2, 3])),
        "?q%20v=1%7C2%7C3"
    );
    assert_eq!(
        query("pipeDelimited", true, json!([1, 2])),
        "?q%20v=1&q%20v=2"
    );
    assert_eq!(
        query("deepObject", true, json!({"a": 1, "b": {"c": "d e"}})),
        "?q%20v%5Ba%5D=1&q%20v%5Bb%5D%5Bc%5D=d%20e"
    );
    assert_eq!(query("form", true, json!(null)), "");
}

#[test]
fn headers_cookies_and_missing_arguments() {
    let params = json!([{"name": "p", "in": "path", "required": true},
        {"name": "X-Ids", "in": "header"}, {"name": "a", "in": "cookie"}, {"name": "b", "in": "cookie"}]);
    let r = request(
        params.clone(),
        None,
        json!({"p": 1, "X-Ids": [1, 2], "a": "x y", "b": 2}),
    )
    .unwrap();
    assert_eq!(
        r.headers,
        [
            ("X-Ids".to_owned(), "1,2".to_owned()),
            ("Cookie".to_owned(), "a=x%20y; b=2".to_owned())
        ]
    );
    assert_eq!(
        request(params.clone(), None, json!({})),
        Err(BuildError::Missing {
            argument: "p".into()
        })
    );
    assert_eq!(
        request(params.clone(), None, json!([1])),
        Err(BuildError::NotObject)
    );
    assert!(matches!(
        request(params, None, json!({"p": 1, "X-Ids": "a\nb"})),
        Err(BuildError::Invalid { .. })
    ));
}

#[test]
fn json_and_form_bodies() {
    let p = json!([{"name": "p", "in": "path", "required": true}]);
    let object = json!({"required": true, "content": {"application/json": {"schema": {"type": "object",
        "properties": {"name": {"type": "string"}, "tags": {"type": "array"}}}}}});
    let r = request(
        p.clone(),
        Some(object.clone()),
        json!({"p": 1, "name": "Rex", "tags": ["a"]}),
    )
    .unwrap();
    assert_eq!(
        r.headers,
        [("Content-Type".to_owned(), "application/json".to_owned())]
    );
    assert_eq!(
        String::from_utf8(r.body.unwrap()).unwrap(),
        r#"{"name":"Rex","tags":["a"]}"#
    );
    let empty = request(p.clone(), Some(object), json!({"p": 1})).unwrap();
    assert_eq!(empty.body.as_deref(), Some(&b"{}"[..]));
    let whole =
        json!({"required": true, "content": {"application/json": {"schema": {"type": "array"}}}});
    assert_eq!(
        request(p.clone(), Some(whole.clone()), json!({"p": 1})),
        Err(BuildError::Missing {
            argument: "body".into()
        })
    );
    let r = request(p.clone(), Some(whole), json!({"p": 1, "body": [1, 2]})).unwrap();
    assert_eq!(r.body.as_deref(), Some(&b"[1,2]"[..]));
    let form = json!({"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object",
        "properties": {"user": {"type": "string"}, "ids": {"type": "array"}}}}}});
    let r = request(
        p.clone(),
        Some(form.clone()),
        json!({"p": 1, "user": "a&b", "ids": [1, 2]}),
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(r.body.unwrap()).unwrap(),
        "ids=1&ids=2&user=a%26b"
    );
    assert_eq!(request(p, Some(form), json!({"p": 1})).unwrap().body, None);
}

#[test]
fn credentials_of_the_first_covered_alternative() {
    let doc = json!({"openapi": "3.1.0",
        "components": {"securitySchemes": {
            "key": {"type": "apiKey", "in": "query", "name": "api key"},
            "ck": {"type": "apiKey", "in": "cookie", "name": "sid"},
            "token": {"type": "http", "scheme": "bearer"},
            "login": {"type": "http", "scheme": "basic"}}},
        "paths": {"/a": {"get": {"security": [{"token": [], "ck": []}, {"login": []}, {"key": []}]}}}});
    let api = Api::from_value(&doc, &Options::new()).unwrap();
    let plan = &api.tools[0].plan;
    let all = |name: &str| match name {
        "token" => Some(Credential::secret("T")),
        "ck" => Some(Credential::secret("c 1")),
        "login" => Some(Credential::basic("ada", "pw")),
        "key" => Some(Credential::secret("k&1")),
        _ => None,
    };
    let r = plan.build(&json!({}), "http://h", &all).unwrap();
    assert_eq!(
        r.headers,
        [
            ("Authorization".to_owned(), "Bearer T".to_owned()),
            ("Cookie".to_owned(), "sid=c%201".to_owned())
        ]
    );
    let basic = plan
        .build(&json!({}), "http://h", &|n| {
            if n == "ck" { None } else { all(n) }
        })
        .unwrap();
    assert_eq!(
        basic.headers,
        [("Authorization".to_owned(), "Basic YWRhOnB3".to_owned())]
    );
    let key = plan
        .build(&json!({}), "http://h", &|n| {
            if n == "key" { all(n) } else { None }
        })
        .unwrap();
    assert_eq!(
        (key.url.as_str(), key.headers.len()),
        ("http://h/a?api%20key=k%261", 0)
    );
    let none = plan.build(&json!({}), "http://h", &|_| None).unwrap();
    assert_eq!((none.url.as_str(), none.headers.len()), ("http://h/a", 0));
}
