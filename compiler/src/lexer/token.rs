//! Token kinds produced by the lexer and consumed by the parser.

use std::fmt;

use crate::ast::Span;

macro_rules! keywords {
    ($($variant:ident => $text:literal),* $(,)?) => {
        /// The reserved words of Harn (`language.md` 3.3). They can never be variable or
        /// parameter names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Keyword { $($variant),* }

        impl Keyword {
            pub const ALL: &'static [Keyword] = &[$(Keyword::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $(Keyword::$variant => $text),* }
            }

            /// Each keyword's text, in the order of [`Keyword::ALL`] (alphabetical).
            const TEXTS: &'static [&'static str] = &[$($text),*];

            /// Each keyword's slot under [`keyword_slot`], holding its index in
            /// [`Keyword::ALL`] plus one (0: no keyword). The hash is perfect over the
            /// keywords: a collision fails the build here.
            const BY_SLOT: [u8; 128] = {
                let mut table = [0u8; 128];
                let mut i = 0;
                while i < Self::TEXTS.len() {
                    let text = Self::TEXTS[i].as_bytes();
                    let slot = keyword_slot(text[0], text[1], text.len());
                    assert!(table[slot] == 0, "two keywords share a slot");
                    table[slot] = i as u8 + 1;
                    i += 1;
                }
                table
            };

            pub fn from_word(word: &str) -> Option<Keyword> {
                // Every keyword is 2 to 9 bytes (`keywords_fit_the_quick_filter`); a word
                // of that length is compared with the one keyword its slot holds, if any,
                // so an identifier costs one table load and at most one comparison.
                let bytes = word.as_bytes();
                let &[b0, b1, ..] = bytes else {
                    return None;
                };
                if bytes.len() > 9 {
                    return None;
                }
                let index = usize::from(Self::BY_SLOT[keyword_slot(b0, b1, bytes.len())].checked_sub(1)?);
                (Self::TEXTS.get(index)?.as_bytes() == bytes)
                    .then(|| Self::ALL.get(index).copied())
                    .flatten()
            }

            /// The token of the word of `len` bytes at `start` in `source` (a word the
            /// lexer has just scanned): [`Tok::Kw`] if it is a keyword, else
            /// [`Tok::Ident`]. As [`Keyword::from_word`], but where 16 bytes of source
            /// follow the word's start, the word, read as one 16-byte number masked to
            /// its length, is compared with its slot's one candidate keyword, and the
            /// outcome picks the token from a table without a branch: whether a word is
            /// a name or a keyword follows no pattern a processor can predict, and the
            /// lexer spent about a third of its time on the two branches that decided it.
            #[inline(always)]
            pub(crate) fn word_tok(source: &[u8], start: usize, len: usize) -> Tok {
                let Some(window) = source.get(start..).and_then(|rest| rest.first_chunk::<16>())
                else {
                    let word = source.get(start..start + len).and_then(|w| std::str::from_utf8(w).ok());
                    return match word.and_then(Keyword::from_word) {
                        Some(kw) => Tok::Kw(kw),
                        None => Tok::Ident,
                    };
                };
                let candidate = usize::from(Self::BY_SLOT[keyword_slot(window[0], window[1], len)]);
                // A word of 16 bytes or more is compared on its first 16, which no keyword
                // fills (the zero padding never matches a word's bytes).
                let mask = u128::MAX >> (128 - 8 * len.clamp(1, 16));
                let hit = usize::from(u128::from_le_bytes(*window) & mask == Self::PATTERNS[candidate]);
                Self::WORD_TOKS[candidate * hit]
            }

            /// [`Keyword::PADDED`] after a first entry for "no candidate", which matches
            /// no word: every byte 0xFF, which UTF-8 text never holds.
            const PATTERNS: [u128; Self::TEXTS.len() + 1] = {
                let mut table = [u128::MAX; Self::TEXTS.len() + 1];
                let mut i = 0;
                while i < Self::TEXTS.len() {
                    table[i + 1] = Self::PADDED[i];
                    i += 1;
                }
                table
            };

            /// The token for each entry of [`Keyword::PATTERNS`]: a name for the first,
            /// then each keyword's.
            const WORD_TOKS: [Tok; Self::TEXTS.len() + 1] = {
                let mut table = [Tok::Ident; Self::TEXTS.len() + 1];
                let mut i = 0;
                while i < Self::TEXTS.len() {
                    table[i + 1] = Tok::Kw(Self::ALL[i]);
                    i += 1;
                }
                table
            };

            /// Each keyword's bytes as a little-endian number, zero-padded, in the order
            /// of [`Keyword::ALL`].
            const PADDED: [u128; Self::TEXTS.len()] = {
                let mut table = [0u128; Self::TEXTS.len()];
                let mut i = 0;
                while i < Self::TEXTS.len() {
                    let text = Self::TEXTS[i].as_bytes();
                    let mut j = 0;
                    while j < text.len() {
                        table[i] |= (text[j] as u128) << (8 * j);
                        j += 1;
                    }
                    i += 1;
                }
                table
            };
        }
    };
}

/// The slot of a candidate keyword in a 128-entry table: a hash of its first two bytes
/// and its length, chosen (by search) to be perfect over Harn's keywords.
const fn keyword_slot(first: u8, second: u8, len: usize) -> usize {
    (first as usize + second as usize * 8 + len * 23) & 127
}

keywords! {
    Break => "break", Catch => "catch", Continue => "continue", Deadline => "deadline",
    Defer => "defer", Emit => "emit", Else => "else", Enum => "enum", EvalPack => "eval_pack",
    Exclusive => "exclusive", Extends => "extends", False => "false", Finally => "finally",
    Fn => "fn", For => "for", From => "from", Guard => "guard", If => "if", Impl => "impl",
    Import => "import", In => "in", Interface => "interface", Let => "let", Match => "match",
    Mutex => "mutex", Nil => "nil", Override => "override", Parallel => "parallel",
    Pipeline => "pipeline", Pub => "pub", Require => "require", Retry => "retry",
    Return => "return", Select => "select", Skill => "skill", Spawn => "spawn",
    Struct => "struct", Throw => "throw", To => "to", Tool => "tool", True => "true",
    Try => "try", Type => "type", Var => "var", While => "while", Yield => "yield",
}

impl Keyword {
    /// Keywords that may not be used as bare dict keys or shape field names
    /// (`{finally: 1}` is a parse error); every other keyword may.
    pub fn allowed_as_key(self) -> bool {
        !matches!(
            self,
            Keyword::Finally
                | Keyword::Require
                | Keyword::Select
                | Keyword::Skill
                | Keyword::EvalPack
        )
    }
}

/// One segment of a string literal with `${...}` holes.
#[derive(Clone, Debug, PartialEq)]
pub enum StrSeg {
    Text(String),
    /// The raw source text of a hole and the byte offset where that text starts in the
    /// file.
    Hole {
        text: String,
        offset: u32,
    },
}

/// The value of a string literal, decoded from its source text ([`super::string_value`]).
#[derive(Clone, Debug, PartialEq)]
pub enum StrValue {
    /// No holes: the string's text.
    Text(String),
    /// At least one `${...}` hole.
    Segments(Vec<StrSeg>),
}

/// The value of a number or duration literal ([`super::number_value`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
    /// Milliseconds.
    Duration(i64),
}

/// A token kind. Tokens own no data: a name's or a string's text is read from the source
/// through the token's span (`Token::text`, [`super::string_value`]), so tokens are
/// plain values that the lexer, the layout pass and the parser copy without allocating,
/// hashing or dropping anything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tok {
    Newline,
    Ident,
    Kw(Keyword),
    /// An integer literal; its value is read from the source ([`super::number_value`]),
    /// as every literal's is, so that a token is a dozen bytes: the lexer, the layout
    /// pass and the parser each copy every token at least once.
    Int,
    Float,
    /// A duration literal.
    Duration,
    /// A string literal without holes (its value: [`super::string_value`]).
    Str,
    /// A string with at least one interpolation hole, and the nesting depth its holes
    /// are parsed at (set by the layout pass).
    IStr(u16),
    /// `r"..."`.
    RawStr,
    LParen,
    RParen,
    LBracket,
    RBracket,
    /// `{` that opens a block, dict or shape.
    LBrace,
    /// `{` whose matching `}` is preceded by a `->` at its own brace depth: a closure.
    ClosureBrace,
    RBrace,
    Comma,
    Colon,
    Semi,
    Dot,
    /// `...`
    Ellipsis,
    /// `..` (harnc alias of `to ... exclusive`)
    DotDot,
    /// `..=` (harnc alias of `to`)
    DotDotEq,
    QuestionDot,
    /// `?` used as the postfix Result operator.
    Question,
    /// `?` that starts a ternary (an operand follows).
    QuestionTernary,
    /// `?` directly followed by `[`: an optional subscript.
    QuestionIndex,
    Arrow,
    Assign,
    EqEq,
    NotEq,
    Lt,
    Gt,
    Le,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    StarStar,
    Bang,
    AndAnd,
    OrOr,
    PipeOp,
    Bar,
    At,
    Coalesce,
    PlusEq,
    MinusEq,
    StarEq,
    SlashEq,
    PercentEq,
    /// `try*` (the two tokens written without a space between them).
    TryStar,
}

impl Tok {
    /// Whether this token is `{` in any of its classifications.
    pub fn is_lbrace(&self) -> bool {
        matches!(self, Tok::LBrace | Tok::ClosureBrace)
    }

    pub fn is_keyword(&self, kw: Keyword) -> bool {
        matches!(self, Tok::Kw(k) if *k == kw)
    }

    /// Operator tokens (arithmetic, comparison, logical, assignment, `->`, `|>`, `??`),
    /// as an editor colours them.
    pub fn is_operator(&self) -> bool {
        self.continues_after() && !matches!(self, Tok::Kw(_) | Tok::Dot | Tok::QuestionDot)
            || matches!(self, Tok::Arrow | Tok::Bang)
    }

    /// Binary operators after which a line break does not end the expression.
    pub fn continues_after(&self) -> bool {
        matches!(
            self,
            Tok::Plus
                | Tok::Minus
                | Tok::Star
                | Tok::Slash
                | Tok::Percent
                | Tok::StarStar
                | Tok::EqEq
                | Tok::NotEq
                | Tok::Lt
                | Tok::Gt
                | Tok::Le
                | Tok::Ge
                | Tok::AndAnd
                | Tok::OrOr
                | Tok::Coalesce
                | Tok::PipeOp
                | Tok::Kw(Keyword::In)
                | Tok::Assign
                | Tok::PlusEq
                | Tok::MinusEq
                | Tok::StarEq
                | Tok::SlashEq
                | Tok::PercentEq
                | Tok::Dot
                | Tok::QuestionDot
        )
    }

    /// Operators that continue the previous line's expression when they start a line.
    pub fn continues_before(&self) -> bool {
        matches!(
            self,
            Tok::PipeOp
                | Tok::OrOr
                | Tok::AndAnd
                | Tok::EqEq
                | Tok::NotEq
                | Tok::Lt
                | Tok::Gt
                | Tok::Le
                | Tok::Ge
                | Tok::Coalesce
                | Tok::Plus
                | Tok::Star
                | Tok::Slash
                | Tok::Percent
                | Tok::StarStar
                | Tok::Dot
                | Tok::QuestionDot
        )
    }

    /// A name, or a number, duration or string literal without holes: a token that is a
    /// whole operand by itself and that no layout rule looks at.
    #[inline]
    pub fn is_atom(&self) -> bool {
        matches!(
            self,
            Tok::Ident | Tok::Int | Tok::Float | Tok::Duration | Tok::Str | Tok::RawStr
        )
    }

    /// A literal: a number, duration, string of any kind, `true`, `false` or `nil`.
    pub fn is_literal(&self) -> bool {
        matches!(
            self,
            Tok::Int
                | Tok::Float
                | Tok::Duration
                | Tok::Str
                | Tok::IStr(_)
                | Tok::RawStr
                | Tok::Kw(Keyword::True | Keyword::False | Keyword::Nil)
        )
    }

    /// Whether the token can begin an operand (decides postfix `?` versus ternary).
    pub fn starts_operand(&self) -> bool {
        self.is_literal()
            || matches!(
                self,
                Tok::Ident
                    | Tok::Kw(Keyword::Fn)
                    | Tok::LParen
                    | Tok::LBrace
                    | Tok::ClosureBrace
                    | Tok::Bang
                    | Tok::Minus
            )
    }

    /// Whether the token can end an operand (so a `-` after it is binary).
    pub fn ends_operand(&self) -> bool {
        self.is_literal() || matches!(self, Tok::Ident | Tok::RParen | Tok::RBracket | Tok::RBrace)
    }
}

/// A token as the reference prints it inside parser errors (`id(name)`, `str(text)`):
/// the token and the source it was lexed from, which holds its text.
pub struct TokenDisplay<'a> {
    token: &'a Token,
    source: &'a str,
}

impl fmt::Display for TokenDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match &self.token.tok {
            Tok::Newline => "\\n",
            Tok::Ident => return write!(f, "id({})", self.token.text(self.source)),
            Tok::Kw(k) => k.as_str(),
            Tok::Int | Tok::Float | Tok::Duration => {
                return match super::number_value(self.source, self.token.span) {
                    Number::Int(n) => write!(f, "int({n})"),
                    Number::Float(x) => write!(f, "float({x})"),
                    Number::Duration(ms) => write!(f, "duration({ms}ms)"),
                };
            }
            Tok::Str | Tok::RawStr => {
                let text = match super::string_value(self.source, self.token.span) {
                    Some(StrValue::Text(text)) => text,
                    _ => String::new(),
                };
                let kind = if self.token.tok == Tok::Str {
                    "str"
                } else {
                    "rstr"
                };
                return write!(f, "{kind}({text})");
            }
            Tok::IStr(_) => "istr(...)",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace | Tok::ClosureBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Semi => ";",
            Tok::Dot => ".",
            Tok::Ellipsis => "...",
            Tok::DotDot => "..",
            Tok::DotDotEq => "..=",
            Tok::QuestionDot => "?.",
            Tok::Question | Tok::QuestionTernary | Tok::QuestionIndex => "?",
            Tok::Arrow => "->",
            Tok::Assign => "=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::StarStar => "**",
            Tok::Bang => "!",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::PipeOp => "|>",
            Tok::Bar => "|",
            Tok::At => "@",
            Tok::Coalesce => "??",
            Tok::PlusEq => "+=",
            Tok::MinusEq => "-=",
            Tok::StarEq => "*=",
            Tok::SlashEq => "/=",
            Tok::PercentEq => "%=",
            Tok::TryStar => "try*",
        };
        f.write_str(s)
    }
}

/// A token with its byte span.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

impl Token {
    /// The token's text in `source`, the text it was lexed from (for a hole's tokens, the
    /// whole file: their spans are file offsets). Empty if the span does not fit.
    #[inline]
    pub fn text<'s>(&self, source: &'s str) -> &'s str {
        source.get(self.span.range()).unwrap_or("")
    }

    /// The token as parser errors print it.
    pub fn display<'a>(&'a self, source: &'a str) -> TokenDisplay<'a> {
        TokenDisplay {
            token: self,
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Keyword, Tok};

    #[test]
    fn keywords_fit_the_quick_filter() {
        for kw in Keyword::ALL {
            let text = kw.as_str();
            assert!((2..=9).contains(&text.len()), "{text}");
            assert!(text.as_bytes()[0].is_ascii_lowercase(), "{text}");
            assert_eq!(Keyword::from_word(text), Some(*kw));
        }
        for word in [
            "x",
            "Total",
            "interfaces",
            "_if",
            "iff",
            "item",
            "eval",
            "zz",
            "é1",
            "Fn",
            "tryx",
        ] {
            assert_eq!(Keyword::from_word(word), None, "{word}");
        }
    }

    /// The in-source lookup agrees with [`Keyword::from_word`] for every keyword and
    /// for near misses, both with 16 bytes of source after the word and at its very end.
    #[test]
    fn word_tok_agrees_with_from_word() {
        let mut words: Vec<String> = Keyword::ALL.iter().map(|k| k.as_str().to_owned()).collect();
        for kw in Keyword::ALL {
            let text = kw.as_str();
            words.push(format!("{text}x"));
            words.push(text[..text.len() - 1].to_owned());
            words.push(format!("_{}", &text[1..]));
        }
        words
            .extend(["x", "Total", "interfaces", "é1", "Fn", "tryx", "in1", "i"].map(String::from));
        // Words of 15, 16 and more bytes: the window holds the first 16.
        words.extend(
            [
                "abcdefghijklmno",
                "abcdefghijklmnop",
                "returnreturnreturn",
                "a_very_long_identifier",
            ]
            .map(String::from),
        );
        for word in &words {
            let expected = Keyword::from_word(word).map_or(Tok::Ident, Tok::Kw);
            for tail in ["", " ", " = 1234567890abcdefgh"] {
                let source = format!("({word}{tail}");
                assert_eq!(
                    Keyword::word_tok(source.as_bytes(), 1, word.len()),
                    expected,
                    "{source:?}"
                );
            }
        }
    }
}
