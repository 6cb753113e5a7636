use mcp_runtime::prelude::*;

/// Where to look.
#[mcp_runtime::data]
#[serde(rename_all = "camelCase")]
#[derive(Debug, Clone, PartialEq)]
struct Area {
    /// City name
    city_name: String,
    #[serde(default)]
    radius_km: Option<f64>,
}

#[mcp_runtime::data(input)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

#[mcp_runtime::data(output)]
struct Found {
    names: Vec<String>,
    unit: &'static str,
}

/// Finds places.
#[tool(rename_all = "camelCase")]
async fn find(area: Area, unit: Unit, #[arg(rename = "max")] max_results: u32, min_rating: Option<u8>) -> Json<Found> {
    let _ = (area, max_results, min_rating);
    Json(Found {
        names: Vec::new(),
        unit: match unit {
            Unit::Celsius => "C",
            Unit::Fahrenheit => "F",
        },
    })
}

/// Greets.
#[prompt(rename_all = "SCREAMING-KEBAB-CASE")]
async fn greet(first_name: String) -> String {
    first_name
}

#[mcp_runtime::test]
async fn found() {
    let _ = find(
        Area { city_name: "Paris".into(), radius_km: None },
        Unit::Celsius,
        3,
        None,
    )
    .await;
}

fn main() {
    let _ = (find::TOOL, greet::PROMPT);
}
