//! The file a document's URI names. Only `file:` URIs name one: a document of another
//! scheme (an editor's unsaved buffer) is checked as text, without a cache or a suite.

use lsp_types::Uri;
use std::path::PathBuf;

/// The local path of a `file:` URI (its path percent-decoded); `None` for another
/// scheme, a remote host or a path that does not decode to UTF-8.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme()?.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let host = uri.authority().map_or("", |authority| authority.host().as_str());
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        return None;
    }
    let path = percent_decoded(uri.path().as_str())?;
    // `file:///C:/x` is `C:/x` on Windows.
    if cfg!(windows) && path.as_bytes().get(2) == Some(&b':') {
        return Some(PathBuf::from(&path[1..]));
    }
    Some(PathBuf::from(path))
}

fn percent_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(uri: &str) -> Option<PathBuf> {
        to_path(&uri.parse().expect("a valid URI"))
    }

    #[test]
    fn file_uris_name_their_decoded_path() {
        assert_eq!(path("file:///tmp/a%20b/%C3%A9.bpl"), Some(PathBuf::from("/tmp/a b/é.bpl")));
        assert_eq!(path("file://localhost/x.bpl"), Some(PathBuf::from("/x.bpl")));
    }

    #[test]
    fn other_uris_name_no_file() {
        assert_eq!(path("untitled:Untitled-1"), None);
        assert_eq!(path("file://server/share/x.bpl"), None);
        assert_eq!(path("file:///bad%ff"), None);
    }
}
