//! RFC 6570 URI templates: syntax errors, expansion (RFC examples), matching and decoding.

use std::collections::{BTreeMap, HashMap};

use mcp_runtime_core::UriTemplate;
use mcp_runtime_core::uri_template::UriTemplateErrorKind as K;

fn t(s: &str) -> UriTemplate {
    UriTemplate::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn caps(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn parse_errors_name_the_offset() {
    let cases: &[(&str, usize, K)] = &[
        ("file:///{path", 8, K::UnclosedBrace),
        ("a}b", 1, K::UnmatchedClosingBrace),
        ("x{a{b}}", 3, K::NestedBrace),
        ("x{}", 1, K::EmptyExpression),
        ("{a,}", 3, K::EmptyVariable),
        ("{?}", 2, K::EmptyVariable),
        ("{a b}", 2, K::InvalidVariableChar(' ')),
        ("{a-b}", 2, K::InvalidVariableChar('-')),
        ("{.a.}", 3, K::InvalidVariableChar('.')),
        ("{=a}", 1, K::ReservedOperator('=')),
        ("{,a}", 1, K::ReservedOperator(',')),
        ("{!a}", 1, K::ReservedOperator('!')),
        ("{@a}", 1, K::ReservedOperator('@')),
        ("{|a}", 1, K::ReservedOperator('|')),
        ("{a:0}", 2, K::InvalidPrefix),
        ("{a:10000}", 2, K::InvalidPrefix),
        ("{a:x}", 2, K::InvalidPrefix),
        ("{a*x}", 3, K::InvalidVariableChar('x')),
    ];
    for (template, offset, kind) in cases {
        let err = UriTemplate::parse(template).expect_err(template);
        assert_eq!(
            (err.offset(), err.kind()),
            (*offset, kind),
            "{template}: {err}"
        );
        assert!(
            err.to_string().ends_with(&format!("at byte {offset}")),
            "{err}"
        );
    }
    let err = UriTemplate::parse("{=a}").unwrap_err();
    assert_eq!(
        err.to_string(),
        "operator `=` is reserved by RFC 6570 at byte 1"
    );
}

#[test]
fn variables_and_literals() {
    let tpl = t("api://{+base}/items/{id}{?page,id}{&sort}");
    assert_eq!(
        tpl.variables().collect::<Vec<_>>(),
        ["base", "id", "page", "sort"]
    );
    assert!(!tpl.is_literal());
    assert!(t("file:///etc/hosts").is_literal());
    assert_eq!(t("file:///etc/hosts").variables().count(), 0);
    assert!(t("").is_literal());
    assert_eq!(tpl.to_string(), "api://{+base}/items/{id}{?page,id}{&sort}");
    assert_eq!(
        t("{var.name}{%41b}").variables().collect::<Vec<_>>(),
        ["var.name", "%41b"]
    );
}

#[test]
fn expansion_follows_rfc_6570_examples() {
    let vars: HashMap<String, String> = [
        ("var", "value"),
        ("hello", "Hello World!"),
        ("path", "/foo/bar"),
        ("x", "1024"),
        ("y", "768"),
        ("empty", ""),
        ("who", "fred"),
        ("base", "http://example.com/home/"),
        ("half", "50%"),
        ("pct", "%41"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let cases = [
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{half}", "50%25"),
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+path}/here", "/foo/bar/here"),
        ("{+pct}", "%41"),
        ("{pct}", "%2541"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("X{#var}", "X#value"),
        ("X{#hello}", "X#Hello%20World!"),
        ("map?{x,y}", "map?1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("X{.var}", "X.value"),
        ("X{.x,y}", "X.1024.768"),
        ("{/var}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{/var:1,var}", "/v/value"),
        ("{?var:3}", "?var=val"),
        ("{var*}", "value"),
        ("{undef}", ""),
        ("x{?undef,who}", "x?who=fred"),
        ("{/undef}", ""),
        ("{+base}index", "http://example.com/home/index"),
    ];
    for (template, expected) in cases {
        assert_eq!(t(template).expand(&vars), expected, "{template}");
    }
    let unicode = BTreeMap::from([("v".to_owned(), "é".to_owned())]);
    assert_eq!(t("{v}").expand(&unicode), "%C3%A9");
    assert_eq!(t("{v:1}").expand(&unicode), "%C3%A9");
}

#[test]
fn simple_variables_stop_at_slash_and_query() {
    let tpl = t("users://{id}/profile");
    assert_eq!(
        tpl.match_uri("users://42/profile"),
        Some(caps(&[("id", "42")]))
    );
    assert_eq!(tpl.match_uri("users://a/b/profile"), None);
    assert_eq!(
        tpl.match_uri("users:///profile"),
        None,
        "empty values do not match"
    );
    assert_eq!(tpl.match_uri("users://42/profile/x"), None);
    assert_eq!(tpl.match_uri("users://4?2/profile"), None);

    let tpl = t("gifts://item/{id}");
    assert_eq!(tpl.match_uri("gifts://item/7"), Some(caps(&[("id", "7")])));
    assert_eq!(tpl.match_uri("gifts://item/7/8"), None);
    assert_eq!(tpl.match_uri("gifts://other/7"), None);

    let tpl = t("db://{table}.{column}");
    assert_eq!(
        tpl.match_uri("db://users.name"),
        Some(caps(&[("table", "users"), ("column", "name")]))
    );
    let tpl = t("pt://{x,y}");
    assert_eq!(
        tpl.match_uri("pt://1,2"),
        Some(caps(&[("x", "1"), ("y", "2")]))
    );
    assert_eq!(tpl.match_uri("pt://1"), Some(caps(&[("x", "1")])));
    assert_eq!(tpl.match_uri("pt://1,2,3"), None);
}

#[test]
fn reserved_variables_span_slashes() {
    let tpl = t("file:///{+path}");
    assert_eq!(
        tpl.match_uri("file:///src/lib.rs"),
        Some(caps(&[("path", "src/lib.rs")]))
    );
    let tpl = t("repo://{owner}/{+path}/raw");
    assert_eq!(
        tpl.match_uri("repo://me/a/b/c/raw"),
        Some(caps(&[("owner", "me"), ("path", "a/b/c")]))
    );
    assert_eq!(
        t("{+u}").match_uri("http://x/y?q=1"),
        Some(caps(&[("u", "http://x/y?q=1")]))
    );
}

#[test]
fn path_label_and_parameter_segments() {
    let tpl = t("api://host{/version,resource}");
    assert_eq!(
        tpl.match_uri("api://host/v1/users"),
        Some(caps(&[("version", "v1"), ("resource", "users")]))
    );
    assert_eq!(
        tpl.match_uri("api://host/v1"),
        Some(caps(&[("version", "v1")]))
    );
    assert_eq!(tpl.match_uri("api://host"), Some(caps(&[])));
    assert_eq!(tpl.match_uri("api://host/v1/users/x"), None);

    let tpl = t("files://root{/dir}/index");
    assert_eq!(
        tpl.match_uri("files://root/docs/index"),
        Some(caps(&[("dir", "docs")]))
    );
    assert_eq!(tpl.match_uri("files://root/index"), Some(caps(&[])));

    let tpl = t("files://root{/segments*}");
    assert_eq!(
        tpl.match_uri("files://root/a/b%20c/d"),
        Some(caps(&[("segments", "a/b c/d")]))
    );

    assert_eq!(
        t("file://doc{.ext}").match_uri("file://doc.md"),
        Some(caps(&[("ext", "md")]))
    );
    let tpl = t("map://m{;x,y}");
    assert_eq!(
        tpl.match_uri("map://m;x=1;y=2"),
        Some(caps(&[("x", "1"), ("y", "2")]))
    );
    assert_eq!(tpl.match_uri("map://m;x=1;z=2"), None);
    assert_eq!(
        tpl.match_uri("map://m;x;y=2"),
        Some(caps(&[("x", ""), ("y", "2")]))
    );
}

#[test]
fn query_pairs_in_any_order_and_optional() {
    let tpl = t("search://items{?q,lang}{&page}");
    assert_eq!(
        tpl.match_uri("search://items?lang=en&page=2&q=red%20shoes"),
        Some(caps(&[("q", "red shoes"), ("lang", "en"), ("page", "2")]))
    );
    assert_eq!(tpl.match_uri("search://items"), Some(caps(&[])));
    assert_eq!(tpl.match_uri("search://items?q="), Some(caps(&[("q", "")])));
    assert_eq!(
        tpl.match_uri("search://items?q=a&utm=x"),
        Some(caps(&[("q", "a")])),
        "unknown pairs are ignored"
    );
    assert_eq!(tpl.match_uri("search://itemz?q=a"), None);

    let tpl = t("search://items?fixed=1{&page}");
    assert_eq!(
        tpl.match_uri("search://items?fixed=1&page=3"),
        Some(caps(&[("page", "3")]))
    );
    assert_eq!(tpl.match_uri("search://items?fixed=1"), Some(caps(&[])));

    let tpl = t("doc://{id}{?v}{#section}");
    assert_eq!(
        tpl.match_uri("doc://7?v=2#intro"),
        Some(caps(&[("id", "7"), ("v", "2"), ("section", "intro")]))
    );
    assert_eq!(
        tpl.match_uri("doc://7#intro"),
        Some(caps(&[("id", "7"), ("section", "intro")]))
    );
    assert_eq!(tpl.match_uri("doc://7"), Some(caps(&[("id", "7")])));
}

#[test]
fn values_are_percent_decoded() {
    let tpl = t("notes://{title}");
    assert_eq!(
        tpl.match_uri("notes://caf%C3%A9%20au%20lait"),
        Some(caps(&[("title", "café au lait")]))
    );
    assert_eq!(
        tpl.match_uri("notes://50%25"),
        Some(caps(&[("title", "50%")]))
    );
    assert_eq!(
        tpl.match_uri("notes://bad%zz"),
        Some(caps(&[("title", "bad%zz")]))
    );
    assert_eq!(
        tpl.match_uri("notes://a%2Fb"),
        Some(caps(&[("title", "a/b")]))
    );
    assert_eq!(
        tpl.match_uri("notes://%FF"),
        Some(caps(&[("title", "\u{FFFD}")]))
    );
}

#[test]
fn prefix_modifiers_limit_matches() {
    let tpl = t("code://{id:3}");
    assert_eq!(tpl.match_uri("code://abc"), Some(caps(&[("id", "abc")])));
    assert_eq!(tpl.match_uri("code://abcd"), None);
}

#[test]
fn expansion_and_matching_round_trip() {
    let tpl = t("res://{kind}/{+path}{?q,n}");
    let vars = caps(&[("kind", "a b"), ("path", "x/y z"), ("q", "é&="), ("n", "1")]);
    let uri = tpl.expand(&vars);
    assert_eq!(uri, "res://a%20b/x/y%20z?q=%C3%A9%26%3D&n=1");
    assert_eq!(tpl.match_uri(&uri), Some(vars));
}
