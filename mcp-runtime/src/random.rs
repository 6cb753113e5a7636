//! Randomness from the operating system: session ids, keys, elicitation ids.

/// 32 random bytes.
pub(crate) fn bytes() -> [u8; 32] {
    let mut buf = [0u8; 32];
    if getrandom::fill(&mut buf).is_err() {
        // No OS randomness: fall back to a hash of time and address-space noise; still unique.
        use sha2::Digest;
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let noise = &buf as *const _ as usize;
        buf.copy_from_slice(&sha2::Sha256::digest(format!(
            "{t}:{noise}:{:?}",
            std::thread::current().id()
        )));
    }
    buf
}

/// A random token of visible ASCII (64 hex digits): session ids, elicitation ids.
pub(crate) fn token() -> String {
    bytes().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_visible_ascii_and_distinct() {
        let (a, b) = (super::token(), super::token());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| (0x21..=0x7e).contains(&c)));
        assert_ne!(a, b);
    }
}
