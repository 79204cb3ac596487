package diagram

import (
	"encoding/json"
	"html"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ivc-project/ivc/syntax"
)

// stmt is a statement of a diagram: src[off:off+len(text)] is text, on
// line l.
type stmt struct {
	text string
	off  int
	l    line
}

// pos returns the position of the i-th byte of the statement.
func (s stmt) pos(i int) syntax.Pos { return s.l.pos(s.off + i) }

// word returns the statement's first word, in lower case, and the text
// after it, trimmed.
func (s stmt) word() (string, string) {
	i := strings.IndexAny(s.text, " \t")
	if i < 0 {
		return strings.ToLower(s.text), ""
	}
	return strings.ToLower(s.text[:i]), strings.TrimSpace(s.text[i:])
}

// at returns the statement that starts at the i-th byte of s, trimmed.
func (s stmt) at(i int) stmt {
	t := s.text[i:]
	lead := len(t) - len(strings.TrimLeft(t, " \t"))
	return stmt{text: strings.TrimSpace(t), off: s.off + i + lead, l: s.l}
}

// skipUntil is what a statement that spans lines makes the reader skip:
// the lines up to one that ends it.
type skipUntil func(trimmed string) bool

// readMermaid reads a Mermaid sequenceDiagram, as Mermaid's grammar
// (sequenceDiagram.jison) reads it: statements end at a line break or a
// ';', "%%" and a '#' that starts no entity (#59;) start comments, and
// keywords are matched in any case.
func readMermaid(b *builder, blk block) error {
	ls := lines(b.src, blk.start, blk.end, blk.line)
	header, front := false, false
	var skip skipUntil
	for i, l := range ls {
		raw := string(b.src[l.start:l.end])
		t := strings.TrimSpace(raw)
		lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
		switch {
		case skip != nil:
			if skip(t) {
				skip = nil
			}
			continue
		case t == "":
			continue
		case !header && t == "---" && (front || i == 0 || firstLine(b.src[blk.start:l.start]) == ""):
			front = !front // YAML front matter, before the diagram
			continue
		case front:
			continue
		case strings.HasPrefix(t, "%%{"): // a directive: %%{init: ...}%%, maybe on several lines
			if !strings.Contains(t, "}%%") {
				skip = func(t string) bool { return strings.Contains(t, "}%%") }
			}
			continue
		case strings.HasPrefix(t, "%%"):
			rest := strings.TrimLeft(t[2:], " \t")
			if !strings.HasPrefix(rest, "ivc:") {
				continue
			}
			at := l.start + lead + len(t) - len(rest) + len("ivc:")
			if !header {
				return b.errorf(l.pos(at), "ivc: annotation before sequenceDiagram")
			}
			if err := b.annotate(l.pos(at), l.end); err != nil {
				return err
			}
			continue
		}
		for _, s := range mermaidStatements(b.src, l, l.start+lead) {
			if !header {
				if w, rest := s.word(); w != "sequencediagram" || rest != "" {
					return b.errorf(s.pos(0), "expected sequenceDiagram, found %s", quoteText(s.text))
				}
				header = true
				continue
			}
			var err error
			if skip, err = mermaidStatement(b, s); err != nil {
				return err
			}
		}
	}
	if !header {
		return b.errorf(blk.pos, "no sequenceDiagram")
	}
	return nil
}

// mermaidStatements splits the line l, from off, into its statements: up
// to a ';' or the comment that ends the line.
func mermaidStatements(src []byte, l line, off int) []stmt {
	var ss []stmt
	start := off
	cut := func(i int) {
		if t := strings.TrimSpace(string(src[start:i])); t != "" {
			lead := len(src[start:i]) - len(strings.TrimLeft(string(src[start:i]), " \t"))
			ss = append(ss, stmt{text: t, off: start + lead, l: l})
		}
		start = i + 1
	}
	for i := off; i < l.end; i++ {
		switch c := src[i]; {
		case c == ';':
			cut(i)
		case c == '%' && i+1 < l.end && src[i+1] == '%' && (i == off || src[i-1] != '}'):
			cut(i)
			return ss
		case c == '#':
			if n := entityLen(src[i:l.end]); n > 0 {
				i += n - 1
				continue
			}
			cut(i)
			return ss
		}
	}
	cut(l.end)
	return ss
}

// entityLen returns the length of the entity Mermaid encodes at the start
// of s (#59;, #lt;: '#', letters, digits or '_', ';'), or 0.
func entityLen(s []byte) int {
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ';':
			if i > 1 {
				return i + 1
			}
			return 0
		case c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		default:
			return 0
		}
	}
	return 0
}

// mermaidDecode decodes the entities of a text: #59; is ';', #lt; is '<'.
func mermaidDecode(s string) string {
	if !strings.Contains(s, "#") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		n := entityLen([]byte(s[i:]))
		if s[i] != '#' || n == 0 {
			b.WriteByte(s[i])
			continue
		}
		name := s[i+1 : i+n-1]
		if v, err := strconv.Atoi(name); err == nil && v > 0 && v <= utf8.MaxRune {
			b.WriteRune(rune(v))
		} else if d := html.UnescapeString("&" + name + ";"); d != "&"+name+";" {
			b.WriteString(d)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n - 1
	}
	return b.String()
}

// mermaidStatement reads one statement after the header, and returns what
// to skip when it spans lines.
func mermaidStatement(b *builder, s stmt) (skipUntil, error) {
	w, rest := s.word()
	pos := s.pos(0)
	if b.inBox {
		switch w {
		case "end":
			if err := b.ignored("end", pos); err != nil {
				return nil, err
			}
			b.inBox, b.box = false, ""
			return nil, nil
		case "participant", "actor", "create":
		default:
			return nil, b.errorf(pos, "%s in a box: a box holds participants", quoteText(s.text))
		}
	}
	switch w {
	case "participant", "actor":
		return nil, mermaidParticipant(b, s, w, rest)
	case "create":
		w2, rest2 := s.at(len(s.text) - len(rest)).word()
		if w2 != "participant" && w2 != "actor" {
			return nil, b.errorf(pos, "expected participant or actor after create")
		}
		return nil, mermaidParticipant(b, s.at(len(s.text)-len(rest)), w2, rest2)
	case "destroy", "activate", "deactivate", "autonumber", "title", "title:", "link", "links", "properties", "details":
		return nil, b.ignored(w, pos)
	case "box":
		if err := b.ignored(w, pos); err != nil {
			return nil, err
		}
		b.inBox, b.box = true, boxLabel(rest)
		return nil, nil
	case "loop":
		return nil, b.open(blockLoop, w, pos)
	case "alt":
		return nil, b.open(blockAlt, w, pos)
	case "opt":
		return nil, b.open(blockOpt, w, pos)
	case "par", "par_over":
		return nil, b.open(blockPar, w, pos)
	case "critical":
		return nil, b.open(blockCritical, w, pos)
	case "break":
		return nil, b.open(blockBreak, w, pos)
	case "rect":
		return nil, b.open(blockRect, w, pos)
	case "else":
		return nil, b.section(w, pos, blockAlt)
	case "and":
		return nil, b.section(w, pos, blockPar)
	case "option":
		return nil, b.section(w, pos, blockCritical)
	case "end":
		return nil, b.close(pos)
	case "note":
		if err := b.ignored(w, pos); err != nil {
			return nil, err
		}
		if !strings.Contains(rest, ":") { // a note over lines, to end
			return func(t string) bool { return strings.EqualFold(t, "end") }, nil
		}
		return nil, nil
	}
	if lw := strings.ToLower(s.text); strings.HasPrefix(lw, "acctitle") || strings.HasPrefix(lw, "accdescr") {
		if err := b.ignored("accTitle", pos); err != nil {
			return nil, err
		}
		if i := strings.IndexAny(s.text, ":{"); i >= 0 && s.text[i] == '{' && !strings.Contains(s.text[i:], "}") {
			return func(t string) bool { return strings.Contains(t, "}") }, nil
		}
		return nil, nil
	}
	a, err := mermaidArrow(b, s)
	if err != nil {
		return nil, err
	}
	return nil, b.message(a)
}

// boxLabel is the label of "box COLOR LABEL": the text after its color
// when the color is rgb(...), rgba(...), hsl(...) or transparent.
func boxLabel(rest string) string {
	lw := strings.ToLower(rest)
	switch {
	case strings.HasPrefix(lw, "rgb"), strings.HasPrefix(lw, "hsl"):
		if i := strings.IndexByte(rest, ')'); i >= 0 {
			return strings.TrimSpace(rest[i+1:])
		}
	case strings.HasPrefix(lw, "transparent"):
		return strings.TrimSpace(rest[len("transparent"):])
	}
	return mermaidDecode(rest)
}

// mermaidParticipant reads "participant ID [@{...}] [as NAME]" (or actor).
func mermaidParticipant(b *builder, s stmt, shape, rest string) error {
	idAt := len(s.text) - len(rest)
	var config string
	if i := strings.Index(rest, "@{"); i >= 0 {
		end := strings.IndexByte(rest[i:], '}')
		if end < 0 {
			return b.errorf(s.pos(idAt+i), "participant: '@{' without its '}'")
		}
		config = rest[i+1 : i+end+1]
		rest = rest[:i] + rest[i+end+1:]
	}
	id, name := rest, ""
	if i := indexAs(rest); i >= 0 {
		id, name = strings.TrimSpace(rest[:i]), strings.TrimSpace(mermaidDecode(strings.TrimSpace(rest[i+4:])))
	}
	if id == "" {
		return b.errorf(s.pos(0), "%s without a name", shape)
	}
	if name == "" && config != "" {
		var c struct{ Alias string }
		if json.Unmarshal([]byte(config), &c) == nil {
			name = strings.TrimSpace(c.Alias)
		}
	}
	if name == "" {
		name = id
	}
	_, err := b.participant(Participant{ID: id, Name: name, Shape: shape, Pos: s.pos(idAt)})
	return err
}

// indexAs returns the index of the first " as " of s (any spaces around,
// any case), or -1.
func indexAs(s string) int {
	ls := strings.ToLower(s)
	for i := 1; i+3 < len(s); i++ {
		if (ls[i-1] == ' ' || ls[i-1] == '\t') && ls[i:i+2] == "as" && (ls[i+2] == ' ' || ls[i+2] == '\t') {
			return i - 1
		}
	}
	return -1
}

// mermaidArrows are Mermaid's arrows, longest first: solid (-) and dotted
// (--) lines with an arrowhead (>>), none (>), a cross (x), an open arrow
// ()), half arrowheads (v11.12), and both ways (<<->>).
var mermaidArrows = func() []string {
	as := []string{"->>", "-->>", "->", "-->", "-x", "--x", "-)", "--)", "<<->>", "<<-->>",
		`-|\`, `--|\`, `-|/`, `--|/`, `/|-`, `/|--`, `\|-`, `\|--`, `-\\`, `--\\`, `-//`, `--//`, `//-`, `//--`, `\\-`, `\\--`}
	sort.SliceStable(as, func(i, j int) bool { return len(as[i]) > len(as[j]) })
	return as
}()

// mermaidArrow reads a message "A->>B: text": the first arrow after a
// participant, activation marks (+, -) and central connections (()) left
// out.
func mermaidArrow(b *builder, s stmt) (arrow, error) {
	t := s.text
	for i := 1; i < len(t); i++ {
		if c := t[i]; c != '-' && c != '<' && c != '/' && c != '\\' {
			continue
		}
		for _, a := range mermaidArrows {
			if !strings.HasPrefix(t[i:], a) {
				continue
			}
			from := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[:i]), "()"))
			j := i + len(a)
			j += len(t[j:]) - len(strings.TrimLeft(t[j:], " \t"))
			if strings.HasPrefix(t[j:], "()") {
				j += 2
			}
			if j < len(t) && (t[j] == '+' || t[j] == '-') {
				j++
			}
			colon := strings.IndexByte(t[j:], ':')
			if colon < 0 {
				return arrow{}, b.errorf(s.pos(i), "message without text: expected ':' and the message after %s%s", quoteText(t[:i]), a)
			}
			to := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t[j:j+colon]), "()"))
			toAt := j + len(t[j:]) - len(strings.TrimLeft(t[j:], " \t("))
			if from == "" || to == "" {
				return arrow{}, b.errorf(s.pos(i), "arrow %s without a participant at each end", a)
			}
			text := t[j+colon+1:]
			textAt := j + colon + 1 + len(text) - len(strings.TrimLeft(text, " \t"))
			text = strings.TrimSpace(text)
			for _, w := range []string{"wrap:", "nowrap:"} {
				if len(text) >= len(w) && strings.EqualFold(text[:len(w)], w) {
					text = strings.TrimSpace(text[len(w):])
				}
			}
			return arrow{
				from:    endpoint{id: from, pos: s.pos(0)},
				to:      endpoint{id: to, pos: s.pos(toAt)},
				arrow:   a,
				reply:   strings.Contains(a, "--"),
				text:    mermaidDecode(text),
				textPos: s.pos(textAt),
			}, nil
		}
	}
	return arrow{}, b.errorf(s.pos(0), "expected a message (A->>B: text) or a statement, found %s", quoteText(t))
}

// quoteText quotes a statement for an error message, cut when long.
func quoteText(s string) string { return strconv.Quote(shorten(s, 60)) }

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
