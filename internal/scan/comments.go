package scan

import (
	"bytes"

	"github.com/ivc-project/ivc/syntax"
)

// Comment is a /* */ comment as the scanner met it.
type Comment struct {
	Text string // from "/*" to "*/"
	Pos  syntax.Pos
	// Trailing reports that the comment ends a line that it shares with a
	// token before it: a token, or a trailing comment, precedes it on the
	// line where it starts, and none follows it on the line where it ends
	// but separators and closing brackets (see EndsLine).
	Trailing bool
}

// Span is the extent of a part of a source file: the offsets of its first
// byte and of the byte after its last.
type Span struct{ Start, End int }

// Attach gives each comment of cs, in source order, to one of the parts of
// a region of a source file (the whole file, or the inside of a part),
// whose spans are given in source order:
//
//   - a comment within part i is passed to inside(i, ...), which attaches it
//     among the parts of part i, or keeps it as its own;
//   - a comment before the first part goes to its Before;
//   - a comment between two parts goes to the After of the first when it is
//     Trailing, else to the Before of the second;
//   - a comment after the last part goes to its After when Trailing, else to
//     rest (which keeps it as the region's Inside, or Below at the end of a
//     file); so do all comments when there is no part.
//
// at(i) returns where part i keeps its comments. A parser calls Attach once
// per region that has comments; its formatter prints each list where the
// Comments fields say, and the result parses back to the same attachment.
func Attach(cs []Comment, parts []Span, at func(i int) *syntax.Comments, inside func(i int, cs []Comment), rest func(cs []Comment)) {
	i := 0 // the first part that does not end before the comment
	for k := 0; k < len(cs); {
		c := cs[k]
		for i < len(parts) && parts[i].End <= c.Pos.Offset {
			i++
		}
		switch {
		case i < len(parts) && parts[i].Start <= c.Pos.Offset:
			n := k + 1
			for n < len(cs) && cs[n].Pos.Offset < parts[i].End {
				n++
			}
			inside(i, cs[k:n])
			k = n
			continue
		case i > 0 && c.Trailing:
			at(i - 1).After = append(at(i-1).After, c.Text)
		case i < len(parts):
			at(i).Before = append(at(i).Before, c.Text)
		default:
			rest(cs[k : k+1])
		}
		k++
	}
}

// Texts returns the texts of cs.
func Texts(cs []Comment) []string {
	texts := make([]string, len(cs))
	for i, c := range cs {
		texts[i] = c.Text
	}
	return texts
}

// WriteLines writes each comment on a line of its own, after indent.
func WriteLines(b *bytes.Buffer, texts []string, indent string) {
	for _, t := range texts {
		b.WriteString(indent)
		b.WriteString(t)
		b.WriteByte('\n')
	}
}

// WriteAfter writes the comments that end a line, each after a space.
func WriteAfter(b *bytes.Buffer, texts []string) {
	for _, t := range texts {
		b.WriteByte(' ')
		b.WriteString(t)
	}
}
