package multitrace

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/syntax"
)

// Kind says how a component names its lifelines.
type Kind uint8

const (
	Explicit Kind = iota // [a,b]: the lifelines listed
	Any                  // [#any]: the lifelines its actions occur on
	All                  // [#all]: every lifeline that no other component has
)

// kindNames are the kinds as .htf files write them ("#any"): not
// stringer's identifiers.
var kindNames = enum.New("Kind", map[Kind]string{Explicit: "explicit", Any: "#any", All: "#all"})

// String returns "explicit", "#any" or "#all".
func (k Kind) String() string { return kindNames.Name(k) }

// File is a .htf file as written: its components in file order, with names
// not yet checked against a signature. Parse builds it; Format prints it;
// Resolve checks it against a signature.
type File struct {
	Components []ComponentSyntax
	// Braced is false for the forms written without { }: a bare global
	// trace a!m.b?m, and the legacy (HIBOU ≤ 0.7) [#all] a!m and
	// [a] a!m; [b] b?m.
	Braced bool
}

// ComponentSyntax is one component of a multi-trace as written: a
// location (a list of lifelines, [#any] or [#all]) and its local trace. A
// bare global trace is one component of kind All.
type ComponentSyntax struct {
	Pos       syntax.Pos // the '[' (for a bare trace, its first event)
	Kind      Kind
	Lifelines []interaction.Name // Kind Explicit only: the lifelines listed
	Trace     []EventSyntax
}

// EventSyntax is one event of a local trace: an action l!m or l?m, or a
// multi-action {a!m,b?m} of at least two actions that occur together.
type EventSyntax struct {
	Pos  syntax.Pos // the action, or the '{' of a multi-action
	Acts []interaction.ActionSyntax
}

// Parse reads a .htf file and checks it against the syntax of the format
// only: names are not looked up in any signature (see File.Resolve). file
// names the source in errors, which are *syntax.Error values printing as
// file:line:col: message.
//
// Accepted forms: { [a] a!m.a?n; [b,c] c?m; [d] ; [#any] ...; [#all] ... }
// with an optional trailing ';' (and { } for no component); a bare global
// trace a!m.b?m; the legacy forms [#all] a!m.b?m and [a] a!m; [b] b?m
// without braces. Whitespace and /* */ comments may occur anywhere between
// tokens.
func Parse(file string, src []byte) (*File, error) {
	sb := &syntaxBuilder{}
	p := newParser(file, src, sb)
	sb.names = &p.names
	if err := p.parse(); err != nil {
		return nil, err
	}
	sb.f.Braced = p.braced
	return &sb.f, nil
}

// poolChunk is how many actions the builders allocate at a time when the
// size reserved for a trace runs out.
const poolChunk = 256

// syntaxBuilder builds a File from the parser's calls. The actions of all
// events share large backing arrays, so that a long trace costs a few
// allocations, not one per event.
type syntaxBuilder struct {
	f     File
	names *[]string
	cur   *ComponentSyntax
	ev    []interaction.ActionSyntax // the actions of the current event
	pool  []interaction.ActionSyntax // free space for events' actions
}

func (b *syntaxBuilder) name(s sym, pos syntax.Pos) interaction.Name {
	return interaction.Name{Text: (*b.names)[s], Pos: pos}
}

func (b *syntaxBuilder) component(pos syntax.Pos, k Kind) error {
	b.f.Components = append(b.f.Components, ComponentSyntax{Pos: pos, Kind: k})
	b.cur = &b.f.Components[len(b.f.Components)-1]
	return nil
}

func (b *syntaxBuilder) lifeline(s sym, pos syntax.Pos) error {
	b.cur.Lifelines = append(b.cur.Lifelines, b.name(s, pos))
	return nil
}

func (b *syntaxBuilder) reserve(n int) {
	if cap(b.cur.Trace)-len(b.cur.Trace) < n {
		b.cur.Trace = append(make([]EventSyntax, 0, len(b.cur.Trace)+n), b.cur.Trace...)
	}
	if len(b.pool) < n {
		b.pool = make([]interaction.ActionSyntax, n)
	}
}

func (b *syntaxBuilder) single(a actionRef) error {
	b.action(a)
	return b.event(a.lpos)
}

func (b *syntaxBuilder) action(a actionRef) error {
	b.ev = append(b.ev, interaction.ActionSyntax{
		Lifeline: b.name(a.l, a.lpos), Kind: a.kind, Msg: b.name(a.m, a.mpos)})
	return nil
}

func (b *syntaxBuilder) event(pos syntax.Pos) error {
	n := len(b.ev)
	if n > len(b.pool) {
		b.pool = make([]interaction.ActionSyntax, max(n, poolChunk))
	}
	acts := b.pool[:n:n]
	b.pool = b.pool[n:]
	copy(acts, b.ev)
	b.ev = b.ev[:0]
	b.cur.Trace = append(b.cur.Trace, EventSyntax{Pos: pos, Acts: acts})
	return nil
}

func (b *syntaxBuilder) endComponent() error { return nil }
func (b *syntaxBuilder) finish() error       { return nil }
