//! BM25 ranking of bindings against a free-text query (`generate_harn_api`'s
//! `query`): a term is a lowercase run of letters and digits, so `read_text_file`
//! matches "read", "text" and "file".

/// The usual BM25 constants.
const K1: f64 = 1.2;
const B: f64 = 0.75;

fn terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The indexes of `documents` that match `query`, best first, at most `limit`. A
/// document that shares no term with the query is left out.
pub fn best_matches(query: &str, documents: &[String], limit: usize) -> Vec<usize> {
    let query = terms(query);
    let docs: Vec<Vec<String>> = documents.iter().map(|d| terms(d)).collect();
    let n = docs.len() as f64;
    let average = docs.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1.0);
    let mut scored: Vec<(usize, f64)> = docs
        .iter()
        .enumerate()
        .map(|(i, doc)| {
            let length = doc.len() as f64;
            let score = query
                .iter()
                .map(|q| {
                    let f = doc.iter().filter(|t| *t == q).count() as f64;
                    if f == 0.0 {
                        return 0.0;
                    }
                    let with = docs.iter().filter(|d| d.contains(q)).count() as f64;
                    let idf = ((n - with + 0.5) / (with + 0.5) + 1.0).ln();
                    idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * length / average.max(1.0)))
                })
                .sum::<f64>();
            (i, score)
        })
        .filter(|(_, s)| *s > 0.0)
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.into_iter().take(limit).map(|(i, _)| i).collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::best_matches;

    #[test]
    fn the_closest_document_comes_first() {
        let docs = [
            "read_text_file Read the complete contents of a file as text".to_string(),
            "list_directory Get a listing of all files and directories".to_string(),
            "search_nodes Search the knowledge graph".to_string(),
        ];
        assert_eq!(best_matches("read file", &docs, 10), [0]);
        let mut both = best_matches("file listing", &docs, 10);
        both.sort_unstable();
        assert_eq!(both, [0, 1]);
        assert_eq!(best_matches("graph", &docs, 10), [2]);
        assert_eq!(best_matches("read file", &docs, 1), [0]);
        assert!(best_matches("weather", &docs, 10).is_empty());
    }
}
