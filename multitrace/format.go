package multitrace

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// Format prints f in canonical form: braces, one component a line indented
// by a tab, ';' after every component but a non-empty last one ("[l] ;" for
// an empty local trace), events joined by '.', [#any] and [#all] kept as
// written. Bare and legacy input is printed braced. A File holds no
// comments: FormatSource keeps them.
//
//	{
//		[l1] l1!m1.l1?m2;
//		[l2,l3] ;
//		[#any] {l4!m,l5?m}.l4!x
//	}
func Format(f *File) []byte {
	var in interner
	pr := &printer{names: &in.names}
	for _, c := range f.Components {
		pr.component(c.Pos, c.Kind)
		for _, n := range c.Lifelines {
			pr.lifeline(in.intern(n.Text), n.Pos)
		}
		for _, e := range c.Trace {
			if len(e.Acts) == 1 {
				pr.single(in.ref(e.Acts[0]))
				continue
			}
			for _, a := range e.Acts {
				pr.action(in.ref(a))
			}
			pr.event(e.Pos)
		}
		pr.endComponent()
	}
	pr.finish()
	return pr.b
}

// FormatSource parses a .htf file, as Parse does, and returns its canonical
// form, as Format does, with its comments: those between components on
// lines of their own before the next component (or before the closing
// brace), those after a component on its line, those before or after the
// braces where they are, and those within a component where they are in its
// line. It builds no File: its memory is the output's, so that a long log
// is formatted in about twice its size.
func FormatSource(file string, src []byte) ([]byte, error) {
	pr := &printer{b: make([]byte, 0, len(src)+len(src)/16+64)}
	p := newParser(file, src, pr)
	pr.names = &p.names
	p.onComment = pr.comment
	if err := p.parse(); err != nil {
		return nil, err
	}
	return pr.b, nil
}

// printer is the builder that prints a multi-trace in canonical form as it
// is read, comments included.
type printer struct {
	names *[]string
	b     []byte

	state      printState
	opened     bool // "{\n" is written
	headerOpen bool // "[a,b" is written, not yet the ']'
	lifelines  int  // of the current component
	events     int  // of the current component
	acts       int  // of the current multi-action
	space      bool // a comment was written: a space before the next name
	lastEmpty  bool // the last component ended has no event

	top    []string      // comments before the opening brace
	inline []heldComment // comments within a component, not yet written
	before []string      // comments waiting for the next component or the end
	after  []string      // comments ending the line of the last component
	closed []string      // comments ending the line of the closing brace
	bottom []string      // comments after the closing brace
}

type printState uint8

const (
	printStart   printState = iota // no component yet
	inComponent                    // between component and endComponent
	betweenComps                   // after endComponent
)

func (p *printer) str(s string) { p.b = append(p.b, s...) }

// open writes the opening brace, after the comments that precede it.
func (p *printer) open() {
	if !p.opened {
		p.lines(p.top, "")
		p.str("{\n")
		p.opened = true
	}
}

// lines writes each comment on a line of its own.
func (p *printer) lines(texts []string, indent string) {
	for _, t := range texts {
		p.str(indent)
		p.str(t)
		p.str("\n")
	}
}

// endLine ends the line of the last component: its separator when sep or
// when it has no event, and the comments after it.
func (p *printer) endLine(sep bool) {
	if p.state != betweenComps {
		return
	}
	if sep || p.lastEmpty {
		p.str(";")
	}
	for _, t := range p.after {
		p.str(" ")
		p.str(t)
	}
	p.after = nil
	p.str("\n")
}

// closeHeader writes the ']' of an explicit component's lifelines.
func (p *printer) closeHeader() {
	if p.headerOpen {
		p.str("] ")
		p.headerOpen, p.space = false, false
	}
}

// flushInline writes the comments met within the component since the last
// name, each after a space: they stay between the same names.
func (p *printer) flushInline() {
	for _, c := range p.inline {
		if n := len(p.b); n > 0 && p.b[n-1] != ' ' {
			p.str(" ")
		}
		p.b = append(p.b, c.text...)
		p.space = true
	}
	p.inline = p.inline[:0]
}

// name writes a name, after a space when a comment precedes it.
func (p *printer) name(s sym) {
	if p.space {
		p.str(" ")
		p.space = false
	}
	p.b = syntax.AppendName(p.b, (*p.names)[s])
}

func (p *printer) writeAction(a actionRef) {
	p.name(a.l)
	if a.kind == interaction.Emission {
		p.str("!")
	} else {
		p.str("?")
	}
	p.b = syntax.AppendName(p.b, (*p.names)[a.m])
}

func (p *printer) component(_ syntax.Pos, k Kind) error {
	p.open()
	p.endLine(true)
	p.lines(p.before, "\t")
	p.before = nil
	p.str("\t[")
	p.state, p.lifelines, p.events, p.acts, p.space = inComponent, 0, 0, 0, false
	switch k {
	case Any:
		p.str("#any] ")
	case All:
		p.str("#all] ")
	default:
		p.headerOpen = true
	}
	return nil
}

func (p *printer) lifeline(s sym, _ syntax.Pos) error {
	if p.lifelines > 0 {
		p.str(",")
		p.space = false
	}
	p.flushInline()
	p.name(s)
	p.lifelines++
	return nil
}

func (p *printer) reserve(int) {}

func (p *printer) single(a actionRef) error {
	p.closeHeader()
	if p.events > 0 {
		p.str(".")
		p.space = false
	}
	p.flushInline()
	p.writeAction(a)
	p.events++
	return nil
}

func (p *printer) action(a actionRef) error {
	p.closeHeader()
	if p.acts == 0 {
		if p.events > 0 {
			p.str(".")
		}
		p.space = false
		p.flushInline()
		if p.space {
			p.str(" ")
		}
		p.str("{")
		p.space = false
	} else {
		p.str(",")
		p.space = false
		p.flushInline()
	}
	p.writeAction(a)
	p.acts++
	return nil
}

func (p *printer) event(syntax.Pos) error {
	p.flushInline()
	p.str("}")
	p.events++
	p.acts, p.space = 0, false
	return nil
}

func (p *printer) endComponent() error {
	p.closeHeader()
	p.state, p.lastEmpty = betweenComps, p.events == 0
	// The comments after the last event end the component's line, or
	// stand on lines of their own after it, as they did.
	for _, c := range p.inline {
		p.comment(c.text, c.trailing, inBraces)
	}
	p.inline = p.inline[:0]
	return nil
}

func (p *printer) finish() error {
	p.open()
	// The comments on lines of their own after the last component stay
	// after it when a ';' ends it; without, they would be in its trace.
	p.endLine(len(p.before) > 0)
	p.lines(p.before, "\t")
	p.str("}")
	for _, t := range p.closed {
		p.str(" ")
		p.str(t)
	}
	p.str("\n")
	p.lines(p.bottom, "")
	return nil
}

// comment keeps a comment where the parser met it (see FormatSource).
func (p *printer) comment(text []byte, trailing bool, at place) {
	t := string(text)
	switch {
	case at == afterBraces && trailing && len(p.bottom) == 0:
		p.closed = append(p.closed, t)
	case at == afterBraces:
		p.bottom = append(p.bottom, t)
	case p.state == inComponent:
		p.inline = append(p.inline, heldComment{text, trailing, at})
	case p.state == printStart && at == beforeBraces:
		p.top = append(p.top, t)
	case p.state == betweenComps && trailing:
		p.after = append(p.after, t)
	default:
		p.before = append(p.before, t)
	}
}
