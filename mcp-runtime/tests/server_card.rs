//! The Server Card as served: generated cards validated against the vendored `schema.json`,
//! `/mcp/server-card` and `/.well-known/ai-catalog.json` over real HTTP (status, media type,
//! cache, entity tag, CORS, the body the `server-card` command prints), and the catalog's
//! switch on mounted routers.

use mcp_runtime::card::{CardOptions, Catalog};
use mcp_runtime::cli::Cli;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::server_card::Repository;
use serde_json::{Value, json};

fn validator() -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../mcp-core/tests/schemas/server-card/schema.json"
    );
    let mut root: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    root["$ref"] = json!("#/$defs/ServerCard");
    jsonschema::validator_for(&root).unwrap()
}

fn gift_like(options: CardOptions) -> Server {
    let info = mcp_runtime::protocol::Implementation::new("gift-server", "0.1.0")
        .with_title("Gift ideas")
        .with_description("Gift ideas for any occasion")
        .with_website_url("https://github.com/mcp-runtime/mcp-runtime");
    Server::builder(info)
        .card(
            options.repository(
                Repository::new("github", "https://github.com/mcp-runtime/mcp-runtime")
                    .with_subfolder("examples/gift-server"),
            ),
        )
        .build()
        .unwrap()
}

#[test]
fn generated_cards_validate_against_the_schema() {
    let v = validator();
    for server in [
        gift_like(CardOptions::new("io.github.mcp-runtime/gift-server")),
        gift_like(
            CardOptions::new("io.github.mcp-runtime/gift-server")
                .public_url("https://gifts.example.com/mcp"),
        ),
    ] {
        let card: Value = serde_json::from_str(server.server_card_json().unwrap()).unwrap();
        let errors: Vec<String> = v.iter_errors(&card).map(|e| e.to_string()).collect();
        assert_eq!(errors, Vec::<String>::new(), "{card}");
        let catalog: Value = serde_json::from_str(server.ai_catalog_json().unwrap()).unwrap();
        if let Some(inline) = catalog["entries"][0].get("data") {
            assert!(v.is_valid(inline));
            assert_eq!(inline, &card);
        }
    }
    let server = gift_like(
        CardOptions::new("io.github.mcp-runtime/gift-server")
            .public_url("https://gifts.example.com/mcp"),
    );
    let card: Value = serde_json::from_str(server.server_card_json().unwrap()).unwrap();
    assert_eq!(
        card,
        json!({
            "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
            "name": "io.github.mcp-runtime/gift-server",
            "title": "Gift ideas",
            "version": "0.1.0",
            "description": "Gift ideas for any occasion",
            "repository": {"source": "github", "url": "https://github.com/mcp-runtime/mcp-runtime", "subfolder": "examples/gift-server"},
            "websiteUrl": "https://github.com/mcp-runtime/mcp-runtime",
            "remotes": [{
                "type": "streamable-http",
                "url": "https://gifts.example.com/mcp",
                "supportedProtocolVersions": ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
            }]
        })
    );
    assert_eq!(
        serde_json::from_str::<Value>(server.ai_catalog_json().unwrap()).unwrap(),
        json!({"specVersion": "1.0", "entries": [{
            "identifier": "urn:air:mcp-runtime.github.io:mcp:gift-server",
            "type": "application/mcp-server-card+json",
            "url": "https://gifts.example.com/mcp/server-card"
        }]})
    );
}

async fn get(url: &str, etag: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .get(url)
        .header("Accept", "application/mcp-server-card+json");
    if let Some(etag) = etag {
        request = request.header("If-None-Match", etag);
    }
    request.send().await.unwrap()
}

fn header<'a>(r: &'a reqwest::Response, name: &str) -> &'a str {
    r.headers().get(name).map_or("", |v| v.to_str().unwrap())
}

fn assert_cacheable_and_cors(r: &reqwest::Response) {
    assert_eq!(header(r, "cache-control"), "public, max-age=3600");
    assert_eq!(header(r, "access-control-allow-origin"), "*");
    assert_eq!(header(r, "access-control-allow-methods"), "GET");
    assert_eq!(
        header(r, "access-control-allow-headers"),
        "Content-Type, If-None-Match"
    );
    assert_eq!(header(r, "access-control-expose-headers"), "ETag");
}

#[tokio::test]
async fn the_standalone_server_serves_the_card_and_the_catalog() {
    let server = gift_like(
        CardOptions::new("io.github.mcp-runtime/gift-server")
            .public_url("https://gifts.example.com/mcp"),
    );
    let printed = Cli::new(&server).execute(["server-card"]).await;
    assert_eq!((printed.code(), printed.stderr.as_str()), (0, ""));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = server.shutdown_handle();
    let serving = tokio::spawn({
        let server = server.clone();
        async move { server.serve_http_on(listener).await }
    });

    let r = get(&format!("{base}/mcp/server-card"), None).await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        header(&r, "content-type"),
        "application/mcp-server-card+json"
    );
    assert_cacheable_and_cors(&r);
    let etag = header(&r, "etag").to_owned();
    assert_eq!(
        (etag.len(), etag.starts_with('"'), etag.ends_with('"')),
        (34, true, true)
    );
    assert_eq!(r.text().await.unwrap() + "\n", printed.stdout);

    let r = get(&format!("{base}/mcp/server-card"), Some(&etag)).await;
    assert_eq!(r.status(), 304);
    assert_eq!(header(&r, "etag"), etag);
    assert_cacheable_and_cors(&r);
    assert_eq!(r.text().await.unwrap(), "");
    assert_eq!(
        get(&format!("{base}/mcp/server-card"), Some("\"other\""))
            .await
            .status(),
        200
    );

    let preflight = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, format!("{base}/mcp/server-card"))
        .header("Origin", "https://elsewhere.example")
        .header("Access-Control-Request-Method", "GET")
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.status(), 204);
    assert_cacheable_and_cors_preflight(&preflight);
    let post = reqwest::Client::new()
        .post(format!("{base}/mcp/server-card"))
        .send()
        .await
        .unwrap();
    assert_eq!(post.status(), 405);

    let r = get(&format!("{base}/.well-known/ai-catalog.json"), None).await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-type"), "application/ai-catalog+json");
    assert_cacheable_and_cors(&r);
    let catalog = Cli::new(&server)
        .execute(["server-card", "--catalog"])
        .await;
    assert_eq!(r.text().await.unwrap() + "\n", catalog.stdout);

    handle.shutdown();
    serving.await.unwrap().unwrap();
}

fn assert_cacheable_and_cors_preflight(r: &reqwest::Response) {
    assert_eq!(header(r, "access-control-allow-origin"), "*");
    assert_eq!(header(r, "access-control-allow-methods"), "GET");
    assert_eq!(
        header(r, "access-control-allow-headers"),
        "Content-Type, If-None-Match"
    );
    assert_eq!(header(r, "access-control-expose-headers"), "ETag");
}

async fn serve_app(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

#[tokio::test]
async fn a_mounted_router_serves_the_catalog_only_when_asked() {
    let off = gift_like(CardOptions::new("io.github.mcp-runtime/gift-server"));
    let base = serve_app(off.router_at("/mcp")).await;
    let r = get(&format!("{base}/mcp/server-card"), None).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.text().await.unwrap(), off.server_card_json().unwrap());
    assert_eq!(
        get(&format!("{base}/.well-known/ai-catalog.json"), None)
            .await
            .status(),
        404
    );

    let on =
        gift_like(CardOptions::new("io.github.mcp-runtime/gift-server").catalog(Catalog::Always));
    let base = serve_app(
        axum::Router::new()
            .nest("/tools", on.router())
            .merge(on.router_at("/mcp")),
    )
    .await;
    assert_eq!(
        get(&format!("{base}/tools/server-card"), None)
            .await
            .status(),
        200
    );
    let r = get(&format!("{base}/.well-known/ai-catalog.json"), None).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.text().await.unwrap(), on.ai_catalog_json().unwrap());

    let never =
        gift_like(CardOptions::new("io.github.mcp-runtime/gift-server").catalog(Catalog::Never));
    assert!(never.ai_catalog_json().is_some());
    let base = serve_app(never.router_at("/mcp")).await;
    assert_eq!(
        get(&format!("{base}/.well-known/ai-catalog.json"), None)
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn without_a_card_there_is_no_route_and_no_command() {
    let server = Server::builder(server_info!()).build().unwrap();
    let base = serve_app(server.router_at("/mcp")).await;
    assert_eq!(
        get(&format!("{base}/mcp/server-card"), None).await.status(),
        404
    );
    let out = Cli::new(&server)
        .name("plain")
        .execute(["server-card"])
        .await;
    assert_eq!(out.code(), 2);
    assert_eq!(
        out.stderr,
        "plain: this server has no Server Card (give it one with `ServerBuilder::card`)\n"
    );
}
