#!/usr/bin/env node
// Tokenizes every `.harn` file under a directory with the extension's TextMate grammar
// (the same engine VS Code uses: vscode-textmate + vscode-oniguruma) and fails when a
// file ends with a rule still open (the rule stack at end of file is deeper than the
// root): an unterminated string, block comment or `${...}` hole.
//
//   node test/unclosed-scopes.js ../../tests/data
//
// Which files are judged, and how (X.error is the sibling of X.harn in the runner's
// convention, holding the expected error message):
// - X.error contains "Unterminated" ("Unterminated string at L:C", "Unterminated block
//   comment at L:C"): a lexer error test meant to end inside a string or comment.
//   Skipped.
// - X.error exists otherwise: an error test whose source may legitimately leave a
//   bracket open (`struct S {` at end of file), so only string, comment and
//   interpolation scopes count as failures.
// - no X.error: a real program; any rule still open at the end is a failure (this also
//   catches grammar rules such as parameter lists or struct bodies that never close).
//
// Exit status: 0 when every judged file ends with no open rule, 1 otherwise (the
// offending files are listed with the scopes still open), 2 on a usage error.
'use strict';

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const GRAMMAR = path.join(__dirname, '..', 'syntaxes', 'harn.tmLanguage.json');

function harnFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...harnFiles(full));
    } else if (entry.isFile() && entry.name.endsWith('.harn')) {
      out.push(full);
    }
  }
  return out.sort();
}

/** The text of the sibling `.error` file, or null when there is none. */
function errorText(file) {
  const errorFile = file.slice(0, -'.harn'.length) + '.error';
  return fs.existsSync(errorFile) ? fs.readFileSync(errorFile, 'utf8') : null;
}

const LEXICAL_SCOPE = /^(string|comment|meta\.interpolation)\./;

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.harn') {
        return null;
      }
      return vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR);
    },
  });
  const grammar = await registry.loadGrammar('source.harn');
  if (!grammar) {
    throw new Error(`cannot load ${GRAMMAR}`);
  }
  return grammar;
}

/**
 * Tokenizes `text` line by line as VS Code does (lines split at \r\n, \r or \n) and
 * returns the scopes still open at the end, or null when only the root scope is left.
 */
function openScopesAtEof(grammar, text) {
  let stack = vsctm.INITIAL;
  for (const line of text.split(/\r\n|\r|\n/)) {
    stack = grammar.tokenizeLine(line, stack).ruleStack;
  }
  if (stack.depth <= 1) {
    return null;
  }
  // An empty line tokenized in the final state carries every scope still open.
  const probe = grammar.tokenizeLine('', stack).tokens[0];
  return probe ? probe.scopes.slice(1) : ['(unnamed rule)'];
}

async function main() {
  const dir = process.argv[2];
  if (!dir || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error('usage: node test/unclosed-scopes.js DIRECTORY');
    process.exit(2);
  }
  const grammar = await loadGrammar();
  const files = harnFiles(dir);
  const failures = [];
  let skipped = 0;
  for (const file of files) {
    const expected = errorText(file);
    if (expected !== null && expected.includes('Unterminated')) {
      skipped += 1;
      continue;
    }
    const open = openScopesAtEof(grammar, fs.readFileSync(file, 'utf8'));
    if (open && (expected === null || open.some((scope) => LEXICAL_SCOPE.test(scope)))) {
      failures.push({ file, open });
    }
  }
  for (const { file, open } of failures) {
    console.log(`${path.relative(process.cwd(), file)}: still open at end of file: ${open.join(' ')}`);
  }
  const judged = files.length - skipped;
  console.log(
    `${files.length} files: ${judged - failures.length} passed, ${failures.length} failed ` +
      `(still open at end of file), ${skipped} skipped (sibling .error says "Unterminated")`,
  );
  process.exit(failures.length > 0 || files.length === 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
