package diagram

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/ivc-project/ivc/syntax"
)

// Extensions are the file name extensions of diagrams: Mermaid's .mmd and
// .mermaid, PlantUML's .puml and .plantuml, and Markdown's .md, whose
// ```mermaid and ```plantuml blocks hold the diagrams.
var Extensions = []string{".mmd", ".mermaid", ".puml", ".plantuml", ".md"}

// IsDiagram reports whether name (with or without a #selector) names a
// diagram, by its extension.
func IsDiagram(name string) bool {
	file, _ := SplitSelector(name)
	return notationOf(file) != 0 || isMarkdown(file)
}

// notationOf returns the notation of a file by its extension, 0 for
// Markdown and any other file.
func notationOf(file string) Notation {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".mmd", ".mermaid":
		return Mermaid
	case ".puml", ".plantuml":
		return PlantUML
	}
	return 0
}

func isMarkdown(file string) bool { return strings.EqualFold(filepath.Ext(file), ".md") }

// SplitSelector splits "design.md#checkout-flow" into the file and the
// selector of one of its diagrams. A name whose part before its last '#'
// is not a diagram's file is all file.
func SplitSelector(name string) (file, selector string) {
	i := strings.LastIndexByte(name, '#')
	if i < 0 {
		return name, ""
	}
	if f := name[:i]; notationOf(f) != 0 || isMarkdown(f) {
		return f, name[i+1:]
	}
	return name, ""
}

// block is one diagram of a file: src[start:end] is its text, which starts
// at line (1-based) of the file.
type block struct {
	notation   Notation
	start, end int
	line       int
	pos        syntax.Pos // where the block starts (a Markdown fence, @startuml)
	heading    string     // the slug of the nearest heading above it (Markdown)
	name       string     // the name after @startuml, if any
	n          int        // its number in the file, from 1
}

// selectBlock finds the diagrams of a file and returns the one sel names:
// the only one when sel is "", else the sel-th (from 1), else the one
// under the heading whose slug is sel, or the @startuml block named sel.
func selectBlock(file string, src []byte, sel string) (block, error) {
	blocks, err := findBlocks(file, src)
	if err != nil {
		return block{}, err
	}
	for i := range blocks {
		blocks[i].n = i + 1
	}
	if sel == "" {
		if len(blocks) == 1 {
			return blocks[0], nil
		}
		return block{}, fmt.Errorf("%s: %d sequence diagrams: choose one with %s", syntax.FileName(file), len(blocks), choices(file, blocks))
	}
	if n, err := strconv.Atoi(sel); err == nil {
		if n < 1 || n > len(blocks) {
			return block{}, fmt.Errorf("%s#%s: no diagram %d: the file has %d (%s)", syntax.FileName(file), sel, n, len(blocks), choices(file, blocks))
		}
		return blocks[n-1], nil
	}
	var found []block
	for _, b := range blocks {
		if b.heading == strings.ToLower(sel) || b.name == sel {
			found = append(found, b)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return block{}, fmt.Errorf("%s#%s: no diagram under a heading %q: choose one with %s", syntax.FileName(file), sel, sel, choices(file, blocks))
	}
	return block{}, fmt.Errorf("%s#%s: %d diagrams under this heading: choose one by its number, %s", syntax.FileName(file), sel, len(found), choices(file, found))
}

// choices lists how to select each of blocks: "design.md#1 (line 12,
// #checkout-flow), design.md#2 (line 40)", the first few of many.
func choices(file string, blocks []block) string {
	const most = 10
	var parts []string
	for _, b := range blocks[:min(len(blocks), most)] {
		s := fmt.Sprintf("%s#%d (line %d", file, b.n, b.pos.Line)
		if b.heading != "" {
			s += ", #" + b.heading
		} else if b.name != "" {
			s += ", #" + b.name
		}
		parts = append(parts, s+")")
	}
	if len(blocks) > most {
		parts = append(parts, fmt.Sprintf("... (%d in all)", len(blocks)))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// findBlocks returns the sequence diagrams of a file, in order.
func findBlocks(file string, src []byte) ([]block, error) {
	start, line := 0, 1
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		start = 3
	}
	whole := block{start: start, end: len(src), line: line, pos: syntax.Pos{Offset: start, Line: 1, Col: 1}}
	switch notationOf(file) {
	case Mermaid:
		whole.notation = Mermaid
		return []block{whole}, nil
	case PlantUML:
		blocks := plantUMLBlocks(src, whole)
		for _, b := range blocks {
			if other, _ := plantUMLKind(src[b.start:b.end]); other {
				return nil, errorf(file, b.pos, "not a sequence diagram: this PlantUML diagram is of another kind (class, state, activity...)")
			}
		}
		return blocks, nil
	}
	blocks := markdownBlocks(src, start)
	if len(blocks) > 0 {
		return blocks, nil
	}
	// A Markdown file that is a bare diagram, as some repositories keep
	// them.
	switch first := firstLine(src[start:]); {
	case strings.HasPrefix(first, "sequenceDiagram"):
		whole.notation = Mermaid
		return []block{whole}, nil
	case strings.HasPrefix(first, "@startuml"):
		return plantUMLBlocks(src, whole), nil
	}
	return nil, fmt.Errorf("%s: no sequence diagram: want a ```mermaid block that starts with sequenceDiagram, or a ```plantuml block", syntax.FileName(file))
}

// firstLine returns the first line of src that is not blank, trimmed.
func firstLine(src []byte) string {
	for len(src) > 0 {
		line, rest, _ := bytes.Cut(src, []byte("\n"))
		if t := strings.TrimSpace(string(line)); t != "" {
			return t
		}
		src = rest
	}
	return ""
}

// line is a line of a source: src[start:end] without its line break.
type line struct {
	start, end int
	num        int // 1-based
}

// lines splits src[start:end], which starts at line num, into lines.
func lines(src []byte, start, end, num int) []line {
	var ls []line
	for start < end {
		e := start + bytes.IndexByte(src[start:end], '\n')
		next := e + 1
		if e < start {
			e, next = end, end
		}
		if e > start && src[e-1] == '\r' {
			e--
		}
		ls = append(ls, line{start, e, num})
		start = next
		num++
	}
	return ls
}

// pos returns the position of the offset off of line l.
func (l line) pos(off int) syntax.Pos {
	return syntax.Pos{Offset: off, Line: l.num, Col: off - l.start + 1}
}

// markdownBlocks returns the ```mermaid blocks that hold a sequenceDiagram
// and the ```plantuml (or ```puml) blocks that hold a sequence diagram, in
// order, each with the slug of the nearest ATX heading above it (GitHub's
// anchors: see slug).
func markdownBlocks(src []byte, start int) []block {
	var (
		blocks  []block
		heading string
		slugs   = map[string]int{}
		fence   string // the open fence ("```", "~~~~"), "" outside a code block
		cur     *block
	)
	for _, l := range lines(src, start, len(src), 1) {
		text := string(src[l.start:l.end])
		indent := len(text) - len(strings.TrimLeft(text, " "))
		trimmed := strings.TrimSpace(text)
		if fence != "" {
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				if cur != nil {
					cur.end = l.start
					if isSequence(cur.notation, src[cur.start:cur.end]) {
						blocks = append(blocks, *cur)
					}
				}
				fence, cur = "", nil
			}
			continue
		}
		if indent >= 4 {
			continue
		}
		if f := fenceOf(trimmed); f != "" {
			fence = f
			info := strings.ToLower(strings.Fields(trimmed[len(f):] + " x")[0])
			var n Notation
			switch info {
			case "mermaid":
				n = Mermaid
			case "plantuml", "puml":
				n = PlantUML
			}
			if n != 0 {
				next := l.end
				if next < len(src) && src[next] == '\r' {
					next++
				}
				if next < len(src) {
					next++
				}
				cur = &block{notation: n, start: next, end: len(src), line: l.num + 1, pos: l.pos(l.start + indent), heading: heading}
			}
			continue
		}
		if h, ok := atxHeading(trimmed); ok {
			heading = slug(h, slugs)
		}
	}
	if cur != nil && isSequence(cur.notation, src[cur.start:cur.end]) { // not closed: to the end (CommonMark)
		blocks = append(blocks, *cur)
	}
	return blocks
}

// fenceOf returns the fence that opens a code block on a trimmed line:
// three or more backticks or tildes.
func fenceOf(trimmed string) string {
	for _, c := range []string{"`", "~"} {
		n := len(trimmed) - len(strings.TrimLeft(trimmed, c))
		if n >= 3 && !(c == "`" && strings.Contains(trimmed[n:], "`")) {
			return trimmed[:n]
		}
	}
	return ""
}

// atxHeading returns the text of a Markdown heading "## Text ##".
func atxHeading(trimmed string) (string, bool) {
	n := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
	if n < 1 || n > 6 || len(trimmed) > n && trimmed[n] != ' ' && trimmed[n] != '\t' {
		return "", false
	}
	h := strings.TrimSpace(trimmed[n:])
	if t := strings.TrimRight(h, "#"); t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t") {
		h = strings.TrimSpace(t)
	}
	return h, true
}

// slug returns the anchor GitHub gives a heading: its text (a link's
// label for a link), in lower case, without the characters that are not
// letters, digits, spaces, '-' or '_', its spaces turned into '-'; the
// second heading of the same anchor gets "-1", the third "-2". seen counts
// the anchors given so far.
func slug(heading string, seen map[string]int) string {
	heading = stripLinks(heading)
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	s := b.String()
	n := seen[s]
	seen[s] = n + 1
	if n > 0 {
		s = fmt.Sprintf("%s-%d", s, n)
	}
	return s
}

// stripLinks replaces the Markdown links [label](url) of s by their label.
func stripLinks(s string) string {
	for {
		i := strings.Index(s, "](")
		if i < 0 {
			return s
		}
		open := strings.LastIndexByte(s[:i], '[')
		end := strings.IndexByte(s[i:], ')')
		if open < 0 || end < 0 {
			return s
		}
		s = s[:open] + s[open+1:i] + s[i+end+1:]
	}
}

// isSequence reports whether the text of a Markdown block holds a sequence
// diagram: a Mermaid block whose first statement is sequenceDiagram (after
// its front matter, comments and directives); a PlantUML block that is not
// one of PlantUML's other diagrams.
func isSequence(n Notation, text []byte) bool {
	if n == PlantUML {
		return isPlantUMLSequence(text)
	}
	inFront := false
	for i, l := range lines(text, 0, len(text), 1) {
		t := strings.TrimSpace(string(text[l.start:l.end]))
		switch {
		case t == "---" && (i == 0 || inFront):
			inFront = !inFront
		case inFront, t == "", strings.HasPrefix(t, "%%"):
		default:
			return strings.HasPrefix(t, "sequenceDiagram")
		}
	}
	return false
}
