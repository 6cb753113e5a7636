//! DPoP (RFC 9449): a P-256 key of the client's own, and the proof JWT that goes with every
//! token request and every request carrying a DPoP-bound token.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer as _;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

/// The client's proof-of-possession key (ES256).
pub(crate) struct DpopKey {
    key: SigningKey,
    jwk: Value,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopKey")
            .field("jwk", &self.jwk)
            .finish_non_exhaustive()
    }
}

impl DpopKey {
    /// A new random key.
    pub(crate) fn generate() -> Self {
        let key = loop {
            // Nearly every 32-byte string is a valid P-256 scalar.
            if let Ok(k) = SigningKey::from_slice(&mcp_io::random::bytes()) {
                break k;
            }
        };
        let point = key.verifying_key().to_encoded_point(false);
        let coordinate = |c: Option<&p256::FieldBytes>| c.map(|c| URL_SAFE_NO_PAD.encode(c));
        let jwk = json!({
            "kty": "EC",
            "crv": "P-256",
            "x": coordinate(point.x()),
            "y": coordinate(point.y()),
        });
        Self { key, jwk }
    }

    /// A proof for one request: `method` to `url` (its query and fragment left out), bound to
    /// `access_token` when one is presented, echoing the server's `nonce` when it gave one.
    pub(crate) fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> String {
        let htu = url.split(['?', '#']).next().unwrap_or(url);
        let iat = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut claims = json!({
            "jti": mcp_io::random::token(),
            "htm": method,
            "htu": htu,
            "iat": iat,
        });
        if let Some(token) = access_token {
            claims["ath"] = Value::String(URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes())));
        }
        if let Some(n) = nonce {
            claims["nonce"] = Value::String(n.to_owned());
        }
        let header = json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk});
        let signing_input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature: Signature = self.key.sign(signing_input.as_bytes());
        format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(signature.to_bytes())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier as _;

    #[test]
    fn proofs_verify_and_carry_the_claims() {
        let key = DpopKey::generate();
        let proof = key.proof("POST", "http://h/mcp?x=1", Some("tok"), Some("n1"));
        let parts: Vec<&str> = proof.split('.').collect();
        assert_eq!(parts.len(), 3);
        let decode = |p: &str| -> Value {
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(p).unwrap()).unwrap()
        };
        let header = decode(parts[0]);
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["jwk"]["crv"], "P-256");
        assert!(header["jwk"].get("d").is_none());
        let claims = decode(parts[1]);
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "http://h/mcp");
        assert_eq!(claims["nonce"], "n1");
        assert_eq!(
            claims["ath"],
            URL_SAFE_NO_PAD.encode(Sha256::digest(b"tok"))
        );
        let sig = Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
        let input = format!("{}.{}", parts[0], parts[1]);
        assert!(
            key.key
                .verifying_key()
                .verify(input.as_bytes(), &sig)
                .is_ok()
        );
        let other = key.proof("POST", "http://h/mcp", None, None);
        assert_ne!(
            decode(other.split('.').nth(1).unwrap())["jti"],
            claims["jti"]
        );
    }
}
