#!/usr/bin/env bash
# Seeds the fuzz corpora from the test data: programs for parse/check/run, manifests
# and tool surfaces for manifest and check, JSON documents for json_parse.
set -euo pipefail
cd "$(dirname "$0")"
data=../tests/data
for t in parse check run manifest json_parse; do mkdir -p "corpus/$t"; done
find "$data" -name '*.harn' | while read -r f; do
  n=$(echo "${f#../}" | tr '/' '_' | sed 's/^[._]*//')
  cp "$f" "corpus/parse/$n"
  { printf '#'; cat "$f"; } > "corpus/run/$n"
  { cat "$data/code_mode/manifests/tools.json"; printf '\0'; cat "$f"; } > "corpus/check/$n"
done
for f in "$data"/code_mode/manifests/*.json ../../shared/manifests/*.json; do
  [ -f "$f" ] || continue
  n=$(echo "${f#../}" | tr '/' '_' | sed 's/^[._]*//')
  cp "$f" "corpus/manifest/$n"
  cp "$f" "corpus/json_parse/$n"
done
echo "seeded: $(ls corpus/parse | wc -l) programs, $(ls corpus/manifest | wc -l) manifests"
