//! The error collector: every rule reports into it, so one build shows every error at once.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Collects the errors of one macro invocation.
///
/// A `Ctxt` must be consumed with [`Ctxt::check`]; dropping it unchecked is a bug in this crate
/// (an error that was collected and then forgotten). The `Drop` impl catches it in every build,
/// as serde_derive's does: the macro panics, which the compiler reports at the macro's call
/// site, instead of expanding as if the forgotten errors were not there.
pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// An error covering the tokens of `node` (from its first to its last token).
    pub(crate) fn error_spanned_by(&self, node: impl ToTokens, message: impl Display) {
        self.syn_error(syn::Error::new_spanned(node.into_token_stream(), message));
    }

    /// An error at one span.
    pub(crate) fn error_at(&self, span: Span, message: impl Display) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// An error produced by syn (for instance a failed attribute parse).
    pub(crate) fn syn_error(&self, error: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(error);
        }
    }

    /// Consumes the collector: `Err` with every error, combined, if there was any.
    pub(crate) fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut errors = errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(errors);
                Err(first)
            }
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // Not while unwinding: a second panic would abort the compiler.
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("mcp-runtime-macros: an error collector was dropped without being checked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_every_error_in_order() {
        let cx = Ctxt::new();
        cx.error_at(Span::call_site(), "first");
        cx.error_at(Span::call_site(), "second");
        let messages: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    fn no_error_is_ok() {
        assert!(Ctxt::new().check().is_ok());
    }

    /// The guard is an `assert`, not a `debug_assert`: `cargo test --release` runs this too.
    #[test]
    fn dropping_unchecked_panics_in_every_build() {
        let panic = std::panic::catch_unwind(|| {
            let cx = Ctxt::new();
            cx.error_at(Span::call_site(), "forgotten");
            drop(cx);
        })
        .expect_err("an unchecked collector panics when dropped");
        assert_eq!(
            panic.downcast_ref::<&str>().copied(),
            Some("mcp-runtime-macros: an error collector was dropped without being checked")
        );
        // An empty collector is a forgotten check too.
        assert!(std::panic::catch_unwind(|| drop(Ctxt::new())).is_err());
    }

    #[test]
    fn no_second_panic_while_unwinding() {
        // A panic elsewhere while a collector is alive unwinds through its `Drop` without a
        // second panic (which would abort the process instead of being caught here).
        let panic = std::panic::catch_unwind(|| {
            let _cx = Ctxt::new();
            panic!("elsewhere");
        })
        .expect_err("the first panic");
        assert_eq!(panic.downcast_ref::<&str>().copied(), Some("elsewhere"));
    }
}
