//! The list methods of a [`Client`]: one page at a time, or every page within the client's
//! bounds ([`ClientBuilder::max_list_bytes`](crate::ClientBuilder::max_list_bytes),
//! [`ClientBuilder::max_list_pages`](crate::ClientBuilder::max_list_pages)).

use std::collections::{HashMap, HashSet};

use mcp_core::method::Method;
use mcp_core::{
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, Prompt,
    Resource, ResourceTemplate, Tool,
};
use mcp_io::lock;
use serde::de::DeserializeOwned;

use crate::Client;
use crate::error::ClientError;
use crate::headers::param_headers;
use crate::limits::decoded_weight;
use crate::link::Link;
use crate::methods::{Call, cursor_params};

impl Client {
    /// One page of `tools/list`.
    pub fn list_tools_page(&self, cursor: Option<&str>) -> Call<ListToolsResult> {
        Call::new(self, Method::ListTools, Ok(cursor_params(cursor)))
    }

    /// Every tool, page after page. On HTTP a tool whose `x-mcp-header` annotations break the
    /// spec's rules is left out (and logged), as the spec requires of clients.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        let tools = self
            .pages(Method::ListTools, |r: ListToolsResult| {
                (r.tools, r.next_cursor)
            })
            .await?;
        if self.validates_output() {
            lock(&self.engine.state).output_checks = crate::output::compile(&tools);
        }
        if !matches!(self.engine.link, Link::Http(_)) {
            return Ok(tools);
        }
        let mut kept = Vec::with_capacity(tools.len());
        let mut found = HashMap::new();
        for tool in tools {
            match param_headers(&tool.input_schema) {
                Ok(params) => {
                    found.insert(tool.name.clone(), params);
                    kept.push(tool);
                }
                Err(why) => tracing::warn!(tool = %tool.name, "mcp client: tool left out: {why}"),
            }
        }
        lock(&self.engine.state).tool_headers = found;
        Ok(kept)
    }

    /// One page of `resources/list`.
    pub fn list_resources_page(&self, cursor: Option<&str>) -> Call<ListResourcesResult> {
        Call::new(self, Method::ListResources, Ok(cursor_params(cursor)))
    }

    /// Every resource, page after page.
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ClientError> {
        self.pages(Method::ListResources, |r: ListResourcesResult| {
            (r.resources, r.next_cursor)
        })
        .await
    }

    /// One page of `resources/templates/list`.
    pub fn list_resource_templates_page(
        &self,
        cursor: Option<&str>,
    ) -> Call<ListResourceTemplatesResult> {
        Call::new(self, Method::ListTemplates, Ok(cursor_params(cursor)))
    }

    /// Every resource template, page after page.
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ClientError> {
        self.pages(Method::ListTemplates, |r: ListResourceTemplatesResult| {
            (r.resource_templates, r.next_cursor)
        })
        .await
    }

    /// One page of `prompts/list`.
    pub fn list_prompts_page(&self, cursor: Option<&str>) -> Call<ListPromptsResult> {
        Call::new(self, Method::ListPrompts, Ok(cursor_params(cursor)))
    }

    /// Every prompt, page after page.
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ClientError> {
        self.pages(Method::ListPrompts, |r: ListPromptsResult| {
            (r.prompts, r.next_cursor)
        })
        .await
    }

    /// Reads every page of a list, within the client's bounds: what the list holds at its peak
    /// stays within `max_list_bytes`, and it has at most `max_list_pages`; a cursor seen twice
    /// is an error rather than a loop. Each page is read straight into its typed result, then
    /// split. A page is counted by what it decodes to (`decoded_weight`, read from its text),
    /// and the list's own array by its capacity; while a page is decoded its text is held too
    /// (counted twice, for the buffers it arrived in). So a page is read no further than what
    /// the pages before it leave (over HTTP), and is decoded only if twice its text and its
    /// weight fit in that.
    pub(crate) async fn pages<R, I>(
        &self,
        method: Method,
        split: impl Fn(R) -> (Vec<I>, Option<String>),
    ) -> Result<Vec<I>, ClientError>
    where
        R: DeserializeOwned + Send + 'static,
    {
        let name = method.name().unwrap_or_default();
        let limits = self.engine.config.limits;
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen = HashSet::new();
        let mut held = 0;
        for pages in 0..limits.max_pages {
            let too_large = |held| ClientError::ListTooLarge {
                method: name.to_owned(),
                limit: limits.max_list,
                held,
                pages,
            };
            // What the pages read so far leave of the bound: twice the page's text (and its
            // weight) must fit in it, so no more than half of it is read.
            let left = limits.max_list - held;
            let readable = left / 2;
            let mut call = Call::<R>::new(self, method, Ok(cursor_params(cursor.as_deref())));
            if readable < limits.max_message {
                call = call.max_bytes(readable);
            }
            let answer = match call.answer().await {
                Ok(answer) => answer,
                Err(ClientError::MessageTooLarge { limit })
                    if limit == readable && readable < limits.max_message =>
                {
                    return Err(too_large(held));
                }
                Err(e) => return Err(e),
            };
            // While it is decoded, the page's text and what it decodes to are held together;
            // the text counts twice, for the buffers it arrived in (an estimate on the safe
            // side: the list's peak stays under the bound, not at it).
            let weight = decoded_weight(answer.text());
            if answer.len().saturating_mul(2).saturating_add(weight) > left {
                return Err(too_large(held));
            }
            let page: R = answer.decode().map_err(|e| ClientError::decode(name, e))?;
            drop(answer);
            let (mut page_items, next) = split(page);
            // The list's own array, by its capacity.
            let array = |items: &Vec<I>| items.capacity() * std::mem::size_of::<I>();
            let before = array(&items);
            items.append(&mut page_items);
            let now = held + weight + array(&items) - before;
            if now > limits.max_list {
                return Err(too_large(held));
            }
            held = now;
            match next {
                None => return Ok(items),
                Some(next) if !seen.insert(next.clone()) => {
                    return Err(ClientError::protocol(format!(
                        "{name} gave cursor {next:?} twice"
                    )));
                }
                Some(next) => cursor = Some(next),
            }
        }
        Err(ClientError::protocol(format!(
            "{name} has more than {} pages",
            limits.max_pages
        )))
    }
}
