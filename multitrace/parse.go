package multitrace

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// The parser reads the bytes directly rather than through internal/scan:
// .htf files are long logs, and a byte-level reader that interns names
// instead of copying them is several times faster. Positions follow the
// conventions of internal/scan (1-based lines, columns counted in bytes).
//
// One grammar serves both levels. The parser reports what it reads to a
// builder: syntaxBuilder makes a File (Parse), resolver checks names
// against a signature and makes a MultiTrace (ParseResolve), and
// File.Resolve replays a File into a resolver, so both ways of resolving
// give the same results and the same errors.

// sym is an interned name: an index into parser.names.
type sym int32

// actionRef is an action as read, with interned names.
type actionRef struct {
	l, m       sym
	kind       interaction.Kind
	lpos, mpos syntax.Pos
}

// builder receives the structure of a multi-trace in file order:
// component, then lifeline for each name of an explicit list, then reserve
// if the trace has events, and for each event either single (an event of
// one action, at the position of that action) or its actions followed by
// event (a multi-action), then endComponent; finish at the end.
// A builder error stops the building but not the parsing: a syntax error
// further on takes precedence, as when parsing and resolving separately.
type builder interface {
	component(pos syntax.Pos, k Kind) error
	lifeline(s sym, pos syntax.Pos) error
	reserve(events int) // a hint: the current component's trace has about this many events
	single(a actionRef) error
	action(a actionRef) error
	event(pos syntax.Pos) error
	endComponent() error
	finish() error
}

// discard is the builder used after a builder error.
type discard struct{}

func (discard) component(syntax.Pos, Kind) error { return nil }
func (discard) lifeline(sym, syntax.Pos) error   { return nil }
func (discard) reserve(int)                      {}
func (discard) single(actionRef) error           { return nil }
func (discard) action(actionRef) error           { return nil }
func (discard) event(syntax.Pos) error           { return nil }
func (discard) endComponent() error              { return nil }
func (discard) finish() error                    { return nil }

// interner maps names to syms.
type interner struct {
	syms  map[string]sym
	names []string
}

func (in *interner) internBytes(b []byte) sym {
	if s, ok := in.syms[string(b)]; ok {
		return s
	}
	return in.add(string(b))
}

func (in *interner) intern(name string) sym {
	if s, ok := in.syms[name]; ok {
		return s
	}
	return in.add(name)
}

func (in *interner) add(name string) sym {
	if in.syms == nil {
		in.syms = map[string]sym{}
	}
	s := sym(len(in.names))
	in.names = append(in.names, name)
	in.syms[name] = s
	return s
}

type parser struct {
	interner
	file      string
	src       []byte
	off       int
	line      int
	lineStart int // offset of the first byte of the current line
	b         builder
	berr      error // the first builder error
	lexErr    error // an unterminated comment
	braced    bool
	closed    bool           // the closing '}' of a braced multi-trace is read
	openBrace bool           // the file starts with '{' and a multi-action
	cache     [64]cacheEntry // recently read names, by a hash of their bytes

	// onComment, when set, is told of each comment, in source order:
	// whether a token precedes it on its line, and where it is.
	onComment func(text []byte, trailing bool, at place)
	quiet     bool // looking ahead: comments are reported when read again
	holding   bool // reading a component's '[': comments wait in held
	held      []heldComment
}

// heldComment is a comment met while the parser could not report it yet.
type heldComment struct {
	text     []byte
	trailing bool
	at       place
}

// hold makes the comments met from now on wait for release: those within
// a component's brackets are reported once the builder knows the component
// has started, so that they are not taken for the previous one's.
func (p *parser) hold() { p.holding = p.onComment != nil }

// release reports the comments held.
func (p *parser) release() {
	if !p.holding {
		return
	}
	p.holding = false
	for _, c := range p.held {
		p.onComment(c.text, c.trailing, c.at)
	}
	p.held = p.held[:0]
}

// place is where a comment is, with respect to the braces of a multi-trace.
type place uint8

const (
	beforeBraces place = iota // or in a file without braces
	inBraces
	afterBraces
)

// cacheEntry is a name read recently; the empty name (no entry) matches no
// label.
type cacheEntry struct {
	name string
	s    sym
}

func newParser(file string, src []byte, b builder) *parser {
	p := &parser{file: file, src: src, line: 1, b: b}
	if scan.HasBOM(src) {
		// Skipped as editors hide it: what follows is at column 1.
		p.off, p.lineStart = len(scan.BOM), len(scan.BOM)
	}
	return p
}

func (p *parser) pos() syntax.Pos {
	return syntax.Pos{Offset: p.off, Line: p.line, Col: p.off - p.lineStart + 1}
}

func (p *parser) errorf(pos syntax.Pos, format string, args ...any) error {
	return &syntax.Error{File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// check records the first builder error and stops building.
func (p *parser) check(err error) {
	if err != nil && p.berr == nil {
		p.berr = err
		p.b = discard{}
	}
}

// parse reads the whole file.
func (p *parser) parse() error {
	err := p.file_()
	if p.lexErr != nil {
		// An unterminated comment ends the input early: it is the first
		// error, whatever the parser made of the end of the input.
		return p.lexErr
	}
	if err != nil {
		return err
	}
	if p.berr != nil {
		return p.berr
	}
	return p.b.finish()
}

// peek returns the next byte after whitespace and comments, or 0 at the end
// of the input (a NUL byte in the input is reported as unexpected anyway).
func (p *parser) peek() byte {
	if p.off < len(p.src) && p.src[p.off] > ' ' && p.src[p.off] != '/' {
		return p.src[p.off]
	}
	return p.peekSlow()
}

func (p *parser) peekSlow() byte {
	p.skip()
	if p.off < len(p.src) {
		return p.src[p.off]
	}
	return 0
}

func (p *parser) atEOF() bool { return p.off >= len(p.src) }

// skip skips whitespace and comments. An unterminated comment sets
// p.lexErr and moves to the end of the input.
func (p *parser) skip() {
	// skip is called right after a token, or at the start: a token
	// precedes what it skips on the current line when the line has a
	// byte before p.off.
	afterToken := p.off > p.lineStart
	var met []heldComment // the comments, reported when skip ends
	onLine := 0           // the first of met on the current line
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case ' ', '\t', '\r':
			p.off++
		case '\n':
			p.off++
			p.line++
			p.lineStart = p.off
			afterToken = false
			onLine = len(met)
		case '/':
			if p.off+1 >= len(p.src) || p.src[p.off+1] != '*' {
				p.report(met, onLine)
				return
			}
			end := bytes.Index(p.src[p.off+2:], []byte("*/"))
			if end < 0 {
				p.lexErr = p.errorf(p.pos(), "comment not terminated: missing '*/'")
				p.off = len(p.src)
				return
			}
			end += p.off + 4
			body := p.src[p.off:end]
			if p.onComment != nil && !p.quiet {
				met = append(met, heldComment{body, afterToken, p.place()})
			}
			if n := bytes.Count(body, []byte("\n")); n > 0 {
				p.line += n
				p.lineStart = p.off + bytes.LastIndexByte(body, '\n') + 1
				// The comments that follow on the line where this one ends
				// trail as it does (afterToken unchanged): FormatSource
				// writes a component's trailing comments on one line, a
				// multi-line one among them (as internal/scan reads them).
				onLine = max(len(met)-1, 0)
			}
			p.off = end
		default:
			p.report(met, onLine)
			return
		}
	}
	p.report(met, onLine)
}

// report reports the comments met by skip, which stopped at p.off; those
// from met[onLine] on are on its line.
func (p *parser) report(met []heldComment, onLine int) {
	if len(met) == 0 {
		return
	}
	if p.off < len(p.src) && !scan.EndsLine(p.src[p.off]) {
		// A name follows the last comments on their line.
		for i := onLine; i < len(met); i++ {
			met[i].trailing = false
		}
	}
	for _, c := range met {
		if p.holding {
			p.held = append(p.held, c)
		} else {
			p.onComment(c.text, c.trailing, c.at)
		}
	}
}

// place returns where the parser is, with respect to the braces.
func (p *parser) place() place {
	switch {
	case p.closed:
		return afterBraces
	case p.braced:
		return inBraces
	}
	return beforeBraces
}

// identEnd returns the end of the label starting at off, or off if there is
// none. A label is a letter followed by letters, ASCII digits or '_'.
func (p *parser) identEnd(off int) int {
	return labelEnd(p.src, off)
}

// foundName describes the label at off for a message, shortening it if long.
func (p *parser) foundName(off int) string {
	end := labelEnd(p.src[:min(len(p.src), off+100)], off)
	return "name " + quote(string(p.src[off:end]))
}

func labelEnd(src []byte, off int) int {
	i := off
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if labelByte[c] == 0 || labelByte[c] == 2 && i == off {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 || !unicode.IsLetter(r) {
			break
		}
		i += size
	}
	return i
}

// labelByte classifies ASCII bytes: 1 a letter, 2 a digit or '_'.
var labelByte = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 1
		t[c-'a'+'A'] = 1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 2
	}
	t['_'] = 2
	return t
}()

// at returns the byte at p.off, or 0 at the end: the fast path of peek, for
// input without spaces between tokens.
func (p *parser) at() byte {
	if p.off < len(p.src) {
		return p.src[p.off]
	}
	return 0
}

// isLabelStart reports whether a name, a label or a quoted name, starts
// at p.off.
func (p *parser) isLabelStart() bool {
	if p.off < len(p.src) && p.src[p.off] < utf8.RuneSelf {
		return labelByte[p.src[p.off]] == 1 || p.src[p.off] == '"'
	}
	return p.off < len(p.src) && p.identEnd(p.off) > p.off
}

// name reads a name at p.off (which must start one) and interns it. A small
// direct-mapped cache in front of the map makes repeated labels cheap.
func (p *parser) name() sym {
	start := p.off
	if p.src[start] == '"' {
		return p.quoted()
	}
	end := p.identEnd(start)
	p.off = end
	b := p.src[start:end]
	n := len(b)
	h := (uint(n)*0x9e3779b1 ^ uint(b[0])<<5 ^ uint(b[n/2])<<2 ^ uint(b[n-1])*0x85eb) % uint(len(p.cache))
	if e := &p.cache[h]; e.name == string(b) {
		return e.s
	}
	s := p.internBytes(b)
	p.cache[h] = cacheEntry{p.names[s], s}
	return s
}

// quoted reads a quoted name at p.off and interns it. A name that is not
// well formed is a lexical error that ends the input, as an unterminated
// comment does.
func (p *parser) quoted() sym {
	start := p.off
	name, end, bad, msg := scan.Unquote(p.src, start)
	if msg != "" {
		pos := p.pos()
		pos.Offset, pos.Col = bad, pos.Col+bad-start // on the quote's line
		if p.lexErr == nil {
			p.lexErr = p.errorf(pos, "%s", msg)
		}
		p.off = len(p.src)
		return p.intern("")
	}
	p.off = end
	return p.intern(name)
}

// unexpected returns the error "expected <want>, found <what is at p.off>".
// Bytes that cannot start any token get a message of their own.
func (p *parser) unexpected(want string) error {
	if p.lexErr != nil {
		return p.lexErr
	}
	pos := p.pos()
	if p.off >= len(p.src) {
		return p.errorf(pos, "expected %s, found end of file", want)
	}
	c := p.src[p.off]
	switch {
	case c >= utf8.RuneSelf:
		r, size := utf8.DecodeRune(p.src[p.off:])
		if r == utf8.RuneError && size <= 1 {
			return p.errorf(pos, "invalid UTF-8 byte 0x%02x: not a text file?", c)
		}
		if unicode.IsLetter(r) {
			return p.errorf(pos, "expected %s, found %s", want, p.foundName(p.off))
		}
		return p.errorf(pos, "expected %s, found %q", want, r)
	case c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f:
		return p.errorf(pos, "unexpected control character %U (expected %s)", rune(c), want)
	case labelByte[c] == 1:
		return p.errorf(pos, "expected %s, found %s", want, p.foundName(p.off))
	case labelByte[c] == 2 && c != '_':
		end := p.off
		for end < len(p.src) && end-p.off < 20 && p.src[end] >= '0' && p.src[end] <= '9' {
			end++
		}
		return p.errorf(pos, "expected %s, found number %s", want, p.src[p.off:end])
	}
	return p.errorf(pos, "expected %s, found '%c'", want, c)
}

// quote quotes a name for a message, shortening very long ones.
func quote(s string) string {
	if t := short(s); t != s {
		return fmt.Sprintf("%q...", t[:len(t)-3])
	}
	return fmt.Sprintf("%q", s)
}

// short shortens a very long name for a message.
func short(s string) string {
	const maxLen = 60
	if len(s) <= maxLen {
		return s
	}
	cut := maxLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// file_ := '{' components? ';'? '}' | components-without-braces | trace
func (p *parser) file_() error {
	c := p.peek()
	switch {
	case p.atEOF():
		return p.errorf(p.pos(), "empty file: expected a multi-trace such as { [a] a!m; [b] b?m } or a trace such as a!m.b?m")
	case c == '[':
		return p.legacy()
	case c == '{':
		// '{' opens the multi-trace, or the first multi-action of a bare
		// trace: look at what follows.
		off, line, lineStart := p.off, p.line, p.lineStart
		open := p.pos()
		p.off++
		p.quiet = true // the comments after '{' are read again below
		c := p.peek()
		p.quiet = false
		switch {
		case c == '[' || c == ';' || c == '}':
			p.off, p.line, p.lineStart = off+1, line, lineStart
			return p.braced_(open)
		case p.isLabelStart():
			p.off, p.line, p.lineStart = off, line, lineStart
			p.openBrace = true
			return p.bare()
		}
		return p.unexpected("a component such as [a] or '}' after '{' (or an action, for a multi-action {a!m,b?m})")
	case p.isLabelStart():
		return p.bare()
	}
	return p.unexpected("a multi-trace such as { [a] a!m; [b] b?m } or a trace such as a!m.b?m")
}

// braced_ reads the components of a braced multi-trace, after its '{'.
func (p *parser) braced_(open syntax.Pos) error {
	p.braced = true
	switch p.peek() {
	case ';':
		p.off++
		if p.peek() != '}' {
			return p.unexpected(fmt.Sprintf("'}' to close the multi-trace opened at %s", open))
		}
		fallthrough
	case '}':
		p.off++
		p.closed = true
		return p.end("the multi-trace")
	}
	for {
		events, err := p.component()
		if err != nil {
			return err
		}
		switch p.peek() {
		case ';':
			p.off++
			switch p.peek() {
			case '}':
				p.off++
				p.closed = true
				return p.end("the multi-trace")
			case '[':
			default:
				return p.unexpected(fmt.Sprintf("a component such as [a] or '}' to close the multi-trace opened at %s", open))
			}
		case '}':
			p.off++
			p.closed = true
			return p.end("the multi-trace")
		default:
			if events {
				return p.unexpected(fmt.Sprintf("'.' to continue the trace, ';' before the next component or '}' to close the multi-trace opened at %s", open))
			}
			return p.unexpected(fmt.Sprintf("an action, ';' before the next component or '}' to close the multi-trace opened at %s", open))
		}
	}
}

// end checks that nothing follows what.
func (p *parser) end(what string) error {
	p.peek()
	if !p.atEOF() {
		return p.unexpected("end of file after " + what)
	}
	return nil
}

// legacy reads components separated by ';' without braces (HIBOU ≤ 0.7).
func (p *parser) legacy() error {
	for {
		events, err := p.component()
		if err != nil {
			return err
		}
		c := p.peek()
		switch {
		case p.atEOF():
			return nil
		case c == ';':
			p.off++
			if p.peek(); p.atEOF() {
				return nil
			}
		case events:
			return p.unexpected("'.' to continue the trace, ';' before the next component or end of file")
		default:
			return p.unexpected("an action, ';' before the next component or end of file")
		}
	}
}

// bare reads a global trace without braces: one component over every
// lifeline, as [#all].
func (p *parser) bare() error {
	p.check(p.b.component(p.pos(), All))
	if err := p.trace(); err != nil {
		return err
	}
	p.check(p.b.endComponent())
	if p.peek(); !p.atEOF() {
		return p.unexpected("'.' to continue the trace or end of file")
	}
	return nil
}

// component reads "[lifelines] trace" and reports whether the trace has
// events.
func (p *parser) component() (bool, error) {
	if p.peek() != '[' {
		return false, p.unexpected("'[' to start a component")
	}
	pos := p.pos()
	p.off++
	p.hold()
	defer p.release() // on errors too: nothing is lost
	if p.peek() == '#' {
		kpos := p.pos()
		p.off++
		end := p.identEnd(p.off)
		var k Kind
		switch word := string(p.src[p.off:end]); word {
		case "any":
			k = Any
		case "all":
			k = All
		case "":
			if p.off < len(p.src) && (p.src[p.off] == ' ' || p.src[p.off] == '\t' || p.src[p.off] == '\n' || p.src[p.off] == '\r') {
				return false, p.errorf(p.pos(), "expected 'any' or 'all' right after '#', without a space")
			}
			return false, p.unexpected("'any' or 'all' right after '#'")
		default:
			return false, p.errorf(kpos, "unknown component [#%s] (expected [#any], [#all] or a list of lifelines)", short(word))
		}
		p.off = end
		if p.peek() != ']' {
			return false, p.unexpected("']' after #" + k.String()[1:])
		}
		p.off++
		p.check(p.b.component(pos, k))
		p.release()
	} else {
		p.check(p.b.component(pos, Explicit))
		p.release()
		want := "a lifeline name, #any or #all after '['"
		for {
			if !p.isLabelStart() {
				return false, p.unexpected(want)
			}
			lpos := p.pos()
			p.check(p.b.lifeline(p.name(), lpos))
			c := p.peek()
			if c == ']' {
				p.off++
				break
			}
			if c != ',' {
				return false, p.unexpected(fmt.Sprintf("',' or ']' in the lifelines of the component at %s", pos))
			}
			p.off++
			p.peek()
			want = "a lifeline name after ','"
		}
	}
	events := p.peek() == '{' || p.isLabelStart()
	if events {
		if err := p.trace(); err != nil {
			return false, err
		}
	}
	p.check(p.b.endComponent())
	return events, nil
}

// trace reads events separated by '.'; the first event is at p.off.
func (p *parser) trace() error {
	p.b.reserve(p.estimate())
	for {
		if err := p.event(); err != nil {
			return err
		}
		if p.at() != '.' && p.peek() != '.' {
			return nil
		}
		p.off++
		if c := p.at(); c < utf8.RuneSelf && labelByte[c] == 1 {
			continue
		}
		if p.peek() != '{' && !p.isLabelStart() {
			return p.unexpected("an action such as a!m or a multi-action such as {a!m,b?m} after '.'")
		}
	}
}

// estimate returns about how many events the trace at p.off has, to size
// its slices at once: the number of '.' before the next ';', bounded by what
// that many bytes can hold.
func (p *parser) estimate() int {
	rest := p.src[p.off:]
	if i := bytes.IndexByte(rest, ';'); i >= 0 {
		rest = rest[:i]
	}
	return min(bytes.Count(rest, []byte(".")), len(rest)/4) + 1
}

// event reads an action or a multi-action at p.off.
func (p *parser) event() error {
	pos := p.pos()
	if p.src[p.off] != '{' {
		a, err := p.action()
		if err != nil {
			return err
		}
		p.check(p.b.single(a))
		return nil
	}
	hint := p.openBrace
	p.openBrace = false
	p.off++
	n := 0
	for {
		if p.peek(); !p.isLabelStart() {
			if n == 0 {
				return p.unexpected("an action such as a!m after '{' in a multi-action")
			}
			return p.unexpected("an action such as a!m after ',' in a multi-action")
		}
		a, err := p.action()
		if err != nil {
			return err
		}
		p.check(p.b.action(a))
		n++
		c := p.peek()
		if c == ',' {
			p.off++
			continue
		}
		if c == '}' {
			p.off++
			break
		}
		if c == '.' && n == 1 && hint {
			return p.unexpected(fmt.Sprintf("',' or '}' in the multi-action opened at %s (%s)", pos, componentHint))
		}
		return p.unexpected(fmt.Sprintf("',' or '}' in the multi-action opened at %s", pos))
	}
	if n < 2 {
		if hint {
			return p.errorf(pos, "a multi-action has at least two actions: write a single action without braces (%s)", componentHint)
		}
		return p.errorf(pos, "a multi-action has at least two actions: write a single action without braces")
	}
	p.check(p.b.event(pos))
	return nil
}

// componentHint helps those who write a trace in braces without [...].
const componentHint = "a multi-trace's components start with their lifelines, as in { [#all] a!m.b?m }"

// action reads l!m or l?m at p.off, which starts a label.
func (p *parser) action() (actionRef, error) {
	a := actionRef{lpos: p.pos()}
	a.l = p.name()
	c := p.at()
	if c != '!' && c != '?' {
		c = p.peek()
	}
	switch c {
	case '!':
		a.kind = interaction.Emission
	case '?':
		a.kind = interaction.Reception
	default:
		return a, p.unexpected(fmt.Sprintf("'!' or '?' after lifeline %s in an action", quote(p.names[a.l])))
	}
	p.off++
	if b := p.at(); b >= utf8.RuneSelf || labelByte[b] != 1 {
		if p.peek(); !p.isLabelStart() {
			return a, p.unexpected(fmt.Sprintf("a message name after '%s%c'", short(p.names[a.l]), c))
		}
	}
	a.mpos = p.pos()
	a.m = p.name()
	return a, nil
}
