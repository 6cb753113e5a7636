//! `ServerBuilder::card` and the built card on `Server` (the card itself is made in `card`).

use mcp_core::server_card::ServerCard;

use crate::card::CardOptions;
use crate::server::{Server, ServerBuilder};

impl ServerBuilder {
    /// Gives the server a Server Card (SEP-2127), made once by [`build`](Self::build) from the
    /// server's [`Implementation`](crate::protocol::Implementation) (`version`, `title`,
    /// `description`, `icons`, `websiteUrl`) and `options` (name, repository, public URL,
    /// headers, `_meta`); `build` refuses a card the schema would refuse (a name without `/`,
    /// no description, a description or title over 100 characters, a bad public URL). With
    /// feature `http` it is served at `<streamable-http-url>/server-card`, and the AI Catalog at
    /// `/.well-known/ai-catalog.json` (see [`Catalog`](crate::card::Catalog)); the CLI's
    /// `server-card` command prints it.
    ///
    /// ```
    /// use mcp_runtime::card::CardOptions;
    /// use mcp_runtime::prelude::*;
    ///
    /// let built = Server::builder(server_info!().with_description("Adds."))
    ///     .card(CardOptions::new("adder"))
    ///     .build();
    /// assert!(built.unwrap_err().to_string().contains("must be reverse-DNS"));
    /// ```
    pub fn card(mut self, options: CardOptions) -> Self {
        self.options_mut().card = Some(options);
        self
    }
}

impl Server {
    /// The server's card, if it has one ([`ServerBuilder::card`]).
    ///
    /// ```
    /// use mcp_runtime::card::CardOptions;
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!().with_description("Adds.").with_title("Adder"))
    ///     .card(CardOptions::new("com.example/adder"))
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(server.server_card().unwrap().title.as_deref(), Some("Adder"));
    /// assert!(Server::builder(server_info!()).build().unwrap().server_card().is_none());
    /// ```
    #[must_use]
    pub fn server_card(&self) -> Option<&ServerCard> {
        self.inner.card.as_ref().map(|c| &c.card)
    }

    /// The card as it is served and printed: pretty JSON, made once.
    ///
    /// ```
    /// use mcp_runtime::card::CardOptions;
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!().with_description("Adds."))
    ///     .card(CardOptions::new("com.example/adder"))
    ///     .build()
    ///     .unwrap();
    /// let json: serde_json::Value = serde_json::from_str(server.server_card_json().unwrap()).unwrap();
    /// assert_eq!(json["name"], "com.example/adder");
    /// ```
    #[must_use]
    pub fn server_card_json(&self) -> Option<&str> {
        self.inner.card.as_ref().map(|c| &*c.json)
    }

    /// The AI Catalog document listing the card (by URL with a public URL, inline without).
    ///
    /// ```
    /// use mcp_runtime::card::CardOptions;
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!().with_description("Adds."))
    ///     .card(CardOptions::new("com.example/adder").public_url("https://example.com/mcp"))
    ///     .build()
    ///     .unwrap();
    /// let json: serde_json::Value = serde_json::from_str(server.ai_catalog_json().unwrap()).unwrap();
    /// assert_eq!(json["entries"][0]["url"], "https://example.com/mcp/server-card");
    /// ```
    #[must_use]
    pub fn ai_catalog_json(&self) -> Option<&str> {
        self.inner.card.as_ref().map(|c| &*c.catalog_json)
    }
}
