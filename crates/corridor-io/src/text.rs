//! Small helpers shared by the text readers: positions of bytes, numbered lines and
//! whitespace-separated tokens that remember where they stand.

/// The 1-based line and column (in bytes, 1-based) of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, offset - line_start + 1)
}

/// [`line_column`] for offsets given in increasing order, in time linear in the text
/// (a reader that named every obstacle's position with `line_column` counted from the
/// start each time: quadratic, 6 min for 100k obstacles). An offset before the last one
/// starts again from the beginning.
pub(crate) struct LineCursor<'a> {
    text: &'a str,
    offset: usize,
    line: usize,
    line_start: usize,
}

impl<'a> LineCursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        LineCursor {
            text,
            offset: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The 1-based line and column of byte `offset`.
    pub(crate) fn at(&mut self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            *self = LineCursor::new(self.text);
        }
        let between = &self.text.as_bytes()[self.offset..offset];
        if let Some(last) = between.iter().rposition(|&b| b == b'\n') {
            self.line += between.iter().filter(|&&b| b == b'\n').count();
            self.line_start = self.offset + last + 1;
        }
        self.offset = offset;
        (self.line, offset - self.line_start + 1)
    }

    /// [`LineCursor::at`] the start of `part`, a sub-slice of the text.
    pub(crate) fn at_part(&mut self, part: &str) -> (usize, usize) {
        self.at(offset_in(self.text, part))
    }
}

/// Byte offset of `part` inside `whole`, when `part` is a sub-slice of it.
pub(crate) fn offset_in(whole: &str, part: &str) -> usize {
    let start = whole.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    at.saturating_sub(start).min(whole.len())
}

/// Lines with their 1-based numbers; a trailing `\r` is stripped (files written on
/// Windows read the same). A final line break does not start another line.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').enumerate().map(|(i, line)| {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        (i + 1, line)
    })
}

/// Number of the last line of `text` (where "the file ended" errors point).
pub(crate) fn last_line(text: &str) -> usize {
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    trimmed.bytes().filter(|&b| b == b'\n').count() + 1
}

/// A whitespace-separated token and where it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub text: &'a str,
    pub line: usize,
    pub column: usize,
}

/// Whitespace-separated tokens with their lines and columns.
pub(crate) struct Tokens<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Self {
        Tokens {
            text,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// Line of the next token, or of the end of the text.
    pub fn line(&self) -> usize {
        self.line
    }

    /// How many bytes are left (an upper bound on the number of tokens left, times 2).
    pub fn remaining_bytes(&self) -> usize {
        self.text.len() - self.pos
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            if bytes[self.pos] == b'\n' {
                self.line += 1;
                self.line_start = self.pos + 1;
            }
            self.pos += 1;
        }
        if self.pos >= bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < bytes.len() && !bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        Some(Token {
            text: &self.text[start..self.pos],
            line: self.line,
            column: start - self.line_start + 1,
        })
    }
}

/// Splits a line into fields separated by runs of spaces/tabs,
/// each with its 1-based byte column.
pub(crate) fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        out.push((start + 1, &line[start..i]));
    }
    out
}

/// Shortens a piece of input for an error message.
pub(crate) fn excerpt(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(MAX).collect();
        out.push('…');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let text = "ab\ncd ef\n\n  g";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 6), (2, 4));
        let mut cursor = LineCursor::new(text);
        for offset in [0, 1, 3, 6, 6, 9, 12, 2, 13, 40] {
            assert_eq!(cursor.at(offset), line_column(text, offset), "{offset}");
        }
        let toks: Vec<_> = Tokens::new(text)
            .map(|t| (t.text, t.line, t.column))
            .collect();
        assert_eq!(
            toks,
            vec![("ab", 1, 1), ("cd", 2, 1), ("ef", 2, 4), ("g", 4, 3)]
        );
        assert_eq!(last_line("a\nb\n"), 2);
        assert_eq!(fields("a\t b  c"), vec![(1, "a"), (4, "b"), (7, "c")]);
    }
}
