//! The gift catalog: plain data, no MCP in sight.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the gift is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Occasion {
    /// A birthday.
    Birthday,
    /// A wedding.
    Wedding,
    /// An anniversary.
    Anniversary,
    /// A graduation.
    Graduation,
    /// A housewarming party.
    Housewarming,
    /// A holiday, e.g. the end-of-year ones.
    Holiday,
}

impl Occasion {
    /// The occasion as the schema spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Occasion::Birthday => "birthday",
            Occasion::Wedding => "wedding",
            Occasion::Anniversary => "anniversary",
            Occasion::Graduation => "graduation",
            Occasion::Housewarming => "housewarming",
            Occasion::Holiday => "holiday",
        }
    }
}

/// One gift of the catalog.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Gift {
    /// Stable identifier, used in `gifts://item/{id}`.
    pub id: u32,
    /// Display name.
    pub name: &'static str,
    /// Category, e.g. `games` or `kitchen`.
    pub category: &'static str,
    /// Price in US dollars.
    pub price: f64,
    /// Occasions the gift suits.
    pub occasions: &'static [Occasion],
}

/// The whole catalog.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Catalog {
    /// Every gift, by id.
    pub gifts: &'static [Gift],
}

use Occasion::{
    Anniversary as A, Birthday as B, Graduation as G, Holiday as H, Housewarming as W, Wedding as D,
};

macro_rules! gifts {
    ($($id:literal $name:literal $cat:literal $price:literal [$($o:ident),*];)*) => {
        &[$(Gift { id: $id, name: $name, category: $cat, price: $price as f64, occasions: &[$($o),*] }),*]
    };
}

/// The catalog: 24 gifts across 8 categories, from $12 to $420.
pub static GIFTS: &[Gift] = gifts! {
    1 "Board game: Catan" "games" 45 [B, G, H];
    2 "Dice set" "games" 20 [B, H];
    3 "Jigsaw puzzle, 1000 pieces" "games" 25 [B, H, W];
    4 "Chef's knife" "kitchen" 120 [D, W, A];
    5 "Espresso machine" "kitchen" 420 [D, W];
    6 "Cast-iron skillet" "kitchen" 55 [D, W, H];
    7 "Cocktail shaker set" "kitchen" 38 [B, W, H];
    8 "Scented candle trio" "home" 30 [B, W, H, A];
    9 "Linen throw blanket" "home" 85 [D, W, A, H];
    10 "Indoor herb garden" "home" 65 [W, B, H];
    11 "Framed city map" "home" 95 [D, A, W];
    12 "Hardcover journal" "stationery" 22 [G, B, H];
    13 "Fountain pen" "stationery" 75 [G, B, A];
    14 "Wireless earbuds" "tech" 150 [G, B, H];
    15 "E-reader" "tech" 140 [G, B, H, A];
    16 "Instant camera" "tech" 90 [D, B, G, A];
    17 "Weekend spa voucher" "experiences" 250 [A, D, B];
    18 "Cooking class for two" "experiences" 160 [A, D, H];
    19 "Concert tickets" "experiences" 180 [A, B, G];
    20 "Silver pendant" "jewelry" 210 [A, B, G];
    21 "Engraved watch" "jewelry" 380 [A, D, G];
    22 "Pearl earrings" "jewelry" 260 [A, D];
    23 "Specialty coffee sampler" "food" 35 [B, H, W];
    24 "Chocolate tasting box" "food" 12 [B, H, A, G];
};

/// Gifts for `occasion` within `budget`, cheapest first.
pub fn matching(occasion: Occasion, budget: f64) -> Vec<&'static Gift> {
    let mut found: Vec<&Gift> = GIFTS
        .iter()
        .filter(|g| g.price <= budget && g.occasions.contains(&occasion))
        .collect();
    found.sort_by(|a, b| a.price.total_cmp(&b.price).then(a.id.cmp(&b.id)));
    found
}

/// The cheapest gift for `occasion`, if any.
pub fn cheapest(occasion: Occasion) -> Option<&'static Gift> {
    GIFTS
        .iter()
        .filter(|g| g.occasions.contains(&occasion))
        .min_by(|a, b| a.price.total_cmp(&b.price))
}

/// Up to four gifts like `base` (not `base` itself): the same category first, then gifts sharing
/// an occasion, each group closest in price first.
pub fn similar(base: &Gift) -> Vec<&'static Gift> {
    let mut found: Vec<&Gift> = GIFTS
        .iter()
        .filter(|g| {
            g.id != base.id
                && (g.category == base.category
                    || g.occasions.iter().any(|o| base.occasions.contains(o)))
        })
        .collect();
    found.sort_by(|a, b| {
        (a.category != base.category)
            .cmp(&(b.category != base.category))
            .then(
                (a.price - base.price)
                    .abs()
                    .total_cmp(&(b.price - base.price).abs()),
            )
            .then(a.id.cmp(&b.id))
    });
    found.truncate(4);
    found
}
