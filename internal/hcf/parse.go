package hcf

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// Parse parses a .hcf file: option sections in any order, each at most once.
// Errors are *syntax.Error values naming file:line:col.
func Parse(file string, src []byte) (*File, error) {
	p := &parser{s: scan.New(file, src)}
	f := &File{}
	for {
		if p.s.Peek().Kind == scan.EOF {
			if err := p.s.Err(); err != nil {
				return nil, err
			}
			f.attach(p.s.Comments())
			return f, nil
		}
		sec, err := p.section()
		if err != nil {
			return nil, err
		}
		if first := f.Section(sec.Kind); first != nil {
			return nil, p.s.Errorf(sec.Pos, "@%s given twice (first at %s)", sec.Kind, first.Pos)
		}
		f.Sections = append(f.Sections, sec)
	}
}

// ParseSection parses the one option section that starts at position at
// (its '@') inside src, as legacy single-file .hsf files embed them. It stops
// after the closing '}'; Section.End says where.
func ParseSection(file string, src []byte, at syntax.Pos) (*Section, error) {
	if at.Offset < 0 || at.Offset > len(src) || at.Line < 1 || at.Col < 1 {
		return nil, &syntax.Error{File: file, Pos: at, Msg: fmt.Sprintf("option section position %s (offset %d) is outside the file", at, at.Offset)}
	}
	p := &parser{s: scan.NewAt(file, src, at)}
	sec, err := p.section()
	if err != nil {
		return nil, err
	}
	if cs := p.s.Comments(); len(cs) > 0 {
		sec.attach(cs)
	}
	return sec, nil
}

// attach attaches the comments of a file among its sections (see
// scan.Attach); the comments that end the file go Below the last section.
func (f *File) attach(cs []scan.Comment) {
	if len(cs) == 0 {
		return
	}
	if len(f.Sections) == 0 {
		f.Comments = scan.Texts(cs)
		return
	}
	spans := make([]scan.Span, len(f.Sections))
	for i, sec := range f.Sections {
		spans[i] = scan.Span{Start: sec.Pos.Offset, End: sec.End.Offset}
	}
	scan.Attach(cs, spans, func(i int) *syntax.Comments { return f.Sections[i].comments() },
		func(i int, cs []scan.Comment) { f.Sections[i].attach(cs) },
		func(rest []scan.Comment) {
			last := f.Sections[len(f.Sections)-1].comments()
			last.Below = append(last.Below, scan.Texts(rest)...)
		})
}

// attach attaches the comments within a section among its options (see
// scan.Attach); the comments within an option go After it, and those after
// the last option Inside the section.
func (sec *Section) attach(cs []scan.Comment) {
	spans := make([]scan.Span, len(sec.decls))
	for i, d := range sec.decls {
		spans[i] = d.span
	}
	scan.Attach(cs, spans, sec.optionComments,
		func(i int, cs []scan.Comment) {
			sec.optionComments(i).After = append(sec.optionComments(i).After, scan.Texts(cs)...)
		},
		func(rest []scan.Comment) { sec.comments().Inside = append(sec.comments().Inside, scan.Texts(rest)...) })
}

// comments returns the comments of sec, making them if it has none.
func (sec *Section) comments() *syntax.Comments {
	if sec.Comments == nil {
		sec.Comments = &syntax.Comments{}
	}
	return sec.Comments
}

// optionComments returns the comments of the option declared i-th, making
// them if it has none.
func (sec *Section) optionComments(i int) *syntax.Comments {
	name := sec.decls[i].name
	if sec.OptionComments == nil {
		sec.OptionComments = map[string]*syntax.Comments{}
	}
	c := sec.OptionComments[name]
	if c == nil {
		c = &syntax.Comments{}
		sec.OptionComments[name] = c
	}
	return c
}

type parser struct {
	s       *scan.Scanner
	declKey string // the key of the last option read, as written
}

func (p *parser) section() (*Section, error) {
	at, err := p.s.Expect("@", "to start an option section (@analyze_option, @explore_option or @canonize_option)")
	if err != nil {
		return nil, err
	}
	name, err := p.s.ExpectIdent("a section name after '@' (analyze_option, explore_option or canonize_option)")
	if err != nil {
		return nil, err
	}
	var kind Kind
	for k := Analyze; k <= Canonize; k++ {
		if name.Text == k.String() {
			kind = k
		}
	}
	if kind == 0 {
		return nil, p.s.Errorf(name.Pos, "unknown section @%s (expected @analyze_option, @explore_option or @canonize_option)", name.Text)
	}
	if _, err := p.s.Expect("{", "after @"+name.Text); err != nil {
		return nil, err
	}
	sec := &Section{Kind: kind, Pos: at.Pos}
	seen := map[string]scan.Token{}
	for !p.s.Peek().Is("}") {
		start := p.s.Peek().Pos.Offset
		if err := p.decl(sec, seen); err != nil {
			return nil, err
		}
		name := decls[p.declKey].name
		sec.decls = append(sec.decls, declSpan{name, scan.Span{Start: start, End: p.s.End()}})
		if t := p.s.Peek(); t.Is(";") {
			p.s.Next()
		} else if !t.Is("}") {
			return nil, p.s.Unexpected(p.s.Next(), "';' or '}' after an option of @"+kind.String())
		}
	}
	t := p.s.Next() // the '}'
	sec.End = syntax.Pos{Offset: t.Pos.Offset + 1, Line: t.Pos.Line, Col: t.Pos.Col + 1}
	return sec, nil
}

// declInfo describes one option: its modern name, the keys it sets, the
// sections it belongs in, and how to read and print its value.
type declInfo struct {
	name   string
	key    Key
	in     []Kind
	parse  func(p *parser, o *Options, k Kind) error
	format func(o *Options) string
}

var (
	all      = []Kind{Analyze, Explore, Canonize}
	search   = []Kind{Analyze, Explore}
	analysis = []Kind{Analyze}
)

// declOrder lists the options in the order Format prints them.
var declOrder = []*declInfo{
	{"loggers", KeyLoggers, all, (*parser).loggers, formatLoggers},
	{"strategy", KeyStrategy, all, (*parser).strategy, formatStrategy},
	{"goal", KeyGoal, analysis, (*parser).goal, func(o *Options) string { return o.Goal.String() }},
	{"analysis_kind", KeyAnalysisKind, analysis, (*parser).analysisKind, formatAnalysis},
	{"local_analysis", KeyLocalAnalysis, analysis, (*parser).localAnalysis, formatLocalAnalysis},
	{"partial_order_reduction", KeyPartialOrderReduction, analysis, (*parser).partialOrderReduction,
		func(o *Options) string { return strconv.FormatBool(o.PartialOrderReduction) }},
	{"memoize", KeyMemoize, search, (*parser).memoize, func(o *Options) string { return strconv.FormatBool(o.Memoize) }},
	{"filters", KeyMaxDepth | KeyMaxLoopDepth | KeyMaxNodeNumber, all, (*parser).filters, formatFilters},
	{"priorities", KeyPriorities, all, (*parser).priorities, formatPriorities},
	{"search_all", KeySearchAll, []Kind{Canonize}, (*parser).searchAll, func(o *Options) string { return strconv.FormatBool(o.SearchAll) }},
}

// decls maps every spelling of a key, modern and legacy, to its option.
var decls = func() map[string]*declInfo {
	m := map[string]*declInfo{}
	for _, d := range declOrder {
		m[d.name] = d
	}
	legacy := map[string]string{
		"semantics":           "analysis_kind",  // ≤ 0.7
		"use_locfront":        "local_analysis", // ≤ 0.7
		"frontier_priorities": "priorities",     // ≤ 0.7
		"pre_filters":         "filters",        // ≤ 0.7
		"por":                 "partial_order_reduction",
		"POR":                 "partial_order_reduction",
	}
	for old, name := range legacy {
		m[old] = m[name]
	}
	return m
}()

// expectedKeys lists the options of section kind k, for error messages.
func expectedKeys(k Kind) string {
	var names []string
	for _, d := range declOrder {
		if belongs(d.in, k) {
			names = append(names, d.name)
		}
	}
	return orList(names)
}

func belongs(in []Kind, k Kind) bool {
	for _, x := range in {
		if x == k {
			return true
		}
	}
	return false
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func (p *parser) decl(sec *Section, seen map[string]scan.Token) error {
	key := p.s.Next()
	if key.Kind != scan.Ident {
		return p.s.Unexpected(key, "an option name ("+expectedKeys(sec.Kind)+")")
	}
	d := decls[key.Text]
	if d == nil {
		return p.s.Errorf(key.Pos, "unknown option %q in @%s (expected %s)", key.Text, sec.Kind, expectedKeys(sec.Kind))
	}
	if !belongs(d.in, sec.Kind) {
		var where []string
		for _, k := range d.in {
			where = append(where, "@"+k.String())
		}
		return p.s.Errorf(key.Pos, "option %s belongs in %s, not in @%s (expected %s)",
			key.Text, orList(where), sec.Kind, expectedKeys(sec.Kind))
	}
	if first, dup := seen[d.name]; dup {
		if first.Text == key.Text {
			return p.s.Errorf(key.Pos, "option %s given twice (first at %s)", key.Text, first.Pos)
		}
		return p.s.Errorf(key.Pos, "option %s given twice (first as %s at %s)", key.Text, first.Text, first.Pos)
	}
	seen[d.name] = key
	p.declKey = key.Text
	if d.name != "search_all" { // search_all alone means search_all = true
		if _, err := p.s.Expect("=", "after "+key.Text); err != nil {
			return err
		}
	}
	return d.parse(p, &sec.Options, sec.Kind)
}

func (p *parser) boolean(what string) (bool, error) {
	t := p.s.Next()
	switch {
	case t.Kind == scan.Top:
		return true, nil
	case t.Kind == scan.Bottom:
		return false, nil
	case t.Kind == scan.Ident:
		switch t.Text {
		case "true", "True", "TRUE":
			return true, nil
		case "false", "False", "FALSE":
			return false, nil
		}
	}
	return false, p.s.Unexpected(t, "true or false for "+what)
}

func (p *parser) switchValue(what string) (Switch, error) {
	b, err := p.boolean(what)
	if b {
		return On, err
	}
	return Off, err
}

func isBool(t scan.Token) bool {
	switch t.Text {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return t.Kind == scan.Ident
	}
	return t.Kind == scan.Top || t.Kind == scan.Bottom
}

func isNone(t scan.Token) bool {
	return t.Kind == scan.Ident && (t.Text == "none" || t.Text == "None" || t.Text == "NONE")
}

// count reads a non-negative integer; HIBOU stores them as u32, ivc as int.
func (p *parser) count(what string) (int, error) {
	t := p.s.Next()
	if t.Kind != scan.Number || t.Text[0] == '-' {
		return 0, p.s.Unexpected(t, "a non-negative integer for "+what)
	}
	n, err := strconv.Atoi(t.Text)
	if err != nil || n > math.MaxInt32 {
		return 0, p.s.Errorf(t.Pos, "%s is too large for %s (at most %d)", t.Text, what, math.MaxInt32)
	}
	return n, nil
}

// level reads a signed integer, "-1" or "- 1".
func (p *parser) level(what string) (int, error) {
	t := p.s.Peek()
	sign := 1
	if t.Is("-") {
		p.s.Next()
		sign = -1
	} else if t.Kind == scan.Number && t.Text[0] == '-' {
		p.s.Next()
		n, err := strconv.Atoi(t.Text)
		if err != nil || n < math.MinInt32 {
			return 0, p.s.Errorf(t.Pos, "%s is too small for %s (at least %d)", t.Text, what, math.MinInt32)
		}
		return n, nil
	}
	n, err := p.count(what)
	return sign * n, err
}

func (p *parser) name(what string) (string, error) {
	t, err := p.s.ExpectIdent("a name for " + what)
	return t.Text, err
}

// words reads the rest of a phrase of several names, such as "First Search"
// after "Depth".
func (p *parser) words(first string, rest ...string) error {
	phrase := first + " " + strings.Join(rest, " ")
	for _, w := range rest {
		if t := p.s.Next(); !t.IsIdent(w) {
			return p.s.Unexpected(t, fmt.Sprintf("%q in %q", w, phrase))
		}
	}
	return nil
}

// list reads "[item, item, ...]": a trailing ',' and an empty list are allowed.
func (p *parser) list(what string, item func() error) error {
	if _, err := p.s.Expect("[", "to open "+what); err != nil {
		return err
	}
	for {
		if p.s.Peek().Is("]") {
			p.s.Next()
			return nil
		}
		if err := item(); err != nil {
			return err
		}
		t := p.s.Next()
		if t.Is("]") {
			return nil
		}
		if !t.Is(",") {
			return p.s.Unexpected(t, "',' or ']' in "+what)
		}
	}
}

// once records that a parameter of a list was given, and rejects a second one.
type once map[string]scan.Token

func (o once) add(p *parser, param string, t scan.Token) error {
	if first, dup := o[param]; dup {
		return p.s.Errorf(t.Pos, "%s given twice (first at %s)", param, first.Pos)
	}
	o[param] = t
	return nil
}
