package interaction

import (
	"fmt"
	"slices"

	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// MaxNesting bounds how deeply operators may be nested in a source file, so
// that a malicious or broken file ends in an error rather than exhausting the
// stack. N-ary operators do not count: seq(i1,...,i100000) has nesting 1.
const MaxNesting = 100_000

// maxNesting is the bound the parsers apply: MaxNesting, lowered by tests so
// that they need not parse 100,000 levels.
var maxNesting = MaxNesting

// ParseHIF parses a .hif file: one interaction term.
func ParseHIF(file string, src []byte) (*Node, error) {
	p := &parser{s: scan.New(file, src)}
	if p.s.Peek().Kind == scan.EOF {
		if err := p.s.Err(); err != nil {
			return nil, err
		}
		return nil, p.s.Errorf(p.s.Peek().Pos, "empty file: expected an interaction term")
	}
	n, err := p.term()
	if err != nil {
		return nil, err
	}
	if t := p.s.Next(); t.Kind != scan.EOF {
		return nil, p.afterInteraction(t)
	}
	// The scanner stops at a lexical error (a stray byte, an unterminated
	// comment) as at the end of the input: a complete term followed by
	// garbage is no term.
	if err := p.s.Err(); err != nil {
		return nil, err
	}
	if cs := p.s.Comments(); len(cs) > 0 {
		attachFile(cs, []scan.Span{span(n)}, func(int) *syntax.Comments { return comments(n) },
			func(_ int, cs []scan.Comment) { attachNode(n, cs) })
	}
	return n, nil
}

// span returns the extent of a parsed node.
func span(n *Node) scan.Span { return scan.Span{Start: n.Pos.Offset, End: n.End} }

// comments returns the comments of n, making them if it has none.
func comments(n *Node) *syntax.Comments {
	if n.Comments == nil {
		n.Comments = &syntax.Comments{}
	}
	return n.Comments
}

// attachFile attaches the comments of a file among its top-level parts
// (see scan.Attach): the comments that end the file go Below the last part.
func attachFile(cs []scan.Comment, parts []scan.Span, at func(int) *syntax.Comments, inside func(int, []scan.Comment)) {
	scan.Attach(cs, parts, at, inside, func(rest []scan.Comment) {
		last := at(len(parts) - 1)
		last.Below = append(last.Below, scan.Texts(rest)...)
	})
}

// attachNode attaches the comments within n among its operands (see
// scan.Attach); a node without operands keeps them After it.
func attachNode(n *Node, cs []scan.Comment) {
	if len(n.Args) == 0 {
		comments(n).After = append(comments(n).After, scan.Texts(cs)...)
		return
	}
	parts := make([]scan.Span, len(n.Args))
	for i, a := range n.Args {
		parts[i] = span(a)
	}
	scan.Attach(cs, parts, func(i int) *syntax.Comments { return comments(n.Args[i]) },
		func(i int, cs []scan.Comment) { attachNode(n.Args[i], cs) },
		func(rest []scan.Comment) { comments(n).Inside = append(comments(n).Inside, scan.Texts(rest)...) })
}

// afterInteraction reports the token t found after a complete interaction.
func (p *parser) afterInteraction(t scan.Token) error {
	if t.Is(")") && p.s.Err() == nil {
		return p.s.Errorf(t.Pos, "unbalanced ')': no '(' is open here")
	}
	return p.s.Unexpected(t, "end of file after the interaction")
}

// ParseHSF parses a .hsf file: signature sections (@message, @lifeline,
// @gate) in any order, and, in a legacy single-file .hsf, option sections and
// an interaction term after them.
func ParseHSF(file string, src []byte) (*SigFile, error) {
	p := &parser{s: scan.New(file, src)}
	f := &SigFile{}
	if t := p.s.Peek(); t.Kind == scan.EOF {
		if err := p.s.Err(); err != nil {
			return nil, err
		}
		return nil, p.s.Errorf(t.Pos, "empty file: expected @message{...} and @lifeline{...} sections")
	}
	for p.s.Peek().Is("@") {
		at := p.s.Next()
		name, err := p.s.ExpectIdent("a section name after '@' (message, lifeline, gate or an option section)")
		if err != nil {
			return nil, err
		}
		switch name.Text {
		case "message", "lifeline", "gate":
			sec, err := p.sigSection(at.Pos, name.Text)
			if err != nil {
				return nil, err
			}
			f.Sections = append(f.Sections, sec)
		case "analyze_option", "explore_option", "canonize_option":
			end, err := p.skipBraced(name)
			if err != nil {
				return nil, err
			}
			f.Options = append(f.Options, OptionSection{Name: name.Text, Start: at.Pos, End: end})
		default:
			return nil, p.s.Errorf(name.Pos, "unknown section @%s (expected @message, @lifeline, @gate, @analyze_option, @explore_option or @canonize_option)", name.Text)
		}
	}
	if p.s.Peek().Kind != scan.EOF {
		var n *Node
		var err error
		if t := p.s.Peek(); t.Kind == scan.Ident && hsfSections[t.Text] {
			// A section name without its '@', or the first name of the
			// interaction of a legacy file.
			p.s.Next()
			if p.s.Peek().Is("{") {
				return nil, p.s.Errorf(t.Pos, "expected '@' before the section name %s: write @%s{...}", scan.Quote(t.Text), t.Text)
			}
			n, err = p.identTerm(t)
		} else {
			n, err = p.term()
		}
		if err != nil {
			return nil, err
		}
		n.End = p.s.End()
		f.Interaction = n
		if t := p.s.Next(); t.Kind != scan.EOF {
			return nil, p.afterInteraction(t)
		}
	}
	if err := p.s.Err(); err != nil {
		return nil, err
	}
	if cs := p.s.Comments(); len(cs) > 0 {
		f.attach(cs)
	}
	return f, nil
}

// attach attaches the comments of a .hsf among its parts, in source order:
// signature sections (a comment among a section's names is Inside it),
// option sections (the hcf parser attaches the comments inside them) and
// the interaction.
func (f *SigFile) attach(cs []scan.Comment) {
	type part struct {
		span   scan.Span
		at     func() *syntax.Comments
		inside func([]scan.Comment)
	}
	var parts []part
	for i := range f.Sections {
		sec := &f.Sections[i]
		at := func() *syntax.Comments {
			if sec.Comments == nil {
				sec.Comments = &syntax.Comments{}
			}
			return sec.Comments
		}
		parts = append(parts, part{scan.Span{Start: sec.Pos.Offset, End: sec.End}, at,
			func(cs []scan.Comment) { at().Inside = append(at().Inside, scan.Texts(cs)...) }})
	}
	for i := range f.Options {
		o := &f.Options[i]
		parts = append(parts, part{scan.Span{Start: o.Start.Offset, End: o.End}, func() *syntax.Comments {
			if o.Comments == nil {
				o.Comments = &syntax.Comments{}
			}
			return o.Comments
		}, func([]scan.Comment) {}})
	}
	if n := f.Interaction; n != nil {
		parts = append(parts, part{span(n), func() *syntax.Comments { return comments(n) },
			func(cs []scan.Comment) { attachNode(n, cs) }})
	}
	slices.SortFunc(parts, func(a, b part) int { return a.span.Start - b.span.Start })
	spans := make([]scan.Span, len(parts))
	for i, p := range parts {
		spans[i] = p.span
	}
	attachFile(cs, spans, func(i int) *syntax.Comments { return parts[i].at() },
		func(i int, cs []scan.Comment) { parts[i].inside(cs) })
}

// hsfSections are the names of the sections of a .hsf file.
var hsfSections = map[string]bool{"message": true, "lifeline": true, "gate": true,
	"analyze_option": true, "explore_option": true, "canonize_option": true}

type parser struct {
	s     *scan.Scanner
	depth int
}

func (p *parser) sigSection(at syntax.Pos, kind string) (SigSection, error) {
	sec := SigSection{Kind: kind, Pos: at}
	if _, err := p.s.Expect("{", "after @"+kind); err != nil {
		return sec, err
	}
	for {
		t := p.s.Next()
		switch {
		case t.IsName():
			sec.Names = append(sec.Names, Name{Text: t.Text, Pos: t.Pos})
			if p.s.Peek().Is("=") {
				// An alias: gateway = "api-gateway".
				p.s.Next()
				full, err := p.s.ExpectName(fmt.Sprintf("the %s name that %s stands for, after '='", kind, scan.Quote(t.Text)))
				if err != nil {
					return sec, err
				}
				if sec.Texts == nil {
					sec.Texts = make([]Name, len(sec.Names)-1, cap(sec.Names))
				}
				sec.Texts = append(sec.Texts, Name{Text: full.Text, Pos: full.Pos})
			} else if sec.Texts != nil {
				sec.Texts = append(sec.Texts, Name{})
			}
		case t.Is("}") && len(sec.Names) > 0:
			sec.End = p.s.End()
			return sec, nil
		default:
			return sec, p.s.Unexpected(t, "a "+kind+" name")
		}
		t = p.s.Next()
		switch {
		case t.Is(";"):
			if p.s.Peek().Is("}") {
				p.s.Next()
				sec.End = p.s.End()
				return sec, nil
			}
		case t.Is("}"):
			sec.End = p.s.End()
			return sec, nil
		default:
			return sec, p.s.Unexpected(t, "';' or '}' in @"+kind)
		}
	}
}

// skipBraced skips "{ ... }" with nested braces and brackets after an option
// section's name and returns the offset just after the closing brace.
func (p *parser) skipBraced(name scan.Token) (int, error) {
	open, err := p.s.Expect("{", "after @"+name.Text)
	if err != nil {
		return 0, err
	}
	depth := 1
	for depth > 0 {
		t := p.s.Next()
		switch {
		case t.Kind == scan.EOF:
			if err := p.s.Err(); err != nil {
				return 0, err
			}
			return 0, p.s.Errorf(open.Pos, "unbalanced '{': @%s is not closed", name.Text)
		case t.Is("{"):
			depth++
		case t.Is("}"):
			depth--
			if depth == 0 {
				return t.Pos.Offset + 1, nil
			}
		}
	}
	return 0, nil
}

var operators = map[string]Op{
	"strict": OpStrict, "seq": OpSeq, "par": OpPar, "alt": OpAlt,
	"loopS": OpLoopS, "loopH": OpLoopH, "loopW": OpLoopW, "loopP": OpLoopP,
	"coreg": OpCoreg, "sync": OpSync,
}

const operatorList = "strict, seq, par, alt, coreg, sync, loopS, loopH, loopW or loopP"

// term parses an interaction, and notes where it ends.
func (p *parser) term() (*Node, error) {
	n, err := p.termBody()
	if err == nil {
		n.End = p.s.End()
	}
	return n, err
}

func (p *parser) termBody() (*Node, error) {
	t := p.s.Peek()
	switch {
	case t.Kind == scan.Empty:
		p.s.Next()
		return &Node{Kind: NodeEmpty, Pos: t.Pos}, nil
	case t.Is("<"):
		return p.message(nil)
	case t.Kind == scan.Ident:
		return p.identTerm(p.s.Next())
	case t.Kind == scan.Quoted:
		// A quoted name is never a keyword: it starts a message.
		t = p.s.Next()
		switch next := p.s.Peek(); next.Kind {
		case scan.Dash2:
			p.s.Next()
			return p.message(&Name{Text: t.Text, Pos: t.Pos})
		case scan.Arrow:
			return p.messageRest(&Node{Kind: NodeMessage, Pos: t.Pos, Msg: Name{Text: t.Text, Pos: t.Pos}})
		default:
			return nil, p.s.Unexpected(next, fmt.Sprintf("'--' or '->' after the name %s of a message", scan.Quote(t.Text)))
		}
	default:
		return nil, p.s.Unexpected(t, "an interaction (o, a message like a -- m -> b, or an operator: "+operatorList+")")
	}
}

// identTerm parses an interaction that starts with the name t (consumed).
func (p *parser) identTerm(t scan.Token) (*Node, error) {
	next := p.s.Peek()
	switch {
	case t.Text == "o" && next.Kind != scan.Dash2 && next.Kind != scan.Arrow:
		return &Node{Kind: NodeEmpty, Pos: t.Pos}, nil
	case next.Is("(") || t.Text == "sync" && next.Is("{"):
		return p.operator(t)
	case t.Text == "loop" && next.Kind == scan.Ident:
		// "loop S(i)" is accepted as loopS(i).
		kind := p.s.Next()
		op, ok := operators["loop"+kind.Text]
		if !ok || !op.IsLoop() {
			return nil, p.s.Errorf(kind.Pos, "unknown loop kind %s (expected S, H, W or P)", scan.Quote(kind.Text))
		}
		return p.operator(scan.Token{Kind: scan.Ident, Text: "loop" + kind.Text, Pos: t.Pos})
	case next.Kind == scan.Dash2:
		p.s.Next()
		return p.message(&Name{Text: t.Text, Pos: t.Pos})
	case next.Kind == scan.Arrow:
		return p.messageRest(&Node{Kind: NodeMessage, Pos: t.Pos, Msg: Name{Text: t.Text, Pos: t.Pos}})
	default:
		return nil, p.s.Unexpected(next, fmt.Sprintf("'(' after operator %s, or '--'/'->' after the name %[1]s of a message", scan.Quote(t.Text)))
	}
}

// message parses "[<synch>|<asynch>] m -> target" after an optional "a --".
func (p *parser) message(from *Name) (*Node, error) {
	n := &Node{Kind: NodeMessage, From: from}
	if from != nil {
		n.Pos = from.Pos
	} else {
		n.Pos = p.s.Peek().Pos
	}
	if p.s.Peek().Is("<") {
		p.s.Next()
		kind, err := p.s.ExpectIdent("'synch' or 'asynch' after '<'")
		if err != nil {
			return nil, err
		}
		switch kind.Text {
		case "synch":
			n.Synch = true
		case "asynch":
		default:
			return nil, p.s.Errorf(kind.Pos, "unknown communication type <%s> (expected <synch> or <asynch>)", kind.Text)
		}
		if _, err := p.s.Expect(">", "to close <"+kind.Text); err != nil {
			return nil, err
		}
	}
	m, err := p.s.ExpectName("a message name")
	if err != nil {
		return nil, err
	}
	n.Msg = Name{Text: m.Text, Pos: m.Pos}
	return p.messageRest(n)
}

// messageRest parses "-> b", "-> (b,c)" or "->|" after the message name.
func (p *parser) messageRest(n *Node) (*Node, error) {
	if _, err := p.s.Expect("->", "after message "+scan.Quote(n.Msg.Text)); err != nil {
		return nil, err
	}
	t := p.s.Next()
	switch {
	case t.Is("|"):
		n.ToEnv = true
	case t.IsName():
		n.To = []Name{{Text: t.Text, Pos: t.Pos}}
	case t.Is("("):
		names, err := p.nameList("a receiving lifeline")
		if err != nil {
			return nil, err
		}
		n.To = names
	default:
		return nil, p.s.Unexpected(t, fmt.Sprintf("a receiver after '->' in message %s (a lifeline, (l1,l2) or |)", scan.Quote(n.Msg.Text)))
	}
	if n.From == nil && n.ToEnv {
		return nil, p.s.Errorf(n.Pos, "message %s has neither a sender nor a receiver", scan.Quote(n.Msg.Text))
	}
	return n, nil
}

// nameList parses "l1, l2, ...)" after an opening parenthesis.
func (p *parser) nameList(what string) ([]Name, error) {
	var names []Name
	for {
		t, err := p.s.ExpectName(what)
		if err != nil {
			return nil, err
		}
		names = append(names, Name{Text: t.Text, Pos: t.Pos})
		t = p.s.Next()
		if t.Is(")") {
			return names, nil
		}
		if !t.Is(",") {
			return nil, p.s.Unexpected(t, "',' or ')' in a list of lifelines")
		}
	}
}

func (p *parser) operator(kw scan.Token) (*Node, error) {
	if kw.Text == "and" {
		return nil, p.s.Errorf(kw.Pos, "operator 'and' is not supported (HIBOU parses it but gives it no semantics)")
	}
	op, ok := operators[kw.Text]
	if !ok {
		return nil, p.s.Errorf(kw.Pos, "unknown operator %s (expected %s)", scan.Quote(kw.Text), operatorList)
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, p.s.Errorf(kw.Pos, "operators nested more than %d deep", maxNesting)
	}
	n := &Node{Pos: kw.Pos, Op: op}
	switch {
	case op.IsLoop():
		n.Kind = NodeLoop
	case op == OpCoreg:
		n.Kind = NodeCoreg
		p.s.Next() // '('
		names, err := p.nameList("a lifeline of the coregion")
		if err != nil {
			return nil, err
		}
		n.Coreg = names
	case op == OpSync:
		n.Kind = NodeSync
		acts, err := p.syncActions()
		if err != nil {
			return nil, err
		}
		n.Sync = acts
	default:
		n.Kind = NodeOp
	}
	if _, err := p.s.Expect("(", "to open the operands of "+kw.Text); err != nil {
		return nil, err
	}
	for {
		arg, err := p.term()
		if err != nil {
			return nil, err
		}
		n.Args = append(n.Args, arg)
		t := p.s.Next()
		if t.Is(")") {
			break
		}
		if !t.Is(",") {
			return nil, p.s.Unexpected(t, fmt.Sprintf("',' or ')' in the operands of %s (opened at %s)", kw.Text, kw.Pos))
		}
	}
	if n.Kind == NodeLoop && len(n.Args) != 1 {
		return nil, p.s.Errorf(kw.Pos, "%s takes one operand, found %d", kw.Text, len(n.Args))
	}
	if n.Kind != NodeLoop && len(n.Args) < 2 {
		return nil, p.s.Errorf(kw.Pos, "%s takes at least two operands, found %d", kw.Text, len(n.Args))
	}
	return n, nil
}

// syncActions parses "(a!m)" or "{a!m,b?m}" after sync.
func (p *parser) syncActions() ([]ActionSyntax, error) {
	open := p.s.Next()
	closer := ")"
	switch {
	case open.Is("("):
	case open.Is("{"):
		closer = "}"
	default:
		return nil, p.s.Unexpected(open, "'(' or '{' with the synchronized actions of sync")
	}
	var acts []ActionSyntax
	for {
		a, err := parseActionSyntax(p.s)
		if err != nil {
			return nil, err
		}
		acts = append(acts, a)
		t := p.s.Next()
		if t.Is(closer) {
			break
		}
		if closer == ")" && t.Is(",") && p.s.Err() == nil {
			return nil, p.s.Errorf(t.Pos, "sync(...) takes one action: write several as sync{a!m,b?m}")
		}
		if !t.Is(",") || closer == ")" {
			return nil, p.s.Unexpected(t, fmt.Sprintf("'%s' after the synchronized action", closer))
		}
	}
	return acts, nil
}

// parseActionSyntax reads an action "l!m" or "l?m" from s.
func parseActionSyntax(s *scan.Scanner) (ActionSyntax, error) {
	l, err := s.ExpectName("an action l!m or l?m")
	if err != nil {
		return ActionSyntax{}, err
	}
	a := ActionSyntax{Lifeline: Name{Text: l.Text, Pos: l.Pos}}
	t := s.Next()
	switch {
	case t.Is("!"):
		a.Kind = Emission
	case t.Is("?"):
		a.Kind = Reception
	default:
		return a, s.Unexpected(t, fmt.Sprintf("'!' or '?' after lifeline %s in an action", scan.Quote(l.Text)))
	}
	m, err := s.ExpectName("a message name in an action")
	if err != nil {
		return a, err
	}
	a.Msg = Name{Text: m.Text, Pos: m.Pos}
	return a, nil
}
